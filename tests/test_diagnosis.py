"""Rule tags, the ranked diagnosis, divide by sorted roll, and the seeded-bug study."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from cantstop import Stop, parse_state, tags
from cantstop.conformance import generate, harness, study
from cantstop.conformance.diagnose import divide_lines, evidence, rank, reference_table
from cantstop.conformance.mutant_rolls import roll_bug
from cantstop.conformance.mutants import MUTANTS, MutantPort
from cantstop.conformance.positions import Square
from cantstop.conformance.serve import handle as serve_handle
from cantstop.dice import pairings
from cantstop.spec import load_spec
from tests import independent
from tests.extras import require

ROOT = Path(__file__).resolve().parent.parent
CASES = harness.load_cases(generate.vectors_dir())


def by_kind(kind: str) -> list[dict[str, Any]]:
    return [c for c in CASES if c["kind"] == kind]


# -- the tags -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("state", "dice", "rules"),
    [
        # 3+4 & 5+5 and 3+5 & 4+5: both sums of each pairing place a marker (R5.2) together.
        ("-/- - 0r", (3, 4, 5, 5), ["R4.2", "R5.2", "R6.1", "R6.6"]),
        # 4+4 from all three pairings: both steps, the first placing (R5.2, R7.1, R7.2), one
        # move offered three times and listed once (R6.6).
        ("-/- - 0r", (2, 2, 2, 2), ["R5.2", "R6.6", "R7.1", "R7.2"]),
        # 3+11, 6+8, 7+7 with markers on 7:13 (the top) and 8:1, one marker free: 3 or 11
        # alone (R6.3, R5.3), 6+8 together (R6.1), 6, 3 and 11 placing (R5.2), 7 dropped at
        # the top (R8.1, R1.1, R6.5).
        (
            "-/- 7:13,8:1 0d",
            (1, 2, 5, 6),
            ["R1.1", "R4.2", "R5.2", "R5.3", "R6.1", "R6.3", "R6.5", "R6.6", "R8.1"],
        ),
        # 6+8 or 7+7, column 7 won by player 1: 7+7 plays nothing (R9.2, R6.5; the won
        # column's top decides, R1.1), 6+8, both placing, is the one move.
        ("-/7:13 - 0r", (3, 4, 3, 4), ["R1.1", "R4.2", "R5.2", "R6.1", "R6.5", "R9.2"]),
        # 7+7 from space 11 of 13: both steps fit, but a board one shorter would stop them.
        ("-/- 7:11 0d", (3, 3, 4, 4), ["R1.1", "R4.2", "R5.2", "R6.1", "R6.6", "R7.1"]),
        # 3+6 and 4+5 with markers on 5, 6 and 8, none free: 6 and 5 play only by advancing
        # their markers (R5.1), 3 and 4 need a fourth (R5.3), so each pairing plays one (R6.2).
        ("-/- 5:1,6:1,8:1 0d", (1, 2, 2, 4), ["R4.2", "R5.1", "R5.3", "R6.2", "R6.6"]),
    ],
)
def test_roll_rules_by_hand(state: str, dice: tuple[int, int, int, int], rules: list[str]) -> None:
    """The rules behind a roll's legal moves, worked out by hand from R5 to R8."""
    assert tags.roll_rules(parse_state(state), dice) == rules


def test_variant_a_skipping_is_named_where_it_forfeits_a_step() -> None:
    """E129: under Variant A the first 7 skips space 12 onto the top, so 7+7 is 7 (R7.3, R14.1)."""
    example = next(e for e in load_spec().examples if e.id == "E129")
    state = parse_state(example.fields["state"])
    assert state.dice is not None
    rules = tags.roll_rules(state, state.dice)
    assert {"R7.3", "R8.1", "R14.1"} <= set(rules)
    # The same position without Variant A plays 7+7: nothing is skipped, R14.1 decides nothing.
    plain = parse_state(example.fields["state"][:-2])
    assert plain.dice is not None
    assert "R14.1" not in tags.roll_rules(plain, plain.dice)
    assert "R7.1" in tags.roll_rules(plain, plain.dice)


def _uses(pos: independent.Position, pair: tuple[int, int]) -> set[tuple[int, ...]]:
    won = independent.won_columns(pos)
    return {
        independent._use_in_order(pos, pair, won),
        independent._use_in_order(pos, pair[::-1], won),
    }


