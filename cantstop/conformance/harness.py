"""Run the conformance vectors against a port that speaks ``spec/protocol.md``.

The port is one long-lived process.  Each case sends one or more requests and
compares the answers with the case's expectations.  A port that crashes,
hangs, prints something that is not a response, or closes its output fails the
case at hand; the harness then starts it again and goes on with the next case.
A port that cannot start, fails the handshake, or fails
:data:`MAX_PORT_FAILURES` cases in a row that way stops the run: the result
says why (``Run.stopped``), and :meth:`Run.exit_status` is 2.

Whatever the port prints, the harness reads it as a line of the protocol
(``cantstop.conformance._lines``): an empty line, a line that is not UTF-8
or not JSON, JSON nested too deeply, a number out of range or a line too long
fails the case with the reason.  An answer that comes twice is blamed on the
request it answers, not on the case that happens to read it.

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
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from cantstop.conformance._lines import LineError, decode, lines
from cantstop.conformance.diagnose import (
    Diagnosis,
    Suspect,
    diagnose,
    divide_lines,
    rank,
    reference_table,
)
from cantstop.dice import ORDERED_ROLLS, sorted_dice
from cantstop.notation import parse_state

__all__ = [
    "MAX_PORT_FAILURES",
    "CaseResult",
    "HarnessError",
    "Port",
    "PortFailure",
    "Run",
    "explanation_difference",
    "is_glob",
    "load_cases",
    "read_known_failures",
    "run_suite",
    "unmatched_entries",
]

Case = dict[str, Any]
Message = dict[str, Any]

#: How many cases in a row may end in a port failure (each followed by a restart)
#: before the run stops: five hangs at the default timeout take under a minute.
MAX_PORT_FAILURES = 5

#: How many port failures the diagnosis puts up with while it asks the failing cases again.
DIAGNOSIS_PORT_FAILURES = 3

#: Lines the harness holds that the port printed but nothing has read yet.
_BACKLOG = 1000


class HarnessError(Exception):
    """A problem that keeps a run from starting: unreadable vectors or known-failures file."""


class PortFailure(Exception):
    """The port broke the protocol: it crashed, hung, closed its output or printed garbage."""


class Mismatch(Exception):
    """A case whose answers differ from its expectations; ``lines`` hold a diagnosis."""

    def __init__(self, message: str, lines: Sequence[str] = ()) -> None:
        super().__init__(message)
        self.message = message
        self.lines = list(lines)


_EOF = object()


def _printable(text: str, limit: int = 300) -> str:
    """Return ``text`` from the port safe to print: control characters escaped, cut at ``limit``."""
    shown = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text[: limit + 1])
    return shown if len(shown) <= limit else shown[:limit] + "..."


def _excerpt(raw: bytes | str, limit: int = 200) -> str:
    """Return the start of a line the port printed, quoted, for a message."""
    text = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else raw
    return repr(_printable(text, limit))


class Port:
    """A port process and the requests sent to it, one JSON line each way.

    ``timeout`` is the time allowed for one case: :meth:`begin_case` starts its
    clock, and every request of the case must be answered before it runs out.
    ``tag`` marks the requests sent from now on (the harness sets it to the
    index of the case at hand); a line that answers an earlier request again,
    or comes after its answer, is kept in ``strays`` with the tag of the
    request it belongs to, so that the right case is blamed.
    """

    def __init__(self, command: Sequence[str], timeout: float) -> None:
        self.command = list(command)
        self.timeout = timeout
        self._deadline: float | None = None
        self.hello: Message | None = None
        self._proc: subprocess.Popen[bytes] | None = None
        self._lines: queue.Queue[object] = queue.Queue(_BACKLOG)
        self._closed = False
        self._halt = threading.Event()
        self._pump: threading.Thread | None = None
        self._stderr: deque[str] = deque(maxlen=20)
        self._seq = 0
        self._tags: dict[int, int | None] = {}
        self.tag: int | None = None
        self.strays: list[tuple[int | None, str]] = []
        self.starts = 0

    @property
    def running(self) -> bool:
        """Whether the process has been started and has not been stopped."""
        return self._proc is not None

    def start(self) -> Message:
        """Start the process and shake hands; return the port's ``hello`` answer."""
        self.stop(kill=True)
        self.starts += 1
        try:
            proc = subprocess.Popen(
                self.command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
            )
        except (OSError, ValueError) as exc:
            raise PortFailure(f"cannot start {' '.join(self.command)}: {exc}") from None
        self._proc = proc
        self._lines = queue.Queue(_BACKLOG)
        self._closed = False
        self._halt = threading.Event()
        self._tags = {}
        self._stderr = deque(maxlen=20)
        self._pump = threading.Thread(
            target=_pump, args=(proc.stdout, self._lines, self._halt), daemon=True
        )
        self._pump.start()
        threading.Thread(target=_drain, args=(proc.stderr, self._stderr), daemon=True).start()
        answer = self.request({"op": "hello", "protocol": 1})
        problem = _handshake_problem(answer)
        if problem is not None:
            raise PortFailure(
                f"the handshake failed: {problem}; the port answered "
                f"{_printable(json.dumps(answer), 300)}"
            )
        self.hello = answer
        return answer

    def stop(self, *, kill: bool = False, collect: bool = False) -> None:
        """End the process: ask it to quit, or with ``kill`` kill it at once.

        With ``collect``, the lines the port printed before it exited (other
        than the answer to ``quit``) are kept in ``strays``.
        """
        proc, self._proc = self._proc, None
        if proc is None:
            return
        try:
            if not kill and proc.poll() is None and proc.stdin is not None:
                proc.stdin.write(b'{"seq":-1,"op":"quit"}\n')
                proc.stdin.flush()
                proc.stdin.close()  # a port may also stop at the end of its input
                proc.wait(timeout=1)
        except (OSError, ValueError, subprocess.TimeoutExpired):
            pass
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        if collect and self._pump is not None:
            self._pump.join(timeout=1)
            self._collect(quitting=True)
        self._halt.set()
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass

    def begin_case(self) -> None:
        """Start the clock of a case: its requests share ``timeout`` seconds."""
        self._deadline = time.monotonic() + self.timeout

    def collect(self) -> None:
        """Keep, as strays, the lines that came after the answers they followed."""
        self._collect(quitting=False)

    def _collect(self, *, quitting: bool) -> None:
        while True:
            try:
                got = self._lines.get_nowait()
            except queue.Empty:
                return
            if got is _EOF:
                self._closed = True
                continue
            assert isinstance(got, bytes | LineError)
            self._stray(got, quitting=quitting)

    def _stray(self, got: bytes | LineError, *, quitting: bool) -> None:
        """Keep a line that answers no request in flight, with the tag of the request it follows."""
        last = self._tags.get(self._seq)
        try:
            if isinstance(got, LineError):
                raise got
            answer = decode(got)
        except LineError as exc:
            self.strays.append((last, f"after answering, the port printed {exc.message}"))
            return
        seq = answer.get("seq") if isinstance(answer, dict) else None
        if quitting and seq == -1:
            return  # the answer to quit
        if type(seq) is int and seq in self._tags:
            self.strays.append(
                (self._tags[seq], f"the port answered request {seq} a second time: {_excerpt(got)}")
            )
        else:
            self.strays.append(
                (last, f"after answering, the port printed another line: {_excerpt(got)}")
            )

    def request(self, message: Message) -> Message:
        """Send one request and return its response; raise :class:`PortFailure` on any breakage."""
        proc = self._proc
        if proc is None or proc.stdin is None:
            raise PortFailure("the port is not running")
        if self._closed:
            raise PortFailure(self._died("the port had closed its output before this request"))
        self._seq += 1
        seq = self._seq
        self._tags[seq] = self.tag
        line = json.dumps({"seq": seq, **message}, separators=(",", ":"))
        try:
            proc.stdin.write(line.encode("utf-8") + b"\n")
            proc.stdin.flush()
        except (OSError, ValueError):
            raise PortFailure(self._died("the port stopped reading its input")) from None
        while True:
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
                self._closed = True
                raise PortFailure(self._died("the port closed its output"))
            assert isinstance(got, bytes | LineError)
            try:
                if isinstance(got, LineError):
                    raise got
                answer = decode(got)
            except LineError as exc:
                shown = "" if isinstance(got, LineError) else f": {_excerpt(got)}"
                raise PortFailure(f"the port printed {exc.message}{shown}") from None
            if not isinstance(answer, dict):
                raise PortFailure(f"the port printed JSON that is not an object: {_excerpt(got)}")
            got_seq = answer.get("seq")
            if type(got_seq) is int and got_seq == seq:
                return answer
            if type(got_seq) is int and got_seq in self._tags:
                self._stray(got, quitting=False)  # an earlier request answered again
                continue
            raise PortFailure(
                f"the answer has seq {_printable(json.dumps(got_seq), 60)}, expected {seq}"
            )

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
        tail = " | ".join(_printable(line.rstrip(), 200) for line in list(self._stderr)[-3:])
        if tail:
            text += f"; stderr: {tail[:300]}"
        return text


