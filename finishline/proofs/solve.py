"""Asking z3: a solver with a time limit per question, and the answers it gives.

With :mod:`finishline.proofs.model`, the only module of the proofs that
imports z3.
"""

from __future__ import annotations

import time
from typing import Any

import z3

from finishline.proofs.model import Term, Vars

__all__ = ["Outcome", "Solver"]


class Outcome:
    """The solver's answer to one question, with its time."""

    def __init__(self, status: str, seconds: float, model: Any = None, reason: str = "") -> None:
        self.status = status
        self.seconds = seconds
        self.model = model
        self.reason = reason

    def value(self, term: Term) -> Any:
        """Return the value of ``term`` in the satisfying assignment (ints and bools)."""
        if isinstance(term, bool | int):
            return term
        v = self.model.eval(term, model_completion=True)
        if z3.is_bool(v):
            return z3.is_true(v)
        return int(v.as_long())

    def state(self, s: Vars) -> Vars:
        """Return the concrete state of ``s`` in the satisfying assignment."""
        return Vars(
            player=self.value(s.player),
            phase=self.value(s.phase),
            dice=(self.value(s.dice[0]), self.value(s.dice[1])),
            cells=tuple({g: self.value(v) for g, v in own.items()} for own in s.cells),
            hand=tuple(self.value(h) for h in s.hand),
            across=tuple(self.value(a) for a in s.across),
            played=tuple(self.value(f) for f in s.played),
        )


class Solver:
    """A z3 solver with a time limit per question, answering with :class:`Outcome` values."""

    def __init__(self, timeout_ms: int = 120_000) -> None:
        tactic = z3.Then("simplify", "propagate-values", "solve-eqs", "elim-uncnstr", "smt")
        self._solver = tactic.solver()
        self._solver.set("timeout", timeout_ms)

    def add(self, *facts: Term) -> None:
        """Assert ``facts`` for every later question."""
        self._solver.add(*facts)

    def check(self, *assumptions: Term) -> Outcome:
        """Ask whether the facts and ``assumptions`` can hold together."""
        self._solver.push()
        self._solver.add(*assumptions)
        start = time.perf_counter()
        answer = self._solver.check()
        seconds = time.perf_counter() - start
        try:
            if answer == z3.sat:
                return Outcome("sat", seconds, self._solver.model())
            if answer == z3.unsat:
                return Outcome("unsat", seconds)
            return Outcome("unknown", seconds, reason=str(self._solver.reason_unknown()))
        finally:
            self._solver.pop()
