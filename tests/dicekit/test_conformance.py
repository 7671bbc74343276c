"""The layer's conformance method on a toy dice game: the one-call vectors, the server, the harness.

The toy game (``tests/dicekit/toy/``) is defined here, in the tests, so that
the layer is seen to work for a game it has never heard of.  Its expected
answers are checked against a second reading of its rules written below
(:func:`_roll_or_hold`), not only against the engine that wrote them.
"""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import jsonschema  # type: ignore[import-untyped]
import pytest

from dicekit.conformance import run as runs
from dicekit.conformance.cases import files_version, load_cases
from dicekit.conformance.checks import GENERIC_CHECKS
from dicekit.conformance.compare import Mismatch
from dicekit.conformance.gamesuite import GameVectorsSuite
from dicekit.conformance.pool import VectorError
from dicekit.conformance.serve import Server, field
from dicekit.conformance.suite import Case, Message
from dicekit.conformance.vectors import Plan, generate_vectors, write_vectors
from dicekit.errors import NotationError
from dicekit.protocol import Capability, undeclared
from tests.dicekit.toy import TOY, Hold, Roll, Toy, ToyState
from tests.dicekit.toyport import BUGS

ROOT = Path(__file__).resolve().parents[2]
PORT = [sys.executable, str(ROOT / "tests" / "dicekit" / "toyport.py")]
SUITE = GameVectorsSuite(TOY)
FAMILIES = {
    "spec-examples": {"example"},
    "moves": {"moves"},
    "apply": {"apply"},
    "illegal": {"apply"},
    "chance": {"chance"},
    "games": {"game"},
    "notation": {"state", "action"},
    "invalid": {"state", "action", "new"},
}


@functools.cache
def _files() -> dict[str, str]:
    return generate_vectors(TOY, 1)


def _cases(name: str | None = None) -> list[Case]:
    files = _files()
    names = [f"{name}.json"] if name else [n for n in files if n != "schema.json"]
    return [case for n in names for case in json.loads(files[n])["cases"]]


class _InProcess:
    """A port that is the layer's server in this process: requests go through JSON both ways."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self.seq = 0

    def request(self, message: Message) -> Message:
        self.seq += 1
        line = json.dumps({"seq": self.seq, **message})
        answer: Message = json.loads(json.dumps(self.server.handle(json.loads(line))))
        return answer


# -- an independent reading of the toy rules ---------------------------------------------


def _read(text: str) -> tuple[list[int], int, int, str, int]:
    """Split a toy state's text into scores, turn total, player, phase letter and target."""
    body, _, option = text.partition(" t")
    scores, total, turn = body.split("/")
    return (
        [int(s) for s in scores.split(",")],
        int(total),
        int(turn[:-1]),
        turn[-1],
        int(option or 10),
    )


def _roll_or_hold(text: str, action: str) -> tuple[str, str] | str:
    """Return the state text and event after ``action``, or the rule that refuses it (R2 to R3)."""
    scores, total, player, phase, target = _read(text)
    option = "" if target == 10 else f" t{target}"
    following = (player + 1) % len(scores)
    if phase == "x":
        return "R3.2"
    if action == "hold":
        if phase != "d":
            return "R2.5"
        scores[player] += total
        if scores[player] >= target:
            return f"{','.join(map(str, scores))}/0/{player}x{option}", "won"
        return f"{','.join(map(str, scores))}/0/{following}r{option}", "held"
    die = int(action[1:])
    if die == 1:
        return f"{','.join(map(str, scores))}/0/{following}r{option}", "busted"
    return f"{','.join(map(str, scores))}/{total + die}/{player}d{option}", "rolled"


# -- the vectors ---------------------------------------------------------------------------


