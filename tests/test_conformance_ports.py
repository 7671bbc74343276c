"""The harness against broken ports: rule mistakes it must name, and ports that misbehave."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from cantstop.cli import main
from cantstop.conformance import generate, harness
from dicekit.conformance.heldout import copy_port
from tests.extras import NODE_REASON

NODE = shutil.which("node")
JS_PORT = Path(__file__).resolve().parent.parent / "examples" / "ports" / "javascript"
CASES = harness.load_cases(generate.vectors_dir())
#: A sample that touches every rule the mistakes below break, small enough to run quickly.
SAMPLE = harness.select(CASES, ["spec-*", "apply-00*", "illegal-00*", "moves-00*"], [])

#: Rule mistakes as (text in rules.js, replacement, rules the harness must name first).
MISTAKES: dict[str, tuple[str, str, set[str]]] = {
    "equal sums played once": (
        "for (const c of move) markers[c]",
        "for (const c of new Set(move)) markers[c]",
        {"R7.1", "R7.2"},
    ),
    "bust decided by the first pairing only": (
        "if (movesFor(s, sorted).length === 0) {",
        "if (pairingMoves(s, ...pairings(sorted)[0]).length === 0) {",
        {"R10.1"},
    ),
    "placement on a won column": (
        "if (Object.values(s.squares).some((sq) => sq[column] === h)) return { plays: false, "
        "rule: 'R9.2' };",
        "",
        {"R9.2"},
    ),
    "Variant B ignored": ("if (s.rules.variant === 'B') {", "if (false) {", {"R14.2"}),
    "a marker on the top advances": ("if (m >= h) return", "if (m > h) return", {"R8.1"}),
}


def broken_port(tmp_path: Path, old: str, new: str) -> list[str]:
    """Copy the JavaScript port to ``tmp_path`` with one mistake patched in; return its command."""
    copy = copy_port(JS_PORT, tmp_path / "port")
    rules = copy / "rules.js"
    text = rules.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"the patch no longer applies: {old!r}"
    rules.write_text(text.replace(old, new), encoding="utf-8")
    assert NODE is not None
    return [NODE, str(copy / "port.js")]


@pytest.mark.skipif(NODE is None, reason=NODE_REASON)
@pytest.mark.parametrize("mistake", sorted(MISTAKES))
def test_a_rule_mistake_is_named(mistake: str, tmp_path: Path) -> None:
    """Each patched-in mistake fails the run, and the first suspect rule is the one it breaks."""
    old, new, rules = MISTAKES[mistake]
    run = harness.run_suite(broken_port(tmp_path, old, new), SAMPLE)
    assert not run.ok
    assert run.starts == 1  # a wrong answer is not a port failure
    assert run.suspects()[0][0] in rules
    assert list(run.summary_lines())[-1] == (
        f"{run.count('passed')} passed, {run.count('failed')} failed"
    )


@pytest.mark.skipif(NODE is None, reason=NODE_REASON)
def test_count_mismatch_is_divided_by_roll(tmp_path: Path) -> None:
    """A wrong whole-roll count is diagnosed roll by roll, naming the moves and the rules."""
    old, new, _ = MISTAKES["a marker on the top advances"]
    cases = [c for c in CASES if c["id"] == "spec-E207"]  # every marker on its top space
    run = harness.run_suite(broken_port(tmp_path, old, new), cases)
    [result] = run.results
    assert result.status == "failed"
    assert "choices=0 busts=1296" in result.message
    first = result.diagnosis[0]
    # The markers of E207 are on top spaces; the patched port still moves them (R8.1).
    assert first.startswith("roll r1111: ")
    assert "not legal" in first
    assert "expected bust" in first
    assert "R8.1" in first
    assert result.diagnosis[-1].endswith("of 1296)")


@pytest.mark.skipif(NODE is None, reason=NODE_REASON)
def test_known_failures(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Listed failures do not fail the run; a listed case that passes does."""
    old, new, _ = MISTAKES["Variant B ignored"]
    command = broken_port(tmp_path, old, new)
    chosen = harness.select(SAMPLE, ["illegal-00*"], [])
    first = harness.run_suite(command, chosen)
    failing = [r.id for r in first.results if r.status == "failed"]
    assert failing
    known = tmp_path / "known.txt"
    known.write_text("# Variant B is not done yet\n" + "\n".join(failing) + "\n", encoding="utf-8")
    args = ["conform", "--run", "illegal-00*", "--known-failures", str(known), "--", *command]
    assert main(args) == 0
    out = capsys.readouterr().out.splitlines()
    assert f"{len(failing)} known failures still fail" in out
    passing = next(r.id for r in first.results if r.status == "passed")
    known.write_text(passing + "\n", encoding="utf-8")
    status = main(["conform", "--run", passing, "--known-failures", str(known), "--", *command])
    out = capsys.readouterr().out.splitlines()
    assert status == 1
    assert out[-1] == "0 passed, 1 failed (suite v3)"
    assert any("known failure, but it passes" in line for line in out)


