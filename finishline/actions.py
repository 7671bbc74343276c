"""The four actions: :class:`Roll` (chance), :class:`Play`, :class:`Sideways` and :class:`Double`.

Actions are plain values.  Constructing one checks only its own shape (two
dice from 1 to 6, a play of at most two dice, neighbouring cells); whether
it is legal depends on the state it is applied to (R3 to R8).  A play is
made of :class:`Move` values, one per counter the dice move, and keeps them
in the order of N2.3, so that equal plays are equal values.

>>> [move.text for move in Play((Move(Cell.B4, enter=True), Move(Cell.C2))).moves]
['C2^', '+B4']
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from itertools import islice
from typing import Any, TypeAlias

from finishline.board import Cell
from finishline.errors import InvalidActionValue, brief

__all__ = ["Action", "Double", "Move", "Play", "Roll", "Sideways"]


def _die(value: object) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 6:
        raise InvalidActionValue(f"a die shows 1 to 6, not {brief(value)}", "R4.1")
    return value


def _cell(value: object, what: str, rule: str) -> Cell:
    if isinstance(value, Cell):
        return value
    if isinstance(value, str) and value in Cell.__members__:
        return Cell[value]
    raise InvalidActionValue(f"{what} must be a cell A1 to D6, not {brief(value)}", rule)


def _items(value: object, most: int, what: str, rule: str) -> tuple[object, ...]:
    """Return up to ``most + 1`` items of ``value``, so that an endless one is refused too."""
    if isinstance(value, tuple):
        return value
    if isinstance(value, str | bytes) or not isinstance(value, Iterable):
        raise InvalidActionValue(f"{what} must be a sequence, not {brief(value)}", rule)
    return tuple(islice(value, most + 1))


@dataclass(frozen=True, slots=True)
class Roll:
    """The chance action: two dice, each 1 to 6, in the order thrown (R4.1).

    >>> Roll((5, 2)).dice
    (5, 2)
    """

    dice: tuple[int, int]

    def __post_init__(self) -> None:
        dice = _items(self.dice, 2, "a roll", "R4.1")
        if len(dice) != 2:
            count = "more than 2" if len(dice) > 2 else str(len(dice))
            raise InvalidActionValue(f"a roll is two dice, not {count}", "R4.1")
        pair = (_die(dice[0]), _die(dice[1]))
        if pair != self.dice or type(self.dice) is not tuple:
            object.__setattr__(self, "dice", pair)


#: Stands for the usual rows of a move: 0 for a placement, 1 for a counter on the board.
_DEFAULT_ROWS: Any = object()


@dataclass(frozen=True, slots=True)
class Move:
    """What one counter does in a play (N2.3).

    ``enter`` says whether it comes from the hand and is placed on ``cell``
    (then ``rows`` is 0, the default, or 1 to move it forward at once with a
    double, R8.2); otherwise ``cell`` holds it and it moves forward ``rows``
    rows, 1 (the default) or 2 (R6.1, R6.3).  A counter that crosses the line moves no further,
    so a counter in row 1 moves one row only.

    >>> Move(Cell.C5, enter=True, rows=1).dice
    (5, 5)
    >>> Move(Cell.C6, rows=2).dice
    (6, 5)
    """

    cell: Cell
    enter: bool = False
    rows: int = _DEFAULT_ROWS

    def __post_init__(self) -> None:
        object.__setattr__(self, "cell", _cell(self.cell, "a move's cell", "N2.3"))
        if self.rows is _DEFAULT_ROWS:
            object.__setattr__(self, "rows", 0 if self.enter is True else 1)
        if not isinstance(self.enter, bool):
            raise InvalidActionValue(
                f"enter must be true or false, not {brief(self.enter)}", "N2.3"
            )
        rows = self.rows
        low = 0 if self.enter else 1
        if not isinstance(rows, int) or isinstance(rows, bool) or not low <= rows <= low + 1:
            kind = "a placed counter moves 0 or 1 rows" if self.enter else "a counter moves 1 or 2"
            raise InvalidActionValue(f"{kind}, not {brief(rows)}", "N2.3")
        if not self.enter and rows == 2 and self.cell.row == 1:
            raise InvalidActionValue(
                f"a counter in {self.cell} crosses the line with one row and moves no further",
                "N2.3",
            )

    @property
    def dice(self) -> tuple[int, ...]:
        """The dice the move uses, in the order it uses them: one per row it is placed or moved."""
        row = self.cell.row
        if self.enter:
            return (row,) * (1 + self.rows)
        return tuple(row - k for k in range(self.rows))

    @property
    def key(self) -> tuple[int, int, int]:
        """The move's place in the order of N2.3 and N2.6: board first, then by cell, then rows."""
        return (int(self.enter), self.cell.value, self.rows)

    @property
    def text(self) -> str:
        """The move in the notation (N2.3): ``+C5``, ``+C5^``, ``C5^`` or ``C5^^``."""
        if self.enter:
            return f"+{self.cell.name}" + "^" * self.rows
        return self.cell.name + "^" * self.rows