def test_moves_tags_name_forced_play_and_equal_sums_exactly_where_they_decide() -> None:
    """On every moves case, R6.1, R6.3, R7.1 and R7.3 are named exactly when a pairing needs them.

    The pairings are played out by ``tests/independent.py``: R6.1 when some pairing of two
    sums plays both, R6.3 when each plays alone but not both, R7.1 when equal sums take both
    steps, R7.3 when they take one.
    """
    for case in by_kind("moves"):
        pos = independent.read_state(case["state"])
        dice = tuple(int(d) for d in case["state"].split(" ")[2][2:6])
        named = {"R6.1": False, "R6.3": False, "R7.1": False, "R7.3": False}
        for pair in {tuple(sorted(p)) for p in independent._three_pairings(dice)}:
            a, b = pair
            uses = _uses(pos, (a, b))
            longest = max(len(u) for u in uses)
            if a != b and longest == 2:
                named["R6.1"] = True
            if a != b and longest == 1 and uses == {(a,), (b,)}:
                named["R6.3"] = True
            if a == b and longest == 2:
                named["R7.1"] = True
            if a == b and longest == 1:
                named["R7.3"] = True
        for rule, wanted in named.items():
            assert (rule in case["rules"]) == wanted, (case["id"], rule)


def test_no_blanket_tags() -> None:
    """Game cases no longer all carry R2.2, R3.1 and R12.1; R2.2 only when another player starts."""
    games = by_kind("game")
    assert not any("R3.1" in c["rules"] for c in games)
    for case in games:
        assert ("R2.2" in case["rules"]) == (case["new"]["first_player"] != 0), case["id"]
        assert "R12.1" in case["rules"]  # every game ends with a winning stop
    for case in by_kind("moves") + by_kind("perft") + by_kind("rolls"):
        assert "R3.1" not in case["rules"]


def test_the_pairing_offers_are_the_engines_legal_moves() -> None:
    """Put together pairing by pairing (R6.6), the offers are exactly the engine's moves."""
    for case in by_kind("moves")[:1000]:
        state = parse_state(case["state"])
        assert state.dice is not None
        offered = {m for pair in pairings(state.dice) for m in tags._pair_offers(state, pair)}
        assert sorted(offered) == sorted(m.columns for m in state.legal_moves()), case["id"]


# -- divide and the ranking ------------------------------------------------------------


def test_divide_groups_the_orders_of_a_roll_and_names_its_rule() -> None:
    """A port that moves markers off the top: r1112, r1121, r1211 and r2111 share one line."""
    state = "-/- 2:3,7:13,12:3 0d"  # every marker on its top space (E207)
    port = MutantPort("top-advances")
    got = port.handle({"seq": 1, "op": "rolls", "state": state})["moves"]
    lines = divide_lines(state, got, reference_table(parse_state(state)))
    assert lines[0] == "roll r1111: not legal 2+2 (expected bust; rule R8.1)"
    assert lines[1].startswith("roll r1112 r1121 r1211 r2111: ")
    assert "R8.1" in lines[1]
    assert lines[-1].endswith("of 1296)")
    assert len(lines) == 9  # eight sorted rolls shown, then the count of the rest


def test_rank_weighs_specific_cases_and_passing_ones() -> None:
    """A rule named alone by failing cases beats one named by many cases, most of which pass."""
    results = [SimpleNamespace(id=f"moves-{i}", status="passed", rules=["R6.6"]) for i in range(9)]
    results += [SimpleNamespace(id="moves-9", status="failed", rules=["R6.1", "R6.6"])]
    results += [SimpleNamespace(id="illegal-1", status="failed", rules=["R6.1"])]
    results += [SimpleNamespace(id="game-x-01", status="failed", rules=["R2.3", "R6.6"])]
    suspects = rank(results)
    assert [s.rule for s in suspects] == ["R6.1", "R2.3", "R6.6"]
    assert (suspects[0].failed, suspects[0].cases) == (2, 2)
    # R6.1: 1.5 units of blame, all its cases fail; R2.3: a game's half of a quarter.
    assert suspects[0].score == pytest.approx(1.5)
    assert suspects[1].score == pytest.approx(0.125)
    assert suspects[2].score == pytest.approx((0.5 + 0.125) * 2 / 11)


# -- the mutant port ---------------------------------------------------------------------


FAST = study.fast_subset(CASES)


