"""Run the conformance vectors against a port that speaks ``spec/protocol.md``.

The port is one long-lived process.  Each case sends one or more requests and
compares the answers with the case's expectations.  A port that crashes,
hangs, prints something that is not a response, or closes its output fails the
case at hand; the harness then starts it again and goes on with the next case.

Count mismatches are diagnosed like perft "divide": the harness asks the port
for the legal moves of every roll and names the rolls (and moves) that differ,
together with the rules that decide them.  After a run,
:meth:`Run.diagnose` asks the failing cases again and ranks the rules they
point at (:mod:`cantstop.conformance.diagnose`).
"""

from __future__ import annotations

import fnmatch
import json
import queue
import subprocess
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from cantstop.conformance.diagnose import (
    Diagnosis,
    Suspect,
    diagnose,
    divide_lines,
    rank,
    reference_table,
)
from cantstop.dice import ORDERED_ROLLS, sorted_dice
from cantstop.errors import CantStopError
from cantstop.notation import parse_state

__all__ = [
    "CaseResult",
    "Port",
    "PortFailure",
    "Run",
    "load_cases",
    "read_known_failures",
    "run_suite",
]

Case = dict[str, Any]
Message = dict[str, Any]

#: How many times in a row the port may fail to start before the run gives up on it.
MAX_START_FAILURES = 3


class PortFailure(Exception):
    """The port broke the protocol: it crashed, hung, closed its output or printed garbage."""


class Mismatch(Exception):
    """A case whose answers differ from its expectations; ``lines`` hold a diagnosis."""

    def __init__(self, message: str, lines: Sequence[str] = ()) -> None:
        super().__init__(message)
        self.message = message
        self.lines = list(lines)


_EOF = object()


class Port:
    """A port process and the requests sent to it, one JSON line each way.

    ``timeout`` is the time allowed for one case: :meth:`begin_case` starts its
    clock, and every request of the case must be answered before it runs out.
    """

    def __init__(self, command: Sequence[str], timeout: float) -> None:
        self.command = list(command)
        self.timeout = timeout
        self._deadline: float | None = None
        self.hello: Message | None = None
        self._proc: subprocess.Popen[str] | None = None
        self._lines: queue.Queue[object] = queue.Queue()
        self._stderr: deque[str] = deque(maxlen=20)
        self._seq = 0
        self.starts = 0

    @property
    def running(self) -> bool:
        """Whether the process has been started and has not been stopped."""
        return self._proc is not None

    def start(self) -> Message:
        """Start the process and shake hands; return the port's ``hello`` answer."""
        self.stop()
        self.starts += 1
        try:
            proc = subprocess.Popen(
                self.command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                encoding="utf-8",
                errors="replace",
                bufsize=1,
            )
        except OSError as exc:
            raise PortFailure(f"cannot start {' '.join(self.command)}: {exc}") from None
        self._proc = proc
        self._lines = queue.Queue()
        self._stderr = deque(maxlen=20)
        threading.Thread(target=_pump, args=(proc.stdout, self._lines), daemon=True).start()
        threading.Thread(target=_drain, args=(proc.stderr, self._stderr), daemon=True).start()
        answer = self.request({"op": "hello", "protocol": 1})
        if answer.get("ok") is not True or answer.get("protocol") != 1:
            raise PortFailure(f"the handshake failed: the port answered {json.dumps(answer)}")
        self.hello = answer
        return answer

    def stop(self) -> None:
        """Ask the port to quit, then make sure the process is gone."""
        proc, self._proc = self._proc, None
        if proc is None:
            return
        try:
            if proc.poll() is None and proc.stdin is not None:
                proc.stdin.write(json.dumps({"seq": -1, "op": "quit"}) + "\n")
                proc.stdin.flush()
                proc.stdin.close()  # a port may also stop at the end of its input
                proc.wait(timeout=1)
        except (OSError, ValueError, subprocess.TimeoutExpired):
            pass
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass

    def begin_case(self) -> None:
        """Start the clock of a case: its requests share ``timeout`` seconds."""
        self._deadline = time.monotonic() + self.timeout

    def request(self, message: Message) -> Message:
        """Send one request and return its response; raise :class:`PortFailure` on any breakage."""
        proc = self._proc
        if proc is None or proc.stdin is None:
            raise PortFailure("the port is not running")
        self._seq += 1
        seq = self._seq
        line = json.dumps({"seq": seq, **message}, separators=(",", ":"))
        try:
            proc.stdin.write(line + "\n")
            proc.stdin.flush()
        except (OSError, ValueError):
            raise PortFailure(self._died("the port stopped reading its input")) from None
        if self._deadline is None:
            wait = self.timeout
        else:
            wait = max(self._deadline - time.monotonic(), 0.001)
        try:
            got = self._lines.get(timeout=wait)
        except queue.Empty:
            raise PortFailure(
                f"no answer within the case's {self.timeout:g} s, to {line[:200]}"
            ) from None
        if got is _EOF:
            raise PortFailure(self._died("the port closed its output"))
        assert isinstance(got, str)
        try:
            answer = json.loads(got)
        except json.JSONDecodeError:
            raise PortFailure(
                f"the port printed a line that is not JSON: {got.strip()[:200]!r}"
            ) from None
        if not isinstance(answer, dict):
            raise PortFailure(f"the port printed JSON that is not an object: {got.strip()[:200]!r}")
        if answer.get("seq") != seq:
            raise PortFailure(f"the answer has seq {answer.get('seq')!r}, expected {seq}")
        return answer

    def _died(self, what: str) -> str:
        proc = self._proc
        status = None
        if proc is not None:
            try:
                status = proc.wait(timeout=0.5)
            except subprocess.TimeoutExpired:
                status = None
        text = what
        if status is not None:
            text += f" (exit status {status})"
        tail = " | ".join(line.rstrip() for line in list(self._stderr)[-3:])
        if tail:
            text += f"; stderr: {tail[:300]}"
        return text


