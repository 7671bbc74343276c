"""The z3 proofs (proofs/): induction, non-vacuity, mutants, bounded model checking, the link.

``python -m proofs`` (run by CI) proves every property on every configuration
and runs the whole link; these tests run the same machinery on the cheaper
configurations, every mutant, and the link on chosen rolls and on
Hypothesis-generated reachable states, and check the results file.
"""

from __future__ import annotations

import itertools
import json
import math
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.extras import reason

pytest.importorskip("z3", reason=reason("z3"))

from cantstop import (
    CantStopError,
    Phase,
    Roll,
    Rules,
    Variant,
    format_state,
    parse_state,
    roll_outcomes,
)
from cantstop.spec import load_spec
from dicekit.proofs.command import main
from dicekit.proofs.results import Check
from dicekit.proofs.solver import PY, Z3, Solver
from proofs import suite
from proofs.bmc import BMC_RULES, find_trace
from proofs.checks import CONFIGS, PROOFS, REFUSED
from proofs.link import ordered_rolls_reduce, transitions_agree
from proofs.model import Model
from proofs.mutations import MUTANTS, Mutant
from proofs.properties import INVARIANTS, PROPERTIES, STEP_PROPERTIES, Invariant
from proofs.render import state_text, values_of
from proofs.situations import (
    SITUATIONS,
    columns_of,
    comparisons,
    exhaustive_moves,
    model_moves,
    situation_cases,
    situation_state,
)
from proofs.state import TRANSITIONS, Config
from tests.games import CONFIGS as GAME_CONFIGS
from tests.games import random_game

RESULTS = Path(__file__).resolve().parent.parent / "proofs" / "results.json"

#: Configurations cheap enough for the tests: a custom board and the standard 2-player game.
QUICK = {name: CONFIGS[name] for name in ("2p-tiny", "2p")}


def _first_state(detail: str) -> str:
    """Return the first state of ``state --action (t)--> state``, without any validity note."""
    return detail.split(" --")[0].split("  [")[0]


# -- induction -----------------------------------------------------------------------


@pytest.fixture(scope="module")
def quick_checks() -> list[Check]:
    return list(PROOFS.prove_all(QUICK))


def test_every_invariant_and_step_property_is_proved(quick_checks: list[Check]) -> None:
    """Each invariant holds initially and after each transition; each step property holds."""
    induction = [c for c in quick_checks if c.group == "induction"]
    assert induction
    failed = [f"{c.name}: {c.result} {c.detail}" for c in induction if c.result != "proved"]
    assert failed == []
    for name, config in QUICK.items():
        pairs = {(c.property, c.transition) for c in induction if c.config == name}
        expected = {
            (inv.name, t)
            for inv in INVARIANTS
            if inv.applies(config)
            for t in ("init", *TRANSITIONS)
        } | {(p.name, t) for p in STEP_PROPERTIES if p.applies(config) for t in p.transitions}
        assert pairs == expected


def test_every_premise_has_a_witness_the_engine_accepts(quick_checks: list[Check]) -> None:
    """Non-vacuity: each transition's premise is satisfiable, by a state the engine accepts."""
    premises = [c for c in quick_checks if c.group == "non-vacuity"]
    assert {(c.config, c.transition) for c in premises} == {
        (name, t) for name in QUICK for t in ("init", *TRANSITIONS)
    }
    for check in premises:
        assert check.result == "witness", check.detail
        # The invariants describe exactly the states the engine accepts (R16),
        # so the state before the transition must parse.
        parse_state(_first_state(check.detail))


def test_every_property_has_a_focused_witness() -> None:
    """Non-vacuity: for each transition and property, a premise state where it has a say."""
    configs = {name: CONFIGS[name] for name in ("2p-tiny", "2p-A", "3p-B")}
    found = list(PROOFS.witnesses(configs))
    for check in found:
        assert check.result == "witness", check.detail
        parse_state(_first_state(check.detail.removeprefix("(no state in focus; premises only) ")))
    for prop in PROPERTIES:
        transitions = TRANSITIONS if isinstance(prop, Invariant) else prop.transitions
        assert {c.transition for c in found if c.property == prop.name} == set(transitions)
    # The focus really is reached for most pairs; only after a stop or a bust
    # (no marker left) or at a win can some not be.
    focused = [c for c in found if not c.detail.startswith("(no state in focus")]
    assert len(focused) > len(found) * 3 // 4


# -- mutants -------------------------------------------------------------------------


