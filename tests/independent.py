"""A second, independent implementation of the Can't Stop rules, for cross-checking.

Written from the rules as ``spec/`` states them, separately from
``cantstop/state.py``: it imports nothing from the engine.  It reads
and writes the state notation itself and keeps a position as plain lists and
dicts.  Its answers are compared with the engine's in ``test_independent.py``,
and it produces the whole-roll counts of ``spec/perft.md``.

The approach differs from the engine on purpose:

* the three pairings of a roll are written out by hand;
* each pairing is simulated in both orders (first sum, then second; second,
  then first), each sum played when it can be, and the longest results kept;
* a position is a mutable record that is copied and edited, and only the text
  form is handed back.

>>> pos = read_state("-/- - 0r")
>>> legal_moves(pos, (3, 4, 5, 5))
[(7, 10), (8, 9)]
>>> roll_result(pos, (5, 3, 4, 5))
('-/- - 0c3455', False)
>>> move_result(read_state("-/- - 0c3455"), (7, 10))
'-/- 7:1,10:1 0d'
>>> whole_roll_counts(pos)
(2826, 0)
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

__all__ = [
    "ALL_ROLLS",
    "STANDARD_BOARD",
    "Illegal",
    "Position",
    "legal_moves",
    "move_result",
    "read_state",
    "roll_result",
    "stop_result",
    "whole_roll_counts",
    "won_columns",
    "write_state",
]

#: Spaces per column on the printed board (seed 000, "The Board").
STANDARD_BOARD: dict[int, int] = {
    2: 3,
    3: 5,
    4: 7,
    5: 9,
    6: 11,
    7: 13,
    8: 11,
    9: 9,
    10: 7,
    11: 5,
    12: 3,
}

#: Three neutral markers (towers) per turn (seed 000, seed 001).
TOWERS = 3

#: The 1296 ordered rolls of four dice.
ALL_ROLLS: list[tuple[int, int, int, int]] = [
    (a, b, c, d) for a, b, c, d in itertools.product(range(1, 7), repeat=4)
]


class Illegal(ValueError):
    """The action is not allowed in this position."""


@dataclass
class Position:
    """A position as plain data.

    ``phase`` is one of ``"r"`` (about to roll), ``"c"`` (dice on the table),
    ``"d"`` (roll again or stop) and ``"x"`` (game over, ``player`` won).
    ``variant`` is ``""``, ``"A"`` or ``"B"``.
    """

    squares: list[dict[int, int]]
    markers: dict[int, int]
    player: int
    phase: str
    dice: list[int] = field(default_factory=list)
    board: dict[int, int] = field(default_factory=lambda: dict(STANDARD_BOARD))
    target: int = 3
    variant: str = ""


# -- notation -------------------------------------------------------------------


def _read_cells(text: str) -> dict[int, int]:
    if text == "-":
        return {}
    out: dict[int, int] = {}
    for cell in text.split(","):
        column, value = cell.split(":")
        out[int(column)] = int(value)
    return out


def _write_cells(cells: dict[int, int]) -> str:
    if not cells:
        return "-"
    return ",".join(str(c) + ":" + str(cells[c]) for c in sorted(cells))


def read_state(text: str) -> Position:
    """Read state notation (no validation beyond the shape: inputs are trusted)."""
    words = text.split(" ")
    squares = [_read_cells(group) for group in words[0].split("/")]
    markers = _read_cells(words[1])
    turn = words[2]
    pos = Position(squares, markers, int(turn[0]), turn[1])
    if pos.phase == "c":
        pos.dice = sorted(int(ch) for ch in turn[2:6])
    for option in words[3:]:
        if option[0] == "h":
            pos.board = _read_cells(option[1:])
        elif option[0] == "w":
            pos.target = int(option[1:])
        else:
            pos.variant = option
    return pos


def write_state(pos: Position) -> str:
    """Write the canonical state notation of ``pos``."""
    turn = str(pos.player) + pos.phase
    if pos.phase == "c":
        turn += "".join(str(d) for d in sorted(pos.dice))
    words = [
        "/".join(_write_cells(s) for s in pos.squares),
        _write_cells(pos.markers),
        turn,
    ]
    if pos.board != STANDARD_BOARD:
        words.append("h" + _write_cells(pos.board))
    if pos.target != 3:
        words.append("w" + str(pos.target))
    if pos.variant:
        words.append(pos.variant)
    return " ".join(words)


# -- the board ------------------------------------------------------------------


def won_columns(pos: Position) -> set[int]:
    """Return the columns won so far: those whose top space holds somebody's square."""
    return {c for c, top in pos.board.items() for s in pos.squares if s.get(c) == top}


def _rivals_at(pos: Position, column: int) -> set[int]:
    """Spaces of ``column`` holding a square of a player other than the mover."""
    return {s[column] for who, s in enumerate(pos.squares) if who != pos.player and column in s}