@pytest.fixture(scope="module")
def transcripts() -> dict[str, list[tuple[dict[str, Any], dict[str, Any]]]]:
    """Return the reference port's answers to every request of the fast subset (all passing)."""
    return study.reference_transcripts(FAST)


def test_a_bug_changes_no_op_but_its_own(
    transcripts: dict[str, list[tuple[dict[str, Any], dict[str, Any]]]],
) -> None:
    """Every request of an op a bug does not change gets the reference port's answer."""
    for name, mutant in MUTANTS.items():
        port = MutantPort(name)
        asked = [m for t in transcripts.values() for m, _ in t if m["op"] not in mutant.ops]
        assert asked, name
        for message in asked[::7]:
            request = {"seq": 0, **message}
            assert port.handle(request) == serve_handle(request), (name, message)


def test_the_roll_rules_without_a_flaw_are_the_engines(
    transcripts: dict[str, list[tuple[dict[str, Any], dict[str, Any]]]],
) -> None:
    """The rules of the roll bugs, flaw off, answer moves, apply, rolls and perft as the engine."""
    respond = roll_bug(None)
    checked = 0
    for exchanges in transcripts.values():
        for message, answer in exchanges:
            if message["op"] in ("moves", "apply", "rolls", "perft"):
                assert respond({"seq": 0, **message}, serve_handle) == answer, message
                checked += 1
    assert checked > 500


def test_the_shortcut_asks_exactly_the_cases_a_bug_fails(
    transcripts: dict[str, list[tuple[dict[str, Any], dict[str, Any]]]],
) -> None:
    """A whole run of a bug fails the cases the study's shortcut picks, and no other."""
    for name in ("first-player-ignored", "roll-text-sorted"):
        run = harness.run_suite(study.port_command(name), FAST)
        failed = {r.id for r in run.results if r.status == "failed"}
        assert failed
        assert failed == {c["id"] for c in study.changed_cases(name, FAST, transcripts)}


def test_serve_mutant_on_the_command_line() -> None:
    """``cantstop serve --mutant NAME`` names its bug in ``hello``; an unknown name exits 2."""
    hello = '{"seq": 1, "op": "hello"}\n'
    done = subprocess.run(
        [sys.executable, "-m", "cantstop", "serve", "--mutant", "forced-play"],
        input=hello,
        capture_output=True,
        text=True,
        check=True,
    )
    assert "with the seeded bug forced-play" in json.loads(done.stdout)["name"]
    bad = subprocess.run(
        [sys.executable, "-m", "cantstop", "serve", "--mutant", "no-such-bug"],
        input=hello,
        capture_output=True,
        text=True,
        check=False,
    )
    assert bad.returncode == 2
    assert "invalid choice: 'no-such-bug'" in bad.stderr


def test_the_seeded_bugs_cover_every_chapter_and_the_notation() -> None:
    """At least 20 bugs; their rules at fault span R1 to R16, N1 to N3, and both variants."""
    assert len(MUTANTS) >= 20
    chapters = {m.rule.split(".")[0] for m in MUTANTS.values()}
    assert chapters >= {f"R{n}" for n in range(1, 17)} | {"N1", "N2", "N3"}
    assert {"R14.1", "R14.2"} <= {m.rule for m in MUTANTS.values()}
    rules = load_spec().rules
    assert all(m.rule in rules for m in MUTANTS.values())


# -- the study ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def outcomes(
    transcripts: dict[str, list[tuple[dict[str, Any], dict[str, Any]]]],
) -> dict[str, study.Outcome]:
    found = study.run_study(FAST, jobs=2, transcripts=transcripts)
    return {o.mutant: o for o in found}


def test_the_fast_study_meets_the_targets(outcomes: dict[str, study.Outcome]) -> None:
    """On the fast subset: every bug caught, the rule at fault first for 90 %, top 3 for all."""
    assert study.misses(list(outcomes.values())) == []


@pytest.mark.parametrize(
    ("mutant", "first"),
    [
        ("forced-play", "R6.1"),
        ("double-past-top", "R7.3"),
        ("top-advances", "R8.1"),
        ("won-column-not-cleared", "R9.3"),
        ("short-columns", "R1.1"),
        ("variant-a-skips-once", "R14.1"),
    ],
)
def test_the_first_suspect_of_a_seeded_bug(
    outcomes: dict[str, study.Outcome], mutant: str, first: str
) -> None:
    """The bugs the issue names, from published implementations, have their rule first."""
    assert outcomes[mutant].suspects[0] == first


