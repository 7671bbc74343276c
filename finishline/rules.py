"""The rules' decisions: what each roll allows in a position, and why anything else is refused.

This module is where R4 to R8 are decided, once, on plain values: a board is
a tuple of 24 entries, one per cell in the order of :class:`~finishline.board.Cell`,
each the number of the player whose counter stands there or ``None``.  The
engine (:mod:`finishline.state`) asks it for the legal actions of a roll and
their outcomes, and for the reason an action is refused; nothing else in the
package decides a rule.

A *step* is one die's use: placing a counter on a cell (R5) or moving the
counter on a cell forward (R6).  Plays are found by trying every step of one
die and then every step of the other on the board the first leaves, in both
orders (R4.4); only the plays that use the most dice are kept (R4.5).

>>> board = (None,) * 24
>>> actions = legal_actions(board, 0, 6, 0, (3, 3))
>>> [format_move(a) for a in actions][:3], len(actions)
(['+A3,+B3', '+A3,+C3', '+A3,+D3'], 10)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TypeAlias

from finishline.actions import Action, Double, Move, Play, Sideways
from finishline.board import CELLS, Board, Cell

__all__ = [
    "Board",
    "Outcome",
    "diagnose",
    "format_move",
    "legal_actions",
    "play_key",
]

#: What an action leaves: the board, and the number of the player's counters across.
Outcome: TypeAlias = tuple[Board, int]

#: A step: whether it places a counter (or moves one), and the cell's index.
_Step: TypeAlias = tuple[bool, int]

_NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(n.value for n in cell.neighbours) for cell in CELLS
)
_ROW_CELLS: dict[int, range] = {row: range((row - 1) * 4, row * 4) for row in range(1, 7)}


def _steps(board: Board, me: int, hand: int, die: int) -> list[_Step]:
    """Every use of one die (R4.2): a placement in its row (R5), or a counter of it moved (R6)."""
    out: list[_Step] = []
    for c in _ROW_CELLS[die]:
        owner = board[c]
        if owner is None:
            if hand:
                out.append((True, c))
        elif owner == me and (c < 4 or board[c - 4] is None):  # R6.4; row 1 crosses (R6.5)
            out.append((False, c))
    return out


def _do(board: Board, me: int, hand: int, across: int, step: _Step) -> tuple[Board, int, int]:
    """Return the board, hand and count across after one step."""
    enter, c = step
    cells = list(board)
    if enter:
        cells[c] = me
        return tuple(cells), hand - 1, across
    cells[c] = None
    if c < 4:
        return tuple(cells), hand, across + 1
    cells[c - 4] = me
    return tuple(cells), hand, across


_MOVES: dict[tuple[int, int, int], Move] = {}
_PLAYS: dict[tuple[tuple[int, int, int], ...], Play] = {}


def _play(*keys: tuple[int, int, int]) -> Play:
    """Return the play of the moves with ``keys`` (enter, cell, rows), made once and reused."""
    ordered = tuple(sorted(keys))
    play = _PLAYS.get(ordered)
    if play is None:
        moves = []
        for key in ordered:
            move = _MOVES.get(key)
            if move is None:
                move = _MOVES[key] = Move(Cell(key[1]), enter=bool(key[0]), rows=key[2])
            moves.append(move)
        play = _PLAYS[ordered] = Play(tuple(moves))
    return play


def _play_of(first: _Step, second: _Step | None) -> Play:
    """Name a sequence of steps by what each counter does (N2.3)."""
    enter, c = first
    if second is None:
        return _play((int(enter), c, 0 if enter else 1))
    enter2, c2 = second
    if enter and not enter2 and c2 == c:  # the placed counter moves on (R8.2)
        return _play((1, c, 1))
    if not enter and c >= 4 and not enter2 and c2 == c - 4:  # the same counter twice (R6.3)
        return _play((0, c, 2))
    return _play((int(enter), c, 0 if enter else 1), (int(enter2), c2, 0 if enter2 else 1))


def _plays(
    board: Board, me: int, hand: int, across: int, dice: tuple[int, int]
) -> dict[Action, Outcome]:
    """Return the legal plays of the dice and what each leaves (R4.2 to R4.5, R5, R6, R8)."""
    a, b = dice
    both: dict[Action, Outcome] = {}
    for first, second in ((a, b),) if a == b else ((a, b), (b, a)):
        for step in _steps(board, me, hand, first):
            board1, hand1, across1 = _do(board, me, hand, across, step)
            for step2 in _steps(board1, me, hand1, second):
                board2, _, across2 = _do(board1, me, hand1, across1, step2)
                both[_play_of(step, step2)] = (board2, across2)
    if both:
        return both
    one: dict[Action, Outcome] = {}
    for die in {a, b}:
        for step in _steps(board, me, hand, die):
            board1, _, across1 = _do(board, me, hand, across, step)
            one[_play_of(step, None)] = (board1, across1)
    return one


def play_key(action: Action) -> tuple[object, ...]:
    """Return ``action``'s place in the order of legal actions (N2.6)."""
    if isinstance(action, Play):
        return (0, tuple(move.key for move in action.moves))
    if isinstance(action, Sideways):
        return (1, action.cell.value, action.to.value)
    if isinstance(action, Double):
        return (2, action.cell.value)
    raise TypeError(f"not a player's action: {action!r}")


