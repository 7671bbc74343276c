"""The rule tags (``tower.tags``): exactly the rules whose other readings change an answer.

The engine's decisions record which other readings of the rules
(``tower.tags``) are at stake; the oracle (``tests/tower/oracle.py``), a
second implementation, plays each reading as a flaw of its own.  On random
boards and positions, and on every example of the spec, the readings the
engine records for an answer are exactly those whose flaw changes the
oracle's answer: a tag is never claimed for a rule that changes nothing, and
a rule that changes something is never missed.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dicekit.protocol import Capability
from dicekit.spec import load_game_spec
from tests.tower import oracle
from tests.tower.test_engine import TINY_STATE
from tower import (
    GAME,
    IllegalAction,
    Move,
    Phase,
    State,
    Throw,
    make_config,
    parse_action,
    parse_state,
)
from tower.strategies import moves, random_game, reachable_states, throws
from tower.tags import (
    READINGS,
    UNTAGGED,
    action_readings,
    action_rules,
    choice_readings,
    choice_rules,
    rule_key,
)

Action = Move | Throw

SPEC = load_game_spec(GAME)
RULES = {rule for rule, entry in SPEC.rules.items() if not entry.is_chapter}
PHASE_RULES = {"R3.4", "R11.2"}


def oracle_choice(state: State) -> set[str]:
    """Return the readings whose flaw changes the oracle's list of legal moves."""
    t, pos = oracle.table(state), oracle.position(state)
    base = oracle.moves(t, pos)
    return {f for f in READINGS if oracle.moves(t, pos, frozenset({f})) != base}


def oracle_action(state: State, action: Action) -> set[str]:
    """Return the readings whose flaw changes the oracle's answer to ``action``."""
    t, pos = oracle.table(state), oracle.position(state)
    base = oracle.answer(t, pos, action)
    return {f for f in READINGS if oracle.answer(t, pos, action, frozenset({f})) != base}


def tried(state: State, rng: random.Random) -> list[Action]:
    """Return actions worth tagging in ``state``: every move of its stones, and throws."""
    if state.phase is Phase.THROW:
        return [Throw((rng.randint(1, 6), rng.randint(1, 6))), Throw((6, rng.randint(1, 6)))]
    places = [*sorted(set(state.stones[state.player])), 0]
    found: list[Action] = [Move(p, d) for p in dict.fromkeys(places) for d in range(1, 7)]
    return [*found, Throw((rng.randint(1, 6), rng.randint(1, 6)))]


def check(state: State, action: Action | None = None) -> tuple[str, ...]:
    """Assert that the engine's readings are the oracle's; return the tags."""
    if action is None:
        if state.phase is Phase.CHOOSE:
            assert set(choice_readings(state)) == oracle_choice(state), state
        tags = choice_rules(state)
    else:
        assert set(action_readings(state, action)) == oracle_action(state, action), (state, action)
        tags = action_rules(state, action)
    assert set(tags) <= RULES
    assert list(tags[1:]) == sorted(set(tags[1:]), key=rule_key)
    return tags


@st.composite
def positions_and_actions(draw: st.DrawFn) -> tuple[State, Action]:
    """Draw a reachable state on a drawn board, and a move of one of its stones or any action."""
    state = draw(reachable_states())
    places = sorted(set(state.stones[state.player])) or [0]
    near = st.builds(Move, st.sampled_from(places), st.integers(1, 6))
    return state, draw(st.one_of(near, near, moves(), throws()))


@given(positions_and_actions())
def test_action_tags_name_the_readings_whose_flaw_changes_the_answer(
    case: tuple[State, Action],
) -> None:
    """A reading is recorded for an action exactly when the flawed oracle answers otherwise."""
    check(*case)


@given(reachable_states())
def test_choice_tags_name_the_readings_whose_flaw_changes_the_moves(state: State) -> None:
    """A reading is recorded for a state's moves exactly when the flawed oracle lists others."""
    check(state)


@given(reachable_states(), st.one_of(moves(), throws()))
def test_a_refused_action_is_tagged_first_with_the_rule_that_refuses_it(
    state: State, action: Action
) -> None:
    """An illegal action's first tag is the rule its IllegalAction names; each tag is a rule."""
    tags = action_rules(state, action)
    assert set(tags) <= RULES
    if isinstance(action, Throw):
        legal = state.phase is Phase.THROW
    else:
        legal = action in state.legal_moves()
    if legal:
        state.apply(action)
        return
    with pytest.raises(IllegalAction) as refused:
        state.apply(action)
    assert tags[0] == refused.value.rule
    assert refused.value.rule not in tags[1:]


