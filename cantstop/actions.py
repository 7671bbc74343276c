"""The three actions: :class:`Roll` (chance), :class:`Move` and :class:`Stop`.

Actions are plain values.  Constructing one checks only its own shape; whether it
is legal depends on the state it is applied to (see :meth:`cantstop.State.apply`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sized
from dataclasses import dataclass
from itertools import islice
from typing import TypeAlias, cast

from cantstop.errors import RuleError
from dicekit.quote import brief

__all__ = ["Action", "InvalidActionValue", "Move", "Roll", "Stop"]


class InvalidActionValue(RuleError):
    """An action value of the wrong shape, such as five dice or a die showing 7."""


@dataclass(frozen=True, slots=True)
class Roll:
    """The chance action: four dice, each showing 1 to 6, in the order thrown (R4.1).

    >>> Roll((3, 4, 5, 5)).dice
    (3, 4, 5, 5)
    >>> Roll((3, 4, 5, 7))
    Traceback (most recent call last):
    ...
    cantstop.actions.InvalidActionValue: a die shows 1 to 6, not 7 (rule R4.1)
    """

    dice: tuple[int, int, int, int]

    def __post_init__(self) -> None:
        dice = _items(self.dice, 4, "a roll is a sequence of four dice", "R4.1")
        if len(dice) != 4:
            raise InvalidActionValue(
                f"a roll is four dice, not {_count(self.dice, dice, 4)}", "R4.1"
            )
        for die in dice:
            if not _whole_in(die, 1, 6):
                raise InvalidActionValue(f"a die shows 1 to 6, not {brief(die)}", "R4.1")
        if dice is not self.dice:
            object.__setattr__(self, "dice", dice)


@dataclass(frozen=True, slots=True, order=True)
class Move:
    """A choice of sums to play, sorted: ``Move((7, 10))``, ``Move((7, 7))``, ``Move((5,))``.

    A move names one or two sums, each a column number from 2 to 12 (R4.3).
    Moves sort by their columns, which is the order of
    :meth:`~cantstop.State.legal_moves`.

    >>> Move((10, 7))
    Move(columns=(7, 10))
    """

    columns: tuple[int] | tuple[int, int]

    def __post_init__(self) -> None:
        columns = _items(self.columns, 2, "a move is a sequence of one or two sums", "R4.3")
        if not 1 <= len(columns) <= 2:
            raise InvalidActionValue(
                f"a move names one or two sums, not {_count(self.columns, columns, 2)}", "R4.3"
            )
        for column in columns:
            if not _whole_in(column, 2, 12):
                raise InvalidActionValue(
                    f"a sum of two dice is from 2 to 12, not {brief(column)}", "R4.3"
                )
        ordered = tuple(sorted(cast("tuple[int, ...]", columns)))  # each checked above
        if ordered != self.columns:
            object.__setattr__(self, "columns", ordered)


@dataclass(frozen=True, slots=True)
class Stop:
    """End the turn and keep its progress (R11).

    >>> from cantstop import parse_state
    >>> parse_state('7:2/- 7:4 0d').apply(Stop())
    State('7:4/- - 1r')
    """


def _items(value: object, most: int, shape: str, rule: str) -> tuple[object, ...]:
    """Return ``value`` if it is a tuple, else its first items (:func:`_at_most`).

    A value that is not a sequence at all is refused under ``rule``: the
    message is ``shape``, what the value should have been, and the value.
    """
    if isinstance(value, tuple):
        return value
    if not isinstance(value, Iterable):
        raise InvalidActionValue(f"{shape}, not {brief(value)}", rule)
    return _at_most(value, most)


def _whole_in(value: object, low: int, high: int) -> bool:
    """Return whether ``value`` is a whole number (not a ``bool``) from ``low`` to ``high``."""
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def _at_most(values: Iterable[object], most: int) -> tuple[object, ...]:
    """Return the items of ``values`` as a tuple, reading one more than ``most`` at the most.

    An iterator that never ends, or a range of a billion numbers, is then
    rejected as too long instead of being read to the end.
    """
    return tuple(islice(values, most + 1))


def _count(given: object, read: tuple[object, ...], most: int) -> str:
    """Say how many items ``given`` has: all of them if it knows, or what was read of it."""
    if isinstance(given, Sized):
        try:
            return f"{len(given):,}"
        except OverflowError:  # range(10**20), for one
            pass
    return f"more than {most}" if len(read) > most else str(len(read))


#: Any of the three actions.
Action: TypeAlias = Roll | Move | Stop
