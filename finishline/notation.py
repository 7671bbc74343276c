"""The one-line text notation of states and actions (spec chapter N).

A state reads ``BOARD ACROSS TURN [OPTION]``, for example
``..../..0./..../..../01../...1 0/0 0c24``: the six rows of the board from
row 1, each cell ``.`` or the player on it; the counters each player has
across; player 0 choosing with a 2 and a 4.  Every state has exactly one
text and the parser accepts only that text.

>>> from finishline.state import new_game
>>> format_state(new_game())
'..../..../..../..../..../.... 0/0 0r'
>>> format_action(parse_action('C2^,+B4'))
'C2^,+B4'
"""

from __future__ import annotations

from dicekit.textreader import TextReader
from finishline.actions import Action, Double, Move, Play, Roll, Sideways
from finishline.board import CELLS, LETTERS, Cell
from finishline.config import DEFAULT_COUNTERS, MAX_PLAYERS, MIN_PLAYERS, Config
from finishline.decide import format_move
from finishline.errors import (
    InvalidActionValue,
    InvalidConfig,
    InvalidState,
    NotationError,
    brief,
)
from finishline.invariants import too_many_counters
from finishline.state import Phase, State

__all__ = ["format_action", "format_state", "parse_action", "parse_state"]

_PHASE_LETTER = {Phase.ROLL: "r", Phase.CHOOSE: "c", Phase.OVER: "x"}
_LETTER_PHASE = {letter: phase for phase, letter in _PHASE_LETTER.items()}
_PLAYER_DIGITS = "0123"
_DICE = "123456"


def format_state(state: State) -> str:
    """Return the canonical one-line text of ``state`` (N1).

    >>> from finishline.notation import parse_state
    >>> format_state(parse_state('..0./..../..../.0../01../...1 0/0 1c34'))
    '..0./..../..../.0../01../...1 0/0 1c34'
    """
    marks = ["." if owner is None else str(owner) for owner in state.board]
    board = "/".join("".join(marks[r * 4 : r * 4 + 4]) for r in range(6))
    across = "/".join(map(str, state.across))
    turn = f"{state.player}{_PHASE_LETTER[state.phase]}"
    if state.dice is not None:
        turn += f"{state.dice[0]}{state.dice[1]}"
    text = f"{board} {across} {turn}"
    if not state.config.standard:
        text += f" n{state.config.counters}"
    return text


def format_action(action: Action) -> str:
    """Return the canonical text of ``action`` (N2): ``r52``, ``C2^,+B4``, ``B5-C5``, ``double:D6``.

    >>> format_action(Roll((5, 2)))
    'r52'
    """
    if isinstance(action, Roll):
        return f"r{action.dice[0]}{action.dice[1]}"
    if isinstance(action, Play | Sideways | Double):
        return format_move(action)
    raise TypeError(f"not an action: {brief(action)}")


class _Reader(TextReader):
    """The layer's cursor over notation text, reading the race's cells."""

    def cell(self, rule: str) -> Cell:
        letter = self.peek()
        if not letter or letter not in LETTERS:
            raise self.fail(f"expected a cell's letter A to D, found {self.found()}", rule)
        self.pos += 1
        row = self.peek()
        if not row or row not in _DICE:
            raise self.fail(
                f"expected a row from 1 to 6 after {letter}, found {self.found()}", rule
            )
        self.pos += 1
        return Cell[letter + row]


def _check_text(text: object, what: str, rule: str) -> str:
    if not isinstance(text, str):
        raise NotationError(
            f"{what} notation must be a string, not {type(text).__name__}", brief(text), 0, rule
        )
    return text


