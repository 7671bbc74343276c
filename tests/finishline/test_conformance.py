"""The finish-line race's conformance method: suite versions, seeded bugs, study, sample record."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

from dicekit.conformance.cases import load_cases
from dicekit.conformance.frozen import check_frozen, open_version, read_frozen
from dicekit.conformance.gamesuite import GameVectorsSuite
from dicekit.conformance.run import run_suite
from dicekit.conformance.study import FIRST_SHARE, TOP, Outcome, markdown_lines, misses
from dicekit.conformance.suite import Case
from dicekit.conformance.vectors import generate_vectors, versions
from dicekit.spec import load_game_spec
from finishline import GAME
from finishline.study import BUGS, PORT, newest_cases, port_command, results_path, suite

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "finishline" / "examples" / "sample-game.jsonl"
needs_node = pytest.mark.skipif(shutil.which("node") is None, reason="needs Node.js")


@cache
def _cases() -> list[Case]:
    return newest_cases()[1]


def test_every_bug_names_a_spec_rule_and_is_documented() -> None:
    """bugs.json names each bug once, with a rule of the spec; the port's README lists it."""
    rules = load_game_spec(GAME).rules
    readme = (PORT.parent / "README.md").read_text(encoding="utf-8")
    assert len(BUGS) >= 10
    assert len({b.name for b in BUGS}) == len(BUGS)
    for bug in BUGS:
        assert bug.rule in rules
        assert f"`{bug.name}`" in readme
        assert bug.description


@needs_node
@pytest.mark.parametrize("bug", BUGS, ids=lambda b: b.name)
def test_each_bug_is_caught_by_the_cases_of_its_rule(bug: object) -> None:
    """Run against the port with the bug, the cases tagged with its rule catch it."""
    name, rule = bug.name, bug.rule  # type: ignore[attr-defined]
    tagged = [c for c in _cases() if rule in c["rules"] and c["kind"] != "game"]
    run = run_suite(port_command(name), tagged, suite())
    assert run.stopped is None
    assert run.count("failed") > 0