def _handshake_problem(answer: Message) -> str | None:
    """Say what is wrong with a ``hello`` answer, or return ``None``."""
    protocol = answer.get("protocol")
    if answer.get("ok") is not True:
        return "it did not answer ok"
    if type(protocol) is not int or protocol != 1:
        return "it does not speak protocol 1"
    supports = answer.get("supports", {})
    if not isinstance(supports, dict):
        return "'supports' is not an object"
    players = supports.get("players", [2])
    if not isinstance(players, list) or not all(type(p) is int for p in players):
        return "'supports.players' is not a list of integers"
    variants = supports.get("variants", [])
    if not isinstance(variants, list) or not all(isinstance(v, str) for v in variants):
        return "'supports.variants' is not a list of strings"
    for flag in ("heights", "explain"):
        if not isinstance(supports.get(flag, False), bool):
            return f"'supports.{flag}' is not true or false"
    return None


def _pump(stream: IO[bytes] | None, out: queue.Queue[object], halt: threading.Event) -> None:
    """Move the port's output lines to ``out`` until its end, then put ``_EOF``."""

    def put(item: object) -> bool:
        while not halt.is_set():
            try:
                out.put(item, timeout=0.1)
                return True
            except queue.Full:
                continue
        return False

    if stream is not None:
        try:
            for line in lines(stream):
                if not put(line):
                    return
        except (OSError, ValueError):
            pass
    put(_EOF)