def _arrive(pos: Position, column: int, space: int) -> int:
    """Where a tower heading for ``space`` ends up (Variant A hops over rivals' squares)."""
    if pos.variant != "A":
        return space
    taken = _rivals_at(pos, column)
    while space in taken:
        space = space + 1
    return space


def _target_space(pos: Position, towers: dict[int, int], total: int, won: set[int]) -> int | None:
    """Return where a tower lands if ``total`` is used now, or ``None`` if it cannot be.

    ``won`` is the set of won columns (see :func:`won_columns`).
    """
    if total not in pos.board or total in won:
        return None
    if total in towers:
        here = towers[total]
        if here == pos.board[total]:
            return None  # already on the topmost space
        return _arrive(pos, total, here + 1)
    if len(towers) == TOWERS:
        return None  # every tower is busy elsewhere
    return _arrive(pos, total, pos.squares[pos.player].get(total, 0) + 1)


def _use_in_order(pos: Position, totals: tuple[int, int], won: set[int]) -> tuple[int, ...]:
    """Use the totals one after the other, each when possible; return those used."""
    towers = dict(pos.markers)
    used: list[int] = []
    for total in totals:
        space = _target_space(pos, towers, total, won)
        if space is not None:
            towers[total] = space
            used.append(total)
    return tuple(sorted(used))


def _three_pairings(dice: tuple[int, ...]) -> list[tuple[int, int]]:
    w, x, y, z = dice
    return [(w + x, y + z), (w + y, x + z), (w + z, x + y)]


def legal_moves(pos: Position, dice: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Every distinct legal move for ``dice`` (any order) as sorted tuples of sums."""
    found: set[tuple[int, ...]] = set()
    won = won_columns(pos)
    for first, second in _three_pairings(dice):
        tries = {
            _use_in_order(pos, (first, second), won),
            _use_in_order(pos, (second, first), won),
        }
        most = max(len(t) for t in tries)
        if most:
            found.update(t for t in tries if len(t) == most)
    return sorted(found)


# -- actions --------------------------------------------------------------------


def _clone(pos: Position) -> Position:
    return Position(
        [dict(s) for s in pos.squares],
        dict(pos.markers),
        pos.player,
        pos.phase,
        list(pos.dice),
        pos.board,
        pos.target,
        pos.variant,
    )


def _pass_turn(pos: Position) -> None:
    pos.player = (pos.player + 1) % len(pos.squares)
    pos.phase = "r"
    pos.markers = {}
    pos.dice = []


def roll_result(pos: Position, dice: tuple[int, int, int, int]) -> tuple[str, bool]:
    """Return the text after rolling ``dice`` (thrown order) and whether it was a bust."""
    if pos.phase not in ("r", "d"):
        raise Illegal("no roll now")
    after = _clone(pos)
    if not legal_moves(pos, dice):
        _pass_turn(after)
        return write_state(after), True
    after.phase = "c"
    after.dice = sorted(dice)
    return write_state(after), False


def move_result(pos: Position, sums: tuple[int, ...]) -> str:
    """Return the text after playing ``sums`` (sorted) from a position with dice."""
    if pos.phase != "c" or tuple(sums) not in legal_moves(pos, tuple(pos.dice)):
        raise Illegal("not a legal move")
    after = _clone(pos)
    for total in sums:
        space = _target_space(after, after.markers, total, won_columns(pos))
        assert space is not None
        after.markers[total] = space
    after.phase = "d"
    after.dice = []
    return write_state(after)


def stop_result(pos: Position) -> str:
    """Return the text after the player stops."""
    if pos.phase != "d":
        raise Illegal("stopping needs a played roll")
    me = pos.player
    if pos.variant == "B":
        for column, space in pos.markers.items():
            if space in _rivals_at(pos, column):
                raise Illegal("variant B: a tower shares a space with a rival's square")
    after = _clone(pos)
    for column, space in pos.markers.items():
        after.squares[me][column] = space
        if space == pos.board[column]:
            for who, theirs in enumerate(after.squares):
                if who != me:
                    theirs.pop(column, None)
    held = sum(1 for c, top in pos.board.items() if after.squares[me].get(c) == top)
    if held >= pos.target:
        after.markers = {}
        after.phase = "x"
        return write_state(after)
    _pass_turn(after)
    return write_state(after)


def whole_roll_counts(pos: Position) -> tuple[int, int]:
    """Legal moves summed over all 1296 ordered rolls, and the number of rolls that bust."""
    if pos.phase not in ("r", "d"):
        raise Illegal("counts need a position about to roll")
    choices = 0
    busts = 0
    for dice in ALL_ROLLS:
        n = len(legal_moves(pos, dice))
        choices += n
        if n == 0:
            busts += 1
    return choices, busts
