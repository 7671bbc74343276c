"""The JSON forms of configurations, states and actions (N3), with exact round trips.

Readers take a value as :func:`json.loads` returns it and raise, as the
protocol's readers do, only :class:`~dicekit.errors.NotationError` (position
0, the value quoted) or, for a configuration the rules refuse,
:class:`~dicekit.errors.InvalidConfig`; either names the rule, that of the
form or that a well-formed value breaks.

>>> from tower import parse_state
>>> data = state_to_json(parse_state('R12/B0,5 R 1c35 @ours'))
>>> data['stones'], data['tower']
([{'start': 0, 'track': [12], 'goal': 0}, {'start': 1, 'track': [5], 'goal': 0}], 0)
>>> state_from_json(data) == parse_state('R12/B0,5 R 1c35 @ours')
True
"""

from __future__ import annotations

from typing import Any

from dicekit.errors import InvalidConfig, InvalidState, RuleError
from tower.actions import Action, Move, Throw
from tower.board import Board, board_from_json, board_to_json, load_board
from tower.config import DEFAULT_BOARD, Config, make_config
from tower.errors import InvalidActionValue, NotationError, shown
from tower.invariants import winners
from tower.state import Phase, State

__all__ = [
    "action_from_json",
    "action_to_json",
    "config_from_json",
    "config_to_json",
    "state_from_json",
    "state_to_json",
]

_PHASES = {phase.value: phase for phase in Phase}


def _fail(message: str, value: object, rule: str) -> NotationError:
    error = NotationError(message, shown(value), 0, rule)
    error.args = (f"{message} (rule {rule}) in {shown(value)}",)
    return error


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def config_to_json(config: Config, *, full: bool = True) -> dict[str, Any]:
    """Return the JSON form of ``config`` (N3.1); ``full=False`` keeps what is not default.

    >>> config_to_json(make_config('small', players=3), full=False)
    {'board': 'small', 'players': 3}
    """
    name = config.board.shipped_name()
    board: Any = name if name is not None else board_to_json(config.board)
    data: dict[str, Any] = {
        "board": board,
        "players": config.players,
        "colours": list(config.colours),
    }
    if full:
        return data
    if board == DEFAULT_BOARD:
        del data["board"]
    if config.players == 2:
        del data["players"]
    if config.colours == config.board.letters[: config.players]:
        del data["colours"]
    return data


def config_from_json(data: object) -> Config:
    """Return the configuration of a JSON object; missing fields take their defaults (N3.1)."""
    if not isinstance(data, dict):
        raise _fail("a configuration is a JSON object", data, "N3.1")
    for key in data:
        if key not in ("board", "players", "colours"):
            raise _fail(f"unknown field {shown(key)} in a configuration", data, "N3.1")
    board_value = data.get("board", DEFAULT_BOARD)
    board: Board
    if isinstance(board_value, str):
        board = load_board(board_value)
    elif isinstance(board_value, dict):
        board = board_from_json(board_value)
    else:
        raise _fail("the board is a shipped board's name or a board object", board_value, "N3.1")
    players = data.get("players", 2)
    if not _is_int(players):
        raise _fail("players is an integer", players, "N3.1")
    colours = data.get("colours")
    if colours is not None and (
        not isinstance(colours, list) or not all(isinstance(c, str) for c in colours)
    ):
        raise _fail("colours is a list of colour letters", colours, "N3.1")
    return make_config(board, players, None if colours is None else tuple(colours))


def state_to_json(state: State) -> dict[str, Any]:
    """Return the JSON form of ``state`` (N3.2)."""
    config = state.config
    stones = []
    for p, places in enumerate(state.stones):
        length = config.lengths[p]
        stones.append(
            {
                "start": places.count(0),
                "track": [place for place in places if 0 < place < length],
                "goal": places.count(length),
            }
        )
    return {
        "config": config_to_json(config),
        "player": state.player,
        "phase": state.phase.value,
        "dice": None if state.dice is None else list(state.dice),
        "stones": stones,
        "tower": state.tower,
        "winner": state.winner,
    }


def state_from_json(data: object) -> State:
    """Return the state of a JSON object (N3.2); raise naming the rule of any fault."""
    if not isinstance(data, dict):
        raise _fail("a state is a JSON object", data, "N3.2")
    for key in data:
        if key not in ("config", "player", "phase", "dice", "stones", "tower", "winner"):
            raise _fail(f"unknown field {shown(key)} in a state", data, "N3.2")
    for key in ("config", "player", "phase", "stones"):
        if key not in data:
            raise _fail(f"a state needs the field {shown(key)}", data, "N3.2")
    config = config_from_json(data["config"])
    try:
        return _state(data, config)
    except (NotationError, InvalidConfig):
        raise
    except RuleError as exc:  # a state the rules refuse is a reader's error, as N3.2 says
        raise _fail(exc.reason, data, exc.rule) from None


