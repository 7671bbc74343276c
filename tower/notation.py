"""The one-line notation of states and actions (N1, N2), with exact round trips.

:func:`format_state` writes a state's canonical text and :func:`parse_state`
reads only that text back; every rejection is a
:class:`~dicekit.errors.NotationError` naming the rule and the index of the
character at fault (N1.6).

>>> from tower import parse_state
>>> state = parse_state('R0,12/B5 B 1c35 @ours')
>>> state.stones, state.tower, state.dice
(((0, 12), (5,)), 1, (3, 5))
>>> parse_state('R12/B5,g R 1c35 @ours').stones
((12,), (5, 33))
>>> format_action(parse_action('12+3')), format_action(parse_action('t53'))
('12+3', 't53')
"""

from __future__ import annotations

import json

from dicekit.boarddata import NAME
from tower.actions import Action, Move, Throw
from tower.board import Board, board_from_json, load_board
from tower.config import Config, make_config
from tower.errors import InvalidBoard, InvalidConfig, NotationError
from tower.invariants import find_violation
from tower.state import Phase, State

__all__ = ["format_action", "format_state", "parse_action", "parse_state"]

_PHASE_LETTER = {Phase.THROW: "t", Phase.CHOOSE: "c", Phase.OVER: "x"}
_DIGITS = "0123456789"
_DICE = "123456"
_GOAL = 10**9  # the sort key of "g": after every step


def format_state(state: State) -> str:
    """Return the canonical text of ``state`` (N1).

    >>> from tower import make_config, new_game
    >>> format_state(new_game(make_config('small', players=3)))
    'R0,0/B0,0/G0,0 - 0t @small'
    """
    config = state.config
    groups = []
    for p, places in enumerate(state.stones):
        length = config.lengths[p]
        text = ",".join("g" if place == length else str(place) for place in places)
        groups.append(config.colours[p] + (text or "-"))
    tower = "-" if state.tower is None else config.colours[state.tower]
    turn = f"{state.player}{_PHASE_LETTER[state.phase]}"
    if state.dice is not None:
        turn += f"{state.dice[0]}{state.dice[1]}"
    return f"{'/'.join(groups)} {tower} {turn} {board_text(config.board)}"


def board_text(board: Board) -> str:
    """Return the board field of the notation: ``@`` and a shipped name, or the canonical text."""
    name = board.shipped_name()
    return f"@{name}" if name is not None else board.text


def format_action(action: Action) -> str:
    """Return the text of ``action`` (N2): ``t53`` or ``12+3``."""
    if isinstance(action, Throw):
        return f"t{action.dice[0]}{action.dice[1]}"
    return f"{action.step}+{action.points}"


def parse_action(text: str) -> Action:
    """Return the action that ``text`` denotes (N2); raise ``NotationError`` otherwise.

    >>> parse_action('0+7')
    Traceback (most recent call last):
    ...
    dicekit.errors.NotationError: at position 2: points are a digit from 1 to 6 (rule N2.3)
    """
    if not isinstance(text, str):
        raise NotationError(f"an action is text, not {type(text).__name__}", repr(text), 0, "N2.1")
    if text.startswith("t"):
        for i in (1, 2):
            if i >= len(text) or text[i] not in _DICE:
                raise NotationError("a throw is t and two dice from 1 to 6", text, i, "N2.2")
        if len(text) > 3:
            raise NotationError("a throw has exactly two dice", text, 3, "N2.2")
        return Throw((int(text[1]), int(text[2])))
    if text[:1] and text[0] in _DIGITS:
        i = _number_end(text, 0, "N2.3", "a step")
        step = int(text[:i])
        if i >= len(text) or text[i] != "+":
            raise NotationError("a move is a step, '+' and points", text, i, "N2.3")
        if i + 1 >= len(text) or text[i + 1] not in _DICE:
            raise NotationError("points are a digit from 1 to 6", text, i + 1, "N2.3")
        if len(text) > i + 2:
            raise NotationError("nothing may follow a complete move", text, i + 2, "N2.1")
        return Move(step, int(text[i + 1]))
    raise NotationError("an action is a throw (t35) or a move (12+3)", text, 0, "N2.1")


def _number_end(text: str, start: int, rule: str, what: str) -> int:
    """Return the index after the number at ``start``: 0, or 1 to 999 without a leading zero."""
    end = start
    while end < len(text) and text[end] in _DIGITS:
        end += 1
    digits = text[start:end]
    if len(digits) > 1 and digits[0] == "0":
        raise NotationError(f"{what} has no leading zero", text, start, rule)
    if len(digits) > 3:
        raise NotationError(f"{what} has at most three digits", text, start, rule)
    return end