def legal_actions(
    board: Board, me: int, hand: int, across: int, dice: tuple[int, int]
) -> dict[Action, Outcome]:
    """Return every legal action for ``dice``, in the order of N2.6, with what each leaves.

    ``me`` is the player to act, ``hand`` and ``across`` that player's
    counters in hand and across.  An empty result means the roll forfeits
    the turn (R9.1).
    """
    found = _plays(board, me, hand, across, dice)
    a, b = dice
    mine = [c for c in range(24) if board[c] == me]
    if a + b == 7:  # R7.1
        for c in mine:
            for n in _NEIGHBOURS[c]:
                if board[n] is None:
                    cells = list(board)
                    cells[c], cells[n] = None, me
                    found[Sideways(CELLS[c], CELLS[n])] = (tuple(cells), across)
    if a == b:  # R8.3
        for c in mine:
            if c < 4 or board[c - 4] is None:
                after = _do(board, me, hand, across, (False, c))
                found[Double(CELLS[c])] = (after[0], after[2])
    return {action: found[action] for action in sorted(found, key=play_key)}


def format_move(action: Action) -> str:
    """Return the notation of a player's action (N2.3 to N2.5)."""
    if isinstance(action, Play):
        return ",".join(move.text for move in action.moves)
    if isinstance(action, Sideways):
        return f"{action.cell.name}-{action.to.name}"
    if isinstance(action, Double):
        return f"double:{action.cell.name}"
    raise TypeError(f"not a player's action: {action!r}")


# -- why an action is refused ------------------------------------------------------


def diagnose(
    board: Board,
    me: int,
    hand: int,
    dice: tuple[int, int],
    action: Action,
    legal: Mapping[Action, Outcome],
) -> tuple[str, str]:
    """Return the rule and the reason that refuse ``action``, which is not in ``legal``.

    The checks follow R4.6: for a play, the dice it needs (R4.2), the
    counters it names on the board (R6.1), its steps in the order written
    (R5.1, R5.2, R6.4), and the dice it leaves unused (R4.5); for a sideways
    step and a double advance, the roll, the counter and the cell it moves
    into (R7.1, R8.3, R6.4).
    """
    a, b = dice
    if isinstance(action, Play):
        rule, reason = _diagnose_play(board, me, hand, dice, action)
    elif isinstance(action, Sideways):
        if a + b != 7:
            rule, reason = "R7.1", f"a sideways step needs dice totalling 7, not {a} and {b}"
        elif board[action.cell] != me:
            rule, reason = "R7.1", f"{action.cell} holds no counter of player {me}"
        else:
            rule, reason = "R7.1", f"{action.to} is not empty"
    elif isinstance(action, Double):
        if a != b:
            rule, reason = "R8.3", f"a double advance needs a double, not {a} and {b}"
        elif board[action.cell] != me:
            rule, reason = "R8.3", f"{action.cell} holds no counter of player {me}"
        else:
            rule, reason = "R6.4", _blocked(action.cell)
    else:  # pragma: no cover - the engine sends player's actions only
        raise TypeError(f"not a player's action: {action!r}")
    return rule, f"{format_move(action)} is refused: {reason}; legal: {_listing(legal)}"


def _diagnose_play(
    board: Board, me: int, hand: int, dice: tuple[int, int], play: Play
) -> tuple[str, str]:
    needed = list(play.dice)
    left = list(dice)
    for die in needed:
        if die not in left:
            return "R4.2", (
                f"the play needs {_dice_words(needed)}, and the roll is {dice[0]} and {dice[1]}"
            )
        left.remove(die)
    for move in play.moves:
        if not move.enter and board[move.cell] != me:
            return "R6.1", f"{move.cell} holds no counter of player {me}"
    failure = _walk(board, me, hand, play.moves)
    if failure is not None:
        return failure
    return "R4.5", "it leaves a die unused that can be used"


def _walk(board: Board, me: int, hand: int, moves: Sequence[Move]) -> tuple[str, str] | None:
    """Take the steps of ``moves`` in order; return the first refusal, or ``None``."""
    across = 0
    for move in moves:
        c = move.cell.value
        steps: list[_Step] = []
        if move.enter:
            steps.append((True, c))
            if move.rows:
                steps.append((False, c))
        else:
            steps.append((False, c))
            if move.rows == 2:
                steps.append((False, c - 4))
        for enter, cell in steps:
            name = CELLS[cell].name
            if enter:
                if hand == 0:
                    return "R5.1", f"player {me} has no counter in hand to place on {name}"
                if board[cell] is not None:
                    return "R5.2", f"{name} holds a counter"
            else:
                if board[cell] != me:
                    return "R6.1", f"{name} holds no counter of player {me}"
                if cell >= 4 and board[cell - 4] is not None:
                    return "R6.4", _blocked(CELLS[cell])
            board, hand, across = _do(board, me, hand, across, (enter, cell))
    return None


def _blocked(cell: Cell) -> str:
    above = cell.forward
    return f"{above}, directly above {cell}, holds a counter"


def _dice_words(dice: Sequence[int]) -> str:
    if len(dice) == 1:
        return f"a {dice[0]}"
    return f"a {dice[0]} and a {dice[1]}"


def _listing(legal: Mapping[Action, Outcome], most: int = 12) -> str:
    texts = [format_move(a) for a in legal]
    if len(texts) > most:
        return " ".join(texts[:most]) + f" and {len(texts) - most} more"
    return " ".join(texts) or "none"
