"""Edges a port author meets: why a port died, answers out of turn, stray lines, report files.

Each test was first seen failing: the harness showed the last lines of a
dying port's standard error (the cause is in the first), took an answer
printed before its request for the answer and blamed rules, charged every
stray line to the request whose answer it repeated, and wrote reports
readable by their owner alone.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from cantstop.cli import main
from cantstop.conformance import generate, harness
from dicekit.conformance.heldout import copy_port
from dicekit.conformance.port import STDERR_SHOWN
from tests.extras import NODE_REASON

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = [sys.executable, "-m", "cantstop", "serve"]
NODE = shutil.which("node")
CASES = harness.load_cases(generate.vectors_dir())
APPLY = [c for c in CASES if c["id"].startswith("apply-0000")][:4]


def _script(tmp_path: Path, name: str, text: str) -> list[str]:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return [sys.executable, str(path)]


def _named_file(message: str) -> Path:
    """Return the file a message names after ``all of it is in``."""
    return Path(message.split("all of it is in ", 1)[1].split(";", 1)[0].strip())


# -- why a port died -------------------------------------------------------------------------

DIES = """\
import sys
sys.stderr.write("the cause: cannot read boards/ours.json\\n\\n")
for n in range(1, 41):
    sys.stderr.write(f"noise {n}\\n")
sys.stderr.flush()
sys.exit(3)
"""


def test_a_port_that_cannot_start_shows_the_first_lines_of_its_stderr(tmp_path: Path) -> None:
    """The cause (the first line), the last line, the count, and the file that holds all."""
    run = harness.run_suite(_script(tmp_path, "dies.py", DIES), APPLY, timeout=5.0)
    assert run.stopped is not None
    assert "(exit status 3)" in run.stopped
    assert "its standard error (41 lines): the cause: cannot read boards/ours.json" in run.stopped
    shown = run.stopped.split("its standard error (41 lines): ", 1)[1].split("; all of it", 1)[0]
    assert shown.split(" | ") == [
        "the cause: cannot read boards/ours.json",
        *(f"noise {n}" for n in range(1, STDERR_SHOWN)),
        "...",
        "noise 40",
    ]
    kept = _named_file(run.stopped)
    try:
        assert kept.read_text(encoding="utf-8").splitlines()[0] == (
            "the cause: cannot read boards/ours.json"
        )
        assert kept.read_text(encoding="utf-8").splitlines()[-1] == "noise 40"
    finally:
        shutil.rmtree(kept.parent)


@pytest.mark.skipif(NODE is None, reason=NODE_REASON)
def test_a_javascript_port_without_its_boards_names_the_missing_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Node.js puts the error under the line it failed on: the error line is among those shown."""
    copy = copy_port(ROOT / "tower" / "ports" / "javascript", tmp_path / "port")  # no boards
    assert NODE is not None
    status = main(
        ["conform", "--game", "tower", "--run", "spec-E001", "--", NODE, str(copy / "port.js")]
    )
    err = capsys.readouterr().err
    assert status == 2
    assert err.count("\n") == 1
    assert "Error: ENOENT: no such file or directory" in err
    assert "boards" in err
    shutil.rmtree(_named_file(err).parent)


def test_a_port_that_starts_cleanly_leaves_no_file_behind(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The standard error of a start that did not fail is not kept; that of a failure is."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    run = harness.run_suite(REFERENCE, APPLY[:1], timeout=10.0)
    assert run.count("passed") == 1
    assert list(tmp_path.iterdir()) == []
    run = harness.run_suite(_script(tmp_path, "dies.py", DIES), APPLY, timeout=5.0)
    assert run.stopped is not None
    assert _named_file(run.stopped).parent.parent == tmp_path


# -- answers before their request ------------------------------------------------------------

EARLY = """\
import json, sys
from cantstop.conformance.serve import handle
for line in sys.stdin:
    request = json.loads(line)
    answer = handle(request)
    text = json.dumps(answer) + "\\n"
    if request.get("op") != "hello":
        # An answer to the next request, before the harness has sent it.
        text += json.dumps({**answer, "seq": request["seq"] + 1}) + "\\n"
    sys.stdout.write(text)
    sys.stdout.flush()
"""


#: Cases of many requests each, where an early answer is read while the case goes on.
GAMES = [c for c in CASES if c["kind"] == "game"][:2]


def test_an_answer_before_its_request_is_a_protocol_failure(tmp_path: Path) -> None:
    """It is no answer to the request sent later, and no rule is suspected for it."""
    run = harness.run_suite(_script(tmp_path, "early.py", EARLY), GAMES, timeout=20.0)
    assert [r.status for r in run.results] == ["failed"] * len(GAMES)
    assert all(r.protocol for r in run.results)
    assert all("before it was asked" in r.message for r in run.results)
    run.diagnose(GAMES, timeout=20.0)
    assert run.suspects() == []
    assert run.report()["suspect_rules"] == []


# -- stray lines after every answer ----------------------------------------------------------

FIRST_AGAIN = """\
import json, sys
from cantstop.conformance.serve import handle
first = None
for line in sys.stdin:
    request = json.loads(line)
    text = json.dumps(handle(request)) + "\\n"
    if request.get("op") != "hello":
        first = first or text
        text += first * 50  # the first answer again, after every answer
    sys.stdout.write(text)
    sys.stdout.flush()
"""


def test_stray_lines_after_every_answer_fail_every_case(tmp_path: Path) -> None:
    """Each case is charged the lines that follow its answer, not the case they repeat."""
    run = harness.run_suite(_script(tmp_path, "again.py", FIRST_AGAIN), APPLY, timeout=5.0)
    assert [r.status for r in run.results] == ["failed"] * len(APPLY)
    assert all(r.protocol for r in run.results)
    for result in run.results[:-1]:
        assert result.message.startswith("the port answered request 2 a second time: ")
        assert "... and 47 more lines after its answers" in result.diagnosis


# -- the mode of report files ----------------------------------------------------------------


@pytest.fixture
def umask_022() -> Iterator[None]:
    """Run with the umask most systems give a user, 022."""
    old = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(old)


@pytest.mark.usefixtures("umask_022")
def test_reports_are_made_with_the_usual_mode(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--report`` and ``--junit`` make files as any program does: 0666 less the umask."""
    report, junit = tmp_path / "report.json", tmp_path / "junit.xml"
    args = ["conform", "--run", "spec-E001", "--report", str(report), "--junit", str(junit)]
    assert main([*args, "--", *REFERENCE]) == 0
    capsys.readouterr()
    assert stat.S_IMODE(report.stat().st_mode) == 0o644
    assert stat.S_IMODE(junit.stat().st_mode) == 0o644
    assert json.loads(report.read_text(encoding="utf-8"))["summary"]["passed"] == 1


@pytest.mark.usefixtures("umask_022")
def test_a_report_written_again_keeps_its_mode(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A report file that exists keeps the mode its owner gave it."""
    report = tmp_path / "report.json"
    report.write_text("{}\n", encoding="utf-8")
    report.chmod(0o640)
    assert main(["conform", "--run", "spec-E001", "--report", str(report), "--", *REFERENCE]) == 0
    capsys.readouterr()
    assert stat.S_IMODE(report.stat().st_mode) == 0o640
    assert json.loads(report.read_text(encoding="utf-8"))["summary"]["passed"] == 1