def _pump(stream: TextIO | None, lines: queue.Queue[object]) -> None:
    if stream is None:
        lines.put(_EOF)
        return
    try:
        for line in stream:
            if line.strip():
                lines.put(line)
    except (OSError, ValueError):
        pass
    lines.put(_EOF)


def _drain(stream: TextIO | None, tail: deque[str]) -> None:
    if stream is None:
        return
    try:
        for line in stream:
            tail.append(line)
    except (OSError, ValueError):
        pass


# -- cases -----------------------------------------------------------------------


def load_cases(directory: Path) -> list[Case]:
    """Read the cases of every vector file in ``directory`` (all ``*.json`` but the schema)."""
    cases: list[Case] = []
    for path in sorted(directory.glob("*.json")):
        if path.name == "schema.json":
            continue
        data = json.loads(path.read_text(encoding="utf-8"))
        for case in data["cases"]:
            case["_file"] = path.name
            cases.append(case)
    return cases


def read_known_failures(path: Path) -> list[str]:
    """Return the case ids (or globs) listed in a known-failures file; ``#`` starts a comment."""
    patterns = []
    for line in path.read_text(encoding="utf-8").splitlines():
        text = line.split("#", 1)[0].strip()
        if text:
            patterns.append(text)
    return patterns


def _ok(port: Port, message: Message) -> Message:
    answer = port.request(message)
    if answer.get("ok") is not True:
        error = answer.get("error") or {}
        raise Mismatch(
            f"{message['op']} was refused: rule {error.get('rule')}: {error.get('message')}"
        )
    return answer


def _expect_error(port: Port, message: Message, rule: str, at: int | None = None) -> None:
    answer = port.request(message)
    if answer.get("ok") is not False:
        shown = {k: v for k, v in answer.items() if k not in ("seq", "json")}
        raise Mismatch(
            f"{message['op']} should be rejected under {rule}, but the port accepted it: "
            f"{json.dumps(shown)[:200]}",
            [f"expected: rejection under rule {rule}"],
        )
    error = answer.get("error")
    got = error.get("rule") if isinstance(error, dict) else None
    if got != rule:
        raise Mismatch(
            f"rejected under rule {got}, expected rule {rule}",
            [f"port's message: {error.get('message') if isinstance(error, dict) else error}"],
        )
    if at is not None and isinstance(error, dict) and "at" in error and error["at"] != at:
        raise Mismatch(f"the error points at position {error['at']}, expected {at}")


def _same(what: str, got: object, want: object) -> None:
    if got != want:
        raise Mismatch(f"{what}: got {json.dumps(got)}, expected {json.dumps(want)}")


def _moves_diff(got: object, want: list[str]) -> str:
    if not isinstance(got, list):
        return f"the port sent {json.dumps(got)[:100]} instead of a list of moves"
    missing = [m for m in want if m not in got]
    extra = [m for m in got if m not in want]
    if not missing and not extra:
        return f"the moves are right but not in the order of R6.6: got {' '.join(map(str, got))}"
    parts = []
    if missing:
        parts.append(f"missing {' '.join(missing)}")
    if extra:
        parts.append(f"not legal {' '.join(map(str, extra))}")
    return ", ".join(parts)