@pytest.mark.parametrize("mutant", MUTANTS, ids=lambda m: f"{m.property.split()[0]}-{m.mutation}")
def test_every_mutant_is_caught(mutant: Mutant) -> None:
    """A broken model gives a counterexample, printed in the notation; the real model does not."""
    (check,) = PROOFS.run_mutants((mutant,))
    print(check.detail)
    assert check.result == "caught", check.detail
    assert " --" in check.detail
    assert "-->" in check.detail
    before = _first_state(check.detail.split(": ", 1)[1])
    assert before.split()[2][0].isdigit()  # SQUARES MARKERS TURN ...
    prop = next(p for p in PROPERTIES if p.name == mutant.property)
    if isinstance(prop, Invariant):
        # The state after the broken transition is one the engine refuses.
        assert "[not a valid state" in check.detail.split("-->")[-1]
    if mutant.config in REFUSED:
        with pytest.raises(CantStopError) as error:
            REFUSED[mutant.config].rules()
        assert error.value.rule == "R15.4"  # type: ignore[attr-defined]
    else:
        model = Model(CONFIGS[mutant.config], Z3)
        outcome, text = PROOFS.check_step(model, mutant.transition, prop)
        assert outcome.status == "unsat", text


def test_every_property_has_a_mutant() -> None:
    """Each property is the target of at least one mutant."""
    assert {p.name for p in PROPERTIES} == {m.property for m in MUTANTS}


# -- bounded model checking ------------------------------------------------------------


@pytest.mark.parametrize(
    ("goal", "depth"),
    [
        # r1111 makes only 2s, and the board has no column 2.
        ("bust", 1),
        # Two columns of height 2 need two steps each: two moves, each after a roll, then stop.
        ("double", 5),
        # Three won columns need at least three moves, each after a roll, then stop.
        ("win", 7),
    ],
)
def test_bmc_finds_the_shortest_trace_and_the_engine_replays_it(goal: str, depth: int) -> None:
    """A bust, a stop that wins two columns and a win are reachable on a small board."""
    trace, found = find_trace(goal, BMC_RULES)
    assert trace is not None
    print(trace.text())
    assert found == depth
    assert len(trace.actions) == depth
    assert trace.replay(BMC_RULES) == []
    assert trace.states[0] == "-/- - 0r h4:2,6:2,7:3,8:2,10:2"
    if goal == "bust":
        assert trace.transitions == ["bust"]
    if goal == "double":
        assert trace.transitions[-1] in ("stop", "win")
        assert len(parse_state(trace.states[-1]).won) == 2
    if goal == "win":
        assert parse_state(trace.states[-1]).phase is Phase.OVER


# -- the link to the engine ------------------------------------------------------------


def test_model_states_are_written_like_engine_states() -> None:
    """The notation of a model state is the engine's notation of the same state."""
    for rules in GAME_CONFIGS.values():
        for state in itertools.islice(random_game(rules, seed=3), 200):
            assert state_text(Config.of(rules), values_of(state)) == format_state(state)


def test_ordered_rolls_reduce_to_sorted_rolls() -> None:
    """R4.1: all 1296 ordered rolls act as their sorted form, in engine and model."""
    states = [parse_state(t) for t in suite.REDUCTION_STATES]
    report = ordered_rolls_reduce(states)
    assert report.disagreements == []
    assert report.cases == 1296 * (1 + len(states))


def _cases_by_hand(columns: int) -> int:
    """Count by hand the cases of a roll naming ``columns`` distinct columns.

    Choose which j columns hold a marker (top, one-left or two-left: 3 ways
    each); the others are won, place-top or place-below (3 ways each); then
    0 to 3 - j markers are free (4 - j ways).
    """
    return sum(
        math.comb(columns, j) * 3**j * 3 ** (columns - j) * (4 - j)
        for j in range(min(columns, 3) + 1)
    )


def test_situation_cases_are_counted_by_hand() -> None:
    """1-1-1-1 makes only 2+2: six situations, each with the free-marker counts it allows."""
    cases = list(situation_cases(columns_of((1, 1, 1, 1))))
    # won, place-top, place-below: 0-3 free (4 each); top, one-left, two-left: 0-2 free (3 each)
    assert len(cases) == 3 * 4 + 3 * 3 == _cases_by_hand(1)
    # 1-2-3-5 makes 3+8, 4+7, 5+6: six columns, all six situations each.
    assert columns_of((1, 2, 3, 5)) == (3, 4, 5, 6, 7, 8)
    six = list(situation_cases((3, 4, 5, 6, 7, 8)))
    assert {s for sits, _ in six for s in sits.values()} == set(SITUATIONS)
    assert len(six) == len({(tuple(s.items()), free) for s, free in six}) == _cases_by_hand(6)