def test_the_one_call_writes_every_family_with_its_kinds() -> None:
    """Every generic family has cases of its own kinds, with unique ids; the schema comes too."""
    files = _files()
    assert set(files) == {f"{name}.json" for name in FAMILIES} | {"schema.json"}
    ids = [case["id"] for case in _cases()]
    assert len(ids) == len(set(ids)) > 2000
    for name, kinds in FAMILIES.items():
        found = {case["kind"] for case in _cases(name)}
        assert found == kinds, name
        header = json.loads(files[f"{name}.json"])
        assert (header["suite"], header["version"], header["count"]) == (
            "toy-conformance",
            1,
            len(header["cases"]),
        )


def test_the_vectors_are_the_same_bytes_on_every_run() -> None:
    """A second generation writes the same text: nothing depends on the clock or hash seeds."""
    assert generate_vectors(TOY, 1) == _files()


def test_every_file_is_valid_under_the_generated_schema() -> None:
    """The schema's generic parts accept every file, and refuse a case of an unknown kind."""
    schema = json.loads(_files()["schema.json"])
    for name in FAMILIES:
        jsonschema.validate(json.loads(_files()[f"{name}.json"]), schema)
    spoiled = json.loads(_files()["moves.json"])
    spoiled["cases"][0]["kind"] = "jump"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(spoiled, schema)


def test_every_spec_example_is_a_case_with_its_own_expectations() -> None:
    """The spec's examples, by id, with the example's own words: E008's hold wins, E014's at."""
    cases = {case["id"]: case for case in _cases("spec-examples")}
    assert set(cases) == {f"spec-E{n:03d}" for n in range(1, 16)}
    assert cases["spec-E008"]["expect"] == {"event": "won", "state": "10,9/0/0x", "moves": []}
    assert cases["spec-E014"]["expect"] == {"error": "N2.1", "at": 1}
    assert cases["spec-E003"]["new"] == {"config": {}, "first_player": 2}


def test_apply_expectations_agree_with_a_second_reading_of_the_rules() -> None:
    """Every legal and illegal apply case: the state and event, or the refusing rule, by hand."""
    cases = _cases("apply") + _cases("illegal")
    assert {case["expect"].get("event") for case in cases} >= {"rolled", "busted", "held", "won"}
    for case in cases:
        mine = _roll_or_hold(case["state"], case["action"])
        expect = case["expect"]
        assert mine == (
            expect["error"] if "error" in expect else (expect["state"], expect["event"])
        )


def test_moves_and_chance_agree_with_a_second_reading_of_the_rules() -> None:
    """A hold is the one legal action, of deciding states; chance has six faces of 1/6 each."""
    for case in _cases("moves"):
        assert _read(case["state"])[3] == "d"
        assert case["expect"] == {"moves": ["hold"]}
    for case in _cases("chance"):
        assert _read(case["state"])[3] in "rd"
        faces = [{"action": f"r{face}", "p": [1, 6]} for face in range(1, 7)]
        assert case["expect"] == {"outcomes": faces}


def test_whole_games_replay_on_a_second_reading_of_the_rules() -> None:
    """Every action of every seeded game gives the expected state and event, from the opening."""
    games = _cases("games")
    assert len(games) == 2 * 3
    for case in games:
        state = case["expect"]["start"]
        steps = zip(
            case["actions"], case["expect"]["states"], case["expect"]["events"], strict=True
        )
        for action, after, event in steps:
            assert _roll_or_hold(state, action) == (after, event)
            state = after


def test_tags_come_from_the_games_own_record_of_its_rules() -> None:
    """Apply cases name action_rules, moves and chance cases choice_rules, in the spec's order."""
    for case in _cases("apply") + _cases("illegal"):
        state, action = TOY.parse_state(case["state"]), TOY.parse_action(case["action"])
        assert set(case["rules"]) == set(TOY.action_rules(state, action))
    for case in _cases("illegal"):
        assert (
            case["expect"]["error"]
            == TOY.action_rules(TOY.parse_state(case["state"]), TOY.parse_action(case["action"]))[0]
        )
    for case in _cases("moves") + _cases("chance"):
        assert set(case["rules"]) == set(TOY.choice_rules(TOY.parse_state(case["state"])))


