"""The z3 proofs of the finish-line race (``finishline/proofs/``).

``python -m finishline.proofs`` proves every property on every configuration
and runs the link; these tests run the same machinery on the cheapest
configuration, run the command's mutation and default link groups once for
the session (every mutant caught, every configuration linked), check that
each broken model also disagrees with the engine on the default link's
states, that the unbroken model proves each mutant's check, that the model
agrees with the engine on Hypothesis-generated states, and check the
results file.
"""

from __future__ import annotations

import contextlib
import functools
import io
import json
from typing import Any

import pytest
from hypothesis import given, settings

from tests.extras import reason

pytest.importorskip("z3", reason=reason("z3"))

from dicekit.proofs.command import main
from dicekit.proofs.results import Check
from dicekit.spec import load_game_spec
from finishline import GAME, Phase, Roll, State, parse_state
from finishline.proofs.checks import CONFIGS, PROOFS
from finishline.proofs.link import (
    action_text,
    actions_agree,
    engine_config,
    nearest_states,
    rolls_agree,
)
from finishline.proofs.model import MOVE, NONE, PLACE, PY, Z3, Model, PlayChoice
from finishline.proofs.model import Config as ModelConfig
from finishline.proofs.mutations import MUTANTS
from finishline.proofs.properties import PROPERTIES
from finishline.proofs.render import describe, state_text, values_of
from finishline.proofs.suite import (
    FULL_CONFIG,
    LINK_RULES,
    NEAREST_STATES,
    RESULTS,
    SUITE,
    link_states,
)
from finishline.strategies import reachable_states

SMALL = {"2p-n1": CONFIGS["2p-n1"]}


def _before(detail: str) -> str:
    """Return the state before the transition, from a witness or counterexample's text."""
    text = detail.removeprefix("(no state in focus; premises only) ")
    return text.split(" --(")[0].split("  [")[0]


@functools.cache
def _small_checks() -> list[Check]:
    return list(PROOFS.prove_all(SMALL))


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
    checks = list(PROOFS.witnesses())
    assert all(c.ok for c in checks)
    focused = {c.property for c in checks if not c.detail.startswith("(no state in focus")}
    assert focused == {p.name for p in PROPERTIES}
    for check in checks:
        parse_state(_before(check.detail))


@pytest.fixture(scope="session")
def command_run(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Run ``python -m finishline.proofs --group mutation --group link --json PATH`` once."""
    path = tmp_path_factory.mktemp("proofs") / "results.json"
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = main(
            "finishline.proofs", ["--group", "mutation", "--group", "link", "--json", str(path)]
        )
    checks = json.loads(path.read_text())["checks"]
    return {"status": status, "out": out.getvalue(), "checks": checks}


def test_every_mutant_is_caught(command_run: dict[str, Any]) -> None:
    """The command's mutation group: each broken model gives a counterexample, exit 0."""
    assert command_run["status"] == 0
    assert f"mutation: {len(MUTANTS)} checks, 0 failed" in command_run["out"]
    checks = [c for c in command_run["checks"] if c["group"] == "mutation"]
    assert [c["result"] for c in checks] == ["caught"] * len(MUTANTS)
    assert all(" --(" in c["detail"] for c in checks)
    assert {m.property for m in MUTANTS} == {p.name for p in PROPERTIES}


def test_default_link_agrees_on_every_configuration(command_run: dict[str, Any]) -> None:
    """The command's default link: the three comparisons agree on every configuration."""
    assert "link: 12 checks, 0 failed" in command_run["out"]
    checks = [c for c in command_run["checks"] if c["group"] == "link"]
    assert sorted((c["config"], c["property"]) for c in checks) == sorted(
        (name, prop) for name in CONFIGS for prop in LINK_RULES
    )
    for check in checks:
        assert check["result"] == "agree", check["detail"]
        cases = int(check["detail"].split(" cases")[0].replace(",", ""))
        assert cases > 300, check["detail"]
        assert f"the {NEAREST_STATES} reachable states nearest the opening" in check["detail"]


@functools.cache
def _default_states() -> list[State]:
    return link_states("2p")[0]


@pytest.mark.parametrize("mutant", MUTANTS, ids=[m.mutation for m in MUTANTS])
def test_the_default_link_catches_each_broken_model(mutant: Any) -> None:
    """Each mutant's model disagrees with the engine on some state of the default link."""
    config, broken = CONFIGS["2p"], frozenset({mutant.mutation})
    for state in _default_states():
        if not (
            rolls_agree(config, [state], broken).agree
            and actions_agree(config, [state], broken).agree
        ):
            return
    pytest.fail(f"the default link misses {mutant.mutation}")


def test_the_full_link_takes_every_reachable_state() -> None:
    """The full link's search on one counter each is closed: every successor was found."""
    config = engine_config(CONFIGS[FULL_CONFIG])
    every = nearest_states(config)
    found = set(every)
    assert len(found) == len(every)
    for state in every:
        if state.phase is Phase.ROLL:
            after = [state.apply(Roll((a, b))) for a in range(1, 7) for b in range(a, 7)]
        else:
            after = [state.apply(action) for action in state.legal_actions()]
        assert found.issuperset(after), state
    assert {s.phase for s in every} == set(Phase)
    assert found.issuperset(nearest_states(config, NEAREST_STATES))
    assert set(link_states(FULL_CONFIG, full=True)[0]) == found


@pytest.mark.parametrize("mutant", MUTANTS, ids=[m.mutation for m in MUTANTS])
def test_the_unbroken_model_proves_each_mutants_check(mutant: object) -> None:
    """Without the mistake, the very check that caught the mutant proves the property."""
    prop = next(p for p in PROPERTIES if p.name == mutant.property)  # type: ignore[attr-defined]
    model = Model(CONFIGS[mutant.config], Z3)  # type: ignore[attr-defined]
    outcome, _ = PROOFS.check_step(model, mutant.transition, prop)  # type: ignore[attr-defined]
    assert outcome.status == "unsat"


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
    assert SUITE.check_rules(witness) == []


def test_move_choice_none_needs_no_cell() -> None:
    """A one-step play leaves the second step empty (NONE), whatever its cell."""
    state = parse_state("..0./..../..../..../..../.... 5/0 0c14")
    model = Model(CONFIGS["2p"], PY)
    s = values_of(state)
    assert model.play(s, PlayChoice(0, MOVE, 1, 2, NONE, 6, 3)).guard
    assert not model.play(s, PlayChoice(0, MOVE, 1, 2, PLACE, 4, 0)).guard
