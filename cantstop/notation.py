"""The one-line text notation for states and actions (spec chapter N).

A state reads ``SQUARES MARKERS TURN [OPTIONS]``, for example
``7:2/- 7:4,8:2,10:1 0d``: player 0 has a square on space 2 of column 7,
player 1 has none, markers are on 7, 8 and 10, and player 0 is deciding.
The grammar is in ``spec/notation.md``.  Every state has exactly one text, and
the parser accepts only that text.

>>> from cantstop import new_game, Rules, Variant
>>> format_state(new_game(Rules(players=3, columns_to_win=4, variant=Variant.B)))
'-/-/- - 0r w4 B'
>>> parse_action('7+10')
Move(columns=(7, 10))
"""

from __future__ import annotations

from collections.abc import Mapping

from cantstop.actions import Action, InvalidActionValue, Move, Roll, Stop
from cantstop.board import MAX_HEIGHT, STANDARD_HEIGHTS
from cantstop.config import Rules, Variant
from cantstop.errors import InvalidRules, InvalidState, NotationError
from cantstop.state import Phase, State
from dicekit.quote import brief, brief_digits
from dicekit.textreader import TextReader

__all__ = ["format_action", "format_state", "parse_action", "parse_state"]

_PHASE_LETTER = {Phase.ROLL: "r", Phase.CHOOSE: "c", Phase.DECIDE: "d", Phase.OVER: "x"}
_LETTER_PHASE = {letter: phase for phase, letter in _PHASE_LETTER.items()}
_DEFAULT = Rules()


def _cells(values: Mapping[int, int]) -> str:
    return ",".join(f"{c}:{v}" for c, v in values.items()) or "-"


def format_state(state: State) -> str:
    """Return the canonical one-line text of ``state`` (N1).

    >>> from cantstop import Roll, new_game
    >>> format_state(new_game().apply(Roll((5, 3, 4, 5))))
    '-/- - 0c3455'
    """
    rules = state.rules
    parts = [
        "/".join(_cells(squares) for squares in state.squares),
        _cells(state.markers),
        f"{state.player}{_PHASE_LETTER[state.phase]}"
        + ("".join(map(str, state.dice)) if state.dice is not None else ""),
    ]
    if rules.heights != STANDARD_HEIGHTS:
        parts.append("h" + ",".join(f"{c}:{h}" for c, h in rules.heights.items()))
    if rules.columns_to_win != _DEFAULT.columns_to_win:
        parts.append(f"w{rules.columns_to_win}")
    if rules.variant is not None:
        parts.append(rules.variant.value)
    return " ".join(parts)


def format_action(action: Action) -> str:
    """Return the canonical text of ``action`` (N2): ``r3455``, ``7+10``, ``5`` or ``stop``.

    >>> format_action(Roll((5, 3, 4, 5)))
    'r5345'
    """
    if isinstance(action, Roll):
        return "r" + "".join(map(str, action.dice))
    if isinstance(action, Move):
        return "+".join(map(str, action.columns))
    if isinstance(action, Stop):
        return "stop"
    raise TypeError(f"not an action: {brief(action)}")


class _Reader(TextReader):
    """The layer's cursor over notation text, reading Can't Stop's numbers and cells."""

    error = NotationError

    def number(self, rule: str, what: str) -> int:
        start = self.pos
        while self.peek().isascii() and self.peek().isdigit():
            self.pos += 1
        digits = self.text[start : self.pos]
        if not digits:
            raise self.fail(f"expected {what}, found {self.found()}", rule)
        if digits[0] == "0" and len(digits) > 1:
            raise self.fail(f"{what} has a leading zero", rule, start)
        if len(digits) > 3:
            raise self.fail(
                f"{what} {brief_digits(digits)} is too large: a number has at most 3 digits",
                rule,
                start,
            )
        return int(digits)

    def cells(
        self, rule: str, what: str, spots: dict[int, tuple[int, int]] | None = None
    ) -> dict[int, int]:
        """Read ``-`` or ``col:value,col:value...`` with increasing columns.

        ``spots``, if given, receives for each column the index of the column
        and of its value in the text.
        """
        if self.peek() == "-":
            self.pos += 1
            return {}
        cells: dict[int, int] = {}
        while True:
            start = self.pos
            column = self.number(rule, "a column number")
            if not 2 <= column <= 12:
                raise self.fail(f"column {column} is not from 2 to 12", rule, start)
            if cells and column <= max(cells):
                raise self.fail(
                    f"columns must be in increasing order; {column} is not", rule, start
                )
            self.expect(":", rule, "':' after the column")
            if spots is not None:
                spots[column] = (start, self.pos)
            cells[column] = self.number(rule, what)
            if self.peek() != ",":
                return cells
            self.pos += 1