def _run_moves(port: Port, case: Case) -> None:
    got = _ok(port, {"op": "moves", "state": case["state"]}).get("moves")
    want = case["expect"]["moves"]
    if got != want:
        raise Mismatch(f"legal moves of {case['state']}: {_moves_diff(got, want)}")


def _run_apply(port: Port, case: Case) -> None:
    message = {"op": "apply", "state": case["state"], "action": case["action"]}
    expect = case["expect"]
    if "error" in expect:
        _expect_error(port, message, expect["error"])
        return
    answer = _ok(port, message)
    where = f"{case['action']} in {case['state']}"
    _same(f"state after {where}", answer.get("state"), expect["state"])
    _same(f"event of {where}", answer.get("event"), expect["event"])


def _run_perft(port: Port, case: Case) -> None:
    answer = _ok(port, {"op": "perft", "state": case["state"]})
    got = (answer.get("choices"), answer.get("busts"))
    want = (case["expect"]["choices"], case["expect"]["busts"])
    if got != want:
        lines: list[str] = []
        try:
            table = _ok(port, {"op": "rolls", "state": case["state"]}).get("moves")
            reference = reference_table(parse_state(case["state"]))
            lines = divide_lines(case["state"], table, reference)
        except Mismatch as exc:
            lines = [f"divide: {exc.message}"]
        raise Mismatch(
            f"whole-roll counts of {case['state']}: got choices={got[0]} busts={got[1]}, "
            f"expected choices={want[0]} busts={want[1]}",
            lines,
        )


def _run_rolls(port: Port, case: Case) -> None:
    got = _ok(port, {"op": "rolls", "state": case["state"]}).get("moves")
    table = case["expect"]["table"]
    want = [table["".join(map(str, sorted_dice(r.dice)))] for r in ORDERED_ROLLS]
    if got != want:
        raise Mismatch(
            f"legal moves per roll of {case['state']} differ",
            divide_lines(case["state"], got, want),
        )


def _run_game(port: Port, case: Case) -> None:
    expect = case["expect"]
    new = case["new"]
    start = _ok(port, {"op": "new", "rules": new["rules"], "first_player": new["first_player"]})
    _same("the opening state", start.get("state"), expect["start"])
    state = expect["start"]
    for index, (action, after, event) in enumerate(
        zip(case["actions"], expect["states"], expect["events"], strict=True), start=1
    ):
        answer = port.request({"op": "apply", "state": state, "action": action})
        if answer.get("ok") is not True:
            error = answer.get("error") or {}
            raise Mismatch(
                f"action {index} ({action} in {state}) was refused under rule "
                f"{error.get('rule')}: {error.get('message')}",
                [f"expected: {event}, giving {after}"],
            )
        if answer.get("state") != after or answer.get("event") != event:
            raise Mismatch(
                f"action {index} ({action} in {state}) gave {answer.get('event')} "
                f"{answer.get('state')!r}, expected {event} {after!r}"
            )
        state = after


def _run_new(port: Port, case: Case) -> None:
    message = {"op": "new", **case["new"]}
    if "error" in case["expect"]:
        _expect_error(port, message, case["expect"]["error"])
    else:
        _same("the opening state", _ok(port, message).get("state"), case["expect"]["state"])


def _run_parse(op: str) -> Callable[[Port, Case], None]:
    def run(port: Port, case: Case) -> None:
        message: Message = {"op": op}
        for key in ("text", "json"):
            if key in case:
                message[key] = case[key]
        expect = case["expect"]
        if "error" in expect:
            _expect_error(port, message, expect["error"], expect.get("at"))
            return
        answer = _ok(port, message)
        _same(f"canonical {op}", answer.get(op), expect[op])
        _same(f"JSON form of the {op}", answer.get("json"), expect["json"])

    return run


