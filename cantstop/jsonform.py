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

from collections.abc import Mapping
from typing import Any

from cantstop.actions import Action, InvalidActionValue, Move, Roll, Stop
from cantstop.errors import InvalidRules, InvalidState, NotationError
from cantstop.game import Phase, State
from cantstop.rules import Rules, Variant

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
    raise TypeError(f"not an action: {action!r}")


def _columns_out(values: Mapping[int, int]) -> dict[str, int]:
    return {str(c): v for c, v in values.items()}


def _fail(message: str, data: object, rule: str = "N3.1") -> NotationError:
    return NotationError(message, repr(data)[:200], 0, rule)


def _object(data: object, keys: set[str], optional: set[str], what: str) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise _fail(f"{what} must be a JSON object", data)
    missing = keys - data.keys()
    if missing:
        raise _fail(f"{what} lacks {sorted(missing)}", data)
    extra = data.keys() - keys - optional
    if extra:
        raise _fail(f"{what} has unknown fields {sorted(extra)}", data)
    return data


def _columns_in(data: object, what: str) -> dict[int, int]:
    if not isinstance(data, dict):
        raise _fail(f"{what} must be an object of column to number", data)
    out: dict[int, int] = {}
    for key, value in data.items():
        if not isinstance(key, str) or not key.isdecimal() or key != str(int(key)):
            raise _fail(f"{what}: {key!r} is not a column number", data)
        if not isinstance(value, int) or isinstance(value, bool):
            raise _fail(f"{what}: column {key} maps to {value!r}, not an integer", data)
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
        raise _fail(f"variant must be null, 'A' or 'B', not {variant!r}", data, "R14.3")
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
        phase = Phase(obj["phase"])
    except (ValueError, TypeError):
        raise _fail(
            f"phase must be one of roll, choose, decide, over, not {obj['phase']!r}", data
        ) from None
    squares = obj["squares"]
    if not isinstance(squares, list) or len(squares) != rules.players:
        raise _fail(
            f"squares must be a list with one object for each of {rules.players} players",
            data,
            "R16.2",
        )
    dice = obj.get("dice")
    if dice is not None and not isinstance(dice, list):
        raise _fail("dice must be a list of four numbers or null", data)
    try:
        state = State(
            rules,
            obj["player"],
            phase,
            None if dice is None else tuple(dice),
            _columns_in(obj["markers"], "markers"),
            tuple(_columns_in(s, "squares") for s in squares),
        )
    except InvalidState as exc:
        raise _fail(exc.reason, data, exc.rule) from None
    if "won" in obj and _columns_in(obj["won"], "won") != dict(state.won):
        raise _fail("won does not match the squares on top spaces", data, "R9.1")
    if "winner" in obj and obj["winner"] != state.winner:
        raise _fail(f"winner is {state.winner!r}, not {obj['winner']!r}", data, "R12.1")
    return state


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