def _drain(stream: IO[bytes] | None, tail: deque[str]) -> None:
    """Keep the last lines of the port's standard error (each cut to 300 bytes) in ``tail``."""
    if stream is None:
        return
    try:
        for line in lines(stream):
            if isinstance(line, bytes):
                tail.append(line[:300].decode("utf-8", "replace"))
    except (OSError, ValueError):
        pass


# -- cases -----------------------------------------------------------------------


def load_cases(directory: Path) -> list[Case]:
    """Read the cases of every vector file in ``directory`` (all ``*.json`` but the schema).

    Raise :class:`HarnessError` if ``directory`` is not a directory, holds no
    vector file, or holds a file that is not one (``spec/protocol.md``, "The
    vectors").
    """
    if not directory.is_dir():
        raise HarnessError(f"--vectors {directory} is not a folder of vector files")
    cases: list[Case] = []
    paths = [p for p in sorted(directory.glob("*.json")) if p.name != "schema.json"]
    if not paths:
        raise HarnessError(f"--vectors {directory} holds no vector files (*.json)")
    for path in paths:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, ValueError, RecursionError) as exc:
            raise HarnessError(f"cannot read {path}: {exc}") from None
        found = data.get("cases") if isinstance(data, dict) else None
        if not isinstance(found, list):
            raise HarnessError(f"{path} is not a vector file: it has no list of cases")
        for number, case in enumerate(found, start=1):
            if not (
                isinstance(case, dict)
                and isinstance(case.get("id"), str)
                and case.get("kind") in RUNNERS
            ):
                raise HarnessError(
                    f"{path}: case {number} is not a case with an id and a known kind"
                )
            case["_file"] = path.name
            cases.append(case)
    return cases


def read_known_failures(path: Path) -> list[str]:
    """Return the entries of a known-failures file: case ids or globs, ``#`` starts a comment.

    Raise :class:`HarnessError` if the file cannot be read as UTF-8 text.
    """
    try:
        text = path.read_text(encoding="utf-8")
    except IsADirectoryError:
        raise HarnessError(f"cannot read {path}: it is a directory") from None
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise HarnessError(f"cannot read {path}: {reason}") from None
    patterns = []
    for line in text.splitlines():
        entry = line.split("#", 1)[0].strip()
        if entry:
            patterns.append(entry)
    return patterns


def is_glob(entry: str) -> bool:
    """Whether a known-failures entry is a glob (it has ``*``, ``?`` or ``[``) rather than an id.

    >>> is_glob("invalid-0*"), is_glob("spec-E137")
    (True, False)
    """
    return any(c in entry for c in "*?[")