def _run_example(port: Port, case: Case) -> None:
    expect = case["expect"]
    if "new" in case:
        _run_new(port, {"new": case["new"], "expect": expect})
        return
    if "text" in case:
        _expect_error(
            port, {"op": "state", "text": case["text"]}, expect["error"], expect.get("at")
        )
        return
    if "action_text" in case:
        _expect_error(
            port, {"op": "action", "text": case["action_text"]}, expect["error"], expect.get("at")
        )
        return
    state = case["state"]
    _same("canonical state", _ok(port, {"op": "state", "text": state}).get("state"), state)
    actions = case.get("actions", [])
    events = []
    for index, action in enumerate(actions):
        message = {"op": "apply", "state": state, "action": action}
        if index == len(actions) - 1 and "error" in expect:
            _expect_error(port, message, expect["error"])
            return
        answer = _ok(port, message)
        state = answer.get("state")
        events.append(answer.get("event"))
    if "events" in expect:
        _same("events", events, expect["events"])
    if "event" in expect:
        _same("event", events[-1:], [expect["event"]])
    if "state" in expect:
        _same("resulting state", state, expect["state"])
    if "moves" in expect:
        got = _ok(port, {"op": "moves", "state": state}).get("moves")
        if got != expect["moves"]:
            raise Mismatch(f"legal moves of {state}: {_moves_diff(got, expect['moves'])}")
    if "perft" in expect:
        _run_perft(port, {"state": state, "expect": expect["perft"]})
    if "json" in expect:
        answer = _ok(port, {"op": "state", "text": state})
        _same(f"JSON form of {state}", answer.get("json"), expect["json"])
        answer = _ok(port, {"op": "state", "json": expect["json"]})
        _same("state read from the JSON form", answer.get("state"), state)
    if "action_json" in expect:
        answer = _ok(port, {"op": "action", "text": actions[0]})
        _same(f"JSON form of {actions[0]}", answer.get("json"), expect["action_json"])
        answer = _ok(port, {"op": "action", "json": expect["action_json"]})
        _same("action read from the JSON form", answer.get("action"), actions[0])


RUNNERS: dict[str, Callable[[Port, Case], None]] = {
    "moves": _run_moves,
    "apply": _run_apply,
    "perft": _run_perft,
    "rolls": _run_rolls,
    "game": _run_game,
    "new": _run_new,
    "state": _run_parse("state"),
    "action": _run_parse("action"),
    "example": _run_example,
}


# -- the run -----------------------------------------------------------------------


@dataclass
class CaseResult:
    """The outcome of one case.

    ``status`` is ``passed``, ``failed``, ``known`` (a listed failure that
    still fails) or ``skipped`` (the port does not support the options).
    """

    id: str
    status: str
    rules: list[str]
    message: str = ""
    diagnosis: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def to_json(self) -> dict[str, Any]:
        """Return the result as a JSON object for the report."""
        out: dict[str, Any] = {"id": self.id, "status": self.status, "rules": self.rules}
        if self.message:
            out["message"] = self.message
        if self.diagnosis:
            out["diagnosis"] = self.diagnosis
        out["seconds"] = round(self.seconds, 4)
        return out


@dataclass
class Run:
    """A finished run: the results in case order and what the port said about itself."""

    results: list[CaseResult]
    hello: Message | None
    command: list[str]
    starts: int = 0
    #: The diagnosis, once :meth:`diagnose` has asked the failing cases again.
    diagnosis: Diagnosis | None = None

    def count(self, status: str) -> int:
        """Return how many cases have ``status``."""
        return sum(r.status == status for r in self.results)

    @property
    def ok(self) -> bool:
        """Whether nothing failed."""
        return self.count("failed") == 0

    def diagnose(self, cases: Iterable[Case], timeout: float = 10.0) -> Diagnosis:
        """Ask the failing cases again, rank the suspect rules, keep and return the diagnosis.

        The port is started once more for this; if it breaks, the cases not yet
        asked count by their rule tags alone.
        """
        failed = [r for r in self.results if r.status == "failed"]
        port = Port(self.command, timeout)
        broken = 0

        def ask(message: Message) -> Message | None:
            nonlocal broken
            if broken >= MAX_START_FAILURES:
                return None
            try:
                if not port.running:
                    port.begin_case()
                    port.start()
                port.begin_case()
                return port.request(message)
            except PortFailure:
                broken += 1
                port.stop()
                return None

        try:
            self.diagnosis = diagnose(self.results, cases, ask if failed else None)
        finally:
            port.stop()
        return self.diagnosis

    def suspects(self) -> list[tuple[str, int, int]]:
        """Rules named by failing cases: (rule, failed, cases naming it), most suspicious first.

        The order is the diagnosis's (:mod:`cantstop.conformance.diagnose`);
        before :meth:`diagnose` has run, it weighs the rule tags of the cases alone.
        """
        return [(s.rule, s.failed, s.cases) for s in self._suspects()]

    def _suspects(self) -> list[Suspect]:
        if self.diagnosis is not None:
            return self.diagnosis.suspects
        return rank(self.results)

    def report(self) -> dict[str, Any]:
        """Return the JSON report of the run."""
        return {
            "suite": "cantstop-conformance",
            "version": 1,
            "command": self.command,
            "port": self.hello,
            "port_starts": self.starts,
            "summary": {
                status: self.count(status) for status in ("passed", "failed", "known", "skipped")
            },
            "suspect_rules": Diagnosis(self._suspects()).to_json(),
            "cases": [r.to_json() for r in self.results],
        }

    def summary_lines(self, *, verbose: bool = False, limit: int = 50) -> Iterator[str]:
        """Yield the human summary; its last line is ``N passed, N failed``."""
        shown = 0
        for result in self.results:
            if result.status == "failed" or (verbose and result.status != "passed"):
                if result.status == "failed":
                    shown += 1
                    if shown > limit:
                        continue
                yield f"{result.status.upper()} {result.id} [{' '.join(result.rules)}]"
                yield f"  {result.message}"
                for line in result.diagnosis:
                    yield f"    {line}"
        if shown > limit:
            yield f"... and {shown - limit} more failures (see --report)"
        yield from (self.diagnosis or Diagnosis(self._suspects())).lines()
        if self.starts > 1:
            yield f"The port was started {self.starts} times."
        if self.count("skipped"):
            yield f"{self.count('skipped')} skipped (options the port does not support)"
        if self.count("known"):
            yield f"{self.count('known')} known failures still fail"
        yield f"{self.count('passed')} passed, {self.count('failed')} failed"


