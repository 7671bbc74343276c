"""The JSON forms of configurations, states and actions, for ports and records (spec N3).

Objects are plain ``dict`` and ``list`` values ready for :func:`json.dumps`;
cells are written by name (``"C2"``).  Every reader accepts exactly what the
writer writes, gives a missing optional field its default, and refuses
anything else with :class:`~finishline.errors.NotationError` naming the rule.

>>> from finishline.notation import parse_state
>>> state = parse_state('..../..0./..../..../01../...1 0/0 0c24')
>>> state_to_json(state)['board']
{'C2': 0, 'A5': 0, 'B5': 1, 'D6': 1}
>>> state_from_json(state_to_json(state)) == state
True
"""

from __future__ import annotations

import json
from typing import Any

from finishline.actions import Action, Double, Move, Play, Roll, Sideways
from finishline.board import CELLS, Cell
from finishline.config import Config
from finishline.errors import InvalidActionValue, InvalidConfig, InvalidState, NotationError, brief
from finishline.state import Phase, State

__all__ = [
    "action_from_json",
    "action_to_json",
    "config_from_json",
    "config_to_json",
    "state_from_json",
    "state_to_json",
]

JSON = dict[str, Any]

#: A number of this many digits or more is no count, player or die of any game.
_GIANT = 10**15


def _fail(message: str, data: object, rule: str = "N3.1") -> NotationError:
    return NotationError(f"{message} in {brief(data)}", brief(data), 0, rule)


def _object(data: object, required: set[str], optional: set[str], what: str, rule: str) -> JSON:
    if not isinstance(data, dict):
        raise _fail(f"{what} must be a JSON object", data, rule)
    missing = sorted(required - data.keys())
    if missing:
        raise _fail(f"{what} lacks the field {', '.join(map(brief, missing))}", data, rule)
    extra = sorted(map(str, data.keys() - required - optional))
    if extra:
        raise _fail(f"{what} has the unknown field {', '.join(map(brief, extra))}", data, rule)
    return data


