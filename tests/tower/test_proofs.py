"""The z3 proofs of Off to the Tower (``tower/proofs/``): proofs, witnesses, mutants, the link."""

from __future__ import annotations

import json
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

from tests.extras import require

require("z3")

from dicekit.proofs.results import Check  # noqa: E402
from dicekit.proofs.solver import Outcome  # noqa: E402
from tests.tower.test_spec import RULES  # noqa: E402
from tower import Phase, State, make_config  # noqa: E402
from tower.proofs.checks import (  # noqa: E402
    CONFIGS,
    PROOFS,
    check_property,
    model_for,
    premise,
)
from tower.proofs.link import LinkReport, model_of, reachable_agree, state_agrees  # noqa: E402
from tower.proofs.model import AnyBoard, Model, Vars  # noqa: E402
from tower.proofs.mutations import MUTANTS  # noqa: E402
from tower.proofs.properties import INVARIANTS, PROPERTIES, STEP_PROPERTIES, TRANSITIONS  # noqa: E402
from tower.proofs.suite import GENERATED_BY, SUITE  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "tower" / "proofs" / "results.json"


@cache
def proved() -> list[Check]:
    """Return the proofs and premise witnesses (``PROOFS.prove_all``), run once for every test."""
    return list(PROOFS.prove_all())


@cache
def witnessed() -> list[Check]:
    """Return the focus witnesses (``PROOFS.witnesses``), run once for every test."""
    return list(PROOFS.witnesses())


@cache
def mutated() -> list[Check]:
    """Return the mutants' results (``PROOFS.run_mutants``), run once for every test."""
    return list(PROOFS.run_mutants(MUTANTS))


def test_every_property_is_proved_on_every_shape_and_board() -> None:
    """Every invariant and step property is proved for 2, 3 and 4 players on the symbolic board."""
    checks = proved()
    proofs = [c for c in checks if c.group == "induction"]
    assert len(proofs) == len(CONFIGS) * (
        len(INVARIANTS) * (1 + len(TRANSITIONS)) + sum(len(p.transitions) for p in STEP_PROPERTIES)
    )
    assert [c.name for c in checks if not c.ok] == []


def test_every_focus_has_a_witness() -> None:
    """Each property is at stake in some premise state: its focus can hold."""
    found = witnessed()
    assert {c.property for c in found} >= {p.name for p in PROPERTIES if p.focus is not None}
    assert [c.name for c in found if c.result != "witness"] == []


def test_every_mutant_is_caught_and_every_property_has_one() -> None:
    """Each broken model gives a counterexample; every property has a mutant of its own."""
    caught = mutated()
    assert [c.name for c in caught if c.result != "caught"] == []
    assert {c.property for c in caught} == {p.name for p in PROPERTIES}
    assert len(caught) == len(MUTANTS)


def _small_board(model: Model, config_name: str = "small") -> list[object]:
    """Return constraints that make the symbolic board the shipped board ``config_name``."""
    board = model.board
    assert isinstance(board, AnyBoard)
    config = make_config(config_name, model.shape.players)
    facts: list[object] = [board.cross == config.board.crossing]
    for p in range(model.shape.players):
        facts.append(board.lengths[p] == config.lengths[p])
        for k in range(1, config.lengths[p] + 1):
            facts.append(board.fields[p](k) == config.routes[p][k])
            facts.append(board.colour[p](k) == (k in config.again_steps[p]))
    return facts


def _engine_state(model: Model, found: Outcome, s: Vars, players: int) -> State:
    config = make_config("small", players)
    stones = []
    tower = None
    for p in range(players):
        track = [
            found.value(s.at[p][i]) for i in range(model.shape.stones) if found.value(s.on[p][i])
        ]
        start, goal = found.value(s.start[p]), found.value(s.goal[p])
        stones.append((0,) * int(start) + tuple(sorted(track)) + (config.lengths[p],) * int(goal))
        if found.value(s.tower[p]):
            tower = p
    phase = {0: Phase.THROW, 1: Phase.CHOOSE, 2: Phase.OVER}[int(found.value(s.phase))]
    dice = (found.value(s.dice[0]), found.value(s.dice[1])) if phase is Phase.CHOOSE else None
    return State(config, int(found.value(s.player)), phase, dice, tuple(stones), tower)