def test_rejections_name_the_rule_and_position_the_reader_gives() -> None:
    """Each refused text or form is refused by the engine under the expected rule and position."""
    invalid = _cases("invalid")
    forms = {(case["kind"], "text" in case) for case in invalid if case["kind"] != "new"}
    assert forms == {("state", True), ("state", False), ("action", True), ("action", False)}
    readers = {
        ("state", True): TOY.parse_state,
        ("state", False): TOY.state_from_json,
        ("action", True): TOY.parse_action,
        ("action", False): TOY.action_from_json,
    }
    for case in invalid:
        if "error" not in case["expect"] or case["kind"] == "new":
            continue
        read = readers[(case["kind"], "text" in case)]
        with pytest.raises(NotationError) as info:
            read(case["text"] if "text" in case else case["json"])
        assert info.value.rule == case["expect"]["error"] == case["rules"][0]
        if "text" in case:
            assert info.value.position == case["expect"]["at"]
    refused = [case for case in invalid if case["kind"] == "new" and "error" in case["expect"]]
    assert {case["expect"]["error"] for case in refused} >= {"R1.1", "R1.3"}


def test_round_trips_are_tagged_with_the_rules_that_refused_their_form() -> None:
    """A state read from text names N1.1, the only notation rule state texts were refused under."""
    texts = [c for c in _cases("notation") if c["kind"] == "state" and "text" in c]
    assert texts
    assert all(c["rules"] == ["N1.1"] for c in texts)


def test_every_case_passes_on_the_layers_reference_server() -> None:
    """The checks of every kind pass against the layer's server of the same game."""
    port = _InProcess(Server(TOY))
    for case in _cases():
        GENERIC_CHECKS[case["kind"]](port, case)


@pytest.mark.parametrize("bug", sorted(BUGS))
def test_a_seeded_bug_fails_the_cases_of_its_rule(bug: str) -> None:
    """A server with one misread rule fails cases, and only cases that name that rule."""
    game, rule = BUGS[bug]
    port = _InProcess(Server(game))
    failed = []
    for case in _cases():
        try:
            GENERIC_CHECKS[case["kind"]](port, case)
        except Mismatch:
            failed.append(case)
    assert failed
    assert all(rule in case["rules"] for case in failed if case["kind"] != "game")


class _Untagged:
    """The toy game without its rule tags."""

    def __init__(self) -> None:
        self.info = replace(TOY.info, capabilities=TOY.info.capabilities - {Capability.TAGGING})

    def __getattr__(self, name: str) -> Any:
        if name in ("action_rules", "choice_rules"):
            raise AttributeError(name)
        return getattr(TOY, name)


class _Contradicting(Toy):
    """Tags that do not name first the rule that refuses a hold before a roll."""

    def action_rules(self, state: ToyState, action: Roll | Hold) -> tuple[str, ...]:
        rules = super().action_rules(state, action)
        return ("R2.4", *rules) if rules == ("R2.5",) else rules


def test_a_game_without_rule_tags_gets_no_vectors() -> None:
    """The vectors name the rules of every answer: a game without Tagging is told so."""
    with pytest.raises(VectorError, match=r"Tagging: action_rules and choice_rules"):
        generate_vectors(_Untagged(), 1)


def test_tags_that_contradict_a_refusal_are_refused() -> None:
    """An illegal action's refusing rule must come first in its tags, as the protocol says."""
    with pytest.raises(VectorError, match=r"refused under R2.5, but the game's action_rules"):
        generate_vectors(_Contradicting(), 1)


def test_the_plan_sets_the_counts_and_may_leave_files_out() -> None:
    """Fewer moves and no chance file: the counts follow the plan."""
    files = generate_vectors(TOY, 1, Plan(moves=5, skip=frozenset({"chance"})))
    assert "chance.json" not in files
    assert json.loads(files["moves.json"])["count"] == 5


