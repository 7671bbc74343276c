"""The held-out studies of the three JavaScript ports (``dicekit/conformance/heldout.py``).

For each game, ``heldout-bugs.json`` lists one deleted line of the port for
every rule that decides an answer, or says why the rule has no line of its
own; ``heldout.json`` holds what the whole suite made of each deletion, and
the port guide prints it.  The tests hold the lists to the ports and the
specs, the results files to the lists, the pages to the results files, and
run one deletion of each game again through the whole study code.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import cantstop.study as cantstop_study
import finishline.study as finishline_study
import tower.study as tower_study
from cantstop.commands.games import load_game
from dicekit.conformance.heldout import (
    Deletion,
    HeldOutStudy,
    delete_line,
    heldout_markdown,
    load_deletions,
    port_heldout,
)
from dicekit.conformance.ranking import rule_key
from dicekit.conformance.study import TOP, run_study
from dicekit.spec import load_game_spec
from tests.extras import NODE_REASON

ROOT = Path(__file__).resolve().parent.parent
NODE = shutil.which("node")

#: Each game's held-out study, its spec's rules, its guide page, its command line and
#: a deletion that is run again here.
STUDIES: dict[str, tuple[Callable[[], HeldOutStudy], str, Path, Callable[..., int], str]] = {
    "cantstop": (
        lambda: cantstop_study.HELD_OUT,
        "cantstop",
        ROOT / "docs" / "ports.md",
        cantstop_study.main,
        "fourth-marker",
    ),
    "finishline": (
        lambda: port_heldout(finishline_study.STUDY),
        "finishline",
        ROOT / "docs" / "finishline" / "ports.md",
        finishline_study.main,
        "sideways-left-only",
    ),
    "tower": (
        lambda: port_heldout(tower_study.STUDY),
        "tower",
        ROOT / "docs" / "tower" / "ports.md",
        tower_study.main,
        "no-capture",
    ),
}

#: The kinds of case whose tags say which rules decide a port's answer: an example of
#: the spec names the rules it illustrates, and an explanation the rules it cites.
DECIDING_KINDS = {"moves", "apply", "chance", "game", "rolls", "perft", "new", "state"}


def _study(game: str) -> HeldOutStudy:
    return STUDIES[game][0]()


def _rules(game: str) -> set[str]:
    return set(load_game_spec(load_game(game)).rules)


def _deciding(study: HeldOutStudy) -> set[str]:
    """Return the rules of play the suite's tags name on an answer the rules decide."""
    _, cases = study.cases()
    return {
        r for c in cases if c["kind"] in DECIDING_KINDS for r in c["rules"] if r.startswith("R")
    }


@pytest.mark.parametrize("game", sorted(STUDIES))
def test_every_rule_that_decides_something_has_a_deletion_or_a_reason(game: str) -> None:
    """Each rule the suite's answers name is deleted once, or said to have no line of its own."""
    study = _study(game)
    deleted = [d.rule for d in study.deletions()]
    without = study.without_a_line()
    assert len(deleted) == len(set(deleted))
    assert not set(deleted) & set(without)
    assert _deciding(study) <= set(deleted) | set(without)
    assert set(deleted) | set(without) <= _rules(game)
    assert all(why.strip() for why in without.values())


@pytest.mark.parametrize("game", sorted(STUDIES))
def test_every_deletion_is_one_line_of_the_port(game: str, tmp_path: Path) -> None:
    """Each deleted line is in the port exactly once (or its occurrence is named)."""
    study = _study(game)
    for deletion in study.deletions():
        copy = tmp_path / deletion.name
        shutil.copytree(study.port.parent, copy)
        before = (copy / deletion.file).read_text(encoding="utf-8").splitlines()
        delete_line(copy, deletion)
        after = (copy / deletion.file).read_text(encoding="utf-8").splitlines()
        assert len(after) == len(before) - 1
        same = sum(line.strip() == deletion.line for line in before)
        assert same == 1 if deletion.occurrence is None else same >= deletion.occurrence > 0
        assert sum(line.strip() == deletion.line for line in after) == same - 1


@pytest.mark.skipif(NODE is None, reason=NODE_REASON)
@pytest.mark.parametrize("game", sorted(STUDIES))
def test_every_port_with_a_line_deleted_still_starts(game: str) -> None:
    """A deletion leaves a port that shakes hands: what it breaks is an answer, not the start."""
    study = _study(game)
    with tempfile.TemporaryDirectory() as tmp:
        commands = study.commands(Path(tmp), study.deletions())
        for name, command in commands.items():
            done = subprocess.run(
                command,
                input='{"seq": 1, "op": "hello"}\n',
                capture_output=True,
                text=True,
                timeout=60,
                check=False,
            )
            assert json.loads(done.stdout)["ok"] is True, (name, done.stderr[-300:])