def _state(data: dict[str, Any], config: Config) -> State:
    """Return the state of ``data``, whose fields are all there, on ``config``."""
    player, phase_name = data["player"], data["phase"]
    if not _is_int(player):
        raise _fail("player is an integer", player, "N3.2")
    if not isinstance(phase_name, str) or phase_name not in _PHASES:
        raise _fail("phase is 'throw', 'choose' or 'over'", phase_name, "N3.2")
    dice = data.get("dice")
    if dice is not None and (
        not isinstance(dice, list) or len(dice) != 2 or not all(map(_is_int, dice))
    ):
        raise _fail("dice are null or a list of two integers", dice, "N3.2")
    tower = data.get("tower")
    if tower is not None and not _is_int(tower):
        raise _fail("tower is null or a player's number", tower, "N3.2")
    stones = _read_stones(data["stones"], config)
    winner = data.get("winner")
    if winner is not None and not _is_int(winner):
        raise _fail("winner is null or a player's number", winner, "N3.2")
    state = State(
        config,
        player,
        _PHASES[phase_name],
        None if dice is None else (dice[0], dice[1]),
        stones,
        tower,
    )
    if "winner" in data and winner != state.winner:
        done = winners(config, state.stones, state.tower)
        raise RuleError(
            f"winner is {shown(winner)}, but the stones say {shown(done[0] if done else None)}",
            "R11.1",
        )
    return state


def _read_stones(value: object, config: Config) -> tuple[tuple[int, ...], ...]:
    if not isinstance(value, list) or len(value) != config.players:
        raise _fail(f"stones is a list of {config.players} objects, one per player", value, "N3.2")
    stones = []
    for p, item in enumerate(value):
        if not isinstance(item, dict) or set(item) != {"start", "track", "goal"}:
            raise _fail("a player's stones are an object with start, track and goal", item, "N3.2")
        start, track, goal = item["start"], item["track"], item["goal"]
        if not (_is_int(start) and start >= 0 and _is_int(goal) and goal >= 0):
            raise _fail("start and goal are counts from 0", item, "N3.2")
        if not isinstance(track, list) or not all(_is_int(t) and t >= 1 for t in track):
            raise _fail("track is a list of steps from 1", item, "N3.2")
        length = config.lengths[p]
        if start + len(track) + goal > config.stones:
            name = config.board.colour(config.colours[p]).name
            raise InvalidState(
                f"{name} has {shown(start + len(track) + goal)} stones outside the tower; "
                f"each player has {config.stones}",
                "R13.1",
            )
        for step in track:
            if step >= length:
                raise InvalidState(
                    f"the route has steps 1 to {length - 1}; "
                    f"a stone on step {shown(step)} is off it",
                    "R13.2",
                )
        stones.append((0,) * start + tuple(sorted(track)) + (length,) * goal)
    return tuple(stones)


def action_to_json(action: Action) -> dict[str, Any]:
    """Return the JSON form of ``action`` (N3.3)."""
    if isinstance(action, Throw):
        return {"type": "throw", "dice": list(action.dice)}
    return {"type": "move", "from": action.step, "points": action.points}


def action_from_json(data: object) -> Action:
    """Return the action of a JSON object (N3.3).

    >>> action_from_json({"type": "move", "from": 12, "points": 3})
    Move(step=12, points=3)
    """
    if not isinstance(data, dict):
        raise _fail("an action is a JSON object", data, "N3.3")
    kind = data.get("type")
    forms = {"throw": ("type", "dice"), "move": ("type", "from", "points")}
    keys = forms.get(kind) if isinstance(kind, str) else None
    if keys is None:
        raise _fail("an action's type is 'throw' or 'move'", data, "N3.3")
    for key in data:
        if key not in keys:
            raise _fail(f"unknown field {shown(key)} in a {kind}", data, "N3.3")
    for key in keys:
        if key not in data:
            raise _fail(f"a {kind} needs the field {shown(key)}", data, "N3.3")
    try:
        if kind == "throw":
            dice = data["dice"]
            if not isinstance(dice, list) or not all(map(_is_int, dice)):
                raise _fail("dice are a list of integers", dice, "N3.3")
            if len(dice) != 2:
                raise _fail("a throw has two dice", dice, "N2.2")
            return Throw((dice[0], dice[1]))
        step, points = data["from"], data["points"]
        if not _is_int(step) or not _is_int(points):
            raise _fail("from and points are integers", data, "N3.3")
        return Move(step, points)
    except InvalidActionValue as exc:
        raise _fail(exc.reason, data, exc.rule) from None
