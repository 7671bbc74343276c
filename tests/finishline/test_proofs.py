"""The z3 proofs of the finish-line race (``finishline/proofs/``).

``python -m finishline.proofs`` proves every property on every configuration
and runs the whole link; these tests run the same machinery on the cheapest
configuration, every mutant (and the unbroken model on each mutant's check),
the link on a few games and on Hypothesis-generated states, and check the
results file and the command.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path

import pytest
from hypothesis import given, settings

pytest.importorskip("z3", reason="the proofs need the proofs extra (z3-solver)")

from dicekit.spec import load_game_spec
from finishline import GAME, Phase, State, format_action, parse_state
from finishline.proofs.__main__ import main
from finishline.proofs.checks import CONFIGS, Check, check_step, prove_all, witnesses
from finishline.proofs.link import (
    action_text,
    actions_agree,
    engine_config,
    model_actions,
    random_states,
    rolls_agree,
    rolls_reduce,
)
from finishline.proofs.model import MOVE, NONE, PLACE, PY, Z3, Model, PlayChoice
from finishline.proofs.model import Config as ModelConfig
from finishline.proofs.mutations import MUTANTS
from finishline.proofs.properties import PROPERTIES
from finishline.proofs.render import describe, state_text, values_of
from finishline.proofs.suite import RESULTS, check_rules
from finishline.strategies import reachable_states

SMALL = {"2p-n1": CONFIGS["2p-n1"]}


def _before(detail: str) -> str:
    """Return the state before the transition, from a witness or counterexample's text."""
    text = detail.removeprefix("(no state in focus; premises only) ")
    return text.split(" --(")[0].split("  [")[0]


@functools.cache
def _small_checks() -> list[Check]:
    return list(prove_all(SMALL))


def test_every_check_proves_on_one_counter_each() -> None:
    """Every invariant and step property is proved on two players with one counter each."""
    checks = _small_checks()
    failed = [(c.name, c.detail) for c in checks if not c.ok]
    assert failed == []
    assert sum(c.group == "induction" for c in checks) == 6 + 5 * 6 + 3 + 1 + 5 + 3


def test_premise_witnesses_are_states_the_engine_accepts() -> None:
    """Each premise witness's state before the step is a valid engine state (R12)."""
    checks = [c for c in _small_checks() if c.group == "non-vacuity"]
    assert len(checks) == 1 + 5
    for check in checks:
        assert check.ok
        parse_state(_before(check.detail))


def test_focused_witnesses() -> None:
    """Each property has, on some transition, a witness in its focus; each witness is a state."""
    checks = list(witnesses())
    assert all(c.ok for c in checks)
    focused = {c.property for c in checks if not c.detail.startswith("(no state in focus")}
    assert focused == {p.name for p in PROPERTIES}
    for check in checks:
        parse_state(_before(check.detail))


