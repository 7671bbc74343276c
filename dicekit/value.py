"""States as values: a copy is the value itself, and a successor is built without a second check.

A game's states are immutable, so copying one gives nothing new:
:class:`Value` makes :func:`copy.copy` and :func:`copy.deepcopy` return the
state itself.  A transition that keeps the invariants by construction
builds its successor with :func:`unchecked`, which sets the fields without
running the constructor's checks (the constructor still checks every state
a user makes).

>>> import copy
>>> from dataclasses import dataclass
>>> @dataclass(frozen=True, slots=True)
... class Pair(Value):
...     left: int
...     right: int
...     def __post_init__(self) -> None:
...         if self.left > self.right:
...             raise ValueError("left above right")
>>> pair = Pair(1, 2)
>>> copy.deepcopy(pair) is pair
True
>>> unchecked(Pair, left=3, right=4)
Pair(left=3, right=4)
"""

from __future__ import annotations

from typing import Self, TypeVar

__all__ = ["Value", "unchecked"]

_T = TypeVar("_T")


class Value:
    """Base of an immutable state class: its copies, shallow or deep, are the state itself."""

    __slots__ = ()

    def __copy__(self) -> Self:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Self:
        return self


def unchecked(cls: type[_T], **fields: object) -> _T:
    """Return a ``cls`` with ``fields`` set, without running its constructor or its checks.

    For transitions only, whose successors keep the invariants by
    construction; every field of ``cls`` must be given.
    """
    new = object.__new__(cls)
    for name, value in fields.items():
        object.__setattr__(new, name, value)
    return new