class _WithOps(Toy):
    """The toy game with an op of its own for its port: the total a roll would make."""

    info = replace(TOY.info, capabilities=TOY.info.capabilities | {Capability.SERVES_OPS})

    def port_ops(self) -> dict[str, Callable[[Message], Message]]:
        def total(request: Message) -> Message:
            state = self.parse_state(field(request, "state", str))
            return {"totals": [state.total + face for face in range(2, 7)]}

        return {"totals": total}

    def port_supports(self) -> dict[str, Any]:
        return {"players": [2], "target": False}


def test_a_game_plugs_its_own_ops_into_the_server() -> None:
    """A game that provides ServesOps gets its ops and supports; the generic ops stay."""
    game = _WithOps()
    assert undeclared(game) == ([], [])
    port = _InProcess(Server(game))
    hello = port.request({"op": "hello", "protocol": 1, "game": "toy"})
    assert (hello["game"], hello["supports"]) == ("toy", {"players": [2], "target": False})
    assert port.request({"op": "totals", "state": "0,0/4/1d"})["totals"] == [6, 7, 8, 9, 10]
    assert port.request({"op": "moves", "state": "0,0/4/1d"})["moves"] == ["hold"]
    refused = port.request({"op": "totals"})
    assert refused["error"] == {"rule": None, "message": "op 'totals' needs 'state' (str)"}
    assert Server(TOY).handle({"seq": 1, "op": "totals"})["error"]["message"] == (
        'unknown op "totals"'
    )


# -- the harness against a port process --------------------------------------------------


@pytest.fixture(scope="module")
def vectors(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Write the toy vectors with the one call, as version 1 of a suite in a folder of its own."""
    folder = tmp_path_factory.mktemp("toy") / "v1"
    counts = write_vectors(TOY, 1, directory=folder)
    assert sum(counts.values()) == len(_cases())
    return folder


def test_the_harness_passes_the_toy_port(vectors: Path) -> None:
    """The layer's harness runs every case against the toy port: all pass, status 0."""
    cases = load_cases(vectors, SUITE.checks)
    run = runs.run_suite(PORT, cases, SUITE, version=files_version(vectors))
    assert run.stopped is None
    assert (run.count("passed"), run.count("failed"), run.exit_status()) == (len(cases), 0, 0)
    assert run.hello is not None
    assert run.hello["game"] == "toy"
    assert list(run.summary_lines())[-1] == f"{len(cases)} passed, 0 failed (toy suite v1)"


@pytest.mark.parametrize("bug", sorted(BUGS))
def test_the_diagnosis_names_the_misread_rule_first(vectors: Path, bug: str) -> None:
    """A port with one seeded bug fails, and the diagnosis ranks the rule it misreads first."""
    cases = load_cases(vectors, SUITE.checks)
    run = runs.run_suite([*PORT, bug], cases, SUITE, version=1)
    assert run.exit_status() == 1
    diagnosis = run.diagnose(cases)
    assert diagnosis.suspects[0].rule == BUGS[bug][1]
    assert any(line.startswith("  1. " + BUGS[bug][1]) for line in run.summary_lines())


def test_the_hello_names_the_game_and_the_version() -> None:
    """The harness's hello carries the game and suite version; the port answers its game."""
    hello = runs.handshake(PORT, SUITE, version=3)
    assert hello["game"] == "toy"
    port = runs.open_port(SUITE, PORT, 10.0, 3)
    assert port.hello_request() == {"op": "hello", "protocol": 1, "game": "toy", "suite_version": 3}


def test_a_port_of_another_game_fails_the_handshake() -> None:
    """Can't Stop's reference port is no toy port: the run stops before any case, status 2."""
    cantstop = [sys.executable, "-m", "cantstop", "serve"]
    run = runs.run_suite(cantstop, _cases("moves")[:3], SUITE, version=1)
    assert run.exit_status() == 2
    assert run.stopped is not None
    assert "it implements the game 'cantstop', not 'toy'" in run.stopped
    assert run.results == []