@needs_node
def test_an_unknown_bug_is_a_usage_error() -> None:
    """``node port.js --bug NAME`` with a name bugs.json lacks exits 2 with one line."""
    done = subprocess.run(
        [shutil.which("node") or "node", str(PORT), "--bug", "no-such-bug"],
        input="",
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1
    assert "no-such-bug" not in done.stderr.split("one of")[1]


def test_the_study_results_meet_the_targets() -> None:
    """study.json: every seeded bug, run on every vector, caught and its rule ranked."""
    data = json.loads(results_path().read_text(encoding="utf-8"))
    assert data["targets"] == {"first_share": FIRST_SHARE, "top": TOP}
    assert data["cases"] == len(_cases())
    found = {o["mutant"]: o for o in data["outcomes"]}
    assert set(found) == {b.name for b in BUGS}
    outcomes = [
        Outcome(n, o["rule"], o["cases"], o["failed"], o["rank"], tuple(o["suspects"]))
        for n, o in found.items()
    ]
    assert {o.mutant: o.rule for o in outcomes} == {b.name: b.rule for b in BUGS}
    assert misses(outcomes) == []


def _verify(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cantstop", "verify", str(path)],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
    )


def test_the_sample_record_verifies() -> None:
    """The shipped record of a game between the racer and the random player is valid."""
    done = _verify(SAMPLE)
    assert done.returncode == 0, done.stderr
    assert "valid" in done.stdout


def test_a_tampered_record_names_the_line_and_the_rule(tmp_path: Path) -> None:
    """A record whose third line claims a placement on a row the dice do not name fails."""
    lines = SAMPLE.read_text(encoding="utf-8").splitlines()
    third = json.loads(lines[2])
    assert third["action"]["moves"][1]["cell"] == "B4"
    third["action"]["moves"][1]["cell"] = "B6"
    lines[2] = json.dumps(third)
    tampered = tmp_path / "tampered.jsonl"
    tampered.write_text("\n".join(lines) + "\n", encoding="utf-8")
    done = _verify(tampered)
    assert done.returncode == 1
    assert "tampered.jsonl:3:" in done.stderr
    assert "R4.2" in done.stderr


def test_the_port_guide_shows_the_results_table(capsys: pytest.CaptureFixture[str]) -> None:
    """docs/finishline/ports.md holds the table that ``finishline.study --markdown`` prints."""
    from finishline.study import main

    assert main(["--markdown"]) == 0
    table = capsys.readouterr().out
    results = json.loads(results_path().read_text(encoding="utf-8"))
    assert table == "\n".join(markdown_lines(results)) + "\n"
    page = Path(__file__).resolve().parents[2] / "docs" / "finishline" / "ports.md"
    assert table in page.read_text(encoding="utf-8")
    assert "| `forfeit-keeps-turn` | R9.2 |" in table


SUITE_ROOT = ROOT / "finishline" / "spec" / "conformance"
CHANGES = ROOT / "spec" / "CHANGES.md"


def _suite_cases(version: int) -> dict[str, Case]:
    checks = GameVectorsSuite(GAME).checks
    return {c["id"]: c for c in load_cases(SUITE_ROOT / f"v{version}", checks)}


def test_v1_is_released_and_v2_is_what_the_generator_writes() -> None:
    """v1 keeps its hashes; v2, the newest and being prepared, is what the generator writes."""
    assert list(read_frozen(SUITE_ROOT)) == ["v1"]
    assert check_frozen(SUITE_ROOT) == []
    assert versions(GAME) == [1, 2]
    assert open_version(SUITE_ROOT, 2) == 2
    texts = generate_vectors(GAME, 2)
    v2 = SUITE_ROOT / "v2"
    assert sorted(texts) == sorted(p.name for p in v2.iterdir())
    for name, text in texts.items():
        assert (v2 / name).read_text(encoding="utf-8") == text, name


def test_v2_asks_every_case_of_v1_alike_and_adds_what_the_changelog_lists() -> None:
    """Each case of v1 is in v2 unchanged; the cases v2 adds are named in spec/CHANGES.md."""
    old, new = _suite_cases(1), _suite_cases(2)
    assert [i for i in old if old[i] != new.get(i)] == []
    added = sorted(set(new) - set(old))
    reordered = [f"notation-{n:05d}" for n in range(1201, 1261)]
    mixed = [f"invalid-{n:05d}" for n in range(788, 908)]
    spoiled = [f"invalid-{n:05d}" for n in range(908, 940)]
    assert added == sorted(reordered + mixed + spoiled)
    section = CHANGES.read_text(encoding="utf-8").split("**The finish-line race, v2**", 1)[1]
    section = " ".join(section.split("\n- **", 1)[0].split())
    for first, last in (
        (reordered[0], reordered[-1]),
        (mixed[0], mixed[-1]),
        (spoiled[0], spoiled[-1]),
    ):
        assert f"`{first}` to `{last}`" in section
    assert f"{len(new):,} cases" in section


def test_v2_reads_dice_given_in_the_order_thrown_as_sorted() -> None:
    """R4.1: a choosing state's dice given high first are read, and written back, low first."""
    new = _suite_cases(2)
    cases = [new[f"notation-{n:05d}"] for n in range(1201, 1261)]
    for case in cases:
        given, expected = case["json"], case["expect"]["json"]
        assert given["phase"] == "choose", case["id"]
        assert given["dice"][0] > given["dice"][1], case["id"]
        assert expected == {**given, "dice": sorted(given["dice"])}, case["id"]
        assert case["expect"]["state"].endswith(f"c{min(given['dice'])}{max(given['dice'])}")
        assert case["rules"][0] == "R4.1", case["id"]


def test_v2_refuses_states_made_of_two_states_under_the_rule_that_ties_them() -> None:
    """Dice in a state about to roll are refused under R12.4, none in a choosing one under R4.1."""
    new = _suite_cases(2)
    cases = [new[f"invalid-{n:05d}"] for n in range(788, 908)]
    for case in cases:
        data, rule = case["json"], case["expect"]["error"]
        assert case["rules"] == [rule], case["id"]
        if data["phase"] == "roll" and data["dice"] is not None:
            assert rule == "R12.4", case["id"]
        if data["phase"] == "choose" and data["dice"] is None:
            assert rule == "R4.1", case["id"]
    rules = {c["expect"]["error"] for c in cases}
    assert {"R4.1", "R12.3", "R12.4"} <= rules
