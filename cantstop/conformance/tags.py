"""The rule tags of the conformance vectors, kept at this path: see :mod:`cantstop.tags`.

>>> from cantstop import tags
>>> action_rules is tags.action_rules
True
"""

from cantstop.tags import (
    Aspect,
    action_aspects,
    action_rules,
    board_rule,
    game_rules,
    illegal_move_rule,
    legal_move_rules,
    pairing_rules,
    roll_rules,
    rule_key,
    sorted_rules,
    state_rules,
)

__all__ = [
    "Aspect",
    "action_aspects",
    "action_rules",
    "board_rule",
    "game_rules",
    "illegal_move_rule",
    "legal_move_rules",
    "pairing_rules",
    "roll_rules",
    "rule_key",
    "sorted_rules",
    "state_rules",
]