def test_the_summary_shows_an_example_for_the_first_suspects(tmp_path: Path) -> None:
    """The summary lists the suspects and, for the first, a failing case with request and answer."""
    cases = [c for c in FAST if c["kind"] == "moves"]
    run = harness.run_suite(study.port_command("forced-play"), cases)
    run.diagnose(cases)
    lines = list(run.summary_lines())
    at = lines.index("Suspect rules, most likely first (failed/cases naming the rule):")
    assert lines[at + 1].startswith("  1. R6.1 Both sums when both can be played: ")
    assert lines[at + 2].startswith("     e.g. moves-")
    assert [line.split(":")[0].strip() for line in lines[at + 3 : at + 7]] == [
        "state",
        "request",
        "expected",
        "got",
    ]
    assert "not legal" in lines[at + 2]
    assert lines[-1] == f"{run.count('passed')} passed, {run.count('failed')} failed"
    report = run.report()["suspect_rules"][0]
    assert report["rule"] == "R6.1"
    assert report["example"]["request"]["op"] == "moves"


def test_a_port_that_cannot_restart_is_diagnosed_by_its_tags(tmp_path: Path) -> None:
    """When the port cannot be started again to ask the failing cases, the tags alone rank."""
    cases = [c for c in CASES if c["kind"] == "moves"][:20]
    port = [sys.executable, "-m", "cantstop", "serve", "--mutant", "forced-play"]
    run = harness.run_suite(port, cases, timeout=10.0)
    assert run.count("failed") > 0
    run.command = [str(tmp_path / "no-such-port")]
    diagnosis = run.diagnose(cases, timeout=1.0)
    assert diagnosis.evidence == {}
    assert [s.rule for s in diagnosis.suspects] == [s.rule for s in rank(run.results)]
    assert diagnosis.suspects[0].example is None


def test_a_port_that_cannot_start_stops_the_run_without_suspects(tmp_path: Path) -> None:
    """A port that never starts is a harness error (exit 2): no case failed, no rule is suspect."""
    cases = [c for c in CASES if c["kind"] == "moves"][:5]
    run = harness.run_suite([str(tmp_path / "no-such-port")], cases, timeout=1.0)
    assert run.exit_status() == 2
    assert run.count("failed") == 0
    assert not any("Rules" in line for line in run.summary_lines())


def test_the_committed_results_file() -> None:
    """``spec/conformance/study.json``: every seeded bug, on every vector, targets met."""
    data = json.loads(study.results_path().read_text(encoding="utf-8"))
    assert data["subset"] == "all"
    assert data["cases"] == len(CASES)
    assert data["vectors"] == generate.vectors_dir().name
    got = {o["mutant"]: o for o in data["outcomes"]}
    assert set(got) == set(MUTANTS)
    outcomes = []
    for name, o in got.items():
        assert o["rule"] == MUTANTS[name].rule
        assert o["summary"] == MUTANTS[name].summary
        assert o["caught"] == (o["failed"] > 0)
        if o["rank"] is not None and o["rank"] <= len(o["suspects"]):
            assert o["suspects"][o["rank"] - 1] == o["rule"]
        outcomes.append(
            study.Outcome(name, o["rule"], o["cases"], o["failed"], o["rank"], tuple(o["suspects"]))
        )
    assert study.misses(outcomes) == []


# -- the study's table on the documentation site -------------------------------------------


def _mini_site(tmp_path: Path, results: str | None) -> subprocess.CompletedProcess[str]:
    require("sphinx")
    source = tmp_path / "src"
    source.mkdir(parents=True)
    (source / "conf.py").write_text(
        f"import sys\nsys.path.insert(0, {str(ROOT / 'docs' / '_ext')!r})\n"
        "extensions = ['myst_parser', 'cantstop_study']\n"
        "cantstop_study_results = 'study.json'\n",
        encoding="utf-8",
    )
    (source / "index.md").write_text("# Ports\n\n```{cantstop-study-results}\n```\n", "utf-8")
    if results is not None:
        (source / "study.json").write_text(results, encoding="utf-8")
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "sphinx",
            "-E",
            "-n",
            "-W",
            "-q",
            "-b",
            "html",
            str(source),
            str(tmp_path / "out"),
        ],
        capture_output=True,
        text=True,
        check=False,
    )


