"""finishline: the finish-line race, a dice game of counters racing over six rows.

Two to four players race their counters from the hand onto a board of six
rows and forward, row by row, across a finish line beyond row 1; each die
places a counter in its row or moves one of the player's counters out of it.
The rules are in ``finishline/spec/``; states are immutable values, and the
dice are an explicit action, so any game replays exactly.

>>> from finishline import Roll, new_game, parse_action
>>> state = new_game().apply(Roll((2, 5)))
>>> state = state.apply(parse_action('+C2,+A5'))
>>> state
State('..../..0./..../..../0.../.... 0/0 1r')
>>> state.hand
(4, 6)
"""

from finishline.actions import Action, Double, Move, Play, Roll, Sideways
from finishline.board import CELLS, LETTERS, ROWS, Board, Cell, board_from, cell_at
from finishline.config import DEFAULT_COUNTERS, Config
from finishline.errors import (
    GameError,
    IllegalAction,
    InvalidActionValue,
    InvalidConfig,
    InvalidState,
    NotationError,
    RuleError,
)
from finishline.jsonform import (
    action_from_json,
    action_to_json,
    config_from_json,
    config_to_json,
    state_from_json,
    state_to_json,
)
from finishline.layer import GAME, ROLL_OUTCOMES, FinishLine
from finishline.notation import format_action, format_state, parse_action, parse_state
from finishline.state import Event, Perft, Phase, State, Step, new_game, perft

__all__ = [
    "CELLS",
    "DEFAULT_COUNTERS",
    "GAME",
    "LETTERS",
    "ROLL_OUTCOMES",
    "ROWS",
    "Action",
    "Board",
    "Cell",
    "Config",
    "Double",
    "Event",
    "FinishLine",
    "GameError",
    "IllegalAction",
    "InvalidActionValue",
    "InvalidConfig",
    "InvalidState",
    "Move",
    "NotationError",
    "Perft",
    "Phase",
    "Play",
    "Roll",
    "RuleError",
    "Sideways",
    "State",
    "Step",
    "action_from_json",
    "action_to_json",
    "board_from",
    "cell_at",
    "config_from_json",
    "config_to_json",
    "format_action",
    "format_state",
    "new_game",
    "parse_action",
    "parse_state",
    "perft",
    "state_from_json",
    "state_to_json",
]
