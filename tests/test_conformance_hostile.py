"""Hostile ports and surroundings: the harness ends in time, in bounded memory, and says why."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cantstop.cli import main
from cantstop.conformance import harness
from cantstop.conformance.serve import serve
from dicekit.conformance.lines import LineError, decode

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = [sys.executable, "-m", "cantstop", "serve"]
CONFORM = [sys.executable, "-m", "cantstop", "conform"]


def _alive(pid: int) -> bool:
    """Whether the process ``pid`` runs (a zombie, killed and not yet reaped, does not)."""
    try:
        status = Path(f"/proc/{pid}/stat").read_text(encoding="utf-8")
    except OSError:
        return False
    return status.rsplit(")", 1)[1].split()[0] != "Z"


def _end(pid: int) -> None:
    """End a process this test started, if it still runs."""
    if _alive(pid):
        os.kill(pid, signal.SIGKILL)


def _script(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    path.chmod(0o755)
    return path


# -- a port whose children hold the pipes ----------------------------------------------------


def test_a_port_whose_child_holds_the_pipes_is_ended_with_its_group(tmp_path: Path) -> None:
    """A shell script that waits on ``sleep``: the run ends within 3 x --timeout, sleep killed."""
    pid_file = tmp_path / "pid"
    port = _script(tmp_path, "w.sh", f"#!/bin/sh\nsleep 120 &\necho $! > {pid_file}\nwait\n")
    began = time.monotonic()
    done = subprocess.run(
        [*CONFORM, "--run", "spec-E001", "--timeout", "2", "--", str(port)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    elapsed = time.monotonic() - began
    child = int(pid_file.read_text(encoding="utf-8"))
    try:
        assert done.returncode == 2
        assert "no answer within the case's 2 s" in done.stderr
        assert elapsed < 3 * 2 + 3  # the interpreter's start included
        time.sleep(0.2)
        assert not _alive(child), "the port's child outlived the run"
    finally:
        _end(child)


ESCAPES = """\
import json, subprocess, sys
from cantstop.conformance.serve import handle
for line in sys.stdin:
    request = json.loads(line)
    if request.get("op") == "hello":
        print(json.dumps(handle(request)), flush=True)
        continue
    # A child in a session of its own, holding the port's output and error pipes.
    child = subprocess.Popen(["sleep", "60"], start_new_session=True)
    open({pid_file!r}, "w").write(str(child.pid))
    subprocess.run(["sleep", "60"])
"""


def test_a_child_that_left_the_group_never_blocks_the_harness(tmp_path: Path) -> None:
    """The harness never waits on a pipe that a stranger holds: the run ends in time."""
    pid_file = tmp_path / "pid"
    port = _script(tmp_path, "escapes.py", ESCAPES.format(pid_file=str(pid_file)))
    cases = [c for c in harness.load_cases(_vectors()) if c["id"] in ("spec-E001", "spec-E002")]
    began = time.monotonic()
    try:
        run = harness.run_suite([sys.executable, str(port)], cases, timeout=3.0)
        elapsed = time.monotonic() - began
        assert [r.status for r in run.results] == ["failed", "failed"]
        assert "no answer within the case's 3 s" in run.results[0].message
        assert elapsed < 2 * 3 * 3.0
    finally:
        if pid_file.exists():
            _end(int(pid_file.read_text(encoding="utf-8")))


def _vectors() -> Path:
    from cantstop.conformance import generate

    return generate.vectors_dir()


# -- a port that stalls in the middle of a line ---------------------------------------------

HALF_LINE = """\
import json, sys, time
from cantstop.conformance.serve import handle
count = 0
for line in sys.stdin:
    request = json.loads(line)
    count += 1
    if request.get("op") != "hello" and count % 2 == 1:
        sys.stdout.write('{"seq": %d, "ok"' % request["seq"])
        sys.stdout.flush()
        time.sleep(600)
    print(json.dumps(handle(request)), flush=True)