def test_the_link_counts_every_case_of_every_roll() -> None:
    """The 126 sorted rolls have 657,927 cases, which python -m proofs reports as compared."""
    total = sum(_cases_by_hand(len(columns_of(r.dice))) for r, _ in roll_outcomes())
    assert total == 657_927
    data = json.loads(RESULTS.read_text())
    counts = [
        c["detail"].split()[0]
        for c in data["checks"]
        if c["property"] == "R6.6 legal moves for every roll and situation"
    ]
    assert counts == [str(total)] * 2


@pytest.mark.parametrize("variant", [None, Variant.A])
def test_situations_are_realised_as_named(variant: Variant | None) -> None:
    """Each situation of column 7 shows in the engine's moves for 3-3-4-4 (6+8, 7+7)."""
    # What a pair of 7s may do in each situation, by R5.3, R7.1 and R7.3.
    sevens = {
        "won": set(),
        "top": set(),
        "one-left": {(7,)},
        "two-left": {(7, 7)},
        "place-top": {(7,)},
        "place-below": {(7, 7)},
    }
    for situation in SITUATIONS:
        state = situation_state({6: "won", 7: situation, 8: "place-below"}, 1, variant)
        assert 3 - len(state.markers) == 1
        assert state.won.get(6) is not None
        chosen = state.apply(Roll((3, 3, 4, 4)))
        moves = {m.columns for m in chosen.legal_moves()}
        assert {m for m in moves if 7 in m} == sevens[situation], situation
        assert (8,) in moves  # 6 is won, so 6+8 plays the 8 alone


@pytest.mark.parametrize(
    "rolls",
    [
        [(1, 1, 1, 1)],
        [(3, 3, 4, 4)],
        [(6, 6, 6, 6)],
        [(1, 3, 3, 5)],
        [(2, 2, 5, 5)],
        # Columns 2 to 5 and 2, 3, 5, 6 share states; 2+3 (columns 2, 3) rides along.
        [(1, 1, 2, 3), (1, 1, 2, 4), (1, 1, 1, 2)],
    ],
)
def test_engine_and_model_agree_on_every_situation_of_these_rolls(
    rolls: list[tuple[int, int, int, int]],
) -> None:
    """R6.6: the legal moves (or bust) agree for every situation of the rolls' columns."""
    for variant in (None, Variant.A):
        report = exhaustive_moves(rolls, variant=variant)
        assert report.disagreements == []
        assert report.cases == sum(_cases_by_hand(len(columns_of(r))) for r in rolls)


def test_every_case_of_every_roll_is_compared_exactly_once() -> None:
    """The states the comparison shares between rolls leave out no case and repeat none.

    The rolls naming five columns or fewer share states in every way the
    plan has (a smaller roll riding on a larger one's states, two rolls of
    the same size sharing states); the eight rolls naming six columns do so
    in the same ways, and python -m proofs reports their count.
    """
    rolls = [r.dice for r, _ in roll_outcomes() if len(columns_of(r.dice)) <= 5]
    made = [(dice, tuple(s.items()), free) for dice, s, free in comparisons(rolls)]
    expected = {
        (dice, tuple(s.items()), free)
        for dice in rolls
        for s, free in situation_cases(columns_of(dice))
    }
    assert len(made) == len(set(made)) == len(expected)
    assert len(expected) == sum(_cases_by_hand(len(columns_of(dice))) for dice in rolls)
    assert set(made) == expected


def test_the_model_is_asked_pairing_by_pairing_without_loss() -> None:
    """The model's moves, asked per pairing on a projection, are those of the whole state."""
    rolls = [r.dice for r, _ in roll_outcomes()]
    states = [
        situation_state(situations, free, variant)
        for variant in (None, Variant.A)
        for situations, free in itertools.islice(situation_cases((3, 4, 5, 6, 7, 8)), 0, None, 199)
    ]
    for rules in GAME_CONFIGS.values():
        states += itertools.islice(random_game(rules, seed=8), 0, 300, 3)
    for state in states:
        model = Model(Config.of(state.rules), PY)
        s = values_of(state)
        for dice in rolls[state.player :: 9]:
            model.forget()
            assert model_moves(state, dice) == model.legal_moves(s, dice), format_state(state)


def test_the_link_catches_a_broken_model() -> None:
    """The exhaustive comparison fails when the model drops a playable sum."""
    report = exhaustive_moves([(3, 4, 5, 5)], mutations=frozenset({"drop-playable-sum"}))
    assert report.disagreements
    print(report.disagreements[0])
    assert "r3455" in report.disagreements[0]


