"""The engine's rule tags: spec ids, the refusing rule first, each tag a rule that matters."""

from __future__ import annotations

import random
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dicekit.spec import load_game_spec
from finishline import GAME, IllegalAction, Phase, State
from finishline.strategies import actions, reachable_states
from tests.finishline import mutants, oracle
from tests.finishline.games import CONFIGS, random_game

#: The rules that decide nothing of a turn: the equipment, the setup, the definitions
#: and the configuration, the invariants and the notation's forms (checked elsewhere).
DECIDE_NOTHING = {
    "R1.1", "R1.2", "R1.3", "R1.4", "R1.5", "R2.1", "R2.2", "R2.3", "R2.4", "R3.1",
    "R4.3", "R5.3", "R6.2", "R6.6", "R7.3", "R9.3", "R11.1", "R11.2",
    "R12.1", "R12.2", "R12.3", "R12.4", "R12.5",
}  # fmt: skip


@cache
def _rule_ids() -> frozenset[str]:
    return frozenset(r for r, rule in load_game_spec(GAME).rules.items() if not rule.is_chapter)


@settings(max_examples=150)
@given(reachable_states(), actions())
def test_tags_are_spec_rules_and_a_refusal_names_its_rule_first(
    state: State, action: object
) -> None:
    """Every tag is a rule id of the spec; an illegal action's first tag is the refusing rule."""
    rules = GAME.action_rules(state, action)  # type: ignore[arg-type]
    assert rules
    assert set(rules) <= _rule_ids()
    assert set(GAME.choice_rules(state)) <= _rule_ids()
    refused = None
    try:
        GAME.apply(state, action)  # type: ignore[arg-type]
    except IllegalAction as refusal:
        refused = refusal.rule
    if refused is not None:
        assert rules[0] == refused
    assert len(set(rules)) == len(rules)


def _texts(state: State) -> list[str]:
    """Return the actions tried in ``state``: every roll, or the legal actions."""
    if state.phase is Phase.ROLL:
        return [f"r{a}{b}" for a in range(1, 7) for b in range(1, 7)]
    return [GAME.format_action(a) for a in GAME.legal_actions(state)]


def _sample() -> list[State]:
    """Return a fixed sample of reachable states, from seeded random games."""
    rng = random.Random(5)
    states: list[State] = []
    for config in CONFIGS.values():
        for seed in range(3):
            states += [s for s in random_game(config, seed) if rng.random() < 0.06]
    return states


SAMPLE = _sample()


def _matters(rule: str, text: str, op: str, action: str = "") -> bool:
    """Whether some mutated decision that breaks ``rule`` changes the answer."""
    base = mutants.answer(oracle.read_state(text), op, action)
    return any(
        mutants.answer(oracle.read_state(text), op, action, bug=m.name) != base
        for m in mutants.BY_RULE.get(rule, ())
    )


def test_the_unbroken_mutant_model_is_the_engine() -> None:
    """With no mutant, the model's answers are the engine's: moves, states, events, refusals."""
    for state in SAMPLE[::4]:
        text = GAME.format_state(state)
        pos = oracle.read_state(text)
        moves = tuple(GAME.format_action(a) for a in GAME.legal_actions(state))
        assert mutants.answer(pos, "moves") == ("moves", moves)
        for action in _texts(state)[:8]:
            step = GAME.step(state, GAME.parse_action(action))
            got = mutants.answer(oracle.read_state(text), "apply", action)
            assert got == ("ok", GAME.format_state(step.state), str(step.event))


def test_each_tag_of_a_legal_action_or_a_choice_matters() -> None:
    """For every sampled state and action, breaking any rule the tags name changes an answer.

    The rules are broken by the mutated decisions of :mod:`tests.finishline.mutants`,
    worked out from the notation apart from the engine.
    """
    seen: set[str] = set()
    for state in SAMPLE:
        text = GAME.format_state(state)
        for rule in GAME.choice_rules(state):
            seen.add(rule)
            assert _matters(rule, text, "moves"), (text, rule)
        for action in _texts(state)[:6]:
            rules = GAME.action_rules(state, GAME.parse_action(action))
            seen.update(rules)
            for rule in rules:
                assert _matters(rule, text, "apply", action), (text, action, rule)
    assert len(seen) > 15  # the sample reaches most rules (all of them: the next test)


def test_every_rule_that_decides_is_tagged_somewhere() -> None:
    """Each spec rule but those that decide nothing of a turn is among the tags of some answer."""
    seen: set[str] = set()
    opening_double = GAME.parse_state("..../..../..../..../..../.... 0/0 0c33")  # R8.2: +A3^
    # R10.2: a finished game (player 1 has all six across), whether or not the sample ends one.
    finished = GAME.parse_state("..../.0../..../..../..../.... 5/6 1x")
    for state in [*SAMPLE, opening_double, finished]:
        seen.update(GAME.choice_rules(state))
        for action in [*_texts(state), "A1-B1", "double:A1", "+D6", "A1^"]:
            try:
                seen.update(GAME.action_rules(state, GAME.parse_action(action)))
            except ValueError:
                continue
    spec_rules = {r for r in _rule_ids() if r.startswith("R")}
    assert spec_rules - DECIDE_NOTHING <= seen, sorted(spec_rules - DECIDE_NOTHING - seen)
    assert not seen & DECIDE_NOTHING - {"R4.3"}, sorted(seen & DECIDE_NOTHING)


@pytest.mark.parametrize("text", ["..../..../..../..../..../.... 0/0 0c34"])
def test_a_refused_roll_names_r3_3(text: str) -> None:
    """A roll with dice on the table is refused by R3.3, the first and only tag."""
    state = GAME.parse_state(text)
    assert GAME.action_rules(state, GAME.parse_action("r12"))[0] == "R3.3"


@given(st.sampled_from(SAMPLE))
def test_the_terminal_picture_shows_the_board_and_whose_turn(state: State) -> None:
    """The picture has the six rows with the notation's marks, each player and what comes next."""
    picture = GAME.state_text(state)
    rows = GAME.format_state(state).split(" ")[0].split("/")
    lines = picture.splitlines()
    for number, row in enumerate(rows, start=1):
        assert any(
            line.split()[:1] == [str(number)] and "".join(line.split()[1:]) == row for line in lines
        )
    assert sum(line.strip().startswith(">") for line in lines) == 1
    assert (
        lines[-1].strip().endswith(("to roll", "every counter is across")) or state.dice is not None
    )