def _supported(hello: Message | None, needs: Iterable[str]) -> str | None:
    """Return what the port lacks for a case, or ``None`` if it supports everything."""
    supports = (hello or {}).get("supports") or {}
    for need in needs:
        key, _, value = need.partition("=")
        if key == "players" and int(value) not in supports.get("players", [2]):
            return need
        if key == "variant" and value not in supports.get("variants", []):
            return need
        if key == "heights" and not supports.get("heights", False):
            return need
    return None


def select(cases: list[Case], run: Sequence[str], skip: Sequence[str]) -> list[Case]:
    """Keep the cases whose id matches a ``run`` glob (all if none) and no ``skip`` glob."""
    return [
        c
        for c in cases
        if (not run or any(fnmatch.fnmatchcase(c["id"], g) for g in run))
        and not any(fnmatch.fnmatchcase(c["id"], g) for g in skip)
    ]


def run_suite(
    command: Sequence[str],
    cases: list[Case],
    *,
    timeout: float = 10.0,
    known: Sequence[str] = (),
    progress: Callable[[CaseResult], None] | None = None,
) -> Run:
    """Run ``cases`` against the port started by ``command``; return the results."""
    port = Port(command, timeout)
    results: list[CaseResult] = []
    start_failures = 0
    hello: Message | None = None
    try:
        for case in cases:
            began = time.perf_counter()
            result = CaseResult(case["id"], "passed", list(case.get("rules", [])))
            try:
                if not port.running:
                    if start_failures >= MAX_START_FAILURES:
                        raise PortFailure(
                            f"not run: the port failed to start {MAX_START_FAILURES} times in a row"
                        )
                    try:
                        port.begin_case()
                        hello = port.start()
                    except PortFailure:
                        start_failures += 1
                        port.stop()
                        raise
                    start_failures = 0
                port.begin_case()
                lacking = _supported(hello, case.get("needs", []))
                if lacking is not None:
                    result.status = "skipped"
                    result.message = f"the port does not support {lacking}"
                else:
                    RUNNERS[case["kind"]](port, case)
            except Mismatch as exc:
                result.status = "failed"
                result.message = exc.message
                result.diagnosis = exc.lines
            except PortFailure as exc:
                result.status = "failed"
                result.message = f"port failure: {exc}"
                port.stop()
            except (CantStopError, KeyError, TypeError, ValueError, AttributeError) as exc:
                # An answer of the wrong shape (a list where an object belongs, ...).
                result.status = "failed"
                result.message = f"malformed answer: {type(exc).__name__}: {exc}"
            is_known = any(fnmatch.fnmatchcase(case["id"], g) for g in known)
            if is_known and result.status == "failed":
                result.status = "known"
            elif is_known and result.status == "passed":
                result.status = "failed"
                result.message = "listed as a known failure, but it passes: remove it from the list"
            result.seconds = time.perf_counter() - began
            results.append(result)
            if progress is not None:
                progress(result)
    finally:
        port.stop()
    return Run(results, hello, list(command), port.starts)