def parse_state(text: str) -> State:
    """Parse the canonical text of a state (N1).

    Malformed text, and text for a state that breaks an invariant, raise
    :class:`~cantstop.NotationError` pointing at the offending character.

    >>> parse_state('7:2/- 7:3,10:1 0d')
    State('7:2/- 7:3,10:1 0d')
    >>> parse_state('7:2/- 7:2 0d')
    Traceback (most recent call last):
    ...
    cantstop.errors.NotationError: at position 6: the marker in column 7 is on space 2, ...
      7:2/- 7:2 0d
            ^
    """
    if not isinstance(text, str):
        raise NotationError(
            f"state notation must be a string, not {type(text).__name__}", brief(text), 0, "N1.1"
        )
    r = _Reader(text)
    squares: list[dict[int, int]] = []
    square_spots: list[dict[int, tuple[int, int]]] = []
    while True:
        square_spots.append({})
        squares.append(r.cells("N1.2", "a square's space", square_spots[-1]))
        if r.peek() != "/":
            break
        r.pos += 1
    if len(squares) > 4:
        raise r.fail(f"{len(squares)} players; the rules allow 1 to 4", "R15.1", 0)
    r.expect(" ", "N1.1", "a space before the markers")
    markers_at = r.pos
    marker_spots: dict[int, tuple[int, int]] = {}
    markers = r.cells("N1.3", "a marker's space", marker_spots)
    r.expect(" ", "N1.1", "a space before the turn")
    turn_at = r.pos
    player = r.number("N1.4", "the player")
    if player >= len(squares):
        raise r.fail(
            f"player {player} does not exist; "
            + (
                "the only player is 0"
                if len(squares) == 1
                else f"players are 0 to {len(squares) - 1}"
            ),
            "N1.4",
            turn_at,
        )
    letter = r.peek()
    if letter not in _LETTER_PHASE:
        raise r.fail(
            f"expected a phase letter r, c, d or x, found {letter!r}"
            if letter
            else "expected a phase letter r, c, d or x, found the end",
            "N1.4",
        )
    r.pos += 1
    phase = _LETTER_PHASE[letter]
    dice: tuple[int, ...] | None = None
    if phase is Phase.CHOOSE:
        start = r.pos
        digits = r.text[start : start + 4]
        for i, ch in enumerate(digits.ljust(4)):
            if ch not in "123456":
                raise r.fail("expected four dice from 1 to 6 after 'c'", "N1.4", start + i)
        dice = tuple(int(ch) for ch in digits)
        if list(dice) != sorted(dice):
            raise r.fail("the dice of a state are written in non-decreasing order", "N1.4", start)
        r.pos += 4

    heights: Mapping[int, int] = STANDARD_HEIGHTS
    columns_to_win = _DEFAULT.columns_to_win
    variant: Variant | None = None
    option_at: dict[str, int] = {}
    height_spots: dict[int, tuple[int, int]] = {}
    order = 0  # options appear in the order h, w, then A or B, each at most once
    while r.peek() == " ":
        r.pos += 1
        start = r.pos
        tag = r.peek()
        rank = {"h": 1, "w": 2, "A": 3, "B": 3}.get(tag)
        if rank is None:
            raise r.fail(
                f"expected an option h, w, A or B, found {tag!r}"
                if tag
                else "expected an option, found the end",
                "N1.5",
            )
        if rank <= order:
            raise r.fail("options appear at most once each, in the order h, w, A/B", "N1.5")
        order = rank
        option_at[tag] = start
        r.pos += 1
        if tag == "h":
            heights = r.cells("N1.5", "a column's height", height_spots)
            if heights == STANDARD_HEIGHTS:
                raise r.fail("the standard heights are written by leaving out 'h'", "N1.5", start)
        elif tag == "w":
            columns_to_win = r.number("N1.5", "the number of columns to win")
            if columns_to_win == _DEFAULT.columns_to_win:
                raise r.fail(
                    f"columns_to_win {columns_to_win} is written by leaving out 'w'", "N1.5", start
                )
        else:
            variant = Variant(tag)
    if r.pos != len(text):
        raise r.fail(f"unexpected {r.peek()!r}", "N1.1")

    try:
        rules = Rules(len(squares), columns_to_win, heights, variant)
    except InvalidRules as exc:
        where = _rules_error_at(exc.rule, heights, height_spots, option_at)
        raise NotationError(exc.reason, text, where, exc.rule) from None
    try:
        return State(rules, player, phase, dice, markers, tuple(squares))  # type: ignore[arg-type]
    except InvalidState as exc:
        if exc.rule in ("R16.5", "R10.1", "R12.1"):
            where = turn_at
        elif exc.rule == "R16.1":
            where = markers_at
        else:
            spot = _offending_cell(exc.rule, rules, player, squares, markers)
            if spot is None:  # pragma: no cover - every cell rule names a cell
                where = 0
            elif spot[0] == -1:
                where = marker_spots[spot[1]][spot[2]]
            else:
                where = square_spots[spot[0]][spot[1]][spot[2]]
        raise NotationError(exc.reason, text, where, exc.rule) from None


