"""The solver and the two backends formulas are written for: the one module that imports z3.

A model's rules are written once over a small set of operations (:class:`Ops`):
if-then-else, and, or, not, counting, sums and a case split on a number.
Two backends evaluate them:

- :data:`Z3` builds z3 terms, so that a state can be symbolic and the solver
  can reason about every state at once (the proofs); a condition already
  known (a Python ``True`` or ``False``) is decided on the spot, so concrete
  parts of a state leave no trace in the formula;
- :data:`PY` evaluates plain Python ints and bools, so that the very same
  formulas can be compared with an engine on concrete states (the link).

:class:`Solver` asks z3 one question at a time, with a time limit, and
answers with an :class:`Outcome`; :func:`smallest` shrinks a satisfying
assignment so that a counterexample is easy to read, and :func:`readable`
prefers one that meets extra conditions of readability.

z3 is the ``proofs`` extra (``pip install 'cantstop[proofs]'``); without it,
importing this module raises :class:`ModuleNotFoundError` saying so
(:data:`NEEDS_Z3`).

>>> PY.count([True, False, True]), PY.case(2, {2: lambda: "two"}, "other")
(2, 'two')
>>> x = int_var("x")
>>> Solver().check(Z3.all([x > 1, x < 3])).status
'sat'
>>> Z3.all([True, x > 1]), Z3.ite(False, x, 7), Z3.sum([0, x, 0])
(And(x > 1), 7, x)
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

#: What importing the solver without z3 says: the extra to install, and how.
NEEDS_Z3 = "dicekit.proofs needs the 'proofs' extra (z3-solver): pip install 'cantstop[proofs]'"

try:
    import z3
except ModuleNotFoundError as missing:  # pragma: no cover - the extra is installed in CI
    raise ModuleNotFoundError(NEEDS_Z3, name="z3") from missing

__all__ = [
    "NEEDS_Z3",
    "PY",
    "Z3",
    "Ops",
    "Outcome",
    "Solver",
    "Term",
    "bool_function",
    "bool_var",
    "int_function",
    "int_var",
    "readable",
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

    def sum(self, items: Iterable[Term]) -> Term:
        """Return the sum of the numbers ``items`` (0 when empty)."""

    def case(self, key: Term, cases: Mapping[int, Callable[[], Term]], default: Term) -> Term:
        """Return ``cases[key]()`` for the number ``key``, or ``default`` if it has no case."""


class _Z3Ops:
    """Build z3 terms, deciding on the spot what is already known."""

    def ite(self, cond: Term, then: Term, other: Term) -> Term:
        if cond is True:
            return then
        if cond is False:
            return other
        return z3.If(cond, then, other)

    def all(self, items: Iterable[Term]) -> Term:
        parts = [item for item in items if item is not True]
        if any(item is False for item in parts):
            return False
        return z3.And(*parts) if parts else True

    def any(self, items: Iterable[Term]) -> Term:
        parts = [item for item in items if item is not False]
        if any(item is True for item in parts):
            return True
        return z3.Or(*parts) if parts else False

    def not_(self, item: Term) -> Term:
        return (not item) if isinstance(item, bool) else z3.Not(item)

    def count(self, items: Iterable[Term]) -> Term:
        return z3.Sum([z3.If(item, 1, 0) for item in items] or [z3.IntVal(0)])

    def sum(self, items: Iterable[Term]) -> Term:
        parts = [item for item in items if not (isinstance(item, int) and item == 0)]
        return z3.Sum(parts) if parts else 0

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

    def sum(self, items: Iterable[Term]) -> Term:
        return sum(items)

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


def int_function(name: str) -> Term:
    """Return an unknown z3 function from integers to integers (a board's fields, say)."""
    return z3.Function(name, z3.IntSort(), z3.IntSort())


def bool_function(name: str) -> Term:
    """Return an unknown z3 predicate on integers (which steps of a route are coloured, say)."""
    return z3.Function(name, z3.IntSort(), z3.BoolSort())


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


def readable(solver: Solver, goal: Sequence[Term], tidy: Sequence[Term]) -> Outcome:
    """Return an assignment meeting ``goal``, and ``tidy`` too where they can hold together.

    ``tidy`` are conditions that only make an answer easier to read (short
    routes, small numbers); they are dropped when they cannot hold with
    ``goal``, so they never change whether ``goal`` can be met.
    """
    if tidy:
        found = solver.check(*goal, *tidy)
        if found.status == "sat":
            return found
    return solver.check(*goal)