"""


def test_a_port_that_stalls_mid_line_is_stopped_and_named(tmp_path: Path) -> None:
    """Half a line, then silence, every other case: the run stops after twice the limit of hangs."""
    port = _script(tmp_path, "half.py", HALF_LINE)
    cases = harness.select(harness.load_cases(_vectors()), ["apply-0000*"], [])
    began = time.monotonic()
    run = harness.run_suite([sys.executable, str(port)], cases, timeout=1.0, max_port_failures=2)
    elapsed = time.monotonic() - began
    assert run.stopped is not None
    assert run.stopped.startswith("4 requests went unanswered within the timeout")
    assert "the port wrote part of a line (" in run.stopped
    assert 'no end of line) and stopped: \'{"seq": ' in run.stopped
    assert [r.status for r in run.results] == ["passed", "failed"] * 4
    assert elapsed < 4 * 1.0 + 8 * 1.5  # four timeouts and the restarts
    assert run.exit_status() == 2


# -- bounded options, output and memory ------------------------------------------------------

REPEATS = """\
import json, sys
from cantstop.conformance.serve import handle
last = None
for line in sys.stdin:
    request = json.loads(line)
    print(json.dumps(handle(request)), flush=True)
    if request.get("op") == "hello":
        continue
    if last is not None:
        sys.stdout.write((last + "\\n") * {copies})
        sys.stdout.flush()
    last = {line}
"""


def test_stray_lines_are_counted_not_kept(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An old answer repeated 20,000 times after each case: a few lines of output per case.

    The lines are charged to the case whose answer they follow: the first
    case's answer is followed by none (the port repeats the answer before the
    last), so that case passes, and each of the others fails.
    """
    repeat = "json.dumps(handle(request))"  # the answer it gave, again
    port = _script(tmp_path, "repeats.py", REPEATS.format(copies=20_000, line=repeat))
    status = main(["conform", "--run", "apply-0000[1-4]", "--", sys.executable, str(port)])
    out = capsys.readouterr().out.splitlines()
    assert status == 1
    assert len(out) < 80
    assert any("and 19,997 more lines after its answers" in line for line in out)
    assert out[-1] == "1 passed, 3 failed (suite v3)"
    assert not any(line.startswith("FAILED apply-00001 ") for line in out)


MEMORY = """\
import sys
from cantstop.conformance import generate, harness
cases = harness.select(harness.load_cases(generate.vectors_dir()), ["apply-0000*"], [])
run = harness.run_suite(sys.argv[1:], cases, timeout=20.0)
# The peak resident size of this process since it started (not of the one that forked it).
peak = next(line for line in open("/proc/self/status") if line.startswith("VmHWM:"))
print(run.count("failed"), int(peak.split()[1]) // 1024)
"""