def test_the_link_gives_the_same_report_with_two_workers() -> None:
    """Sharing the work between processes changes neither the count nor the order of findings."""
    rolls = [(3, 4, 5, 5), (1, 1, 2, 2), (2, 3, 3, 4)]
    broken = frozenset({"drop-playable-sum"})
    one = exhaustive_moves(rolls, mutations=broken)
    two = exhaustive_moves(rolls, mutations=broken, workers=2)
    assert one.disagreements
    assert (one.cases, one.disagreements) == (two.cases, two.disagreements)


@given(
    config=st.sampled_from(sorted(GAME_CONFIGS)),
    seed=st.integers(0, 10_000),
    length=st.integers(0, 400),
    dice=st.tuples(*[st.integers(1, 6)] * 4),
)
def test_transitions_agree_on_reachable_states(
    config: str, seed: int, length: int, dice: tuple[int, int, int, int]
) -> None:
    """Roll, bust, move, stop and win agree between engine and model on reachable states."""
    *_, state = itertools.islice(random_game(GAME_CONFIGS[config], seed), length + 1)
    report = transitions_agree(state, dice)
    assert report.disagreements == []
    assert report.cases >= 1


def test_the_z3_and_python_backends_agree() -> None:
    """The same formulas, built for z3 from concrete values, give the Python answers."""
    rules = Rules(players=3, variant=Variant.A)
    config = Config.of(rules)
    z3_model, py_model = Model(config, Z3), Model(config, PY)
    for state in itertools.islice(random_game(rules, seed=5), 0, 300, 7):
        s = values_of(state)
        for dice in [(1, 2, 3, 4), (3, 3, 4, 4), (6, 6, 6, 6), (1, 1, 5, 6)]:
            for a, b in Model.pairings_of(dice):
                for use in ((True, True), (True, False), (False, True)):
                    expected = py_model.offers(s, a, b, *use)
                    status = Solver().check(z3_model.offers(s, a, b, *use)).status
                    assert status == ("sat" if expected else "unsat")


# -- the command and the results file -----------------------------------------------------


def test_the_command_writes_results_and_exits_zero(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``python -m proofs --group bmc --json PATH`` prints a table and writes the file."""
    path = tmp_path / "results.json"
    assert main("proofs", ["--group", "bmc", "--json", str(path)]) == 0
    out = capsys.readouterr().out
    assert "witness" in out
    assert "3 checks, 0 failed" in out
    data = json.loads(path.read_text())
    assert [c["group"] for c in data["checks"]] == ["bmc"] * 3


def test_the_results_file_is_complete_and_passing() -> None:
    """proofs/results.json has the agreed format; every property is proved for 1 to 4 players."""
    data = json.loads(RESULTS.read_text())
    assert set(data) == {"z3_version", "generated_by", "checks"}
    assert data["generated_by"] == suite.GENERATED_BY
    keys = {
        "name",
        "group",
        "property",
        "transition",
        "config",
        "result",
        "seconds",
        "detail",
        "rules",
    }
    expected = {
        "induction": "proved",
        "non-vacuity": "witness",
        "mutation": "caught",
        "bmc": "witness",
        "link": "agree",
    }
    assert len({c["name"] for c in data["checks"]}) == len(data["checks"])
    for check in data["checks"]:
        assert set(check) == keys
        assert check["result"] == expected[check["group"]], check["name"]
    proved = {(c["property"], c["config"]) for c in data["checks"] if c["group"] == "induction"}
    players = {name: config.players for name, config in CONFIGS.items()}
    for prop in PROPERTIES:
        counts = {players[config] for name, config in proved if name == prop.name}
        if prop.name.startswith(("R14.1", "R14.2")):
            assert counts  # stated only under its variant
        else:
            assert counts == {1, 2, 3, 4}, prop.name
    assert {c["group"] for c in data["checks"]} == set(expected)


def test_every_rule_a_proof_names_is_in_the_spec() -> None:
    """The rules each check covers are rule ids of spec/rules/, as the results file lists them."""
    spec_rules = set(load_spec().rules)
    named = {rule for prop in PROPERTIES for rule in prop.rules.split()}
    named |= {rule for rules in suite.LINK_RULES.values() for rule in rules.split()}
    data = json.loads(RESULTS.read_text())
    for check in data["checks"]:
        rules = check.pop("rules")
        assert rules == suite.check_rules(Check(**check)), check["name"]
        # Every check but a witness of the premises alone covers some rule.
        assert rules or check["property"] == "premises", check["name"]
        named |= set(rules)
    assert named
    assert named <= spec_rules, sorted(named - spec_rules)
