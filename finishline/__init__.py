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

from dicekit.errors import *  # noqa: F403  (the layer's errors are the game's)
from dicekit.errors import __all__ as _LAYER_ERRORS
from finishline import jsonform
from finishline.actions import Action, Double, Move, Play, Roll, Sideways
from finishline.board import CELLS, LETTERS, ROWS, Board, Cell, board_from, cell_at
from finishline.config import DEFAULT_COUNTERS, Config
from finishline.errors import InvalidActionValue
from finishline.jsonform import *  # noqa: F403  (the JSON forms, every one)
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
    "InvalidActionValue",
    "Move",
    "Perft",
    "Phase",
    "Play",
    "Roll",
    "Sideways",
    "State",
    "Step",
    "board_from",
    "cell_at",
    "format_action",
    "format_state",
    "new_game",
    "parse_action",
    "parse_state",
    "perft",
    *_LAYER_ERRORS,
    *jsonform.__all__,
]
