"""States as values: a copy is the value itself, and a successor is built without a second check.

A game's states are immutable, so copying one gives nothing new:
:class:`Value` makes ``copy.copy`` and ``copy.deepcopy`` return the
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
>>> @dataclass(frozen=True, slots=True)
... class Seated(Value):
...     config: str
...     player: int
...     phase: str
...     dice: tuple[int, int] | None
...     def __post_init__(self) -> None:
...         raise AssertionError("not run for a successor")
>>> unchecked(Seated, "standard", 1, "choose", (3, 5))
Seated(config='standard', player=1, phase='choose', dice=(3, 5))
"""

from __future__ import annotations

import importlib
from typing import Any, Self, TypeVar

__all__ = ["Notated", "Value", "unchecked"]

_T = TypeVar("_T")


class Value:
    """Base of an immutable state class: its copies, shallow or deep, are the state itself."""

    __slots__ = ()

    def __copy__(self) -> Self:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Self:
        return self


class Notated(Value):
    """Base of a game's state class that shows itself in the game's notation and pictures.

    Its repr is ``State('...')`` with the state in notation, and notebooks
    draw it.  Both come from the modules every game's package has (its
    layout): ``notation.format_state`` and ``svg.state_svg`` of the package
    that defines the class, imported when first needed, since those modules
    import the state's.
    """

    __slots__ = ()

    def __repr__(self) -> str:
        text: str = _own(self, "notation").format_state(self)
        return f"{type(self).__name__}({text!r})"

    def _repr_svg_(self) -> str:
        """Return the state's picture by the game's ``svg.state_svg``, for notebooks."""
        picture: str = _own(self, "svg").state_svg(self)
        return picture


def _own(value: object, module: str) -> Any:
    """Return ``module`` of the package that defines ``value``'s class."""
    package = type(value).__module__.partition(".")[0]
    return importlib.import_module(f"{package}.{module}")


def unchecked(cls: type[_T], config: object, player: int, phase: object, dice: object) -> _T:
    """Return a ``cls`` with the fields every seated state has set, without its constructor.

    Those are ``config``, ``player``, ``phase`` and ``dice``; the game sets
    its own fields after (with ``object.__setattr__``, the class being
    frozen), and no check runs.  For transitions only, whose successors keep
    the invariants by construction.
    """
    new = object.__new__(cls)
    set_ = object.__setattr__
    set_(new, "config", config)
    set_(new, "player", player)
    set_(new, "phase", phase)
    set_(new, "dice", dice)
    return new
