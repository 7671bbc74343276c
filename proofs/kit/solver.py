"""The solver and the two backends formulas are written for: the one module that imports z3.

A model's rules are written once over a small set of operations (:class:`Ops`):
if-then-else, and, or, not, counting and a case split on a number.  Two
backends evaluate them:

- :data:`Z3` builds z3 terms, so that a state can be symbolic and the solver
  can reason about every state at once (the proofs);
- :data:`PY` evaluates plain Python ints and bools, so that the very same
  formulas can be compared with an engine on concrete states (the link).

:class:`Solver` asks z3 one question at a time, with a time limit, and
answers with an :class:`Outcome`; :func:`smallest` shrinks a satisfying
assignment so that a counterexample is easy to read.

>>> PY.count([True, False, True]), PY.case(2, {2: lambda: "two"}, "other")
(2, 'two')
>>> x = int_var("x")
>>> Solver().check(Z3.all([x > 1, x < 3])).status
'sat'
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import z3

__all__ = [
    "PY",
    "Z3",
    "Ops",
    "Outcome",
    "Solver",
    "Term",
    "bool_var",
    "int_var",
    "smallest",
    "z3_version",
]

#: A formula or value: a z3 term under :data:`Z3`, a Python int or bool under :data:`PY`.
Term = Any


def z3_version() -> str:
    """Return the version of the z3 solver in use, such as ``'4.15.4'``."""
    return str(z3.get_version_string())


# -- the two backends ----------------------------------------------------------


class Ops(Protocol):
    """The operations the rules are written in; see :data:`Z3` and :data:`PY`."""

    def ite(self, cond: Term, then: Term, other: Term) -> Term:
        """Return ``then`` if ``cond`` holds, else ``other``."""

    def all(self, items: Iterable[Term]) -> Term:
        """Return the conjunction of ``items`` (true when empty)."""

    def any(self, items: Iterable[Term]) -> Term:
        """Return the disjunction of ``items`` (false when empty)."""

    def not_(self, item: Term) -> Term:
        """Return the negation of ``item``."""

    def count(self, items: Iterable[Term]) -> Term:
        """Return how many of ``items`` hold."""

    def case(self, key: Term, cases: Mapping[int, Callable[[], Term]], default: Term) -> Term:
        """Return ``cases[key]()`` for the number ``key``, or ``default`` if it has no case."""


class _Z3Ops:
    """Build z3 terms."""

    def ite(self, cond: Term, then: Term, other: Term) -> Term:
        return z3.If(cond, then, other)

    def all(self, items: Iterable[Term]) -> Term:
        return z3.And(*items)

    def any(self, items: Iterable[Term]) -> Term:
        return z3.Or(*items)

    def not_(self, item: Term) -> Term:
        return z3.Not(item)

    def count(self, items: Iterable[Term]) -> Term:
        return z3.Sum([z3.If(item, 1, 0) for item in items] or [z3.IntVal(0)])

    def case(self, key: Term, cases: Mapping[int, Callable[[], Term]], default: Term) -> Term:
        if isinstance(key, int):
            return cases[key]() if key in cases else default
        result = default
        for value, make in reversed(list(cases.items())):
            result = z3.If(key == value, make(), result)
        return result


class _PyOps:
    """Evaluate plain Python values."""

    def ite(self, cond: Term, then: Term, other: Term) -> Term:
        return then if cond else other

    def all(self, items: Iterable[Term]) -> Term:
        return all(items)

    def any(self, items: Iterable[Term]) -> Term:
        return any(items)

    def not_(self, item: Term) -> Term:
        return not item

    def count(self, items: Iterable[Term]) -> Term:
        return sum(1 for item in items if item)

    def case(self, key: Term, cases: Mapping[int, Callable[[], Term]], default: Term) -> Term:
        make = cases.get(key)
        return default if make is None else make()


#: The z3 backend: formulas over symbolic states.
Z3: Ops = _Z3Ops()
#: The Python backend: the same formulas evaluated on concrete states.
PY: Ops = _PyOps()


def int_var(name: str) -> Term:
    """Return a fresh z3 integer variable."""
    return z3.Int(name)


def bool_var(name: str) -> Term:
    """Return a fresh z3 Boolean variable."""
    return z3.Bool(name)


# -- solving -----------------------------------------------------------------------


@dataclass
class Outcome:
    """The answer of the solver to one question, with its time."""

    #: ``"sat"``, ``"unsat"`` or ``"unknown"``.
    status: str
    #: Wall-clock seconds spent.
    seconds: float
    #: The satisfying assignment, when ``status`` is ``"sat"``.
    model: z3.ModelRef | None = None
    #: Why the solver gave up, when ``status`` is ``"unknown"``.
    reason: str = ""

    def value(self, term: Term) -> int:
        """Return the value of ``term`` in the satisfying assignment (ints; bools as 0 or 1)."""
        if self.model is None:
            raise ValueError("no satisfying assignment")
        if isinstance(term, bool | int):
            return int(term)
        v = self.model.eval(term, model_completion=True)
        if z3.is_bool(v):
            return 1 if z3.is_true(v) else 0
        return int(v.as_long())


class Solver:
    """A z3 solver with a per-query time limit, returning :class:`Outcome` values."""

    def __init__(self, timeout_ms: int = 60_000) -> None:
        # Simplify and eliminate the equations that define the state after a
        # transition before the SMT core starts: about twice as fast as the
        # default solver on these formulas.
        tactic = z3.Then("simplify", "propagate-values", "solve-eqs", "elim-uncnstr", "smt")
        self._solver = tactic.solver()
        self._solver.set("timeout", timeout_ms)

    def add(self, *facts: Term) -> None:
        """Assert ``facts`` for every later query."""
        self._solver.add(*facts)

    def check(self, *assumptions: Term) -> Outcome:
        """Ask whether the asserted facts and ``assumptions`` can hold together."""
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


def smallest(
    solver: Solver, found: Outcome, assumptions: Sequence[Term], cells: Sequence[Term]
) -> Outcome:
    """Return an assignment like ``found`` with as few non-zero ``cells`` as the solver finds.

    Counterexamples are easier to read with few pieces on the board.  The
    count of non-zero cells is bounded by a binary search, one
    satisfiability query per step; ``found`` is returned if nothing smaller is
    found.
    """
    if found.status != "sat":
        return found
    nonzero = Z3.count(cell != 0 for cell in cells)
    best = found
    low, high = 0, best.value(nonzero)
    while low < high:
        middle = (low + high) // 2
        attempt = solver.check(*assumptions, nonzero <= middle)
        if attempt.status == "sat":
            best, high = attempt, attempt.value(nonzero)
        else:
            low = middle + 1
    best.seconds = found.seconds
    return best
