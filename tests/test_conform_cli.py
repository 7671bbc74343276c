"""``cantstop conform`` as a CI gate: exit status, bad arguments, known failures, progress."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from cantstop.cli import main
from cantstop.conformance import harness

REFERENCE = [sys.executable, "-m", "cantstop", "serve"]
ROOT = Path(__file__).resolve().parent.parent


def _marker_port(tmp_path: Path) -> list[str]:
    """Return a port command that leaves a file behind if it is ever started."""
    marker = tmp_path / "started"
    return [sys.executable, "-c", f"open({str(marker)!r}, 'w').close()"]


def _bad_arguments(tmp_path: Path) -> dict[str, list[str]]:
    """Return the bad argument lists, by name; each must be refused before the port starts."""
    folder = tmp_path / "folder"
    folder.mkdir()
    empty = tmp_path / "empty"
    empty.mkdir()
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "moves.json").write_text('{"cases": [', encoding="utf-8")
    no_list = tmp_path / "no-list"
    no_list.mkdir()
    (no_list / "moves.json").write_text('{"cases": 3}', encoding="utf-8")
    a_file = tmp_path / "file.txt"
    a_file.write_text("spec-E001\n", encoding="utf-8")
    latin = tmp_path / "latin.txt"
    latin.write_bytes(b"spec-E001 # caf\xe9\n")
    typo = tmp_path / "typo.txt"
    typo.write_text("spec-E001\nspec-E9999  # a typo\nspce-*\n", encoding="utf-8")
    return {
        "vectors missing": ["--vectors", str(tmp_path / "nonexistent")],
        "vectors is a file": ["--vectors", str(a_file)],
        "vectors empty": ["--vectors", str(empty)],
        "vectors not JSON": ["--vectors", str(broken)],
        "vectors without cases": ["--vectors", str(no_list)],
        "run matches nothing": ["--run", "nomatch*"],
        "run and skip leave nothing": ["--run", "spec-E001", "--skip", "spec-*"],
        "known failures missing": ["--known-failures", "/nonexistent"],
        "known failures a directory": ["--known-failures", str(folder)],
        "known failures not UTF-8": ["--known-failures", str(latin)],
        "known failures entry matches nothing": ["--known-failures", str(typo)],
        "report in a missing directory": ["--report", "/nonexistent/x.json"],
        "report is a directory": ["--report", str(folder)],
        "junit in a missing directory": ["--junit", "/nonexistent/junit.xml"],
        "junit is a directory": ["--junit", str(folder)],
        "timeout zero": ["--timeout", "0"],
        "timeout negative": ["--timeout", "-1"],
        "timeout not a number": ["--timeout", "abc"],
        "timeout NaN": ["--timeout", "nan"],
        "timeout infinite": ["--timeout", "inf"],
        "timeout beyond a day": ["--timeout", "1e10"],
        "max failures zero": ["--max-failures", "0"],
        "max failures negative": ["--max-failures", "-3"],
        "max failures a fraction": ["--max-failures", "1.5"],
        "max port failures zero": ["--max-port-failures", "0"],
    }


#: What the message says, for some of the bad arguments.
MESSAGES = {
    "vectors missing": "nonexistent is not a folder of vector files",
    "vectors empty": "holds no vector files (*.json)",
    "run matches nothing": "no case selected: --run 'nomatch*' leaves none of",
    "known failures missing": "cannot read /nonexistent: No such file or directory",
    "known failures a directory": "it is a directory",
    "known failures entry matches nothing": "2 entries match no case of the suite: "
    "'spec-E9999', 'spce-*'",
    "report in a missing directory": "--report /nonexistent/x.json: no such directory",
    "junit in a missing directory": "--junit /nonexistent/junit.xml: no such directory",
    "timeout zero": "--timeout takes a number of seconds above 0 and at most 86,400, not '0'",
    "timeout beyond a day": "--timeout takes a number of seconds above 0 and at most 86,400",
    "max failures a fraction": "--max-failures takes a whole number above 0, not '1.5'",
}


def test_bad_arguments_are_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Every bad argument: exit 2, one ``cantstop conform: error:`` line, the port never started.

    The line says what was wrong: the option, the value or the file, and why.
    """
    for name, args in _bad_arguments(tmp_path).items():
        status = main(["conform", *args, "--", *_marker_port(tmp_path)])
        out, err = capsys.readouterr()
        assert status == 2, name
        assert err.count("\n") == 1, (name, err)
        assert err.startswith("cantstop conform: error: "), (name, err)
        assert "Traceback" not in err
        assert MESSAGES.get(name, "") in err, (name, err)
        assert out == "", (name, out)
        assert not (tmp_path / "started").exists(), name


