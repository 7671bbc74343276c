"""Can't Stop's layer object (cantstop.layer.GAME): rule tags, numbered actions, decisions.

* its tags are Can't Stop's own: a legal action's are :func:`cantstop.tags.action_rules`,
  an illegal one's is the rule the engine refuses it under, whatever Hypothesis draws;
  a choice's rules follow the phase, a roll's legal moves those of
  :func:`cantstop.tags.roll_rules`;
* its action space is the numbering of :mod:`cantstop.envs` (0 stop, 1 roll
  again, 2-12 one sum, 13-78 two sums), and holds every legal move of
  every reachable state;
* the decision to roll again is the player's in DECIDE, even where Variant
  B forbids the stop, and nowhere else.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cantstop import IllegalAction, Move, Phase, Roll, Rules, Stop, Variant, parse_state
from cantstop.layer import GAME
from cantstop.tags import action_rules, roll_rules
from dicekit.nodes import Kind, decisions, kind
from dicekit.protocol import CHANCE, Capability, undeclared
from dicekit.strategies import illegal_actions, legal_actions, reachable_states

STATES = reachable_states(GAME, max_actions=40)


def test_the_game_declares_what_it_has() -> None:
    """Tags, numbered actions and the roll-again decision are declared, and nothing more."""
    assert undeclared(GAME) == ([], [])
    for capability in (Capability.TAGGING, Capability.ACTION_SPACE, Capability.CHANCE_BY_CHOICE):
        assert GAME.info.provides(capability)


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_a_legal_actions_tags_are_the_engines_aspects(data: st.DataObject) -> None:
    """For a legal action, the tags are those cantstop.tags reads from the engine's analysis."""
    state = data.draw(STATES)
    if GAME.is_over(state):
        return
    action = data.draw(legal_actions(GAME, state))
    assert GAME.action_rules(state, action) == tuple(action_rules(state, action))


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_an_illegal_actions_tag_is_the_rule_that_refuses_it(data: st.DataObject) -> None:
    """For an illegal action, the one tag is the rule of the engine's refusal."""
    state = data.draw(STATES)
    action = data.draw(illegal_actions(GAME, state))
    with pytest.raises(IllegalAction) as refusal:
        state.apply(action)
    assert GAME.action_rules(state, action) == (refusal.value.rule,)


@pytest.mark.parametrize(
    ("text", "rules"),
    [
        ("-/- - 0r", ("R3.2",)),
        ("-/- 7:1 0d", ("R3.4", "R11.1")),
        ("-/7:3 7:3 0d B", ("R3.4", "R11.1", "R14.2")),
        ("2:3,3:5,4:7/- - 0x", ("R12.3",)),
    ],
)
def test_a_choices_rules_follow_the_phase(text: str, rules: tuple[str, ...]) -> None:
    """About to roll R3.2; deciding R3.4 and R11.1 (and R14.2 under B); finished R12.3."""
    assert GAME.choice_rules(parse_state(text)) == rules


def test_a_rolls_choice_is_decided_by_the_rules_of_its_legal_moves() -> None:
    """Choosing a move for dice, the rules are roll_rules' for those dice."""
    state = parse_state("-/- 7:2,8:1 0c1256")
    assert GAME.choice_rules(state) == tuple(roll_rules(state, (1, 2, 5, 6)))
    assert "R6.6" in GAME.choice_rules(state)  # four moves: their order is N2's


def test_the_action_space_is_the_numbering_of_the_environments() -> None:
    """0 stop, 1 roll again, then one sum from 2 to 12, then the pairs in order: 79 decisions."""
    envs = pytest.importorskip("cantstop.envs", reason="needs the rl extra")
    space = GAME.action_space(Rules())
    assert len(space) == envs.NUM_ACTIONS == 79
    assert list(space) == [envs.decision(i) for i in range(envs.NUM_ACTIONS)]
    assert space[:3] == (Stop(), CHANCE, Move((2,)))
    assert space[13] == Move((2, 2))
    assert space[-1] == Move((12, 12))


@settings(max_examples=60, deadline=None)
@given(STATES)
def test_every_decision_of_every_reached_state_is_numbered(state: Any) -> None:
    """The numbering holds every decision: moves, the stop and rolling again."""
    space = set(GAME.action_space(state.rules))
    assert set(decisions(GAME, state)) <= space


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("-/- - 0r", ()),
        ("-/- - 0c3455", (Move((7, 10)), Move((8, 9)))),
        ("-/- 7:1 0d", (Stop(), CHANCE)),
        ("-/7:3 7:3 0d B", (CHANCE,)),
    ],
)
def test_rolling_again_is_the_players_decision_after_a_move(text: str, expected: Any) -> None:
    """In DECIDE the player decides to roll again, also when Variant B leaves nothing else."""
    state = parse_state(text)
    assert tuple(decisions(GAME, state)) == expected
    assert kind(GAME, state) is (Kind.DECISION if expected else Kind.CHANCE)
    if state.phase is Phase.DECIDE:
        assert len(GAME.chance_outcomes(state)) == 126
        assert state.rules.variant is not Variant.B or Stop() not in expected
        GAME.apply(state, Roll((1, 1, 1, 1)))  # the roll the decision leads to is legal
