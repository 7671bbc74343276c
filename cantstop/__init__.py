"""cantstop: the rules of Sid Sackson's *Can't Stop* as an immutable state machine.

>>> from cantstop import Move, Roll, Rules, Stop, new_game
>>> state = new_game(Rules(players=2))
>>> state = state.apply(Roll((3, 4, 5, 5)))
>>> state.legal_moves()
(Move(columns=(7, 10)), Move(columns=(8, 9)))
>>> state = state.apply(Move((7, 10))).apply(Stop())
>>> state
State('7:1,10:1/- - 1r')
"""

from cantstop.actions import Action, InvalidActionValue, Move, Roll, Stop
from cantstop.board import COLUMNS, MARKERS, STANDARD_HEIGHTS
from cantstop.columnmap import ColumnMap
from cantstop.config import Rules, Variant
from cantstop.dice import ORDERED_ROLLS, pairings, roll_outcomes
from cantstop.errors import (
    CantStopError,
    IllegalAction,
    InvalidRules,
    InvalidState,
    NotationError,
    RuleError,
)
from cantstop.explanation import Explanation, Statement, explain
from cantstop.jsonform import (
    action_from_json,
    action_to_json,
    rules_from_json,
    rules_to_json,
    state_from_json,
    state_to_json,
)
from cantstop.notation import format_action, format_state, parse_action, parse_state
from cantstop.state import Decisions, Event, Perft, Phase, Play, State, Step, new_game, perft

__version__ = "0.1.0"

__all__ = [
    "COLUMNS",
    "MARKERS",
    "ORDERED_ROLLS",
    "STANDARD_HEIGHTS",
    "Action",
    "CantStopError",
    "ColumnMap",
    "Decisions",
    "Event",
    "Explanation",
    "IllegalAction",
    "InvalidActionValue",
    "InvalidRules",
    "InvalidState",
    "Move",
    "NotationError",
    "Perft",
    "Phase",
    "Play",
    "Roll",
    "RuleError",
    "Rules",
    "State",
    "Statement",
    "Step",
    "Stop",
    "Variant",
    "__version__",
    "action_from_json",
    "action_to_json",
    "explain",
    "format_action",
    "format_state",
    "new_game",
    "pairings",
    "parse_action",
    "parse_state",
    "perft",
    "roll_outcomes",
    "rules_from_json",
    "rules_to_json",
    "state_from_json",
    "state_to_json",
]