STUDY: dict[str, Any] = {
    "generated_by": "python -m cantstop.conformance.study --json x",
    "vectors": "v1",
    "subset": "all",
    "cases": 10,
    "targets": {"first_share": 0.9, "top": 3},
    "outcomes": [
        {
            "mutant": "forced-play",
            "rule": "R6.1",
            "summary": "either sum alone",
            "caught": True,
            "failed": 4,
            "cases": 10,
            "rank": 1,
            "suspects": ["R6.1", "R6.6"],
        },
        {
            "mutant": "top-advances",
            "rule": "R8.1",
            "summary": "the top advances",
            "caught": True,
            "failed": 2,
            "cases": 10,
            "rank": 2,
            "suspects": ["R7.3", "R8.1"],
        },
    ],
}


def test_the_study_table_is_generated_from_the_results_file(tmp_path: Path) -> None:
    build = _mini_site(tmp_path, json.dumps(STUDY))
    assert build.returncode == 0, build.stdout + build.stderr
    html = (tmp_path / "out" / "index.html").read_text(encoding="utf-8")
    assert (
        "2 seeded bugs, each run against 10 cases of the vectors v1 (every case of the suite, "
        "those of the explain capability included)"
    ) in html
    assert "the rule at fault named first for 1 (50%)" in html
    assert "MISSED" in html  # one of two first is short of 90 %
    rows = re.findall(r"<tr[^>]*>(.*?)</tr>", html, re.S)
    cells = [
        re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", rows[1], re.S)
    ]
    assert cells == ["forced-play", "either sum alone", "R6.1", "4 of 10", "1", "R6.1 R6.6"]


def test_the_study_table_without_or_with_a_broken_results_file(tmp_path: Path) -> None:
    build = _mini_site(tmp_path / "none", None)
    assert build.returncode == 0, build.stdout + build.stderr
    html = (tmp_path / "none" / "out" / "index.html").read_text(encoding="utf-8")
    assert "No study results were found" in html
    broken = dict(STUDY, outcomes=[dict(STUDY["outcomes"][0], rank=0)])
    build = _mini_site(tmp_path / "bad", json.dumps(broken))
    assert build.returncode != 0
    assert "'rank' must be a positive int or null" in build.stdout + build.stderr


def _unsorting(request: dict[str, Any]) -> dict[str, Any]:
    """Answer as the reference port does, but with the dice read kept in the order given."""
    answer = serve_handle({"seq": 0, **request})
    given = request["json"]["dice"]
    turn = answer["state"].split(" ")[2]
    answer["state"] = answer["state"].replace(turn, turn[:2] + "".join(map(str, given)), 1)
    answer["json"] = {**answer["json"], "dice": given}
    return answer


def test_dice_written_back_unsorted_blame_r4_1() -> None:
    """A state read with its dice in another order and written back so blames R4.1 alone.

    R4.1 says a state keeps its dice in non-decreasing order; dice that are
    not the same numbers blame the case's tags as before, not R4.1.
    """
    cases = harness.load_cases(generate.vectors_dir())
    reordered = [
        c
        for c in cases
        if c["kind"] == "state"
        and isinstance(c.get("json"), dict)
        and "json" in c["expect"]
        and c["json"].get("dice") not in (None, c["expect"]["json"]["dice"])
    ]
    assert reordered
    for case in reordered[:5]:
        found = evidence(case, _unsorting)
        assert found is not None
        assert max(found.blame, key=found.blame.__getitem__) == "R4.1", case["id"]
        assert found.blame["R4.1"] > 0.5, case["id"]

    def other_dice(request: dict[str, Any]) -> dict[str, Any]:
        answer = serve_handle({"seq": 0, **request})
        answer["json"] = {**answer["json"], "dice": [6, 6, 6, 6]}
        return answer

    found = evidence(reordered[0], other_dice)
    assert found is not None
    assert "R4.1" not in found.blame


# -- internal errors, refusals as busts, the squares a stop leaves ----------------------

_DEFECT = {"ok": False, "error": {"rule": None, "message": "internal error: x is undefined"}}


def _failing(ops: set[str]) -> Any:
    """Return a port that answers the reference's answers, but a defect to the ``ops``."""

    def ask(request: dict[str, Any]) -> dict[str, Any]:
        if request["op"] in ops:
            return dict(_DEFECT)
        return serve_handle({"seq": 0, **request})

    return ask