def parse_state(text: str) -> State:
    """Parse the canonical text of a state (N1).

    Malformed text, and text for a state that breaks an invariant, raise
    :class:`~finishline.errors.NotationError` pointing at the offending
    character (N1.6).

    >>> parse_state('..../..0./..../..../01../...1 0/0 0c24').dice
    (2, 4)
    >>> parse_state('..2./..../..../..../..../.... 0/0 0r')
    Traceback (most recent call last):
    ...
    dicekit.errors.NotationError: at position 2: cell C1 names player 2; ... (rule N1.2)
    """
    r = _Reader(_check_text(text, "state", "N1.1"))
    board: list[int | None] = []
    for row in range(6):
        if row:
            if r.peek() != "/":
                if r.peek() in (".", *_PLAYER_DIGITS):
                    raise r.fail("a row has four cells", "N1.2")
                raise r.fail(f"expected '/' before row {row + 1}, found {r.found()}", "N1.2")
            r.pos += 1
        for _ in range(4):
            mark = r.peek()
            if mark == ".":
                board.append(None)
            elif mark and mark in _PLAYER_DIGITS:
                board.append(int(mark))
            else:
                raise r.fail(
                    f"expected a cell, '.' or a player's number, found {r.found()}", "N1.2"
                )
            r.pos += 1
    if r.peek() == "/":
        raise r.fail("the board has six rows", "N1.2")
    if r.peek() in (".", *_PLAYER_DIGITS) and r.peek():
        raise r.fail("a row has four cells", "N1.2")
    r.expect(" ", "N1.1", "a space before the counters across")
    across_at = r.pos
    across: list[int] = []
    spots: list[int] = []
    while True:
        digit = r.peek()
        if not digit or not digit.isascii() or not digit.isdigit():
            raise r.fail(f"expected a count of counters across, found {r.found()}", "N1.3")
        spots.append(r.pos)
        across.append(int(digit))
        r.pos += 1
        if r.peek() != "/":
            break
        r.pos += 1
    if r.peek().isascii() and r.peek().isdigit():
        raise r.fail("a count across is one digit", "N1.3")
    r.expect(" ", "N1.1", "a space before the turn")
    turn_at = r.pos
    digit = r.peek()
    if not digit or not digit.isascii() or not digit.isdigit():
        raise r.fail(f"expected the player whose turn it is, found {r.found()}", "N1.4")
    player = int(digit)
    if player >= len(across):
        raise r.fail(f"player {player} does not exist; players are 0 to {len(across) - 1}", "N1.4")
    r.pos += 1
    letter = r.peek()
    if letter not in _LETTER_PHASE or not letter:
        raise r.fail(f"expected a phase letter r, c or x, found {r.found()}", "N1.4")
    r.pos += 1
    phase = _LETTER_PHASE[letter]
    dice: tuple[int, int] | None = None
    if phase is Phase.CHOOSE:
        start = r.pos
        for _ in range(2):
            if not r.peek() or r.peek() not in _DICE:
                raise r.fail(f"expected two dice from 1 to 6 after 'c', found {r.found()}", "N1.4")
            r.pos += 1
        dice = (int(text[start]), int(text[start + 1]))
        if dice[0] > dice[1]:
            raise r.fail("the dice of a state are written in non-decreasing order", "N1.4", start)
    counters: int | None = None
    counters_at = 0
    if r.peek() == " ":
        r.pos += 1
        if r.peek() != "n":
            raise r.fail(f"expected the option n, found {r.found()}", "N1.5")
        option_at = r.pos
        r.pos += 1
        digit = r.peek()
        if not digit or not digit.isascii() or not digit.isdigit():
            raise r.fail(f"expected the number of counters after 'n', found {r.found()}", "N1.5")
        counters, counters_at = int(digit), r.pos
        r.pos += 1
        if counters == DEFAULT_COUNTERS.get(len(across)):
            raise r.fail(
                f"{counters} counters each is the default for {len(across)} players "
                "and is written by leaving out 'n'",
                "N1.5",
                option_at,
            )
        if r.peek() == " ":
            raise r.fail("there is one option at most", "N1.5", r.pos + 1)
    if r.pos != len(text):
        raise r.fail(f"unexpected {r.found()}", "N1.1")
    return _build(
        text, board, across, spots, player, phase, dice, counters, across_at, counters_at, turn_at
    )


def _build(
    text: str,
    board: list[int | None],
    across: list[int],
    spots: list[int],
    player: int,
    phase: Phase,
    dice: tuple[int, int] | None,
    counters: int | None,
    across_at: int,
    counters_at: int,
    turn_at: int,
) -> State:
    """Check a state read in full, in the order of N1.6, and make it."""
    players = len(across)
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise NotationError(
            f"{players} counts across make {players} players; the game has 2, 3 or 4",
            text,
            across_at,
            "R11.1",
        )
    try:
        config = Config(players) if counters is None else Config(players, counters)
    except InvalidConfig as exc:
        raise NotationError(exc.reason, text, counters_at, exc.rule) from None
    for c, owner in enumerate(board):
        if owner is not None and owner >= players:
            where = c + c // 4  # the slashes before the cell's row
            raise NotationError(
                f"cell {CELLS[c]} names player {owner}; the players are 0 to {players - 1}",
                text,
                where,
                "N1.2",
            )
    surplus = too_many_counters(board, across, config.counters)
    if surplus is not None:
        raise NotationError(surplus[1], text, spots[surplus[0]], "R12.3")
    try:
        return State(config, player, phase, dice, tuple(board), tuple(across))
    except InvalidState as exc:
        raise NotationError(exc.reason, text, turn_at, exc.rule) from None