def unmatched_entries(entries: Iterable[str], cases: Iterable[Case]) -> list[str]:
    """Return the known-failures entries that match no case (a typo, or a case since removed).

    >>> unmatched_entries(["spec-E001", "spec-X*", "apply-*"], [{"id": "spec-E001"}])
    ['spec-X*', 'apply-*']
    """
    ids = [c["id"] for c in cases]
    present = set(ids)
    return [
        e
        for e in entries
        if not (any(fnmatch.fnmatchcase(i, e) for i in ids) if is_glob(e) else e in present)
    ]


def _asked(message: Message) -> str:
    """Return what a request asked, in words: ``apply of 7+10 to -/- - 0c3455``."""
    op = message.get("op")
    if op == "apply":
        return f"apply of {message.get('action')} to {message.get('state')}"
    if op == "explain" and "action" in message:
        return f"explain of {message['action']} in {message.get('state')}"
    if "state" in message:
        return f"{op} of {message['state']}"
    if "text" in message:
        return f"{op} of {json.dumps(message['text'])}"
    if "json" in message:
        return f"{op} of the JSON form {_printable(json.dumps(message['json']), 200)}"
    if op == "new":
        rules = json.dumps(message.get("rules", {}))
        first = message.get("first_player", 0)
        return f"new with rules {_printable(rules, 200)} and first player {first}"
    return str(op)


def _refused(message: Message, answer: Message) -> str:
    """Return the failure line of a refused request: what was asked, the rule and the reason."""
    error = answer.get("error")
    rule = error.get("rule") if isinstance(error, dict) else None
    text = error.get("message") if isinstance(error, dict) else error
    why = _printable(text if isinstance(text, str) else json.dumps(text), 300)
    under = f"under rule {_printable(json.dumps(rule), 40)}" if rule is not None else "with no rule"
    return f"{_asked(message)} was refused {under}: {why}"


def _ok(port: Port, message: Message) -> Message:
    answer = port.request(message)
    if answer.get("ok") is not True:
        raise Mismatch(_refused(message, answer))
    return answer


def _expect_error(port: Port, message: Message, rule: str, at: int | None = None) -> None:
    answer = port.request(message)
    if answer.get("ok") is not False:
        shown = {k: v for k, v in answer.items() if k not in ("seq", "json")}
        raise Mismatch(
            f"{_asked(message)} should be rejected under {rule}, but the port accepted it: "
            f"{_printable(json.dumps(shown), 200)}",
            [f"expected: rejection under rule {rule}"],
        )
    error = answer.get("error")
    got = error.get("rule") if isinstance(error, dict) else None
    if got != rule:
        text = error.get("message") if isinstance(error, dict) else error
        raise Mismatch(
            f"{_asked(message)} was rejected under rule {_printable(json.dumps(got), 40)}, "
            f"expected rule {rule}",
            [f"port's message: {_printable(text if isinstance(text, str) else json.dumps(text))}"],
        )
    if at is not None and isinstance(error, dict) and "at" in error:
        where = error["at"]
        if type(where) is not int or where != at:
            raise Mismatch(
                f"the error points at position {_printable(json.dumps(where), 40)}, expected {at}"
            )


def _same(what: str, got: object, want: object) -> None:
    if got != want or type(got) is not type(want):
        shown = _printable(json.dumps(got), 1000)
        raise Mismatch(f"{what}: got {shown}, expected {json.dumps(want)}")


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


def explanation_difference(got: object, want: Mapping[str, Any]) -> tuple[str, list[str]] | None:
    """Say where an explanation's JSON form differs from the expected one, or return ``None``.

    The two are compared as JSON values (the order of an object's keys does not
    matter; ``true`` is not ``1``).  The answer is a sentence and lines that show
    the first statement that differs in its text form (spec/explain.md, X1.2).

    >>> want = {"format": "cantstop-explain/1", "moves": ["7"], "statements": []}
    >>> explanation_difference({**want, "moves": ["7", "8"]}, want)[0]
    'the field moves: got ["7", "8"], expected ["7"]'
    """
    if _canonical(got) == _canonical(want):
        return None
    if not isinstance(got, dict):
        return f"the answer is not an explanation object: {_printable(json.dumps(got), 200)}", []
    for key in want:
        if key != "statements" and _canonical(got.get(key)) != _canonical(want[key]):
            shown = _printable(json.dumps(got.get(key)), 200)
            return f"the field {key}: got {shown}, expected {json.dumps(want[key])}", []
    extra = sorted(set(got) - set(want))
    if extra:
        return f"fields the explanation does not have: {', '.join(map(str, extra))}", []
    mine = got.get("statements")
    theirs = want["statements"]
    if not isinstance(mine, list):
        return f"statements is not a list: {_printable(json.dumps(mine), 200)}", []
    for index, expected in enumerate(theirs):
        if index >= len(mine):
            return (
                f"{len(mine)} statements, expected {len(theirs)}; the first missing",
                [f"expected: {_statement_line(expected)}"],
            )
        if _canonical(mine[index]) != _canonical(expected):
            return _statement_difference(index, mine[index], expected)
    return (
        f"{len(mine)} statements, expected {len(theirs)}; the first extra",
        [f"got: {_statement_line(mine[len(theirs)])}"],
    )