def test_a_deletion_that_is_not_there_is_refused(tmp_path: Path) -> None:
    """A line the file lacks, or holds twice with no occurrence named, is a clear error."""
    (tmp_path / "rules.js").write_text("a;\nb;\nb;\n", encoding="utf-8")
    for line, nth, said in [("c;", None, "0 times, not once"), ("b;", None, "2 times, not once")]:
        with pytest.raises(ValueError, match=said):
            delete_line(tmp_path, Deletion("x", "R1.1", "rules.js", line, "", nth))
    delete_line(tmp_path, Deletion("x", "R1.1", "rules.js", "b;", "", 2))
    assert (tmp_path / "rules.js").read_text(encoding="utf-8") == "a;\nb;\n"


def test_a_list_naming_a_bug_twice_is_refused(tmp_path: Path) -> None:
    """Two held-out bugs of one name would share a results row: the list is refused."""
    bug = {"name": "x", "rule": "R1.1", "file": "rules.js", "line": "a;", "description": "d"}
    path = tmp_path / "heldout-bugs.json"
    path.write_text(json.dumps({"bugs": [bug, bug]}), encoding="utf-8")
    with pytest.raises(ValueError, match="listed twice: x"):
        load_deletions(path)


def _results(study: HeldOutStudy) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(study.results_path.read_text(encoding="utf-8"))
    return data


@pytest.mark.parametrize("game", sorted(STUDIES))
def test_the_results_cover_every_deletion_on_every_case(game: str) -> None:
    """heldout.json: every deletion of the list, run on every case of the newest version."""
    study = _study(game)
    data = _results(study)
    version, cases = study.cases()
    assert data["vectors"] == f"v{version}"
    assert data["cases"] == len(cases)
    listed = {d.name: d for d in study.deletions()}
    rows = {o["mutant"]: o for o in data["outcomes"]}
    assert list(rows) == list(listed)
    for name, row in rows.items():
        d = listed[name]
        assert (row["rule"], row["summary"], row["file"], row["line"]) == (
            d.rule,
            d.description,
            d.file,
            d.line,
        )
        assert row["cases"] == len(cases)
        assert row["caught"] == (row["failed"] > 0)
        if row["rank"] is not None and row["rank"] <= TOP:
            assert row["suspects"][row["rank"] - 1] == row["rule"]
        assert row.get("defects", 0) <= row["failed"]
    assert data["without_a_line"] == study.without_a_line()
    assert sorted(data["without_a_line"], key=rule_key) == list(data["without_a_line"])


@pytest.mark.parametrize("game", sorted(STUDIES))
def test_the_results_meet_the_studys_targets(game: str) -> None:
    """heldout.json: every deletion caught, its rule first for 90 % of them, and in the first three.

    The results are the study's own (the test above holds them to the list
    and the suite, and a deletion run again gives its row); this holds the
    targets the port guides state, so that a change to the port, the tags
    or the diagnosis that loses one is seen.
    """
    rows = _results(_study(game))["outcomes"]
    ranks = [row["rank"] for row in rows]
    assert all(row["caught"] for row in rows)
    assert all(rank is not None and rank <= TOP for rank in ranks)
    assert sum(rank == 1 for rank in ranks) >= 0.9 * len(rows)


@pytest.mark.parametrize("game", sorted(STUDIES))
def test_the_guide_explains_every_deletion_missed_or_not_judged(game: str) -> None:
    """Each deletion not caught, or with its rule outside the first three, is named on the page.

    The game's port guide says why, beside the table.  A deletion after
    which the port fails with internal errors counts here too when its rule is
    outside the first three: the page says which answers it breaks.
    """
    rows = _results(_study(game))["outcomes"]
    page = STUDIES[game][2].read_text(encoding="utf-8")
    prose = page.split("| bug | rule at fault | what the deletion does")[0]
    prose = prose.rsplit("held-out study", 1)[-1]
    missed = [o["mutant"] for o in rows if o["rank"] is None or o["rank"] > TOP]
    assert [m for m in missed if f"`{m}`" not in prose] == []


@pytest.mark.parametrize("game", sorted(STUDIES))
def test_the_port_guide_shows_the_held_out_table(
    game: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """The game's port guide holds the table ``--held-out --markdown`` prints from heldout.json."""
    _, _, page, main, _ = STUDIES[game]
    assert main(["--held-out", "--markdown"]) == 0
    table = capsys.readouterr().out
    assert table == "\n".join(heldout_markdown(_results(_study(game)))) + "\n"
    assert table in page.read_text(encoding="utf-8")


@pytest.mark.skipif(NODE is None, reason=NODE_REASON)
@pytest.mark.parametrize("game", ["finishline", "tower"])
def test_a_deletion_run_again_gives_the_whole_studys_outcome(game: str) -> None:
    """One deletion, through the study code on every case again: the row heldout.json holds."""
    study = _study(game)
    name = STUDIES[game][4]
    [deletion] = [d for d in study.deletions() if d.name == name]
    _, cases = study.cases()
    with tempfile.TemporaryDirectory() as tmp:
        commands = study.commands(Path(tmp), [deletion])
        (outcome,) = run_study(study.suite, cases, {name: deletion.rule}, commands.__getitem__)
    [row] = [o for o in _results(study)["outcomes"] if o["mutant"] == name]
    assert (
        outcome.to_json(deletion.description)
        | {
            "file": deletion.file,
            "line": deletion.line,
        }
        == row
    )
