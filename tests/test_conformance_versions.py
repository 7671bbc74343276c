"""Suite versions: v1 and v2 frozen, v3 being prepared, the changelog, the port of v1."""

from __future__ import annotations

import functools
import json
import re
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

from cantstop.cli import main
from cantstop.conformance import generate, harness
from cantstop.conformance.suite import SUITE
from cantstop.study import port_command, results_path
from dicekit.conformance.frozen import check_frozen, open_version, read_frozen
from dicekit.conformance.study import run_bug
from tests.extras import NODE_REASON

ROOT = Path(__file__).resolve().parent.parent
NODE = shutil.which("node")
OLD_PORT = Path(__file__).resolve().parent / "ports" / "javascript-d84e300" / "port.js"
CHANGES = ROOT / "spec" / "CHANGES.md"


@functools.cache
def _cases(version: int) -> dict[str, dict[str, Any]]:
    return {c["id"]: c for c in harness.load_cases(generate.vectors_dir(version))}


def _asked(case: dict[str, Any]) -> dict[str, Any]:
    """Return what a port is asked and must answer: all but the tags, title and note."""
    return {k: v for k, v in case.items() if k not in ("rules", "title", "note", "_file")}


def _changed() -> tuple[set[str], set[str]]:
    """Return the ids of the v1 cases whose questions or answers v2 changed, and the ids v2 adds."""
    old, new = _cases(1), _cases(2)
    assert set(old) <= set(new), "a case of v1 was removed"
    changed = {i for i in old if _asked(old[i]) != _asked(new[i])}
    return changed, set(new) - set(old)


def test_v2_is_released_and_v3_is_being_prepared() -> None:
    """v2 is released (frozen) and dated; v3, the newest, is being prepared and takes changes."""
    assert generate.versions()[-1] == generate.SUITE_VERSION == 3
    assert generate.vectors_dir() == generate.vectors_dir(3)
    assert harness.files_version(generate.vectors_dir(1)) == 1
    assert harness.files_version(generate.vectors_dir(2)) == 2
    assert harness.files_version(generate.vectors_dir(3)) == 3
    root = generate.suite_root()
    assert list(read_frozen(root)) == ["v1", "v2"]
    assert check_frozen(root) == []
    assert open_version(root, generate.SUITE_VERSION) == 3
    text = CHANGES.read_text(encoding="utf-8")
    assert "## v3 (being prepared: `spec/conformance/v3/`)" in text
    assert "## v2 (released 2026-12-04: `spec/conformance/v2/`)" in text
    assert text.index("## v3") < text.index("## v2") < text.index("## v1")
    # test_conformance.py holds v3 to what the generator writes, byte for byte.


def test_v3_asks_every_case_of_v2_alike_and_adds_what_the_changelog_lists() -> None:
    """Each case of v2 is in v3 with the same question and answer; v3's new cases are listed.

    The new cases come after v2's in their files (so no id of v2 moves): JSON
    states choosing a move with their dice in another order, read sorted, and
    JSON states not choosing a move that hold dice, refused under R16.5.
    """
    old, new = _cases(2), _cases(3)
    assert [i for i in old if _asked(old[i]) != _asked(new.get(i, {}))] == []
    added = set(new) - set(old)
    text = CHANGES.read_text(encoding="utf-8")
    v3 = text[text.index("## v3") : text.index("## v2")]
    for prefix in ("notation", "invalid"):
        ids = sorted(i for i in added if i.startswith(prefix))
        assert ids, prefix
        assert f"`{ids[0]}` to `{ids[-1]}`" in v3, (ids[0], ids[-1])
        assert len(ids) == int(ids[-1][-5:]) - int(ids[0][-5:]) + 1
    assert {i.split("-")[0] for i in added} == {"notation", "invalid"}
    for i in sorted(added):
        case = new[i]
        if i.startswith("invalid"):
            data = case["json"]
            assert data["phase"] != "choose", i
            assert data["dice"] is not None, i
            assert case["expect"] == {"error": "R16.5"}, i
        else:
            data = case["json"]
            assert data["phase"] == "choose", i
            assert data["dice"] != sorted(data["dice"]), i
            assert case["expect"]["json"]["dice"] == sorted(data["dice"]), i
            assert "R4.1" in case["rules"], i


def _committed_v2() -> list[tuple[str, str, list[dict[str, Any]]]]:
    """Return v2's files as the generator builds them: name, description and cases."""
    built = []
    for path in sorted(generate.vectors_dir(2).glob("*.json")):
        if path.name != "schema.json":
            data = json.loads(path.read_text(encoding="utf-8"))
            built.append((data["file"], data["description"], data["cases"]))
    return built