@dataclass(frozen=True, slots=True)
class Play:
    """Use one or both dice: one :class:`Move` per counter moved, in the order of N2.3.

    The play says what the counters do, not in which order the dice are
    used (R4.4); it uses at most two dice.

    >>> Play((Move(Cell.C6, rows=2), Move(Cell.A4, enter=True)))
    Traceback (most recent call last):
    ...
    finishline.errors.InvalidActionValue: a play uses at most two dice, not 3 (rule N2.3)
    """

    moves: tuple[Move, ...]

    def __post_init__(self) -> None:
        moves = _items(self.moves, 2, "a play's moves", "N2.3")
        if not 1 <= len(moves) <= 2:
            count = "more than 2" if len(moves) > 2 else str(len(moves))
            raise InvalidActionValue(f"a play has one or two moves, not {count}", "N2.3")
        typed: list[Move] = []
        for move in moves:
            if not isinstance(move, Move):
                raise InvalidActionValue(
                    f"a play's moves are Move values, not {brief(move)}", "N2.3"
                )
            typed.append(move)
        typed.sort(key=_move_key)
        dice = sum(len(move.dice) for move in typed)
        if dice > 2:
            raise InvalidActionValue(f"a play uses at most two dice, not {dice}", "N2.3")
        if len(typed) == 2 and typed[0].key[:2] == typed[1].key[:2]:
            raise InvalidActionValue(f"the play moves {typed[0].text} twice", "N2.3")
        ordered = tuple(typed)
        if ordered != self.moves:
            object.__setattr__(self, "moves", ordered)

    @property
    def dice(self) -> tuple[int, ...]:
        """The dice the play uses, sorted.

        >>> Play((Move(Cell.C2), Move(Cell.B4, enter=True))).dice
        (2, 4)
        """
        return tuple(sorted(die for move in self.moves for die in move.dice))


def _move_key(move: Move) -> tuple[int, int, int]:
    return move.key


@dataclass(frozen=True, slots=True)
class Sideways:
    """Step the counter on ``cell`` to the neighbouring cell ``to`` of its row, on a 7 (R7.1).

    >>> Sideways(Cell.B5, Cell.D5)
    Traceback (most recent call last):
    ...
    finishline.errors.InvalidActionValue: a sideways step goes from B5 to A5 or C5, not D5 ...
    """

    cell: Cell
    to: Cell

    def __post_init__(self) -> None:
        cell = _cell(self.cell, "a sideways step's cell", "N2.4")
        to = _cell(self.to, "a sideways step's target", "N2.4")
        if to not in cell.neighbours:
            options = " or ".join(c.name for c in cell.neighbours)
            raise InvalidActionValue(
                f"a sideways step goes from {cell} to {options}, not {to}", "N2.4"
            )
        object.__setattr__(self, "cell", cell)
        object.__setattr__(self, "to", to)


@dataclass(frozen=True, slots=True)
class Double:
    """Use a double to move the counter on ``cell`` forward one row, whatever its row (R8.3).

    >>> Double(Cell.D6).cell.forward
    <Cell.D5: 19>
    """

    cell: Cell

    def __post_init__(self) -> None:
        object.__setattr__(self, "cell", _cell(self.cell, "a double advance's cell", "N2.5"))


#: Any of the four actions.
Action: TypeAlias = Roll | Play | Sideways | Double
