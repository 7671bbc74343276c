"""A second implementation of the finish-line race's turn, written from the spec alone, for tests.

It shares nothing with the engine: it reads and writes the notation itself,
keeps the board as a dict of cell name to player, and finds the legal
actions the other way round from the engine.  The engine builds plays die by
die; this module lists every play the notation can write whose dice are in
the roll, takes its steps in both orders on a copy of the board, and keeps
those that work and use the most dice (R4.4, R4.5).  Sideways steps (R7.1)
and double advances (R8.3) are listed separately.
"""

from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import dataclass, field

LETTERS = "ABCD"
CELLS = [f"{letter}{row}" for row in range(1, 7) for letter in LETTERS]
DEFAULT = {2: 6, 3: 5, 4: 4}


@dataclass
class Position:
    """A position: board, counts across, the player, the phase, the dice, counters each."""

    board: dict[str, int]
    across: list[int]
    player: int
    phase: str
    dice: tuple[int, int] | None
    counters: int
    players: int = field(init=False)

    def __post_init__(self) -> None:
        self.players = len(self.across)

    def hand(self, p: int) -> int:
        """Counters of ``p`` neither on the board nor across (R12.3)."""
        return self.counters - self.across[p] - sum(1 for o in self.board.values() if o == p)


def read_state(text: str) -> Position:
    """Read a state in canonical notation (N1); only well-formed text is expected."""
    fields = text.split(" ")
    rows = fields[0].split("/")
    board = {
        f"{LETTERS[i]}{r + 1}": int(mark)
        for r, row in enumerate(rows)
        for i, mark in enumerate(row)
        if mark != "."
    }
    across = [int(x) for x in fields[1].split("/")]
    turn = fields[2]
    counters = int(fields[3][1:]) if len(fields) > 3 else DEFAULT[len(across)]
    dice = (int(turn[2]), int(turn[3])) if turn[1] == "c" else None
    return Position(board, across, int(turn[0]), turn[1], dice, counters)


def write_state(pos: Position) -> str:
    """Write a position in canonical notation (N1)."""
    rows = [
        "".join(str(pos.board.get(f"{letter}{row}", ".")) for letter in LETTERS)
        for row in range(1, 7)
    ]
    turn = f"{pos.player}{pos.phase}" + ("".join(map(str, pos.dice)) if pos.dice else "")
    text = f"{'/'.join(rows)} {'/'.join(map(str, pos.across))} {turn}"
    if pos.counters != DEFAULT[pos.players]:
        text += f" n{pos.counters}"
    return text


def _ahead(cell: str) -> str | None:
    row = int(cell[1])
    return None if row == 1 else f"{cell[0]}{row - 1}"


def _moves_text() -> list[tuple[str, list[tuple[str, str]]]]:
    """Every move the notation can write, with the steps it takes: ('place'|'go', cell)."""
    out = []
    for cell in CELLS:
        ahead = _ahead(cell)
        out.append((f"+{cell}", [("place", cell)]))
        out.append((f"+{cell}^", [("place", cell), ("go", cell)]))
        out.append((f"{cell}^", [("go", cell)]))
        if ahead is not None:
            out.append((f"{cell}^^", [("go", cell), ("go", ahead)]))
    return out


_ALL_MOVES = _moves_text()


def _dice_of(steps: list[tuple[str, str]]) -> list[int]:
    return [int(cell[1]) for _, cell in steps]


def _walk(pos: Position, steps: list[tuple[str, str]]) -> tuple[dict[str, int], int] | None:
    """Take ``steps`` for the player; return the board and counters across, or None."""
    me = pos.player
    board = dict(pos.board)
    hand = pos.hand(me)
    across = pos.across[me]
    for kind, cell in steps:
        if kind == "place":
            if hand == 0 or cell in board:
                return None
            board[cell] = me
            hand -= 1
        else:
            if board.get(cell) != me:
                return None
            ahead = _ahead(cell)
            if ahead is not None and ahead in board:
                return None
            del board[cell]
            if ahead is None:
                across += 1
            else:
                board[ahead] = me
    return board, across