@pytest.fixture
def suite_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Give the generator a copy of the suite's folder as it was at v2's release, and v2's cases.

    That is v1 and v2, both released, with v2 the newest: what the generator
    does the first time it runs after a release.
    """
    root = tmp_path / "conformance"
    root.mkdir()
    for name in ("v1", "v2"):
        shutil.copytree(generate.suite_root() / name, root / name)
    shutil.copy(generate.suite_root() / "frozen.json", root / "frozen.json")
    monkeypatch.setattr(generate, "suite_root", lambda: root)
    monkeypatch.setattr(generate, "SUITE_VERSION", 2)
    built = _committed_v2()
    monkeypatch.setattr(generate, "_built", lambda: built)
    return root


def test_regenerating_an_unchanged_released_suite_writes_nothing(
    suite_copy: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """With v2 released and nothing changed, the command writes nothing and says so: status 0."""
    assert main(["conform", "--regenerate"]) == 0
    assert capsys.readouterr().out == (
        f"nothing written: the vectors are those of {suite_copy / 'v2'}, released and unchanged\n"
    )
    assert generate.versions() == [1, 2]
    assert check_frozen(suite_copy) == []


def test_the_first_change_after_the_release_opens_v3(
    suite_copy: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A changed answer opens v3: its files say version 3, its schema admits 3; v2 is untouched."""
    built = _committed_v2()
    name, description, cases = built[-1]
    changed = [{**cases[0], "title": "a changed title"}, *cases[1:]]
    monkeypatch.setattr(generate, "_built", lambda: [*built[:-1], (name, description, changed)])
    counts, folder = generate.write_next_version()
    assert folder == suite_copy / "v3"
    assert sum(counts.values()) == sum(len(cases) for _, _, cases in built)
    assert generate.versions() == [1, 2, 3]
    assert check_frozen(suite_copy) == []
    assert harness.files_version(folder) == 3
    schema = json.loads((folder / "schema.json").read_text(encoding="utf-8"))
    assert schema["properties"]["version"] == {"const": 3}
    assert schema["title"] == "Can't Stop conformance vectors, version 3"
    assert schema["$id"].endswith("/v3/schema.json")
    ours = json.loads((folder / f"{name}.json").read_text(encoding="utf-8"))
    assert ours["cases"][0]["title"] == "a changed title"
    # Written again, the open version v3 is rewritten in place.
    assert generate.write_next_version()[1] == folder


def test_v1_is_what_a_port_of_its_time_answers() -> None:
    """v1 holds 11,163 cases, none of them of the explain capability."""
    old = _cases(1)
    assert len(old) == 11_163
    assert not any(c["kind"] == "explain" for c in old.values())


def test_the_changelog_lists_every_changed_expectation() -> None:
    """spec/CHANGES.md lists each v1 case whose answer v2 changed, with both positions."""
    changed, added = _changed()
    text = CHANGES.read_text(encoding="utf-8")
    rows = re.findall(r"^\| `([a-z]+-[A-Za-z0-9-]+)` \| (\S+) \| (\d+) \| (\d+) \|$", text, re.M)
    assert {row[0] for row in rows} == changed
    assert len(rows) == len(changed) == 175
    old, new = _cases(1), _cases(2)
    for case_id, rule, before, after in rows:
        assert old[case_id]["expect"] == {"error": rule, "at": int(before)}
        assert new[case_id]["expect"] == {"error": rule, "at": int(after)}
    examples = {i for i in added if i.startswith("spec-")}
    assert examples == {"spec-E221", "spec-E222", "spec-E223"}
    assert all(f"`{i}`" in text for i in examples)
    explains = added - examples
    assert all(new[i]["kind"] == "explain" for i in explains)
    assert f"{len(explains)} cases)" in text


def test_the_changelog_check_is_not_vacuous() -> None:
    """A changed expectation that the changelog does not list is seen as a change."""
    old = _cases(1)["invalid-00002"]
    spoiled = {**old, "expect": {**old["expect"], "at": old["expect"]["at"] + 1}}
    assert _asked(spoiled) != _asked(old)
    assert _asked({**old, "rules": ["N1.1"], "title": "x"}) == _asked(old)


PINNED = """\
import json, sys
from cantstop.conformance.serve import handle
for line in sys.stdin:
    q = json.loads(line)
    a = handle(q)
    if q.get("op") == "hello":
        a["suite_version"] = {pinned}
    print(json.dumps(a), flush=True)
"""


def _pinned_port(tmp_path: Path, pinned: str) -> list[str]:
    script = tmp_path / "pinned.py"
    script.write_text(PINNED.format(pinned=pinned), encoding="utf-8")
    return [sys.executable, str(script)]