def _rules_error_at(
    rule: str,
    heights: Mapping[int, int],
    height_spots: Mapping[int, tuple[int, int]],
    option_at: Mapping[str, int],
) -> int:
    """Where a configuration error points (N1.5): the height, the target or the first option."""
    if rule == "R15.1":
        return 0
    if rule == "R15.3":
        for column, height in heights.items():
            if not 1 <= height <= MAX_HEIGHT:
                return height_spots[column][1]
    if rule == "R15.2" and "w" in option_at:
        return option_at["w"]
    return min(option_at.values(), default=0)


def _offending_cell(
    rule: str,
    rules: Rules,
    player: int,
    squares: list[dict[int, int]],
    markers: dict[int, int],
) -> tuple[int, int, int] | None:
    """Find the cell that breaks ``rule``: (player or -1 for a marker, column, 0 or 1).

    The last item is 0 to point at the cell's column and 1 to point at its
    value.  Cells are searched in the order the state's invariants are
    checked (R16): squares player by player, then markers; won columns
    column by column.  The first cell that breaks the rule is the one the
    error is about, since a cell checked earlier broke none.
    """
    heights = rules.heights
    if rule == "R16.2":
        for p, cells in [*enumerate(squares), (-1, markers)]:
            for column, space in cells.items():
                if column not in heights:
                    return p, column, 0
                if not 1 <= space <= heights[column]:
                    return p, column, 1
    on_top = {
        column: [p for p, cells in enumerate(squares) if cells.get(column) == height]
        for column, height in heights.items()
    }
    if rule in ("R9.1", "R9.3"):
        for column, owners in on_top.items():
            if rule == "R9.1" and len(owners) > 1:
                return owners[1], column, 0
            others = [p for p, cells in enumerate(squares) if column in cells and owners[:1] != [p]]
            if rule == "R9.3" and owners and others:
                return others[0], column, 0
    for column, space in markers.items():
        others_there = any(
            cells.get(column) == space for p, cells in enumerate(squares) if p != player
        )
        if (
            (rule == "R9.2" and on_top.get(column))
            or (rule == "R16.3" and space <= squares[player].get(column, 0))
            or (rule == "R14.1" and others_there)
        ):
            return -1, column, 0
    return None


def parse_action(text: str) -> Action:
    """Parse the canonical text of an action (N2).

    >>> parse_action('r3455'), parse_action('7+7'), parse_action('stop')
    (Roll(dice=(3, 4, 5, 5)), Move(columns=(7, 7)), Stop())
    """
    if not isinstance(text, str):
        raise NotationError(
            f"action notation must be a string, not {type(text).__name__}", brief(text), 0, "N2.1"
        )
    if text == "stop":
        return Stop()
    r = _Reader(text)
    if r.peek() == "r":
        r.pos += 1
        for _ in range(4):
            if r.peek() not in tuple("123456") or not r.peek():
                raise r.fail("expected four dice from 1 to 6 after 'r'", "N2.2")
            r.pos += 1
        if r.pos != len(text):
            raise r.fail("a roll is exactly four dice", "N2.2")
        return Roll(tuple(int(ch) for ch in text[1:]))  # type: ignore[arg-type]
    if not r.peek().isdigit():
        raise r.fail("expected a roll 'rDDDD', a move like '7+10' or 'stop'", "N2.1")
    columns = [r.number("N2.3", "a sum")]
    if not 2 <= columns[0] <= 12:
        raise r.fail(f"sum {columns[0]} is not from 2 to 12", "N2.3", 0)
    if r.peek() == "+":
        r.pos += 1
        start = r.pos
        columns.append(r.number("N2.3", "a second sum"))
        if not 2 <= columns[1] <= 12:
            raise r.fail(f"sum {columns[1]} is not from 2 to 12", "N2.3", start)
        if columns[1] < columns[0]:
            raise r.fail("the sums of a move are written in increasing order", "N2.3", start)
    if r.pos != len(text):
        raise r.fail(f"unexpected {r.peek()!r}", "N2.1")
    try:
        return Move(tuple(columns))  # type: ignore[arg-type]
    except InvalidActionValue as exc:  # pragma: no cover - ruled out above
        raise NotationError(exc.reason, text, 0, exc.rule) from None
