"""The operations the finish-line race's model is written in, and their two backends.

:class:`Ops` names the few operations the rules need (if-then-else, and, or,
not, sum); :data:`Z3` builds z3 terms from them, for proofs over symbolic
states, and :data:`PY` evaluates them on plain Python values, for comparing
the very same formulas with the engine (:mod:`finishline.proofs.model`).

>>> PY.ite(PY.all([True, 1 < 2]), PY.sum([1, 2]), 0)
3
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Protocol

import z3

__all__ = ["PY", "Z3", "Ops", "Term", "z3_version"]

#: A formula or value: a z3 term under :data:`Z3`, a Python int or bool under :data:`PY`.
Term = Any


def z3_version() -> str:
    """Return the version of the z3 solver in use."""
    return str(z3.get_version_string())


class Ops(Protocol):
    """The operations the rules are written in; see :data:`Z3` and :data:`PY`."""

    def ite(self, cond: Term, then: Term, other: Term) -> Term:
        """Return ``then`` if ``cond`` holds, else ``other``."""

    def all(self, items: Iterable[Term]) -> Term:
        """Return the conjunction of ``items``."""

    def any(self, items: Iterable[Term]) -> Term:
        """Return the disjunction of ``items``."""

    def not_(self, item: Term) -> Term:
        """Return the negation of ``item``."""

    def sum(self, items: Iterable[Term]) -> Term:
        """Return the sum of the numbers ``items``."""


class _Z3Ops:
    def ite(self, cond: Term, then: Term, other: Term) -> Term:
        if cond is True:
            return then
        if cond is False:
            return other
        return z3.If(cond, then, other)

    def all(self, items: Iterable[Term]) -> Term:
        parts = [i for i in items if i is not True]
        if any(i is False for i in parts):
            return False
        return z3.And(*parts) if parts else True

    def any(self, items: Iterable[Term]) -> Term:
        parts = [i for i in items if i is not False]
        if any(i is True for i in parts):
            return True
        return z3.Or(*parts) if parts else False

    def not_(self, item: Term) -> Term:
        return (not item) if isinstance(item, bool) else z3.Not(item)

    def sum(self, items: Iterable[Term]) -> Term:
        parts = [i for i in items if not (isinstance(i, int) and i == 0)]
        return z3.Sum(parts) if parts else 0


class _PyOps:
    def ite(self, cond: Term, then: Term, other: Term) -> Term:
        return then if cond else other

    def all(self, items: Iterable[Term]) -> Term:
        return all(items)

    def any(self, items: Iterable[Term]) -> Term:
        return any(items)

    def not_(self, item: Term) -> Term:
        return not item

    def sum(self, items: Iterable[Term]) -> Term:
        return sum(items)


#: The z3 backend: formulas over symbolic states.
Z3: Ops = _Z3Ops()
#: The Python backend: the same formulas evaluated on concrete states.
PY: Ops = _PyOps()