@pytest.mark.parametrize("shape", sorted(CONFIGS))
def test_witnesses_on_the_small_board_are_states_the_engine_accepts(shape: str) -> None:
    """The premises and foci have witnesses on the small board that the engine accepts.

    From each witness, the engine's transitions are the model's.  Only a stone
    beside its twin cannot be shown with four players, who have one stone each.
    """
    model = model_for(CONFIGS[shape])
    players = CONFIGS[shape].players
    cases: list[tuple[str, str, object]] = [("premises", t, None) for t in TRANSITIONS]
    cases += [(p.name, "move", p.focus) for p in PROPERTIES if p.focus is not None]
    missing = []
    for name, transition, focus in cases:
        asked = premise(model, transition, 0)
        solver, step = asked.solver, asked.subject
        solver.add(*_small_board(model))
        found = solver.check(*([] if focus is None else [focus(model, step)]))  # type: ignore[operator]
        if found.status != "sat":
            missing.append(name)
            continue
        state = _engine_state(model, found, step.before, players)
        report = LinkReport()
        state_agrees(model_of(state.config), state, report)
        assert report.agree, report.disagreements[:3]
    assert missing == (["R5.4 no two stones of a player share a field"] if players == 4 else [])


def test_engine_and_model_agree_on_reachable_states() -> None:
    """The first two thousand reachable states of the small board agree, throw by throw."""
    report = reachable_agree(max_states=2000)
    assert report.agree, report.disagreements[:3]
    assert report.states >= 2000


def test_the_link_catches_a_broken_model() -> None:
    """With the obstacle rule left out of the model, the link finds disagreements."""
    from tower import parse_state

    config = make_config("ours")
    broken = model_of(config)
    broken.mutations = frozenset({"pass-obstacle"})
    report = LinkReport()
    state_agrees(broken, parse_state("R8,20/B0,10 - 0c35 @ours"), report)
    assert not report.agree


def test_every_check_cites_rules_of_the_spec() -> None:
    """Every rule a property or link check cites exists in tower/spec/."""
    data = json.loads(RESULTS.read_text())
    cited = {rule for check in data["checks"] for rule in check["rules"]}
    assert cited
    assert sorted(cited - RULES.keys()) == []


def test_the_results_file_is_current_and_all_ok() -> None:
    """tower/proofs/results.json lists the checks a run makes, each with its expected result."""
    data = json.loads(RESULTS.read_text())
    assert data["generated_by"] == GENERATED_BY
    names = [c["name"] for c in data["checks"]]
    expected = {
        "induction": "proved",
        "non-vacuity": "witness",
        "mutation": "caught",
        "link": "agree",
    }
    assert [c["name"] for c in data["checks"] if c["result"] != expected[c["group"]]] == []
    current = [c.name for c in proved()] + [c.name for c in witnessed()]
    current += [c.name for c in mutated()]
    assert [n for n in names if not n.startswith("R5.5")] == current
    for check in data["checks"]:
        fields = {k: v for k, v in check.items() if k != "rules"}
        assert check["rules"] == SUITE.check_rules(Check(**fields))


def test_the_command() -> None:
    """Python -m tower.proofs runs a group (--full accepted) and exits 0; an unknown group is 2."""
    ok = subprocess.run(
        [sys.executable, "-m", "tower.proofs", "--group", "mutation", "--full"],
        capture_output=True, text=True, cwd=ROOT, check=False,
    )  # fmt: skip
    assert ok.returncode == 0, ok.stderr
    assert ok.stdout.strip().splitlines()[-1].startswith(f"{len(MUTANTS)} checks, 0 failed")
    bad = subprocess.run(
        [sys.executable, "-m", "tower.proofs", "--group", "nothing"],
        capture_output=True, text=True, cwd=ROOT, check=False,
    )  # fmt: skip
    assert bad.returncode == 2
    assert "Traceback" not in bad.stderr


def test_a_property_fails_on_its_mutant_with_a_readable_counterexample() -> None:
    """A counterexample names the states before and after, in small numbers."""
    model = model_for(CONFIGS["2p"], frozenset({"keep-tower"}))
    prop = next(p for p in INVARIANTS if p.name.startswith("R8.1"))
    outcome, text = check_property(model, "move", prop)
    assert outcome.status == "sat"
    assert "--" in text
    assert "(move)-->" in text
    assert "the crossing is field" in text
