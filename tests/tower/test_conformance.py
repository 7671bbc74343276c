"""The conformance suite of Off to the Tower (``tower/spec/conformance/``) and its sample record.

Version 1 is released: its files are held to the hashes of ``frozen.json``.
Version 2, the newest, is being prepared: its files are exactly what the
layer's generator writes from the engine and its rule tags, and it asks and
answers every case of v1 alike, adding the cases ``spec/CHANGES.md`` lists.
The bundled JavaScript port passes the spec's examples and the whole games
through ``cantstop conform`` (CI runs every case, against the port and the
reference server); the sample record verifies, and a tampered copy is
refused at its line under the rule it breaks.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from cantstop.cli import main
from dicekit.conformance.cases import load_cases
from dicekit.conformance.frozen import check_frozen, open_version, read_frozen
from dicekit.conformance.gamesuite import GameVectorsSuite
from dicekit.conformance.vectors import generate_vectors, suite_root, versions
from tower import GAME

ROOT = suite_root(GAME)
V1, V2 = ROOT / "v1", ROOT / "v2"
CHANGES = Path(__file__).resolve().parents[2] / "spec" / "CHANGES.md"
SAMPLE = Path(__file__).resolve().parents[2] / "tower" / "examples" / "sample-game.jsonl"


def test_v1_is_released_and_unchanged() -> None:
    """frozen.json lists v1 alone, and every file of v1 keeps its hash."""
    assert list(read_frozen(ROOT)) == ["v1"]
    assert check_frozen(ROOT) == []


def test_v2_is_the_newest_and_what_the_generator_writes() -> None:
    """The layer's generator writes v2 byte for byte from today's engine: 3,000 cases and more.

    v2 is being prepared: the next change goes into it, not into a v3.
    """
    assert versions(GAME) == [1, 2]
    assert open_version(ROOT, 2) == 2
    texts = generate_vectors(GAME, 2)
    assert sorted(texts) == sorted(p.name for p in V2.iterdir())
    for name, text in texts.items():
        assert (V2 / name).read_text(encoding="utf-8") == text, name
    counts = {n: json.loads(t)["count"] for n, t in texts.items() if n != "schema.json"}
    assert sum(counts.values()) >= 3000
    assert min(counts.values()) > 0


def test_v2_asks_every_case_of_v1_alike_and_adds_what_the_changelog_lists() -> None:
    """Each case of v1 is in v2, asked and answered alike; what v2 adds is in spec/CHANGES.md."""
    checks = GameVectorsSuite(GAME).checks
    old = {c["id"]: c for c in load_cases(V1, checks)}
    new = {c["id"]: c for c in load_cases(V2, checks)}
    assert [i for i in old if i not in new or _asked(old[i]) != _asked(new[i])] == []
    # Tags are metadata: the only change is R3.3 named where the turn wraps round to player 0.
    retagged = [i for i in old if old[i]["rules"] != new[i]["rules"]]
    for i in retagged:
        assert sorted(set(new[i]["rules"]) - set(old[i]["rules"])) == ["R3.3"], i
        assert set(old[i]["rules"]) <= set(new[i]["rules"]), i
    assert retagged
    added = sorted(set(new) - set(old))
    ranges = [("notation", 1009, 1068), ("invalid", 794, 912), ("invalid", 913, 964)]
    ranges += [("invalid", 965, 1003), ("apply", 801, 900)]
    drawn = [f"{kind}-{n:05d}" for kind, first, last in ranges for n in range(first, last + 1)]
    assert added == sorted(["spec-E165", "spec-E166", *drawn])
    section = CHANGES.read_text(encoding="utf-8").split("**Off to the Tower, v2**", 1)[1]
    section = " ".join(section.split("\n- **", 1)[0].split("\n\n", 1)[0].split())
    assert all(f"`{case}`" in section for case in ("spec-E165", "spec-E166"))
    for kind, first, last in ranges:
        assert f"`{kind}-{first:05d}` to `{kind}-{last:05d}`" in section
    assert f"{len(new):,} cases" in section
    assert new["spec-E165"]["expect"] == {"error": "R9.1"}


def test_v2_refuses_every_board_that_breaks_r2_under_its_rule() -> None:
    """Each rule of R2 has a broken shipped board in v2, refused under that rule."""
    cases = [
        c
        for c in _v2_cases()
        if c["kind"] == "new" and isinstance(c["new"]["config"].get("board"), dict)
    ]
    rules = {c["expect"]["error"] for c in cases}
    assert rules == {"R2.1", "R2.2", "R2.3", "R2.4", "R2.5", "R2.6"}
    for case in cases:
        assert case["rules"] == [case["expect"]["error"]], case["id"]
        assert case["needs"] == ["boards", "players=2"], case["id"]
    star_gone = [c for c in cases if "the star of field 4 taken away" in c["note"]]
    assert [c["expect"]["error"] for c in star_gone] == ["R2.2"]  # field 4 is small's crossing


def _asked(case: dict[str, Any]) -> dict[str, Any]:
    """Return what a case asks and expects: all of it but its rule tags."""
    return {key: value for key, value in case.items() if key != "rules"}


def test_v2_throws_dice_the_higher_first_and_expects_them_sorted() -> None:
    """apply-00801 on: throws whose first die is the higher, answered with the dice sorted (R4.1).

    R4.1's example E030 throws ``t53`` and writes ``0c35``: the state sorts the
    dice, so a throw that is not forfeited would leave another state if the
    dice were kept in the order thrown, and names R4.1; a forfeited throw
    leaves no dice to sort, and does not.
    """
    added = [c for c in _v2_cases() if c["id"].startswith("apply-") and int(c["id"][6:]) > 800]
    assert len(added) == 100
    for case in added:
        high, low = case["action"][1], case["action"][2]
        assert case["action"][0] == "t", case["id"]
        assert high > low, case["id"]
        event = case["expect"]["event"]
        assert event in ("thrown", "forfeited"), case["id"]
        if event == "thrown":
            assert case["expect"]["state"].split()[2].endswith(f"c{low}{high}"), case["id"]
        assert ("R4.1" in case["rules"]) == (event == "thrown"), case["id"]
    assert sum(c["expect"]["event"] == "forfeited" for c in added) < 20


def _v2_cases() -> list[dict[str, Any]]:
    return load_cases(V2, GameVectorsSuite(GAME).checks)


def test_every_case_names_rules_and_an_illegal_action_its_refusing_rule_first() -> None:
    """Each case is tagged; each illegal action's first tag is the rule it expects as the error.

    The one exception is a throw that puts usable dice on the table, sorted as
    thrown, with the tower empty or no six: no other reading of any rule
    would change what it does (``tower.tags``), so it names none.
    """
    illegal = json.loads((V2 / "illegal.json").read_text(encoding="utf-8"))["cases"]
    assert illegal
    for case in illegal:
        assert case["rules"][0] == case["expect"]["error"], case["id"]
    for path in V2.glob("*.json"):
        if path.name != "schema.json":
            cases = json.loads(path.read_text(encoding="utf-8"))["cases"]
            untagged = [c for c in cases if not c["rules"]]
            assert all(_plain_throw(c) for c in untagged), (path.name, untagged[:1])


def _plain_throw(case: dict[str, object]) -> bool:
    """Return whether ``case`` applies a sorted throw that leaves a choice, a six with no tower."""
    action, state, expect = case.get("action"), case.get("state"), case.get("expect")
    if not (isinstance(action, str) and isinstance(state, str) and isinstance(expect, dict)):
        return False
    empty = state.split()[1] == "-"
    plain = action.startswith("t") and action[1] <= action[2] and (empty or "6" not in action)
    return plain and expect.get("event") == "thrown" and set(expect) == {"state", "event"}


def test_the_javascript_port_passes_examples_and_games(capsys: pytest.CaptureFixture[str]) -> None:
    """The bundled port passes the spec's cases and whole games (cantstop conform --game tower)."""
    if shutil.which("node") is None:
        pytest.skip("the JavaScript port needs Node.js")
    status = main(["conform", "--game", "tower", "--run", "spec-*", "--run", "game-*"])
    out = capsys.readouterr().out
    assert status == 0, out[-2000:]
    assert out.rstrip().endswith(" failed (tower suite v2)")
    assert ", 0 failed" in out.splitlines()[-1]