def test_every_mutant_is_caught(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The command's mutation group: each broken model gives a counterexample, exit 0."""
    assert main(["--group", "mutation", "--json", str(tmp_path / "results.json")]) == 0
    assert f"mutation: {len(MUTANTS)} checks, 0 failed" in capsys.readouterr().out
    checks = json.loads((tmp_path / "results.json").read_text())["checks"]
    assert [c["result"] for c in checks] == ["caught"] * len(MUTANTS)
    assert all(" --(" in c["detail"] for c in checks)
    assert {m.property for m in MUTANTS} == {p.name for p in PROPERTIES}


@pytest.mark.parametrize("mutant", MUTANTS, ids=[m.mutation for m in MUTANTS])
def test_the_unbroken_model_proves_each_mutants_check(mutant: object) -> None:
    """Without the mistake, the very check that caught the mutant proves the property."""
    prop = next(p for p in PROPERTIES if p.name == mutant.property)  # type: ignore[attr-defined]
    model = Model(CONFIGS[mutant.config], Z3)  # type: ignore[attr-defined]
    outcome, _ = check_step(model, mutant.transition, prop)  # type: ignore[attr-defined]
    assert outcome.status == "unsat"


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_link_on_a_few_games(name: str) -> None:
    """Engine and model agree on every roll and every action of two random games."""
    config = CONFIGS[name]
    states = list(random_states(engine_config(config), range(2)))
    for report in (
        rolls_reduce(states),
        rolls_agree(config, states),
        actions_agree(config, states),
    ):
        assert report.agree, report.disagreements[:3]
        assert report.cases > 50


def test_link_catches_a_broken_model() -> None:
    """A model that ignores blocking disagrees with the engine somewhere in a few games."""
    config = CONFIGS["2p"]
    broken = Model(config, PY, frozenset({"ignore-blocking"}))
    states = [s for s in random_states(engine_config(config), range(6)) if s.phase is Phase.CHOOSE]
    differ = [
        s
        for s in states
        if set(model_actions(broken, values_of(s))) != {format_action(a) for a in s.legal_actions()}
    ]
    assert differ


def test_a_play_is_written_by_what_its_counters_do() -> None:
    """The model's step choices are named as the notation names plays (N2.3)."""
    assert action_text("play", (0, PLACE, 5, 2, MOVE, 5, 2)) == "+C5^"
    assert action_text("play", (1, MOVE, 6, 2, MOVE, 5, 2)) == "C6^^"
    assert action_text("play", (0, PLACE, 4, 1, MOVE, 2, 2)) == "C2^,+B4"
    assert action_text("play", (0, MOVE, 5, 0, PLACE, 5, 0)) == "A5^,+A5"
    assert action_text("play", (0, MOVE, 1, 3, NONE, 0, 0)) == "D1^"
    assert action_text("sideways", (5, 1, 2)) == "B5-C5"
    assert action_text("double", (6, 3)) == "double:D6"


def test_play_cells_outside_the_dice_rows_are_refused() -> None:
    """The guard of a play refuses a step whose cell is not in its die's row (R4.2)."""
    state = parse_state("..../..0./..../..../01../...1 0/0 0c24")
    model = Model(CONFIGS["2p"], PY)
    s = values_of(state)
    for row in (1, 3, 5, 6):
        for kind in (PLACE, MOVE):
            assert not model.play(s, PlayChoice(0, kind, row, 0, NONE, 0, 0)).guard


@settings(max_examples=max(5, settings().max_examples // 10))
@given(reachable_states().filter(lambda s: s.phase is Phase.CHOOSE))
def test_model_and_engine_agree_on_generated_states(state: State) -> None:
    """On Hypothesis-drawn choosing states, the model's actions and results are the engine's."""
    config = ModelConfig(state.config.players, state.config.counters)
    assert actions_agree(config, [state]).agree


def test_renders_model_states() -> None:
    """Model states are written in the notation; odd ones are marked with the rule they break."""
    config = CONFIGS["2p"]
    state = parse_state("..0./..../..../.0../01../...1 0/0 1c34")
    s = values_of(state)
    assert state_text(config, s) == "..0./..../..../.0../01../...1 0/0 1c34"
    assert describe(config, s) == "..0./..../..../.0../01../...1 0/0 1c34"
    cells = list(s.cells)
    cells[0] = {**cells[0], (0, 1): 1}
    odd = s.__class__(s.player, s.phase, s.dice, tuple(cells), s.hand, s.across, s.played)
    assert "(R12.1)" in describe(config, odd)
    assert "{player 0 on row 0 column 1}" in state_text(config, odd)


def test_results_file() -> None:
    """results.json holds every check, all with the expected result, and names existing rules."""
    data = json.loads(RESULTS.read_text())
    assert (
        data["generated_by"] == "python -m finishline.proofs --json finishline/proofs/results.json"
    )
    checks = data["checks"]
    groups = {c["group"] for c in checks}
    assert groups == {"induction", "non-vacuity", "mutation", "link"}
    expected = {
        "induction": "proved",
        "non-vacuity": "witness",
        "mutation": "caught",
        "link": "agree",
    }
    assert all(c["result"] == expected[c["group"]] for c in checks)
    induction = [c for c in checks if c["group"] == "induction"]
    per_config = 6 + 5 * 6 + 3 + 1 + 5 + 3
    assert len(induction) == per_config * len(CONFIGS)
    assert len([c for c in checks if c["group"] == "mutation"]) == len(MUTANTS)
    rules = load_game_spec(GAME).rules
    for check in checks:
        assert all(r in rules for r in check["rules"])
        if check["group"] == "induction":
            assert check["rules"], check["name"]
    assert any(c["group"] == "link" and "cases" in c["detail"] for c in checks)


def test_check_rules_of_a_premise_witness_is_empty() -> None:
    """A premises witness covers no rule; a property's check covers the property's rules."""
    witness = next(c for c in _small_checks() if c.group == "non-vacuity")
    assert check_rules(witness) == []


def test_move_choice_none_needs_no_cell() -> None:
    """A one-step play leaves the second step empty (NONE), whatever its cell."""
    state = parse_state("..0./..../..../..../..../.... 5/0 0c14")
    model = Model(CONFIGS["2p"], PY)
    s = values_of(state)
    assert model.play(s, PlayChoice(0, MOVE, 1, 2, NONE, 6, 3)).guard
    assert not model.play(s, PlayChoice(0, MOVE, 1, 2, PLACE, 4, 0)).guard