def _statement_difference(
    index: int, got: object, want: Mapping[str, Any]
) -> tuple[str, list[str]]:
    """Say how the statement at ``index`` differs: the first field, and both lines."""
    field = next(
        (k for k in want if _canonical(_get(got, k)) != _canonical(want[k])), "fields it has"
    )
    lines = [f"got:      {_statement_line(got)}", f"expected: {_statement_line(want)}"]
    if field == "data":
        lines.append(f"got data:      {_printable(json.dumps(_get(got, 'data')), 300)}")
        lines.append(f"expected data: {json.dumps(want['data'])}")
    return f"statement {index + 1} differs in its {field}", lines


def _canonical(value: object) -> str:
    """Return ``value`` as JSON with sorted keys: equal values, equal text."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def _get(value: object, key: str) -> object:
    return value.get(key) if isinstance(value, dict) else None


def _statement_line(statement: object) -> str:
    """Return a statement as its line of the text form, shown safely whatever the port sent."""
    if not isinstance(statement, dict):
        return _printable(json.dumps(statement), 300)
    depth = statement.get("depth")
    text = statement.get("text")
    rules = statement.get("rules")
    indent = "  " * depth if type(depth) is int and 0 <= depth < 10 else f"[depth {depth!r}] "
    said = text[:-1] if isinstance(text, str) and text.endswith(".") else json.dumps(text)
    cited = ", ".join(map(str, rules)) if isinstance(rules, list) else json.dumps(rules)
    kind = _printable(str(statement.get("kind")), 40)
    return _printable(f"[{kind}] {indent}{said} ({cited}).", 400)


def _run_explain(port: Port, case: Case) -> None:
    message: Message = {"op": "explain", "state": case["state"]}
    if "action" in case:
        message["action"] = case["action"]
    expect = case["expect"]
    if "error" in expect:
        _expect_error(port, message, expect["error"])
        return
    got = _ok(port, message).get("explanation")
    differs = explanation_difference(got, expect["explanation"])
    if differs is not None:
        what, lines = differs
        raise Mismatch(f"{_asked(message)}: {what}", lines)


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
    "explain": _run_explain,
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
    """A finished run: the results in case order and what the port said about itself.

    ``stopped`` says why the run ended before its last case (the port could
    not start, failed the handshake, or failed case after case), or is
    ``None``; ``selected`` is the number of cases the run was given.
    """

    results: list[CaseResult]
    hello: Message | None
    command: list[str]
    starts: int = 0
    stopped: str | None = None
    selected: int = 0
    #: The diagnosis, once :meth:`diagnose` has asked the failing cases again.
    diagnosis: Diagnosis | None = None

    def count(self, status: str) -> int:
        """Return how many cases have ``status``."""
        return sum(r.status == status for r in self.results)

    @property
    def ok(self) -> bool:
        """Whether nothing failed."""
        return self.count("failed") == 0

    @property
    def ran(self) -> int:
        """Return how many cases ran: every case with a result but the skipped ones."""
        return len(self.results) - self.count("skipped")

    def exit_status(self) -> int:
        """Return the exit status of ``cantstop conform`` for this run (``spec/protocol.md``).

        0 when at least one case ran and none failed; 1 when a case failed;
        2 when the run stopped early or no case ran (all skipped).

        >>> Run([CaseResult("spec-E001", "passed", [])], None, []).exit_status()
        0
        >>> Run([CaseResult("spec-E001", "skipped", [])], None, []).exit_status()
        2
        """
        if self.stopped is not None or self.ran == 0:
            return 2
        return 0 if self.ok else 1

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
            if broken >= DIAGNOSIS_PORT_FAILURES:
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
            "selected": self.selected,
            "stopped": self.stopped,
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
            yield f"... and {_plural(shown - limit, 'more failure')} (see --report)"
        if self.stopped is None:  # a stopped run shows port faults, not rules
            yield from (self.diagnosis or Diagnosis(self._suspects())).lines()
        if self.starts > 1:
            yield f"The port was started {self.starts} times."
        if self.count("skipped"):
            yield f"{self.count('skipped')} skipped (options the port does not support)"
        if self.count("known"):
            known = self.count("known")
            yield f"{_plural(known, 'known failure')} still {'fails' if known == 1 else 'fail'}"
        if self.stopped is not None:
            yield f"The run stopped after {len(self.results)} of {_plural(self.selected, 'case')}."
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
        if key in ("heights", "explain") and supports.get(key, False) is not True:
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


def _plural(n: int, noun: str) -> str:
    """``n`` and ``noun``, the noun in the plural unless ``n`` is 1: ``1 case``, ``2 cases``.

    >>> _plural(1, "case"), _plural(11163, "more failure")
    ('1 case', '11,163 more failures')
    """
    return f"{n:,} {noun}" if n == 1 else f"{n:,} {noun}s"


def _classify(results: list[CaseResult], known: Sequence[str]) -> None:
    """Apply the known-failures entries to the results (``spec/protocol.md``).

    A case listed by its id must fail: it becomes ``known``, or ``failed`` if
    it passes.  A case a glob matches may fail: it becomes ``known`` if it
    fails and stays ``passed`` if it passes.
    """
    ids = {e for e in known if not is_glob(e)}
    globs = [e for e in known if is_glob(e)]
    for result in results:
        if result.status == "skipped":
            continue
        listed = result.id in ids
        if listed or any(fnmatch.fnmatchcase(result.id, g) for g in globs):
            if result.status == "failed":
                result.status = "known"
            elif listed:
                result.status = "failed"
                result.message = "listed as a known failure, but it passes: remove it from the list"


def run_suite(
    command: Sequence[str],
    cases: list[Case],
    *,
    timeout: float = 10.0,
    known: Sequence[str] = (),
    progress: Callable[[CaseResult], None] | None = None,
    max_port_failures: int = MAX_PORT_FAILURES,
) -> Run:
    """Run ``cases`` against the port started by ``command``; return the results.

    The run stops early (``Run.stopped``) when the port cannot start or
    fails the handshake the first time, or when ``max_port_failures`` cases in
    a row end in a port failure.  ``known`` holds known-failures entries
    (:func:`read_known_failures`).
    """
    port = Port(command, timeout)
    results: list[CaseResult] = []
    hello: Message | None = None
    stopped: str | None = None
    in_a_row = 0
    try:
        for index, case in enumerate(cases):
            began = time.perf_counter()
            result = CaseResult(case["id"], "passed", list(case.get("rules", [])))
            port.tag = index
            try:
                if port.running:
                    port.collect()
                else:
                    port.begin_case()
                    try:
                        hello = port.start()
                    except PortFailure as exc:
                        if port.starts == 1:
                            port.stop(kill=True)
                            stopped = f"the port could not start: {exc}"
                            break
                        raise
                port.begin_case()
                lacking = _supported(hello, case.get("needs", []))
                if lacking is not None:
                    result.status = "skipped"
                    result.message = f"the port does not support {lacking}"
                else:
                    RUNNERS[case["kind"]](port, case)
                in_a_row = 0
            except Mismatch as exc:
                result.status = "failed"
                result.message = exc.message
                result.diagnosis = exc.lines
                in_a_row = 0
            except PortFailure as exc:
                result.status = "failed"
                result.message = f"port failure: {exc}"
                port.stop(kill=True)
                in_a_row += 1
            except Exception as exc:  # an answer of a shape no check foresaw: the case fails
                result.status = "failed"
                result.message = f"malformed answer: {type(exc).__name__}: {_printable(str(exc))}"
                in_a_row = 0
            result.seconds = time.perf_counter() - began
            results.append(result)
            if progress is not None:
                progress(result)
            if in_a_row >= max_port_failures:
                stopped = (
                    f"{_plural(in_a_row, 'case')} in a row ended in a port failure, "
                    f"each followed by a restart; the last: {result.message}"
                )
                break
        else:
            port.stop(collect=True)
    finally:
        port.stop(kill=True)
    for tag, message in port.strays:
        if tag is not None and tag < len(results):
            blamed = results[tag]
            if blamed.status == "passed":
                blamed.status = "failed"
                blamed.message = message
            else:
                blamed.diagnosis.append(message)
    _classify(results, known)
    return Run(results, hello, list(command), port.starts, stopped, len(cases))
