"""Which rules decide an answer: the rule tags of the finish-line race, for the layer's diagnosis.

The tags are read from the engine's own decisions, never worked out again:
the engine decides an action through one path (``State._decide``) that,
when asked, adds to a set the rules it applies, and the legal actions of a
choosing state come with the record of the rules that shaped them
(:class:`finishline.decide.Trace`).  An illegal action's tags begin with
the rule that refuses it, the rule of its
:class:`~dicekit.errors.IllegalAction`.  Tags are listed in the spec's
order (:func:`rule_key`).

>>> from finishline.notation import parse_action, parse_state
>>> state = parse_state('..../..../..../..../0.../0... 0/0 0c56')
>>> action_rules(state, parse_action('A5^,A6^'))  # only the 5 first frees A5
('R3.4', 'R4.4', 'R6.1')
>>> action_rules(state, parse_action('+A4'))
('R4.2',)
>>> choice_rules(parse_state('..../..../..../0.../0.../.... 4/0 0c25'))
('R4.2', 'R5.1', 'R6.4', 'R7.1', 'R7.4', 'R8.3', 'N2.6')
"""

from __future__ import annotations

from finishline.actions import Action
from finishline.errors import IllegalAction
from finishline.state import Phase, State

__all__ = ["action_rules", "choice_rules", "rule_key"]


def rule_key(rule: str) -> tuple[bool, tuple[int, ...]]:
    """Return the sort key of a rule id in the spec's order: chapter R before N, then by number.

    >>> sorted(["N2.6", "R10.1", "R4.2"], key=rule_key)
    ['R4.2', 'R10.1', 'N2.6']
    """
    return rule[0] != "R", tuple(int(part) for part in rule[1:].split("."))


def _in_spec_order(ids: set[str]) -> tuple[str, ...]:
    return tuple(sorted(ids, key=rule_key))


def action_rules(state: State, action: Action) -> tuple[str, ...]:
    """Return the ids of the rules that decide what ``action`` does in ``state``, in spec order.

    They are the rules the engine applies when it decides the action: for an
    illegal action, the rule that refuses it comes first, the one
    :class:`~finishline.errors.IllegalAction` names.
    """
    why: set[str] = set()
    try:
        state._decide(action, why)
    except IllegalAction as refusal:
        return (refusal.rule, *_in_spec_order(why - {refusal.rule}))
    return _in_spec_order(why)


def choice_rules(state: State) -> tuple[str, ...]:
    """Return the ids of the rules that decide which actions are legal in ``state``.

    >>> from finishline.state import new_game
    >>> choice_rules(new_game())
    ('R3.2',)
    """
    if state.phase is Phase.OVER:
        return ("R10.2",)
    if state.phase is Phase.ROLL:
        return ("R3.2",)
    return _in_spec_order(state._trace().choice)