# -- ports that misbehave ------------------------------------------------------------------

FAKE = """\
import json, os, sys, time
from cantstop.conformance.serve import handle
count = 0
for line in sys.stdin:
    count += 1
    request = json.loads(line)
    if count == 3:
        {misbehave}
    print(json.dumps(handle(request)), flush=True)
"""

#: How the fake port misbehaves on its third request, and what the harness must say.
MISBEHAVIOURS: dict[str, tuple[str, str]] = {
    "crash": ("sys.exit(3)", "closed its output (exit status 3)"),
    "hang": ("time.sleep(60)", "no answer within the case's 1 s"),
    "garbage": (
        "print('hello there', flush=True); continue",
        "a line that is not JSON: Expecting value at column 1: 'hello there'",
    ),
    "closed stdout": ("os.close(1); time.sleep(60)", "closed its output"),
    "wrong seq": (
        "print(json.dumps({'seq': 999, 'ok': True}), flush=True); continue",
        "seq 999",
    ),
    "traceback": ("raise RuntimeError('boom')", "RuntimeError: boom"),
    "empty line": ("print(flush=True); continue", "the port printed an empty line"),
    "deep nesting": (
        "print('[' * 100000 + ']' * 100000, flush=True); continue",
        "JSON nested more than 64 levels deep",
    ),
    "nested answer": (
        "print(json.dumps({'seq': request['seq'], 'ok': True, 'moves': [[[0]]]})[:-1]"
        " + ', \"x\": ' + '[' * 200 + ']' * 200 + '}', flush=True); continue",
        "JSON nested more than 64 levels deep",
    ),
    "huge line": (
        "print('7' * 2_000_000, flush=True); continue",
        "a line longer than 1,048,576 bytes",
    ),
    "not UTF-8": (
        'sys.stdout.buffer.write(b\'{"seq": 3, "ok": \\xff}\\n\'); sys.stdout.flush(); continue',
        "a line that is not UTF-8: byte 0xff at position 17",
    ),
    "huge integer": (
        "print('{\"seq\": ' + '9' * 5000 + ', \"ok\": true}', flush=True); continue",
        "a number out of range: 999999999999...999999 (5,000 characters)",
    ),
    "Infinity": (
        'print(\'{"seq": Infinity, "ok": true}\', flush=True); continue',
        "Infinity is not JSON",
    ),
}


def fake_port(tmp_path: Path, misbehave: str) -> list[str]:
    """Write a port that answers like the reference but misbehaves on its third request."""
    script = tmp_path / "fake.py"
    script.write_text(FAKE.format(misbehave=misbehave), encoding="utf-8")
    return [sys.executable, str(script)]


APPLY = [c for c in CASES if c["id"].startswith("apply-0000")]


@pytest.mark.parametrize("name", sorted(MISBEHAVIOURS))
def test_the_harness_survives_a_misbehaving_port(name: str, tmp_path: Path) -> None:
    """The broken request fails its case with a clear reason; the port restarts; the rest pass.

    The fake port answers the handshake and one request, then misbehaves; after a
    restart it does the same, so of four cases the second and the fourth fail.
    """
    misbehave, reason = MISBEHAVIOURS[name]
    timeout = 1.0 if name == "hang" else 5.0  # the hang waits out the timeout, twice
    run = harness.run_suite(fake_port(tmp_path, misbehave), APPLY[:4], timeout=timeout)
    assert [r.status for r in run.results] == ["passed", "failed", "passed", "failed"]
    assert reason in run.results[1].message
    assert run.results[1].message.startswith("port failure: ")
    assert run.starts == 2
    assert run.stopped is None
    assert run.exit_status() == 1