def parse_action(text: str) -> Action:
    """Parse the canonical text of an action (N2).

    >>> parse_action('r52'), parse_action('B5-C5'), parse_action('double:D6')
    (Roll(dice=(5, 2)), Sideways(cell=<Cell.B5: 17>, to=<Cell.C5: 18>), Double(cell=<Cell.D6: 23>))
    >>> parse_action('+B4,C2^')
    Traceback (most recent call last):
    ...
    dicekit.errors.NotationError: at position 4: the moves of a play are written ... (rule N2.3)
    """
    r = _Reader(_check_text(text, "action", "N2.1"))
    first = r.peek()
    if first == "r":
        r.pos += 1
        for _ in range(2):
            if not r.peek() or r.peek() not in _DICE:
                raise r.fail(f"expected two dice from 1 to 6 after 'r', found {r.found()}", "N2.2")
            r.pos += 1
        if r.pos != len(text):
            raise r.fail("a roll is exactly two dice", "N2.2")
        return Roll((int(text[1]), int(text[2])))
    if text.startswith("double:"):
        r.pos = len("double:")
        cell = r.cell("N2.5")
        if r.pos != len(text):
            raise r.fail(f"unexpected {r.found()} after the double advance", "N2.1")
        return Double(cell)
    if not first or (first != "+" and first not in LETTERS):
        raise r.fail(
            "expected a roll 'r52', a play like 'C2^,+B4', a sideways step 'B5-C5' "
            "or a double advance 'double:D6'",
            "N2.1",
        )
    if first != "+":
        cell = r.cell("N2.3")
        if r.peek() == "-":
            r.pos += 1
            to_at = r.pos
            to = r.cell("N2.4")
            if to not in cell.neighbours:
                options = " or ".join(c.name for c in cell.neighbours)
                raise r.fail(f"{cell} steps sideways to {options}, not {to}", "N2.4", to_at)
            if r.pos != len(text):
                raise r.fail(f"unexpected {r.found()} after the sideways step", "N2.1")
            return Sideways(cell, to)
        if r.peek() != "^":
            raise r.fail(f"expected '^' or '-' after {cell}, found {r.found()}", "N2.1")
        r.pos = 0
    moves: list[Move] = []
    starts: list[int] = []
    while True:
        starts.append(r.pos)
        moves.append(_move(r))
        if r.peek() != ",":
            break
        if len(moves) == 2:
            raise r.fail("a play has at most two moves", "N2.3")
        r.pos += 1
    if r.pos != len(text):
        raise r.fail(f"unexpected {r.found()}", "N2.1")
    dice = 0
    for move, start in zip(moves, starts, strict=True):
        dice += len(move.dice)
        if dice > 2:
            raise r.fail("a play uses at most two dice", "N2.3", start)
    if len(moves) == 2 and moves[1].key <= moves[0].key:
        raise r.fail(
            "the moves of a play are written board first, then placements, each by cell"
            if moves[1].key[:2] != moves[0].key[:2]
            else f"the play moves {moves[0].text} twice",
            "N2.3",
            starts[1],
        )
    try:
        return Play(tuple(moves))
    except InvalidActionValue as exc:  # pragma: no cover - ruled out above
        raise r.fail(exc.reason, exc.rule, 0) from None


def _move(r: _Reader) -> Move:
    """Read one move of a play: ``+C5``, ``+C5^``, ``C5^`` or ``C5^^`` (N2.3)."""
    enter = r.peek() == "+"
    if enter:
        r.pos += 1
    elif not r.peek() or r.peek() not in LETTERS:
        raise r.fail(f"expected a move like 'C5^' or '+C5', found {r.found()}", "N2.3")
    cell = r.cell("N2.3")
    rows = 0
    limit = 1 if enter or cell.row == 1 else 2
    while r.peek() == "^":
        if rows == limit:
            if enter:
                reason = "a placed counter moves at most one row"
            elif cell.row == 1:
                reason = "a counter that crosses moves no further"
            else:
                reason = "a counter moves at most two rows"
            raise r.fail(reason, "N2.3")
        rows += 1
        r.pos += 1
    if not enter and rows == 0:
        raise r.fail(f"expected '^' after {cell}, found {r.found()}", "N2.3")
    return Move(cell, enter=enter, rows=rows)
