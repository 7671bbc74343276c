"""The seeded-bug study of Off to the Tower (``python -m tower.study``) and its results file.

The committed ``tower/spec/conformance/study.json`` comes from a whole run
(every bug on every case of the newest version, v2) and must meet the targets.  Two bugs are
run again here so that the study code itself is exercised, each through the
layer's shortcut of asking the port only the cases the bug can change (the
others counted as passed): ``unsorted-dice`` the cases that throw the higher
die first, ``captured-to-start`` those where a capture may happen.  Both must
give the outcome the whole run wrote to the results file.  The port guide's
table is the results file's.
"""

from __future__ import annotations

import json
import re
import shutil
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from dicekit.conformance.study import FIRST_SHARE, TOP, Outcome, markdown_lines, misses, run_study
from dicekit.conformance.suite import Case
from tower.study import STUDY, main

PAGE = Path(__file__).resolve().parents[2] / "docs" / "tower" / "ports.md"
needs_node = pytest.mark.skipif(shutil.which("node") is None, reason="needs Node.js")


@cache
def _cases() -> tuple[int, list[Case]]:
    return STUDY.newest_cases()


@cache
def _results() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(STUDY.results_path().read_text(encoding="utf-8"))
    return data


def _outcome(name: str) -> Outcome:
    """Return the outcome of the bug ``name`` as the results file holds it."""
    (o,) = [o for o in _results()["outcomes"] if o["mutant"] == name]
    return Outcome(name, o["rule"], o["cases"], o["failed"], o["rank"], tuple(o["suspects"]))


def _unsorted_throws(case: Case) -> bool:
    """Return whether ``case`` throws the dice with the higher first (``t53``)."""
    actions = [case["action"]] if isinstance(case.get("action"), str) else []
    actions += [a for a in case.get("actions", []) if isinstance(a, str)]
    return any(re.fullmatch(r"t[1-6][1-6]", a) and a[1] > a[2] for a in actions)


def test_the_study_results_meet_the_targets() -> None:
    """study.json: every seeded bug, run on every case of the newest version, caught and ranked."""
    data = _results()
    version, cases = _cases()
    assert data["vectors"] == f"v{version}"
    assert data["cases"] == len(cases)
    assert data["targets"] == {"first_share": FIRST_SHARE, "top": TOP}
    said = {b.name: (b.rule, b.description) for b in STUDY.bugs}
    assert {o["mutant"]: (o["rule"], o["summary"]) for o in data["outcomes"]} == said
    outcomes = [_outcome(o["mutant"]) for o in data["outcomes"]]
    assert all(o.cases == len(cases) for o in outcomes)
    assert misses(outcomes) == []


@needs_node
def test_a_bug_asked_only_its_out_of_order_throws_gives_the_whole_runs_outcome() -> None:
    """unsorted-dice, asked only the cases that throw the higher die first, ranks R4.1 first.

    Four spec examples throw so, and the 100 throws of the ``apply`` family's
    chance forms; each such throw that is not forfeited names R4.1.
    """
    cases = _cases()[1]
    asked = [c for c in cases if _unsorted_throws(c)]
    kinds = [c["kind"] for c in asked]
    assert kinds.count("example") == 4
    assert kinds.count("apply") == 100
    assert sum("R4.1" in c["rules"] for c in asked if c["kind"] == "apply") > 80
    (outcome,) = run_study(
        STUDY.suite(), cases, {"unsorted-dice": "R4.1"}, STUDY.port_command, asked=lambda _: asked
    )
    assert outcome == _outcome("unsorted-dice")
    assert outcome.rank == 1


def _tower_changes(case: Case) -> bool:
    """Return whether ``case`` applies an action after which the tower holds another stone."""
    after = case["expect"].get("state")
    return isinstance(after, str) and after.split()[1] != case["state"].split()[1]


@needs_node
def test_a_bug_asked_only_the_cases_a_capture_may_change_gives_the_whole_runs_outcome() -> None:
    """captured-to-start, asked only where a capture may happen, fails and ranks R7.1 2nd.

    The bug changes only where a captured stone goes, so only an action after
    which the tower holds another stone, an example or a whole game can be
    answered differently: 248 cases of the 4,527.
    """
    cases = _cases()[1]
    kinds = ("example", "game")
    asked = [c for c in cases if c["kind"] in kinds or (c["kind"] == "apply" and _tower_changes(c))]
    assert len(asked) < len(cases) // 10
    bug = {"captured-to-start": "R7.1"}
    (outcome,) = run_study(STUDY.suite(), cases, bug, STUDY.port_command, asked=lambda _: asked)
    assert outcome == _outcome("captured-to-start")
    assert outcome.caught
    assert outcome.rank == 2


def test_an_unknown_bug_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    """--bug with a name bugs.json does not list: status 2 and one line naming the choices."""
    with pytest.raises(SystemExit) as stop:
        main(["--bug", "nope"])
    assert stop.value.code == 2
    assert "invalid choice: 'nope'" in capsys.readouterr().err


def test_the_port_guide_shows_the_results_table(capsys: pytest.CaptureFixture[str]) -> None:
    """docs/tower/ports.md holds the table that python -m tower.study --markdown prints."""
    assert main(["--markdown"]) == 0
    table = capsys.readouterr().out
    assert table == "\n".join(markdown_lines(_results())) + "\n"
    assert table in PAGE.read_text(encoding="utf-8")
    assert "| `unsorted-dice` | R4.1 |" in table