def _order_key(text: str) -> tuple[int, int, int]:
    enter = text.startswith("+")
    body = text.lstrip("+")
    cell = body[:2]
    return (int(enter), CELLS.index(cell), body.count("^"))


def legal(pos: Position) -> dict[str, tuple[dict[str, int], int]]:
    """Return every legal action's text with the board and count across it leaves."""
    assert pos.dice is not None
    roll = Counter(pos.dice)
    plays: dict[str, tuple[int, tuple[dict[str, int], int]]] = {}
    candidates = [m for m in _ALL_MOVES if not Counter(_dice_of(m[1])) - roll]
    for size in (1, 2):
        for combo in itertools.combinations(candidates, size):
            dice = [d for _, steps in combo for d in _dice_of(steps)]
            if (
                Counter(dice) - roll
                or len({text.lstrip("+").rstrip("^") + str(text[0] == "+") for text, _ in combo})
                < size
            ):
                continue
            # A move of a counter on the board names the cell it stands on before the play.
            if any(
                not text.startswith("+") and pos.board.get(text[:2]) != pos.player
                for text, _ in combo
            ):
                continue
            for order in itertools.permutations(combo):
                done = _walk(pos, [step for _, steps in order for step in steps])
                if done is not None:
                    text = ",".join(sorted((t for t, _ in combo), key=_order_key))
                    plays[text] = (len(dice), done)
                    break
    most = max((used for used, _ in plays.values()), default=0)
    found = {text: done for text, (used, done) in plays.items() if used == most}
    a, b = pos.dice
    me = pos.player
    mine = sorted((c for c, o in pos.board.items() if o == me), key=CELLS.index)
    if a + b == 7:
        for cell in mine:
            i = LETTERS.index(cell[0])
            for j in (i - 1, i + 1):
                if 0 <= j < 4 and f"{LETTERS[j]}{cell[1]}" not in pos.board:
                    board = dict(pos.board)
                    del board[cell]
                    board[f"{LETTERS[j]}{cell[1]}"] = me
                    found[f"{cell}-{LETTERS[j]}{cell[1]}"] = (board, pos.across[me])
    if a == b:
        for cell in mine:
            done = _walk(pos, [("go", cell)])
            if done is not None:
                found[f"double:{cell}"] = done
    return found


def after(pos: Position, board: dict[str, int], across_me: int) -> str:
    """Write the state the player's action leaves (R3.4, R10.1)."""
    across = list(pos.across)
    across[pos.player] = across_me
    if across_me == pos.counters:
        return write_state(Position(board, across, pos.player, "x", None, pos.counters))
    nxt = (pos.player + 1) % pos.players
    return write_state(Position(board, across, nxt, "r", None, pos.counters))


def roll(pos: Position, dice: tuple[int, int]) -> tuple[str, bool]:
    """Return the state after a roll and whether it forfeited the turn (R3.3, R9)."""
    choosing = Position(
        dict(pos.board), list(pos.across), pos.player, "c", (min(dice), max(dice)), pos.counters
    )
    if legal(choosing):
        return write_state(choosing), False
    nxt = (pos.player + 1) % pos.players
    return write_state(
        Position(dict(pos.board), list(pos.across), nxt, "r", None, pos.counters)
    ), True


def ordered(texts: list[str]) -> list[str]:
    """Put legal action texts in the order of N2.6: plays, sideways steps, double advances."""

    def key(text: str) -> tuple[object, ...]:
        if text.startswith("double:"):
            return (2, CELLS.index(text[7:]))
        if "-" in text:
            first, second = text.split("-")
            return (1, CELLS.index(first), CELLS.index(second))
        return (0, [_order_key(move) for move in text.split(",")])

    return sorted(texts, key=key)