@pytest.mark.parametrize(("pinned", "ran"), [("1", 1), ("2", 2), ("3", 3), ("None", 3)])
def test_the_version_a_port_names_runs(
    pinned: str, ran: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A port that names a version in hello gets it; one that names none gets the newest."""
    status = main(["conform", "--run", "spec-E00[12]", "--", *_pinned_port(tmp_path, pinned)])
    out = capsys.readouterr().out.splitlines()
    assert status == 0
    assert out[0].startswith(f"Running 2 cases of suite v{ran} against: ")
    assert out[-1] == f"2 passed, 0 failed (suite v{ran})"


def test_the_option_chooses_the_version(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--suite-version`` runs the version it names, and says so when the port names another."""
    port = _pinned_port(tmp_path, "2")
    status = main(["conform", "--suite-version", "1", "--run", "spec-E001", "--", *port])
    out = capsys.readouterr().out.splitlines()
    assert status == 0
    assert "The port targets suite v2; v1 ran, as --suite-version asks." in out
    assert out[-1] == "1 passed, 0 failed (suite v1)"


@pytest.mark.parametrize(
    ("args", "pinned", "message"),
    [
        (
            ["--suite-version", "9"],
            "None",
            "--suite-version 9: this installation has suite v1, v2, v3",
        ),
        (["--suite-version", "0"], "None", "--suite-version takes a whole number above 0"),
        ([], "9", "the port targets suite v9, which this installation lacks (it has v1, v2, v3)"),
        ([], '"1"', 'the port\'s hello names suite_version "1", not a version number'),
    ],
)
def test_a_version_the_suite_lacks_is_exit_2(
    args: list[str],
    pinned: str,
    message: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A version that is not installed, asked by the option or the port: one error line, exit 2."""
    status = main(["conform", *args, "--", *_pinned_port(tmp_path, pinned)])
    out, err = capsys.readouterr()
    assert status == 2
    assert err.startswith("cantstop conform: error: ")
    assert message in err
    assert err.count("\n") == 1
    assert out == ""


@pytest.mark.skipif(NODE is None, reason=NODE_REASON)
def test_the_port_of_v1_passes_v1_and_fails_only_what_v2_changed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The JavaScript port of v1's release: all of v1; of v2 the changed cases, blamed on N1.6.

    A case that v2 asks and answers exactly as v1 did passes as it passed in v1
    (the port answers the same request the same way), so of v2 the port is
    asked the cases that changed and the cases that are new.
    """
    assert NODE is not None
    port = [NODE, str(OLD_PORT)]
    assert main(["conform", "--suite-version", "1", "--", *port]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "11163 passed, 0 failed (suite v1)"
    changed, added = _changed()
    new = _cases(2)
    asked = [new[i] for i in sorted(changed | added)]
    run = harness.run_suite(port, asked, version=2)
    run.diagnose(asked)
    new_examples = {i for i in added if i.startswith("spec-")}
    failed = {r.id for r in run.results if r.status == "failed"}
    skipped = {r.id for r in run.results if r.status == "skipped"}
    assert failed == changed | new_examples
    assert skipped == added - new_examples  # the explain capability, which it does not declare
    assert run.suspects()[0][0] == "N1.6"
    assert run.report()["suite_version"] == 2
    assert list(run.summary_lines())[-1] == f"0 passed, {len(failed)} failed (suite v2)"


def test_the_reworded_explanations_are_explain_cases_of_v2() -> None:
    """Each explain case the changelog lists as reworded is an explain case of v2 with an answer."""
    text = CHANGES.read_text(encoding="utf-8")
    section = text.split("**Explanations (the `explain` capability).**", 1)[1].split("###", 1)[0]
    listed = re.findall(r"`(explain-[0-9]{5})`", section)
    assert len(listed) == len(set(listed)) == 180
    new = _cases(2)
    assert all("explanation" in new[i]["expect"] for i in listed)


#: The ordinal words ``spec/protocol.md`` may use for a rank.
_ORDINALS = {
    "first": 1,
    "second": 2,
    "third": 3,
    "fourth": 4,
    "fifth": 5,
    "sixth": 6,
    "seventh": 7,
}


def test_the_pinned_versions_diagnosis_is_what_the_protocol_page_says() -> None:
    """A port pinned to v1 with columns one short: R1.1 at the rank "In a port's CI" gives.

    Version 1 keeps the rule tags it was released with; the page says where
    the diagnosis leaves R1.1 among the suspects, after or before which rules,
    and that v2 and v3 name it first (as the seeded-bug study of the newest,
    v3, records).
    """
    page = (generate.suite_root().parent.parent / "spec" / "protocol.md").read_text("utf-8")
    said = re.search(
        r"gets R1\.1 (\w+) among the suspect rules\s+\((after|before) ([^)]*)\),\s+"
        r"as versions 2\s+and 3 do",
        page,
    )
    assert said is not None
    rank = _ORDINALS[said.group(1)]
    named = re.findall(r"R\d+\.\d+", said.group(3))
    cases = harness.load_cases(generate.vectors_dir(1))
    outcome = run_bug(SUITE, cases, "short-columns", "R1.1", port_command("short-columns"))
    assert outcome.rank == rank
    if said.group(2) == "after":
        assert len(named) == rank - 1
        assert list(outcome.suspects) == named[: len(outcome.suspects)]
    else:
        assert rank == 1
        assert list(outcome.suspects[1:]) == named[: len(outcome.suspects) - 1]
    newest = json.loads(results_path().read_text(encoding="utf-8"))
    assert newest["vectors"] == "v3"
    [short] = [o for o in newest["outcomes"] if o["mutant"] == "short-columns"]
    assert short["rank"] == 1