def test_the_sample_record_verifies(capsys: pytest.CaptureFixture[str]) -> None:
    """tower/examples/sample-game.jsonl, a game between the runner and random play, is valid."""
    assert main(["verify", str(SAMPLE)]) == 0
    assert "valid: 64 actions; final state 'Rg,g/B22,24 - 0x @ours'" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("line", "old", "new", "rule"),
    [
        # 0+5 with 3 and 4 on the dice: no die shows 5 points.
        (3, '"points":4', '"points":5', "(rule R4.2)"),
        # 0+4 lands on plain field 4: the turn passes, so blue throws, not red.
        (3, "R0,4/B0,0 - 1t", "R0,4/B0,0 - 0t", "(rules R5.1, R6.1)"),
    ],
)
def test_a_tampered_record_is_refused_at_its_line_under_the_rule(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], line: int, old: str, new: str, rule: str
) -> None:
    """One line of the sample changed: verify fails with status 1, naming the line and the rule."""
    lines = SAMPLE.read_text(encoding="utf-8").splitlines(keepends=True)
    assert old in lines[line - 1]
    lines[line - 1] = lines[line - 1].replace(old, new)
    tampered = tmp_path / "tampered.jsonl"
    tampered.write_text("".join(lines), encoding="utf-8")
    assert main(["verify", str(tampered)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"cantstop verify: error: tampered.jsonl:{line}: ")
    assert err.rstrip().endswith(rule)