def test_bad_arguments_through_the_command(tmp_path: Path) -> None:
    """The installed command line gives the same one line, without a traceback."""
    for args in (["--known-failures", "/nonexistent"], ["--report", "/nonexistent/x.json"]):
        done = subprocess.run(
            [sys.executable, "-m", "cantstop", "conform", *args, "--", "true"],
            capture_output=True,
            text=True,
            check=False,
        )
        assert done.returncode == 2
        assert done.stderr.startswith("cantstop conform: error: ")
        assert done.stderr.count("\n") == 1


def test_a_port_that_cannot_start_is_one_message(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """No per-case failures and no table of rules: one error line, exit 2."""
    status = main(["conform", "--", str(tmp_path / "no-such-port")])
    out, err = capsys.readouterr()
    assert status == 2
    assert err.startswith("cantstop conform: error: the port could not start: cannot start ")
    assert err.count("\n") == 1
    assert out == ""  # the handshake that picks the suite version fails before any case


def _vectors() -> Path:
    from cantstop.conformance import generate

    return generate.vectors_dir()


FAILING = """\
import json, sys
from cantstop.conformance.serve import handle
for line in sys.stdin:
    request = json.loads(line)
    answer = handle(request)
    if request.get("op") == "apply":
        answer = {"seq": request["seq"], "ok": False,
                  "error": {"rule": "R7.3", "message": "no\\x1b[2J"}}
    print(json.dumps(answer), flush=True)
"""


def test_a_refused_apply_shows_the_state_and_the_action(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The failure line names what was asked (action and state), the rule, and the message."""
    script = tmp_path / "refuses.py"
    script.write_text(FAILING, encoding="utf-8")
    case = next(c for c in harness.load_cases(_vectors()) if c["id"] == "apply-00001")
    status = main(["conform", "--run", "apply-00001", "--", sys.executable, str(script)])
    out = capsys.readouterr().out.splitlines()
    assert status == 1
    assert out[0] == f"Running 1 case of suite v3 against: {sys.executable} {script}"
    want = (
        f'  apply of {case["action"]} to {case["state"]} was refused under rule "R7.3": no\\x1b[2J'
    )
    assert want in out
    assert out[-1] == "0 passed, 1 failed (suite v3)"


def test_known_failure_globs_never_fail_passing_cases(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A glob lets the cases it matches fail; passing ones stay passed, and the run passes."""
    known = tmp_path / "known.txt"
    known.write_text("spec-E00*  # the documented kind of entry\n", encoding="utf-8")
    status = main(
        ["conform", "--run", "spec-E00*", "--known-failures", str(known), "--", *REFERENCE]
    )
    out = capsys.readouterr().out.splitlines()
    passed = len(harness.select(harness.load_cases(_vectors()), ["spec-E00*"], []))
    assert status == 0
    assert out[-1] == f"{passed} passed, 0 failed (suite v3)"
    assert f"Known failures: 'spec-E00*' matches {passed} cases, and none failed" in out


def test_known_failure_glob_on_failing_cases(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Failing cases a glob matches are known failures: exit 0, and the count in the summary."""
    script = tmp_path / "refuses.py"
    script.write_text(FAILING, encoding="utf-8")
    known = tmp_path / "known.txt"
    known.write_text("apply-0000[1]\n", encoding="utf-8")
    args = ["--run", "apply-00001", "--known-failures", str(known)]
    status = main(["conform", *args, "--", sys.executable, str(script)])
    out = capsys.readouterr().out.splitlines()
    assert status == 0
    assert out[-2:] == ["1 known failure still fails", "0 passed, 0 failed (suite v3)"]


def test_no_case_ran_is_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A run where the port supports none of the selected cases is not a pass."""
    script = tmp_path / "two_players.py"
    script.write_text(
        "import json, sys\n"
        "from cantstop.conformance.serve import handle\n"
        "for line in sys.stdin:\n"
        "    q = json.loads(line)\n"
        "    a = handle(q)\n"
        "    if q.get('op') == 'hello':\n"
        "        a['supports'] = {'players': [2], 'variants': [], 'heights': False}\n"
        "    print(json.dumps(a), flush=True)\n",
        encoding="utf-8",
    )
    status = main(["conform", "--run", "game-3p-B-01", "--", sys.executable, str(script)])
    out, err = capsys.readouterr()
    assert status == 2
    assert (
        err
        == "cantstop conform: error: no case ran: the port supports none of the 1 selected case\n"
    )
    assert out.splitlines()[-1] == "0 passed, 0 failed (suite v3)"


HELLO = (
    '{"seq": q["seq"], "ok": True, "protocol": 1, '
    '"supports": {"players": [1, 2, 3, 4], "variants": ["A", "B"], "heights": True}}'
)

DIES = f"""\
import json, sys
for line in sys.stdin:
    q = json.loads(line)
    if q["op"] != "hello":
        sys.exit(3)
    print(json.dumps({HELLO}), flush=True)
"""


def test_a_port_that_dies_case_after_case_stops_with_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The circuit breaker: exit 2 with the fault named; the report is still written."""
    script = tmp_path / "dies.py"
    script.write_text(DIES, encoding="utf-8")
    report = tmp_path / "report.json"
    status = main(
        [
            "conform",
            "--report",
            str(report),
            "--max-port-failures",
            "3",
            "--",
            sys.executable,
            str(script),
        ]
    )
    out, err = capsys.readouterr()
    assert status == 2
    assert err.startswith("cantstop conform: error: 3 cases in a row ended in a port failure")
    assert "the port closed its output (exit status 3)" in err
    assert err.count("\n") == 1
    assert out.splitlines()[-2:] == [
        f"The run stopped after 3 of {len(harness.load_cases(_vectors())):,} cases.",
        "0 passed, 3 failed (suite v3)",
    ]
    data = json.loads(report.read_text(encoding="utf-8"))
    assert data["stopped"] == err.removeprefix("cantstop conform: error: ").rstrip("\n")
    assert data["summary"]["failed"] == 3


NESTED = f"""\
import json, sys
for line in sys.stdin:
    q = json.loads(line)
    if q["op"] == "hello":
        print(json.dumps({HELLO}), flush=True)
    else:
        print("[" * 100000 + "]" * 100000, flush=True)
"""


def test_deeply_nested_answers_fail_their_cases_and_the_report_is_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Answers nested 100,000 deep: no traceback; each case fails with the reason."""
    script = tmp_path / "nested.py"
    script.write_text(NESTED, encoding="utf-8")
    report = tmp_path / "report.json"
    args = ["--run", "apply-00001", "--report", str(report)]
    status = main(["conform", *args, "--", sys.executable, str(script)])
    out = capsys.readouterr().out.splitlines()
    assert status == 1
    assert out[-1] == "0 passed, 1 failed (suite v3)"
    data = json.loads(report.read_text(encoding="utf-8"))
    assert [c["message"] for c in data["cases"]] == [
        "port failure: the port printed JSON nested more than 64 levels deep: '"
        + "[" * 200
        + "...'"
    ]


def test_progress_only_on_a_terminal(tmp_path: Path) -> None:
    """On a terminal stderr shows cases done, rate and time left; to a pipe, nothing."""
    import pty

    command = [sys.executable, "-m", "cantstop", "conform", "--run", "spec-E00[12]", "--"]
    command += REFERENCE
    piped = subprocess.run(command, capture_output=True, text=True, check=False)
    assert piped.returncode == 0
    assert piped.stderr == ""
    leader, follower = pty.openpty()
    done = subprocess.run(command, stdout=subprocess.PIPE, stderr=follower, check=False)
    os.close(follower)
    chunks = []
    while True:
        try:
            chunk = os.read(leader, 4096)
        except OSError:  # the terminal is closed once everything is read
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(leader)
    shown = b"".join(chunks).decode()
    assert done.returncode == 0
    assert re.search(r"\r2/2 cases, [\d,]+/s, 0:00 left", shown), shown
    assert shown.endswith("\r"), "the progress line is erased at the end"


def test_help_states_the_exit_status_contract(capsys: pytest.CaptureFixture[str]) -> None:
    """``--help`` gives the exit statuses and the default of the circuit breaker."""
    assert main(["conform", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "exit status: 0 when at least one case ran and none failed; 1 when a case failed" in text
    assert "2 for a usage or harness error" in text
    assert f"(default: {harness.MAX_PORT_FAILURES})" in text
