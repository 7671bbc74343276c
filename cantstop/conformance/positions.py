"""The state text a port prints, read field by field: what the diagnosis and the seeded bugs share.

A port's answer may be a state that no valid game reaches (four markers, a
marker above the top space), so the text is read for its shape alone: the
squares of each player, the markers, the turn and the options of N1.  Whether
a state is valid is the engine's question (:func:`cantstop.parse_state`);
here a :class:`Position` only names each part, so that two texts can be
compared part by part (:meth:`Position.fields`), and a seeded bug can write a
state the engine would refuse (:meth:`Position.text`).

>>> position = Position.read('7:2/- 7:3,10:1 0c2346 A')
>>> position.fields()[Marker(10)], position.fields()[Part.PHASE], position.options
(1, 'c', ('A',))
>>> position.text()
'7:2/- 7:3,10:1 0c2346 A'
>>> Position.read('7:2/- 7:3 zz') is None
True
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass, replace
from typing import TypeAlias

__all__ = ["Cells", "Field", "Marker", "Part", "Position", "Square"]

#: Column and space of each piece, in the order the text lists them.
Cells: TypeAlias = tuple[tuple[int, int], ...]


class Part(enum.Enum):
    """A part of an answer that is not a piece on the board."""

    #: Whose turn it is.
    PLAYER = "player"
    #: The phase letter (``r``, ``c``, ``d``, ``x``).
    PHASE = "phase"
    #: The dice of a state that is choosing.
    DICE = "dice"
    #: The options of the state (N1.5).
    OPTIONS = "options"
    #: The event an action causes.
    EVENT = "event"
    #: Whether the action is accepted at all.
    REFUSED = "refused"


@dataclass(frozen=True, slots=True, order=True)
class Marker:
    """The neutral marker in a column."""

    column: int


@dataclass(frozen=True, slots=True, order=True)
class Square:
    """A player's square in a column."""

    player: int
    column: int


#: A part of an answer that some rules decide.
Field: TypeAlias = Part | Marker | Square

_TURN = re.compile(r"^(\d+)([rcdx])(\d*)$")


@dataclass(frozen=True, slots=True)
class Position:
    """A state's text taken apart: the pieces in the order written, the turn and the options."""

    squares: tuple[Cells, ...]
    markers: Cells
    player: int
    #: The phase letter: ``r``, ``c``, ``d`` or ``x``.
    phase: str
    #: The dice as written after ``c``, or ``""``.
    dice: str
    options: tuple[str, ...]

    @classmethod
    def read(cls, text: str) -> Position | None:
        """Return the parts of ``text``, or ``None`` if it does not have the shape of a state."""
        parts = text.split(" ")
        turn = _TURN.match(parts[2]) if len(parts) >= 3 else None
        if turn is None:
            return None
        try:
            squares = tuple(_cells(group) for group in parts[0].split("/"))
            markers = _cells(parts[1])
        except ValueError:
            return None
        return cls(
            squares,
            markers,
            int(turn.group(1)),
            turn.group(2),
            turn.group(3),
            tuple(parts[3:]),
        )

    def fields(self) -> dict[Field, object]:
        """Return every part by name: each square and marker, the player, phase, dice, options."""
        out: dict[Field, object] = {}
        for player, cells in enumerate(self.squares):
            for column, space in cells:
                out[Square(player, column)] = space
        for column, space in self.markers:
            out[Marker(column)] = space
        out[Part.PLAYER] = self.player
        out[Part.PHASE] = self.phase
        out[Part.DICE] = self.dice
        out[Part.OPTIONS] = " ".join(self.options)
        return out

    def text(self) -> str:
        """Return the text of the position, the pieces in the order they are held."""
        return " ".join(
            [
                "/".join(_write(cells) for cells in self.squares),
                _write(self.markers),
                f"{self.player}{self.phase}{self.dice}",
                *self.options,
            ]
        )

    def with_turn(self, player: int, phase: str, dice: str = "") -> Position:
        """Return the position with another turn: the player, the phase letter and the dice."""
        return replace(self, player=player, phase=phase, dice=dice)


def _cells(group: str) -> Cells:
    if group == "-":
        return ()
    out = []
    for cell in group.split(","):
        column, _, space = cell.partition(":")
        out.append((int(column), int(space)))
    return tuple(out)


def _write(cells: Cells) -> str:
    return ",".join(f"{c}:{v}" for c, v in cells) or "-"
