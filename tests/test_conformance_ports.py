"""The harness against broken ports: rule mistakes it must name, and ports that misbehave."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

from cantstop.cli import main
from cantstop.conformance import generate, harness

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
    copy = tmp_path / "port"
    shutil.copytree(JS_PORT, copy)
    rules = copy / "rules.js"
    text = rules.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"the patch no longer applies: {old!r}"
    rules.write_text(text.replace(old, new), encoding="utf-8")
    assert NODE is not None
    return [NODE, str(copy / "port.js")]


@pytest.mark.skipif(NODE is None, reason="the JavaScript port needs Node.js")
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


@pytest.mark.skipif(NODE is None, reason="the JavaScript port needs Node.js")
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


@pytest.mark.skipif(NODE is None, reason="the JavaScript port needs Node.js")
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
    assert out[-1] == "0 passed, 1 failed"
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
    "garbage": ("print('hello there', flush=True); continue", "not JSON: 'hello there'"),
    "closed stdout": ("os.close(1); time.sleep(60)", "closed its output"),
    "wrong seq": (
        "print(json.dumps({'seq': 999, 'ok': True}), flush=True); continue",
        "seq 999",
    ),
    "traceback": ("raise RuntimeError('boom')", "RuntimeError: boom"),
}


@pytest.mark.parametrize("name", sorted(MISBEHAVIOURS))
def test_the_harness_survives_a_misbehaving_port(name: str, tmp_path: Path) -> None:
    """The broken request fails its case with a clear reason; the port restarts; the rest pass.

    The fake port answers the handshake and one request, then misbehaves; after a
    restart it does the same, so of four cases the second and the fourth fail.
    """
    misbehave, reason = MISBEHAVIOURS[name]
    script = tmp_path / "fake.py"
    script.write_text(FAKE.format(misbehave=misbehave), encoding="utf-8")
    cases = [c for c in CASES if c["id"].startswith("apply-0000")][:4]
    run = harness.run_suite([sys.executable, str(script)], cases, timeout=1.0)
    assert [r.status for r in run.results] == ["passed", "failed", "passed", "failed"]
    assert reason in run.results[1].message
    assert run.results[1].message.startswith("port failure: ")
    assert run.starts == 2


def test_a_port_that_cannot_start(tmp_path: Path) -> None:
    """A missing program fails every case, and the harness stops trying after a few starts."""
    cases: list[dict[str, Any]] = CASES[:10]
    run = harness.run_suite([str(tmp_path / "no-such-port")], cases, timeout=1.0)
    assert run.count("failed") == 10
    assert "cannot start" in run.results[0].message
    assert "not run" in run.results[-1].message
    assert run.starts == harness.MAX_START_FAILURES


def test_a_port_that_refuses_the_handshake(tmp_path: Path) -> None:
    """A port that answers ``hello`` with the wrong protocol version fails clearly."""
    script = tmp_path / "old.py"
    script.write_text(
        "import json, sys\n"
        "for line in sys.stdin:\n"
        "    q = json.loads(line)\n"
        "    print(json.dumps({'seq': q['seq'], 'ok': True, 'protocol': 0}), flush=True)\n",
        encoding="utf-8",
    )
    run = harness.run_suite([sys.executable, str(script)], CASES[:2], timeout=2.0)
    assert run.count("failed") == 2
    assert "handshake failed" in run.results[0].message