@pytest.mark.parametrize(
    ("copies", "line"),
    [(50_000, "json.dumps(handle(request))"), (30, "'x' * 1_000_000")],
    ids=["many", "huge"],
)
def test_the_harness_memory_stays_bounded(copies: int, line: str, tmp_path: Path) -> None:
    """Whatever a port repeats after its answers, the harness stays under 100 MB."""
    port = _script(tmp_path, "repeats.py", REPEATS.format(copies=copies, line=line))
    probe = _script(tmp_path, "probe.py", MEMORY)
    done = subprocess.run(
        [sys.executable, str(probe), sys.executable, str(port)],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    failed, megabytes = map(int, done.stdout.split())
    assert failed >= 1
    assert megabytes < 100


def test_a_timeout_beyond_a_day_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    """``--timeout 1e10`` is refused before the run: exit 2, one line naming the bound."""
    status = main(["conform", "--timeout", "1e10", "--", *REFERENCE])
    out, err = capsys.readouterr()
    assert status == 2
    assert err == (
        "cantstop conform: error: --timeout takes a number of seconds above 0 and at most "
        "86,400, not '1e10'\n"
    )
    assert out == ""


# -- protocol failures are not rules -------------------------------------------------------

DOUBLES = """\
import json, sys, time
from cantstop.conformance.serve import handle
count = 0
for line in sys.stdin:
    request = json.loads(line)
    count += 1
    print(json.dumps(handle(request)), flush=True)
    if count == 2:
        print(json.dumps(handle(request)), flush=True)
    if count == 4:
        time.sleep(60)
"""


def test_protocol_failures_name_no_suspect_rule(tmp_path: Path) -> None:
    """A doubled answer and a hang are protocol failures: no rule is suspected for them."""
    port = _script(tmp_path, "doubles.py", DOUBLES)
    cases = harness.select(harness.load_cases(_vectors()), ["apply-0000[1-5]"], [])
    run = harness.run_suite([sys.executable, str(port)], cases, timeout=1.0)
    failed = [r for r in run.results if r.status == "failed"]
    # The first case is answered twice, the fourth hangs; restarted, the fifth is answered twice.
    assert [r.id for r in failed] == ["apply-00001", "apply-00004", "apply-00005"]
    assert all(r.protocol for r in failed)
    run.diagnose(cases, timeout=1.0)
    assert run.suspects() == []
    lines = list(run.summary_lines())
    assert not any(line.startswith("Suspect rules") for line in lines)
    assert "3 cases failed by breaking the protocol; no rule is suspected for them." in lines
    assert run.report()["suspect_rules"] == []


# -- reports, closed streams and odd files --------------------------------------------------


def test_a_full_disk_still_prints_the_summary(capsys: pytest.CaptureFixture[str]) -> None:
    """``--report /dev/full``: the summary line, then one error line, exit 2."""
    status = main(["conform", "--run", "spec-E001", "--report", "/dev/full", "--", *REFERENCE])
    out, err = capsys.readouterr()
    assert status == 2
    assert out.splitlines()[-1] == "1 passed, 0 failed (suite v3)"
    assert err == "cantstop conform: error: --report /dev/full: No space left on device\n"


def test_a_report_that_cannot_be_written_leaves_the_old_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A write that fails half way leaves the previous report whole, and no stray file."""
    report = tmp_path / "report.json"
    report.write_text('{"old": true}\n', encoding="utf-8")

    def full(source: object, target: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", full)
    status = main(["conform", "--run", "spec-E001", "--report", str(report), "--", *REFERENCE])
    capsys.readouterr()
    assert status == 2
    assert report.read_text(encoding="utf-8") == '{"old": true}\n'
    assert [p.name for p in tmp_path.iterdir()] == ["report.json"]


def test_serve_with_its_output_closed_says_so() -> None:
    """``cantstop serve >&-``: one error line on stderr, exit 2, no traceback."""
    done = subprocess.run(
        f'echo \'{{"seq":1,"op":"hello"}}\' | {" ".join(REFERENCE)} >&-',
        shell=True,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2
    assert done.stderr == "cantstop serve: error: standard output is closed\n"


def test_verify_refuses_what_is_not_a_regular_file(capsys: pytest.CaptureFixture[str]) -> None:
    """``cantstop verify /dev/zero`` says what the path is, not that it is missing."""
    assert main(["verify", "/dev/zero"]) == 2
    out, err = capsys.readouterr()
    assert err == "cantstop verify: error: '/dev/zero' is not a regular file (a character device)\n"
    assert out == ""


def test_a_failing_verify_and_conform_say_so_on_stderr(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Exit 1 comes with the one ``error:`` line on stderr that every command promises."""
    assert main(["verify", str(ROOT / "README.md")]) == 1
    out, err = capsys.readouterr()
    assert out.startswith("README.md:1: ")
    assert err == f"cantstop verify: error: {out.splitlines()[0]}\n"
    port = _script(tmp_path, "refuses.py", REFUSES)
    assert main(["conform", "--run", "apply-0000[12]", "--", sys.executable, str(port)]) == 1
    out, err = capsys.readouterr()
    assert err == "cantstop conform: error: 2 of 2 cases failed (suite v3)\n"


REFUSES = """\
import json, sys
from cantstop.conformance.serve import handle
for line in sys.stdin:
    request = json.loads(line)
    answer = handle(request)
    if request.get("op") == "apply":
        answer = {"seq": request["seq"], "ok": False, "error": {"rule": "R7.3", "message": "no"}}
    print(json.dumps(answer), flush=True)
"""


@pytest.mark.parametrize("line", [b"\x0c", b"\xc2\xa0", b" \x0c "])
def test_only_spaces_tabs_and_returns_make_an_empty_line(line: bytes) -> None:
    """A form feed or a no-break space is a line that is not JSON, not an empty one."""
    with pytest.raises(LineError, match=r"^a line that is not JSON: Expecting value"):
        decode(line)
    import io

    out = io.StringIO()
    serve(io.BytesIO(line + b"\n"), out)
    answer = json.loads(out.getvalue())
    assert answer["error"]["message"].startswith("malformed request: a line that is not JSON")
