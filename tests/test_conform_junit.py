"""``cantstop conform --junit``: a JUnit XML report valid under the Jenkins/Ant schema CI reads."""

from __future__ import annotations

import functools
import sys
from pathlib import Path
from typing import Any

import pytest

from cantstop.cli import main
from cantstop.conformance import generate, harness, study
from cantstop.conformance.mutants import MutantPort
from tests.extras import require

etree = require("lxml.etree")

SCHEMA = Path(__file__).resolve().parent / "data" / "junit.xsd"

#: A port that answers as the reference with the forced-play bug, and declares two players only.
TWO_PLAYERS = """\
import json, sys
from cantstop.conformance.mutants import MutantPort
port = MutantPort("forced-play")
for line in sys.stdin:
    q = json.loads(line)
    a = port.handle(q)
    if q.get("op") == "hello":
        a["supports"] = {"players": [2], "variants": [], "heights": False}
    print(json.dumps(a), flush=True)
"""


def _schema() -> Any:
    return etree.XMLSchema(etree.parse(str(SCHEMA)))


@functools.cache
def _two_player_moves() -> list[str]:
    """Return the ids of the first eight legal-move cases of the two-player game."""
    cases = harness.load_cases(generate.vectors_dir())
    return [c["id"] for c in cases if c["kind"] == "moves" and not c.get("needs")][:8]


@functools.cache
def _fails(case_id: str) -> bool:
    """Whether the forced-play bug gets this legal-move case wrong."""
    case = next(c for c in harness.load_cases(generate.vectors_dir()) if c["id"] == case_id)
    answer = MutantPort("forced-play").handle({"seq": 1, "op": "moves", "state": case["state"]})
    return bool(answer["moves"] != case["expect"]["moves"])


def _run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, Any, list[str]]:
    script = tmp_path / "port.py"
    script.write_text(TWO_PLAYERS, encoding="utf-8")
    moves = _two_player_moves()
    known = tmp_path / "known.txt"
    known.write_text(next(m for m in moves if _fails(m)) + "\n", encoding="utf-8")
    junit = tmp_path / "junit.xml"
    args = [arg for m in moves for arg in ("--run", m)]
    args += ["--run", "game-3p-B-01", "--run", "spec-E00[12]"]
    args += ["--known-failures", str(known), "--junit", str(junit)]
    status = main(["conform", *args, "--", sys.executable, str(script)])
    out = capsys.readouterr().out.splitlines()
    return status, etree.parse(str(junit)), out


def test_the_report_is_valid_junit_with_one_testcase_per_case(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The schema accepts it; every case is a testcase, with its outcome and reason."""
    status, document, out = _run(tmp_path, capsys)
    assert status == 1
    schema = _schema()
    assert schema.validate(document), schema.error_log
    cases = document.findall(".//testcase")
    moves = _two_player_moves()
    names = [c.get("name") for c in cases]
    assert sorted(names) == sorted(["spec-E001", "spec-E002", "game-3p-B-01", *moves])
    by_name = {c.get("name"): c for c in cases}
    assert len(by_name["spec-E001"]) == 0  # passed
    known = next(m for m in moves if _fails(m))
    assert by_name[known].find("skipped").get("message").startswith("known failure: ")
    skipped = by_name["game-3p-B-01"].find("skipped")
    assert skipped.get("message") == "the port does not support players=3"
    failures = [c for c in cases if c.find("failure") is not None]
    assert {c.get("name") for c in failures} == {m for m in moves if _fails(m)} - {known}
    for case in failures:
        text = case.find("failure").text
        assert "Suspect rules, most likely first: R6.1" in text  # forced play
        assert case.get("classname") == "cantstop-conformance.v3.moves"
    suite = document.find("testsuite")
    assert int(suite.get("tests")) == len(cases)
    assert int(suite.get("failures")) == len(failures)
    assert int(suite.get("skipped")) == 2
    assert out[-1] == f"{len(cases) - len(failures) - 2} passed, {len(failures)} failed (suite v3)"


def test_the_schema_is_not_vacuous() -> None:
    """The schema refuses a testcase without a name, and one both failed and skipped."""
    schema = _schema()
    good = '<testsuite name="s" tests="1"><testcase name="a"/></testsuite>'
    assert schema.validate(etree.fromstring(good))
    for bad in (
        '<testsuite name="s" tests="1"><testcase/></testsuite>',
        '<testsuite name="s" tests="1"><testcase name="a"><failure/><skipped/></testcase>'
        "</testsuite>",
        '<testsuite name="s"><testcase name="a"/></testsuite>',
        '<testsuite name="s" tests="1"><testcase name="a" time="-1"/></testsuite>',
    ):
        assert not schema.validate(etree.fromstring(bad)), bad


def test_text_the_port_sends_is_kept_legal_xml(tmp_path: Path) -> None:
    """Control characters in a port's message are escaped, so the report stays XML."""
    from dicekit.conformance.report import junit_xml
    from dicekit.conformance.run import CaseResult, Run

    failed = CaseResult("apply-00001", "failed", ["R7.3"], "refused: no\x1b[2J\x00")
    document = etree.fromstring(junit_xml(Run([failed], None, ["port"])).encode("utf-8"))
    assert _schema().validate(document)
    assert "no\\x1b[2J\\x00" in document.find(".//failure").get("message")


def test_the_summary_names_what_was_left_out(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Skipped cases are counted by what the port lacks, the explain capability by name."""
    script = tmp_path / "port.py"
    script.write_text(TWO_PLAYERS.replace('"forced-play"', "None"), encoding="utf-8")
    args = ["--run", "game-3p-B-01", "--run", "explain-0000[12]", "--run", "spec-E001"]
    assert main(["conform", *args, "--", sys.executable, str(script)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-2] == (
        "3 skipped, for what the port does not support: the capability explain (2), 3 players (1)"
    )
    assert study.port_command("forced-play")[-1] == "forced-play"