def _integer(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and -_GIANT < value < _GIANT


def config_to_json(config: Config, *, full: bool = True) -> JSON:
    """Return the JSON object of ``config``: every field, or with ``full=False`` those not default.

    >>> config_to_json(Config(players=3))
    {'players': 3, 'counters': 5}
    >>> config_to_json(Config(players=3), full=False), config_to_json(Config(), full=False)
    ({'players': 3}, {})
    """
    if full:
        return {"players": config.players, "counters": config.counters}
    data: JSON = {}
    if config.players != Config().players:
        data["players"] = config.players
    if not config.standard:
        data["counters"] = config.counters
    return data


def config_from_json(data: object) -> Config:
    """Read a configuration; a missing field takes its default (N3.1).

    >>> config_from_json({}), config_from_json({'players': 4})
    (Config(players=2, counters=6), Config(players=4, counters=4))
    """
    obj = _object(data, set(), {"players", "counters"}, "a configuration", "N3.1")
    for key in ("players", "counters"):
        if key in obj and not _integer(obj[key]):
            rule = "R11.1" if key == "players" else "R11.2"
            if not isinstance(obj[key], int) or isinstance(obj[key], bool):
                rule = "N3.1"
            raise _fail(f"{key} must be an integer, not {brief(obj[key])}", data, rule)
    try:
        if "counters" in obj:
            return Config(obj.get("players", 2), obj["counters"])
        return Config(obj.get("players", 2))
    except InvalidConfig as exc:
        raise _fail(exc.reason, data, exc.rule) from None


def state_to_json(state: State) -> JSON:
    """Return the JSON object of ``state``, with the derived ``hand`` and ``winner`` (N3.1)."""
    return {
        "config": config_to_json(state.config),
        "player": state.player,
        "phase": state.phase.value,
        "dice": None if state.dice is None else list(state.dice),
        "board": {CELLS[c].name: owner for c, owner in enumerate(state.board) if owner is not None},
        "hand": list(state.hand),
        "across": list(state.across),
        "winner": state.winner,
    }


def state_from_json(data: object) -> State:
    """Read a state from its JSON object, checking every invariant (N3.1).

    >>> state_from_json({'config': {}, 'player': 1, 'phase': 'roll', 'board': {'C2': 0},
    ...                  'across': [0, 0]})
    State('..../..0./..../..../..../.... 0/0 1r')
    """
    obj = _object(
        data,
        {"config", "player", "phase", "board", "across"},
        {"dice", "hand", "winner"},
        "a state",
        "N3.1",
    )
    config = config_from_json(obj["config"])
    n = config.players
    phase_text = obj["phase"]
    phases = {phase.value: phase for phase in Phase}
    if not isinstance(phase_text, str) or phase_text not in phases:
        raise _fail(f"phase must be roll, choose or over, not {brief(phase_text)}", data)
    phase = phases[phase_text]
    player = obj["player"]
    if not _integer(player):
        raise _fail(f"player must be an integer, not {brief(player)}", data)
    across = obj["across"]
    if not isinstance(across, list) or len(across) != n or not all(map(_integer, across)):
        raise _fail(f"across must be a list of {n} integers, one for each player", data)
    board_data = obj["board"]
    if not isinstance(board_data, dict):
        raise _fail("board must be an object from cell to player", data)
    board: list[int | None] = [None] * 24
    for key, owner in board_data.items():
        if not isinstance(key, str) or key not in Cell.__members__:
            raise _fail(f"board: {brief(key)} is not a cell A1 to D6", data)
        if not _integer(owner):
            raise _fail(f"board: {key} maps to {brief(owner)}, not a player", data)
        board[Cell[key]] = owner
    dice = obj.get("dice")
    if dice is not None and (
        not isinstance(dice, list) or len(dice) != 2 or not all(map(_integer, dice))
    ):
        raise _fail(f"dice must be null or a list of two numbers, not {brief(dice)}", data)
    if not 0 <= player < n:
        raise _fail(f"player must be from 0 to {n - 1}, not {player}", data, "R12.4")
    for c, owner in enumerate(board):
        if owner is not None and not 0 <= owner < n:
            raise _fail(f"board: {CELLS[c]} names player {owner}, who does not exist", data)
    try:
        state = State(
            config,
            player,
            phase,
            None if dice is None else (dice[0], dice[1]),
            tuple(board),
            tuple(across),
        )
    except InvalidState as exc:
        raise _fail(exc.reason, data, exc.rule) from None
    if "hand" in obj and obj["hand"] != list(state.hand):
        raise _fail(
            f"hand is {json.dumps(list(state.hand))}, not {brief(obj['hand'])}", data, "R12.3"
        )
    if "winner" in obj and obj["winner"] != state.winner:
        winner = obj["winner"]
        if winner is not None and not _integer(winner):
            raise _fail(f"winner must be null or a player, not {brief(winner)}", data)
        raise _fail(f"winner is {json.dumps(state.winner)}, not {brief(winner)}", data, "R10.1")
    return state


def action_to_json(action: Action) -> JSON:
    """Return the JSON object of ``action`` (N3.2).

    >>> action_to_json(Double(Cell.D6))
    {'type': 'double', 'cell': 'D6'}
    """
    if isinstance(action, Roll):
        return {"type": "roll", "dice": list(action.dice)}
    if isinstance(action, Play):
        return {
            "type": "play",
            "moves": [
                {"cell": move.cell.name, "enter": move.enter, "rows": move.rows}
                for move in action.moves
            ],
        }
    if isinstance(action, Sideways):
        return {"type": "sideways", "from": action.cell.name, "to": action.to.name}
    if isinstance(action, Double):
        return {"type": "double", "cell": action.cell.name}
    raise TypeError(f"not an action: {brief(action)}")


_ACTION_FIELDS = {
    "roll": {"type", "dice"},
    "play": {"type", "moves"},
    "sideways": {"type", "from", "to"},
    "double": {"type", "cell"},
}


def action_from_json(data: object) -> Action:
    """Read an action from its JSON object (N3.2).

    >>> action_from_json({'type': 'sideways', 'from': 'B5', 'to': 'C5'})
    Sideways(cell=<Cell.B5: 17>, to=<Cell.C5: 18>)
    """
    kind = data.get("type") if isinstance(data, dict) else None
    if not isinstance(kind, str) or kind not in _ACTION_FIELDS:
        raise _fail(
            "an action is an object whose type is roll, play, sideways or double", data, "N3.2"
        )
    obj = _object(data, _ACTION_FIELDS[kind], set(), f"a {kind}", "N3.2")
    try:
        if kind == "roll":
            dice = obj["dice"]
            if not isinstance(dice, list):
                raise _fail(f"dice must be a list of two numbers, not {brief(dice)}", data, "N3.2")
            if len(dice) != 2:
                raise _fail("a roll is two dice", data, "R4.1")
            return Roll((dice[0], dice[1]))
        if kind == "play":
            return _play(obj["moves"], data)
        if kind == "sideways":
            return Sideways(_cell(obj["from"], data), _cell(obj["to"], data))
        return Double(_cell(obj["cell"], data))
    except InvalidActionValue as exc:
        raise _fail(exc.reason, data, exc.rule) from None


def _cell(value: object, data: object) -> Cell:
    if not isinstance(value, str) or value not in Cell.__members__:
        raise _fail(f"{brief(value)} is not a cell A1 to D6", data, "N3.2")
    return Cell[value]


def _play(moves: object, data: object) -> Play:
    if not isinstance(moves, list) or not 1 <= len(moves) <= 2:
        raise _fail("moves must be a list of one or two moves", data, "N3.2")
    read: list[Move] = []
    for item in moves:
        move = _object(item, {"cell", "enter", "rows"}, set(), "a move", "N3.2")
        if not isinstance(move["enter"], bool):
            raise _fail(f"enter must be true or false, not {brief(move['enter'])}", data, "N3.2")
        if not _integer(move["rows"]):
            raise _fail(f"rows must be an integer, not {brief(move['rows'])}", data, "N3.2")
        read.append(Move(_cell(move["cell"], data), enter=move["enter"], rows=move["rows"]))
    play = Play(tuple(read))
    if list(play.moves) != read:
        raise _fail("the moves of a play are listed in the order of N2.3", data, "N2.3")
    return play
