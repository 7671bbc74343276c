"""The finish-line race's conformance method: seeded bugs, the study, the sample record."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

from dicekit.conformance.run import run_suite
from dicekit.conformance.study import FIRST_SHARE, TOP, Outcome, markdown_lines, misses
from dicekit.conformance.suite import Case
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