def test_a_defect_on_a_legal_stop_blames_every_rule_of_its_answer() -> None:
    """A stop answered with an internal error, the state read fine: each rule of the stop alike.

    Player 0 stops with 7:5 against player 1's square on 8:4: the square in
    column 7 (R11.2), player 1's square that stays (R9.3), the turn passing to
    player 1 (R2.3, R11.4).  None of the answer came back, so none is spared.
    """
    case = {
        "id": "apply-x",
        "kind": "apply",
        "rules": ["R2.3", "R9.3", "R11.2", "R11.4"],
        "state": "7:3/8:4 7:5 0d",
        "action": "stop",
        "expect": {"state": "7:5/8:4 - 1r", "event": "stopped"},
    }
    found = evidence(case, _failing({"apply"}))
    assert found is not None
    assert found.blame == pytest.approx({r: 0.25 for r in ("R2.3", "R9.3", "R11.2", "R11.4")})


def test_a_defect_on_reading_the_state_blames_the_rules_it_reads_by() -> None:
    """A port that fails even to read a state choosing a move: the rules of its legal moves.

    ``-/- - 0c3455``: 7+10 (3+4, 5+5) and 8+9 (3+5, 4+5) both place two
    markers (R4.2, R5.2, R6.1, R6.6), which a port must work out to know the
    state has a legal move (R10.1); the move asked about does not matter.
    """
    case = {
        "id": "illegal-x",
        "kind": "apply",
        "rules": ["R4.3"],
        "state": "-/- - 0c3455",
        "action": "7+8",
        "expect": {"error": "R4.3"},
    }
    found = evidence(case, _failing({"apply", "state"}))
    assert found is not None
    assert found.blame == pytest.approx({r: 0.25 for r in ("R4.2", "R5.2", "R6.1", "R6.6")})
    # Reading the state alone works: the defect is in the action, and R4.3 refuses it.
    found = evidence(case, _failing({"apply"}))
    assert found is not None
    assert found.blame == {"R4.3": 1.0}


def test_a_state_refused_as_a_bust_blames_the_moves_the_port_misses() -> None:
    """``-/- 5:1,6:1,8:1 0c1224``: 6 and 5 play only by advancing (R5.1); refused under R10.1.

    The legal moves are 5 and 6, each a pairing whose other sum needs a fourth
    marker (R5.3, R6.2); a port that finds neither misses both, which the rules
    of R4.2, R5.1, R5.3 and R6.2 make legal.  R10.1, the bust the port claims,
    is not blamed: the bust follows from the moves it missed.
    """
    state = "-/- 5:1,6:1,8:1 0c1224"
    bust = {"ok": False, "error": {"rule": "R10.1", "message": "no legal move: a bust"}}
    expect = {"moves": ["5", "6"]}
    case = {"id": "moves-x", "kind": "moves", "rules": [], "state": state, "expect": expect}
    found = evidence(case, lambda request: dict(bust))
    assert found is not None
    assert set(found.blame) == {"R4.2", "R5.1", "R5.3", "R6.2"}


def test_a_stop_names_the_squares_it_leaves() -> None:
    """Every square of the answer to a stop belongs to an aspect, with the rule that keeps it.

    ``5:2,7:3/8:4,9:2 7:5 0d``: player 0's square on 5:2 has no marker and stays
    (R11.2); player 1's squares stay, since the stop wins no column (R9.3).
    """
    aspects = tags.action_aspects(parse_state("5:2,7:3/8:4,9:2 7:5 0d"), Stop())
    by_what = {a.what: a for a in aspects}
    assert by_what["the squares in columns without a marker"].rules == ("R11.2",)
    theirs = by_what["the other players' squares that stay"]
    assert theirs.rules == ("R9.3",)
    assert theirs.fields == {Square(1, 8), Square(1, 9)}
    # A stop that wins column 4 takes player 1's square there (R9.3) and leaves 7:3.
    aspects = tags.action_aspects(parse_state("-/4:2,7:3 4:7 0d"), Stop())
    by_what = {a.what: a for a in aspects}
    assert by_what["the squares leaving column 4"].fields == {Square(1, 4)}
    assert by_what["the other players' squares that stay"].fields == {Square(1, 7)}