def test_a_doubled_answer_is_blamed_on_the_request_it_answers(tmp_path: Path) -> None:
    """An answer printed twice fails the case that asked, not the next case (which passes)."""
    double = "print(json.dumps(handle(request)), flush=True)"
    run = harness.run_suite(fake_port(tmp_path, double), APPLY[:4], timeout=2.0)
    assert [r.status for r in run.results] == ["passed", "failed", "passed", "passed"]
    assert run.results[1].message.startswith("the port answered request 3 a second time: ")
    assert run.starts == 1


def test_a_doubled_answer_to_the_last_case_is_caught(tmp_path: Path) -> None:
    """A second answer to the last request of the run still fails its case."""
    double = "print(json.dumps(handle(request)), flush=True)"
    run = harness.run_suite(fake_port(tmp_path, double), APPLY[:2], timeout=2.0)
    assert [r.status for r in run.results] == ["passed", "failed"]
    assert "request 3 a second time" in run.results[1].message


ALWAYS = """\
import json, sys, time
for line in sys.stdin:
    request = json.loads(line)
    if request["op"] == "hello":
        answer = {{"seq": request["seq"], "ok": True, "protocol": 1,
                  "supports": {{"players": [1, 2, 3, 4], "variants": ["A", "B"], "heights": True}}}}
        print(json.dumps(answer), flush=True)
    else:
        {misbehave}
"""


@pytest.mark.parametrize(
    ("misbehave", "fault"),
    [
        ("sys.exit(3)", "the port closed its output (exit status 3)"),
        ("print('{}', flush=True)", "the answer has seq null, expected "),
    ],
    ids=["dies", "garbage"],
)
def test_a_port_that_fails_case_after_case_stops_the_run(
    misbehave: str, fault: str, tmp_path: Path
) -> None:
    """After ``MAX_PORT_FAILURES`` port failures in a row the run stops, naming the fault."""
    script = tmp_path / "always.py"
    script.write_text(ALWAYS.format(misbehave=misbehave), encoding="utf-8")
    run = harness.run_suite([sys.executable, str(script)], APPLY, timeout=5.0)
    assert len(run.results) == harness.MAX_PORT_FAILURES
    assert run.starts == harness.MAX_PORT_FAILURES
    assert run.stopped is not None
    assert run.stopped.startswith(f"{harness.MAX_PORT_FAILURES} cases in a row ended in a port")
    assert fault in run.stopped
    assert run.exit_status() == 2
    assert list(run.summary_lines())[-2:] == [
        f"The run stopped after {harness.MAX_PORT_FAILURES} of {len(APPLY)} cases.",
        f"0 passed, {harness.MAX_PORT_FAILURES} failed",
    ]


def test_a_port_that_cannot_start(tmp_path: Path) -> None:
    """A missing program stops the run at once with one reason, and no case is counted."""
    run = harness.run_suite([str(tmp_path / "no-such-port")], CASES[:10], timeout=1.0)
    assert run.results == []
    assert run.stopped is not None
    assert run.stopped.startswith("the port could not start: cannot start ")
    assert run.starts == 1
    assert run.exit_status() == 2


@pytest.mark.parametrize(
    ("hello", "problem"),
    [
        ("{'seq': q['seq'], 'ok': True, 'protocol': 0}", "it does not speak protocol 1"),
        ("{'seq': q['seq'], 'ok': True, 'protocol': True}", "it does not speak protocol 1"),
        ("{'seq': q['seq'], 'ok': False}", "it did not answer ok"),
        (
            "{'seq': q['seq'], 'ok': True, 'protocol': 1, 'supports': []}",
            "'supports' is not an object",
        ),
    ],
)
def test_a_port_that_fails_the_handshake(hello: str, problem: str, tmp_path: Path) -> None:
    """A bad answer to ``hello`` stops the run at once, saying what is wrong with it."""
    script = tmp_path / "old.py"
    script.write_text(
        "import json, sys\n"
        "for line in sys.stdin:\n"
        "    q = json.loads(line)\n"
        f"    print(json.dumps({hello}), flush=True)\n",
        encoding="utf-8",
    )
    run = harness.run_suite([sys.executable, str(script)], CASES[:2], timeout=2.0)
    assert run.results == []
    assert run.stopped is not None
    assert run.stopped.startswith(f"the port could not start: the handshake failed: {problem}")
    assert run.exit_status() == 2