#: The largest integer I-JSON allows, and the deepest nesting an embedded board may have (N1.5).
_SAFE = 2**53 - 1
_DEPTH = 64


def _int(text: str) -> int:
    if len(text.lstrip("-")) > 16 or abs(int(text)) > _SAFE:
        raise ValueError(f"an integer beyond ±(2**53 - 1): {text[:20]}")
    return int(text)


def _float(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise ValueError(f"a number beyond the range of a double: {text[:20]}")
    return value


def _no_constant(text: str) -> object:
    raise ValueError(f"{text} is not JSON")


def _depth(value: object) -> int:
    """Return how deep arrays and objects nest in ``value``, stopping past the limit."""
    deepest, level, stack = 0, 0, [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict | list):
            deepest = max(deepest, level)
            if deepest > _DEPTH:
                break
            inner = item.values() if isinstance(item, dict) else item
            stack.extend((v, level + 1) for v in inner)
    return deepest


def read_ijson(text: str) -> object:
    """Return the value of I-JSON ``text`` (RFC 7493), nested 64 deep at most; or ``ValueError``."""
    value = json.loads(text, parse_int=_int, parse_float=_float, parse_constant=_no_constant)
    if _depth(value) > _DEPTH:
        raise ValueError(f"JSON nested more than {_DEPTH} levels deep")
    return value


def parse_state(text: str) -> State:
    """Return the state that ``text`` denotes (N1); raise ``NotationError`` otherwise.

    >>> parse_state('R0,0/B0,0 - 0c53 @ours')
    Traceback (most recent call last):
    ...
    dicekit.errors.NotationError: at position 14: the dice of a state are written in order ...
    """
    if not isinstance(text, str):
        raise NotationError(f"a state is text, not {type(text).__name__}", repr(text), 0, "N1.1")
    reader = _Reader(text)
    return reader.read()


class _Reader:
    """Reads one state text, keeping where each part was, for N1.6."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.groups: list[tuple[int, str, list[tuple[int, str]]]] = []

    def fail(self, message: str, at: int, rule: str) -> NotationError:
        return NotationError(message, self.text, at, rule)

    def read(self) -> State:
        text = self.text
        i = self._stones(0)
        i = self._separator(i)
        tower_at = i
        if text[i] == "-":
            tower_letter = None
        elif "A" <= text[i] <= "Z":
            tower_letter = text[i]
        else:
            raise self.fail("the tower is '-' or a colour letter", i, "N1.3")
        i = self._separator(i + 1)
        turn_at = i
        player, phase, dice, i = self._turn(i)
        if i >= len(text) or text[i] != " ":
            raise self.fail("a space and the board must follow the turn", i, "N1.1")
        board_at = i + 1
        board = self._board(board_at)
        config = self._config(board, board_at)
        stones = self._places(config)
        tower = None
        if tower_letter is not None:
            if tower_letter not in config.colours:
                raise self.fail(f"no player plays colour {tower_letter}", tower_at, "R13.3")
            tower = config.colours.index(tower_letter)
        found = find_violation(config, player, phase, dice, stones, tower)
        if found is not None:
            if found.part == "group":
                at = self.groups[found.player][0]
            elif found.part == "place":
                at = self.groups[found.player][2][found.nth][0]
            elif found.part == "tower":
                at = tower_at
            else:
                at = turn_at
            raise self.fail(found.message, at, found.rule)
        return State(config, player, phase, dice, stones, tower)

    def _separator(self, i: int) -> int:
        text = self.text
        if i >= len(text) or text[i] != " ":
            raise self.fail("fields are separated by one space", i, "N1.1")
        if i + 1 >= len(text) or text[i + 1] == " ":
            raise self.fail("a field is missing", i + 1, "N1.1")
        return i + 1

    def _stones(self, i: int) -> int:
        text = self.text
        while True:
            if i >= len(text) or not "A" <= text[i] <= "Z":
                raise self.fail("a group starts with a colour letter, A to Z", i, "N1.2")
            letter_at, letter = i, text[i]
            places: list[tuple[int, str]] = []
            i += 1
            if i < len(text) and text[i] == "-":
                i += 1
            else:
                last = -1
                while True:
                    start = i
                    if i < len(text) and text[i] == "g":
                        i += 1
                        key = _GOAL
                    elif i < len(text) and text[i] in _DIGITS:
                        i = _number_end(text, i, "N1.2", "a step")
                        key = int(text[start:i])
                    else:
                        raise self.fail("a place is 0, a step or g", i, "N1.2")
                    if key < last:
                        raise self.fail(
                            "places are written 0 first, then steps up, then g", start, "N1.2"
                        )
                    last = key
                    places.append((start, text[start:i]))
                    if i < len(text) and text[i] == ",":
                        i += 1
                        continue
                    break
            self.groups.append((letter_at, letter, places))
            if i < len(text) and text[i] == "/":
                i += 1
                continue
            if i < len(text) and text[i] != " ":
                raise self.fail(f"unexpected {text[i]!r} in a group", i, "N1.2")
            return i

    def _turn(self, i: int) -> tuple[int, Phase, tuple[int, int] | None, int]:
        text = self.text
        if text[i] not in _DIGITS or int(text[i]) >= len(self.groups):
            raise self.fail(
                f"the turn starts with a player number below {len(self.groups)}", i, "N1.4"
            )
        player = int(text[i])
        letter = text[i + 1 : i + 2]
        if letter == "t":
            return player, Phase.THROW, None, i + 2
        if letter == "x":
            return player, Phase.OVER, None, i + 2
        if letter != "c":
            raise self.fail("the phase is t, c and two dice, or x", i + 1, "N1.4")
        for k in (i + 2, i + 3):
            if k >= len(text) or text[k] not in _DICE:
                raise self.fail("c is followed by two dice from 1 to 6", k, "N1.4")
        dice = (int(text[i + 2]), int(text[i + 3]))
        if dice[0] > dice[1]:
            raise self.fail("the dice of a state are written in order", i + 2, "N1.4")
        return player, Phase.CHOOSE, dice, i + 4

    def _board(self, at: int) -> Board:
        text = self.text
        rest = text[at:]
        if rest.startswith("@"):
            name = rest[1:]
            match = NAME.match(name)
            stop = match.end() if match else 0
            if stop != len(name) or not name:
                raise self.fail(
                    "a board's name is lower-case letters, digits and hyphens",
                    at + 1 + stop,
                    "N1.5",
                )
            try:
                return load_board(name)
            except InvalidBoard as exc:
                raise self.fail(exc.reason, at, exc.rule) from None
        if not rest.startswith("{"):
            raise self.fail("the board is @ and a name, or a board's JSON text", at, "N1.5")
        try:
            data = read_ijson(rest)
        except (ValueError, RecursionError):
            raise self.fail("the embedded board is not I-JSON", at, "N1.5") from None
        try:
            board = board_from_json(data)
        except InvalidBoard as exc:
            raise self.fail(exc.reason, at, exc.rule) from None
        if board.text != rest:
            raise self.fail("an embedded board is written in its canonical text (N4.7)", at, "N1.5")
        shipped = board.shipped_name()
        if shipped is not None:
            raise self.fail(
                f"this board is the shipped board {shipped}: write @{shipped}", at, "N1.5"
            )
        return board

    def _config(self, board: Board, board_at: int) -> Config:
        players = len(self.groups)
        if not 2 <= players <= 4:
            raise self.fail(f"a game has 2 to 4 players, not {players}", 0, "R12.1")
        try:
            make_config(board, players)
        except InvalidConfig as exc:
            raise self.fail(exc.reason, board_at, exc.rule) from None
        seen: set[str] = set()
        for letter_at, letter, _ in self.groups:
            if letter not in board.letters:
                raise self.fail(f"colour {letter} is not a colour of the board", letter_at, "R12.2")
            if letter in seen:
                raise self.fail(f"colour {letter} is played twice", letter_at, "R12.2")
            seen.add(letter)
        return make_config(board, players, tuple(letter for _, letter, _ in self.groups))

    def _places(self, config: Config) -> tuple[tuple[int, ...], ...]:
        stones = []
        for p, (_, _, places) in enumerate(self.groups):
            length = config.lengths[p]
            values = []
            for at, word in places:
                if word == "g":
                    values.append(length)
                    continue
                value = int(word)
                if value >= length:
                    raise self.fail(
                        f"the route has steps 1 to {length - 1}; its goal is written g",
                        at,
                        "R13.2",
                    )
                values.append(value)
            stones.append(tuple(values))
        return tuple(stones)