def spec_cases() -> Iterator[tuple[State, Action | None]]:
    """Yield every state of the spec's examples, with each action it takes, and alone."""
    for example in SPEC.examples:
        text = example.get("state")
        if text is None:
            continue
        state = parse_state(text)
        words = (example.get("actions") or example.get("action") or "").split()
        yield state, None
        for word in words:
            action = parse_action(word)
            yield state, action
            try:
                state = state.apply(action)
            except IllegalAction:
                break
            yield state, None


def game_cases(seeds: range) -> Iterator[tuple[State, Action | None]]:
    """Yield the states of seeded games on both boards and the tiny one, and actions in each."""
    configs = [
        make_config("ours", 2),
        make_config("ours", 3),
        make_config("ours", 4),
        make_config("small", 2),
        make_config("small", 3, ("G", "R", "Y")),
        make_config("small", 4, ("Y", "B", "G", "R")),
        parse_state(TINY_STATE).config,
    ]
    rng = random.Random(7)
    for config in configs:
        for seed in seeds:
            for state in random_game(config, seed, 400, seed):
                yield state, None
                for action in tried(state, rng):
                    yield state, action


def test_every_rule_that_decides_an_answer_is_tagged_and_every_other_says_why() -> None:
    """On the spec's examples and seeded games, every reading is at stake somewhere.

    The rules tagged are the rules of the readings and the phase rules; every
    other rule of the spec is in UNTAGGED, which says why, and no tagged rule is.
    """
    tagged: set[str] = set()
    recorded: set[str] = set()
    for state, action in [*spec_cases(), *game_cases(range(2))]:
        tagged.update(check(state, action))
        if action is None:
            recorded.update(choice_readings(state))
        else:
            recorded.update(action_readings(state, action))
    assert recorded == set(READINGS)
    assert tagged == {r.rule for r in READINGS.values()} | PHASE_RULES
    untagged = {r for r in RULES if r in UNTAGGED or r.split(".")[0] in UNTAGGED}
    assert untagged == RULES - tagged
    assert set(UNTAGGED) <= set(SPEC.rules)


def test_the_phase_rules_tag_the_states_without_dice() -> None:
    """About to throw only a throw is legal (R3.4); after the end nothing is (R11.2)."""
    throwing = parse_state("R0,0/B0,0 - 0t @ours")
    over = parse_state("Rg,g/B0,12 - 0x @ours")
    assert choice_rules(throwing) == ("R3.4",)
    assert choice_rules(over) == ("R11.2",)
    assert action_rules(throwing, Move(0, 3)) == ("R3.4",)
    assert action_rules(over, Throw((1, 2))) == ("R11.2",)
    assert action_rules(parse_state("R0,0/B0,0 - 0c35 @ours"), Throw((1, 2))) == ("R3.4",)


@pytest.mark.parametrize(
    ("text", "action", "expected"),
    [
        # E046: 0+3 lands on the twin, so 0+5 alone is legal; die by die, 3+3 would be too.
        ("R0,3/B0,0 - 0c35 @ours", "3+3", ("R5.3",)),
        # E077: passing blue's obstacle on field 10; without the obstacle it would be legal.
        ("R8,20/B0,10 - 0c35 @ours", "8+5", ("R9.1",)),
        # E087: 32+3 passes the goal; stopping in the goal instead would be the other reading.
        ("R12,32/B0,0 - 0c34 @ours", "32+3", ("R10.2",)),
        # E022: red lands on blue's obstacle on field 4, blue's step 8: a capture by field
        # (R2.6) on a star (R6.2, R7.2, R9.3), past red field 1 (R6.1), while blue holds
        # the crossing (R9.1: under the reading that freezes every move, nothing moves).
        (
            "R0,0/B0,8 - 0c24 @small",
            "0+4",
            ("R2.6", "R5.1", "R6.1", "R6.2", "R7.1", "R7.2", "R9.1", "R9.3"),
        ),
        # E152: the goal gives a throw again, unless it wins.
        ("R27,30/B0,0 - 0c36 @ours", "30+3", ("R5.1", "R6.6", "R11.1")),
    ],
)
def test_tags_of_examples_worked_by_hand(text: str, action: str, expected: tuple[str, ...]) -> None:
    """Tags of spec examples, each reasoned from the rules and their other readings."""
    assert action_rules(parse_state(text), parse_action(action)) == expected


def test_game_offers_the_tags() -> None:
    """tower.GAME is a dicekit Tagging, answering as tower.tags does."""
    assert GAME.info.provides(Capability.TAGGING)
    state = parse_state("R8,20/B0,10 - 0c35 @ours")
    assert GAME.choice_rules(state) == choice_rules(state) == ("R9.1", "R9.2")
    assert GAME.action_rules(state, Move(8, 5)) == ("R9.1",)
