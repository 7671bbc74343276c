"""The JSON form of rules, states and actions, for ports and records (spec N3).

Column numbers are JSON object keys, so they are written as strings.  Objects
are plain ``dict``/``list`` values ready for :func:`json.dumps`.

>>> from cantstop import new_game, Roll
>>> state = new_game().apply(Roll((3, 4, 5, 5)))
>>> state_to_json(state)['dice']
[3, 4, 5, 5]
>>> state_from_json(state_to_json(state)) == state
True
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from cantstop.actions import Action, InvalidActionValue, Move, Roll, Stop
from cantstop.config import Rules, Variant
from cantstop.errors import InvalidRules, InvalidState, NotationError
from cantstop.state import Phase, State
from dicekit.quote import brief, brief_digits, brief_json, brief_names

__all__ = [
    "action_from_json",
    "action_to_json",
    "rules_from_json",
    "rules_to_json",
    "state_from_json",
    "state_to_json",
]

JSON = dict[str, Any]


def rules_to_json(rules: Rules) -> JSON:
    """Return the JSON object for ``rules``; every field is written.

    >>> rules_to_json(Rules(players=3, heights={2: 3, 7: 13}, columns_to_win=1))
    {'players': 3, 'columns_to_win': 1, 'heights': {'2': 3, '7': 13}, 'variant': None}
    """
    return {
        "players": rules.players,
        "columns_to_win": rules.columns_to_win,
        "heights": {str(c): h for c, h in rules.heights.items()},
        "variant": None if rules.variant is None else rules.variant.value,
    }


def state_to_json(state: State) -> JSON:
    """Return the JSON object for ``state``, including the derived ``won`` and ``winner``.

    >>> from cantstop import parse_state
    >>> data = state_to_json(parse_state('7:2/- 7:3,10:1 0c2346'))
    >>> data['phase'], data['dice'], data['markers'], data['squares']
    ('choose', [2, 3, 4, 6], {'7': 3, '10': 1}, [{'7': 2}, {}])
    """
    return {
        "rules": rules_to_json(state.rules),
        "player": state.player,
        "phase": state.phase.value,
        "dice": None if state.dice is None else list(state.dice),
        "markers": _columns_out(state.markers),
        "squares": [_columns_out(s) for s in state.squares],
        "won": _columns_out(state.won),
        "winner": state.winner,
    }


def action_to_json(action: Action) -> JSON:
    """Return the JSON object for ``action``.

    >>> action_to_json(Move((7, 10)))
    {'type': 'move', 'columns': [7, 10]}
    """
    if isinstance(action, Roll):
        return {"type": "roll", "dice": list(action.dice)}
    if isinstance(action, Move):
        return {"type": "move", "columns": list(action.columns)}
    if isinstance(action, Stop):
        return {"type": "stop"}
    raise TypeError(f"not an action: {brief(action)}")


def _columns_out(values: Mapping[int, int]) -> dict[str, int]:
    return {str(c): v for c, v in values.items()}


def _fail(message: str, data: object, rule: str = "N3.1") -> NotationError:
    return NotationError(message, brief(data), 0, rule, pointed=False)


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def _object(data: object, keys: set[str], optional: set[str], what: str) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise _fail(f"{what} must be a JSON object", data)
    missing = keys - data.keys()
    if missing:
        word = "field" if len(missing) == 1 else "fields"
        raise _fail(f"{what} lacks the {word} {brief_names(missing)}", data)
    extra = data.keys() - keys - optional
    if extra:
        word = "field" if len(extra) == 1 else "fields"
        raise _fail(f"{what} has the unknown {word} {brief_names(extra)}", data)
    return data


#: A column number as an object key: decimal, no sign, no leading zero (N3.1).
_COLUMN_KEY = re.compile(r"(?:0|[1-9][0-9]*)\Z")

#: A number of this many digits or more is no column, space, height or player of any game.
_GIANT = 10**15

#: For each map of the JSON form, the rule its columns break when they are off the board.
_OFF_BOARD = {"heights": "R15.3", "markers": "R16.2", "squares": "R16.2", "won": "R9.1"}


def _columns_in(data: object, what: str) -> dict[int, int]:
    """Read an object from column to number; columns and numbers too long to mean anything fail.

    A key of more digits than any column has is reported under the rule a
    column off the board breaks, without converting it (a key of thousands of
    digits is more than ``int`` will read).
    """
    if not isinstance(data, dict):
        raise _fail(f"{what} must be an object of column to number", data)
    out: dict[int, int] = {}
    for key, value in data.items():
        if not isinstance(key, str) or not _COLUMN_KEY.match(key):
            raise _fail(f"{what}: {brief_json(key)} is not a column number", data)
        if len(key) > 4:
            rule = _OFF_BOARD[what]
            raise _fail(f"{what}: column {brief_digits(key)} is not on the board", data, rule)
        if not isinstance(value, int) or isinstance(value, bool):
            raise _fail(f"{what}: column {key} maps to {brief_json(value)}, not an integer", data)
        if what != "heights" and not -_GIANT < value < _GIANT:
            rule = _OFF_BOARD[what]
            raise _fail(
                f"{what}: column {key} maps to {brief_json(value)}, which no game reaches",
                data,
                rule,
            )
        out[int(key)] = value
    return out


def rules_from_json(data: object) -> Rules:
    """Read rules from their JSON object; missing fields take their defaults.

    >>> rules_from_json({})
    Rules(players=2, columns_to_win=3, heights=standard, variant=None)
    >>> rules_from_json({'players': 3, 'variant': 'B'}).variant
    <Variant.B: 'B'>
    """
    obj = _object(data, set(), {"players", "columns_to_win", "heights", "variant"}, "rules")
    default = Rules()
    variant = obj.get("variant")
    if variant not in (None, "A", "B"):
        raise _fail(f"variant must be null, 'A' or 'B', not {brief_json(variant)}", data, "R14.3")
    try:
        return Rules(
            players=obj.get("players", default.players),
            columns_to_win=obj.get("columns_to_win", default.columns_to_win),
            heights=_columns_in(obj["heights"], "heights") if "heights" in obj else default.heights,
            variant=None if variant is None else Variant(variant),
        )
    except InvalidRules as exc:
        raise _fail(exc.reason, data, exc.rule) from None


def state_from_json(data: object) -> State:
    """Read a state from its JSON object, checking every invariant.

    ``won`` and ``winner`` may be left out; when given they must agree with the
    squares.

    >>> state_from_json({'rules': {}, 'player': 1, 'phase': 'roll', 'markers': {},
    ...                  'squares': [{'7': 2}, {}]})
    State('7:2/- - 1r')
    """
    obj = _object(
        data, {"rules", "player", "phase", "markers", "squares"}, {"dice", "won", "winner"}, "state"
    )
    rules = rules_from_json(obj["rules"])
    try:
        # Only a text is looked up: Phase() would quote any other value in full.
        phase = Phase(obj["phase"] if isinstance(obj["phase"], str) else None)
    except ValueError:
        raise _fail(
            f"phase must be one of roll, choose, decide, over, not {brief_json(obj['phase'])}",
            data,
        ) from None
    squares = obj["squares"]
    if not isinstance(squares, list) or len(squares) != rules.players:
        raise _fail(
            f"squares must be a list of {_plural(rules.players, 'object')}, one for each player",
            data,
            "R16.2",
        )
    dice = obj.get("dice")
    if dice is not None and not isinstance(dice, list):
        raise _fail("dice must be a list of four numbers or null", data)
    if phase is Phase.CHOOSE and dice is not None and (len(dice) > 4 or not all(map(_plain, dice))):
        # The state's own check would quote the dice in full, however many or deep.
        raise _fail(
            f"a state choosing a move needs four dice 1-6, not {brief_json(dice)}", data, "R4.1"
        )
    player = obj["player"]
    if not _plain(player):
        raise _fail(
            f"player must be from 0 to {rules.players - 1}, not {brief_json(player)}",
            data,
            "R16.5",
        )
    try:
        state = State(
            rules,
            player,
            phase,
            None if dice is None else tuple(dice),
            _columns_in(obj["markers"], "markers"),
            tuple(_columns_in(s, "squares") for s in squares),
        )
    except InvalidState as exc:
        raise _fail(exc.reason, data, exc.rule) from None
    if "won" in obj and _columns_in(obj["won"], "won") != dict(state.won):
        raise _fail("won does not match the squares on top spaces", data, "R9.1")
    if "winner" in obj:
        winner = obj["winner"]
        if winner is not None and (not isinstance(winner, int) or isinstance(winner, bool)):
            raise _fail(f"winner must be null or a player, not {brief_json(winner)}", data)
        if winner != state.winner:
            raise _fail(
                f"winner is {json.dumps(state.winner)}, not {brief_json(winner)}", data, "R12.1"
            )
    return state


def _plain(value: object) -> bool:
    """Whether the state's checks may quote ``value`` in full: a short scalar."""
    if isinstance(value, int):
        return -_GIANT < value < _GIANT
    return value is None or isinstance(value, float) or (isinstance(value, str) and len(value) < 40)


def action_from_json(data: object) -> Action:
    """Read an action from its JSON object.

    >>> action_from_json({'type': 'move', 'columns': [7, 10]})
    Move(columns=(7, 10))
    >>> action_from_json({'type': 'stop'})
    Stop()
    """
    if not isinstance(data, dict) or data.get("type") not in ("roll", "move", "stop"):
        raise _fail("an action is an object whose type is roll, move or stop", data, "N3.2")
    kind = data["type"]
    try:
        if kind == "roll":
            obj = _object(data, {"type", "dice"}, set(), "roll")
            if not isinstance(obj["dice"], list):
                raise _fail("dice must be a list of four numbers", data, "R4.1")
            return Roll(tuple(obj["dice"]))
        if kind == "move":
            obj = _object(data, {"type", "columns"}, set(), "move")
            if not isinstance(obj["columns"], list):
                raise _fail("columns must be a list of one or two sums", data, "R4.3")
            move = Move(tuple(obj["columns"]))
            if list(move.columns) != obj["columns"]:
                raise _fail("the columns of a move are listed in increasing order", data, "N3.2")
            return move
        _object(data, {"type"}, set(), "stop")
        return Stop()
    except InvalidActionValue as exc:
        raise _fail(exc.reason, data, exc.rule) from None
