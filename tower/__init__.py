"""tower: the rules of *Off to the Tower* (rules source 002) on the game-neutral layer.

A race of stones round a looped track whose board is given as data: throws
of two dice of which one is used, throws again on one's own colour, captures
into a tower that holds one stone, an obstacle at the crossing and goals
reached by an exact throw.  The rules are in ``tower/spec/``; :data:`GAME`
is the game object the layer (:mod:`dicekit`) runs.

>>> from tower import Move, Throw, make_config, new_game
>>> state = new_game(make_config('ours', players=2))
>>> state = state.apply(Throw((6, 1))).apply(Move(0, 6))
>>> state
State('R0,6/B0,0 - 1t @ours')
"""

from dicekit.errors import *  # noqa: F403  (the layer's errors are the game's)
from dicekit.errors import __all__ as _LAYER_ERRORS
from tower import jsonform
from tower.actions import Action, Move, Throw
from tower.board import Board, Colour, Field, board_from_json, board_to_json, load_board
from tower.config import Config, make_config
from tower.errors import InvalidActionValue, InvalidBoard
from tower.jsonform import *  # noqa: F403  (the JSON forms, every one)
from tower.layer import GAME
from tower.notation import format_action, format_state, parse_action, parse_state
from tower.state import Event, Perft, Phase, State, Step, new_game, perft

__all__ = [
    "GAME",
    "Action",
    "Board",
    "Colour",
    "Config",
    "Event",
    "Field",
    "InvalidActionValue",
    "InvalidBoard",
    "Move",
    "Perft",
    "Phase",
    "State",
    "Step",
    "Throw",
    "board_from_json",
    "board_to_json",
    "format_action",
    "format_state",
    "load_board",
    "make_config",
    "new_game",
    "parse_action",
    "parse_state",
    "perft",
    *_LAYER_ERRORS,
    *jsonform.__all__,
]
