"""The port process: one long-lived program, one JSON line each way (``spec/protocol.md``).

:class:`Port` starts the program, shakes hands, sends requests and reads the
answers with a clock per case.  Whatever the port prints is read as a line
of the protocol (:mod:`~cantstop.conformance.layer.lines`); anything that is
not the answer asked for raises :class:`PortFailure`, and a line that answers
an earlier request again, or comes after its answer, is kept as a *stray*
with the tag of the request it follows, so that the right case is blamed.
"""

from __future__ import annotations

import json
import queue
import subprocess
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from typing import IO, Any

from cantstop.conformance.layer.compare import excerpt, printable
from cantstop.conformance.layer.lines import LineError, decode, lines

__all__ = ["Port", "PortFailure", "SupportsCheck"]

Message = dict[str, Any]
#: Says what is wrong with the ``supports`` object of a ``hello`` answer, or returns ``None``.
SupportsCheck = Callable[[Mapping[str, Any]], str | None]

#: Lines the harness holds that the port printed but nothing has read yet.
_BACKLOG = 1000


class PortFailure(Exception):
    """The port broke the protocol: it crashed, hung, closed its output or printed garbage."""


_EOF = object()


class Port:
    """A port process and the requests sent to it, one JSON line each way.

    ``timeout`` is the time allowed for one case: :meth:`begin_case` starts its
    clock, and every request of the case must be answered before it runs out.
    ``tag`` marks the requests sent from now on (the harness sets it to the
    index of the case at hand); a line that answers an earlier request again,
    or comes after its answer, is kept in ``strays`` with the tag of the
    request it belongs to, so that the right case is blamed.
    """

    def __init__(
        self,
        command: Sequence[str],
        timeout: float,
        *,
        protocol: int = 1,
        supports: SupportsCheck | None = None,
    ) -> None:
        self.command = list(command)
        self.timeout = timeout
        self.protocol = protocol
        self._supports = supports
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
        answer = self.request({"op": "hello", "protocol": self.protocol})
        problem = _handshake_problem(answer, self.protocol, self._supports)
        if problem is not None:
            raise PortFailure(
                f"the handshake failed: {problem}; the port answered "
                f"{printable(json.dumps(answer), 300)}"
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
                (self._tags[seq], f"the port answered request {seq} a second time: {excerpt(got)}")
            )
        else:
            self.strays.append(
                (last, f"after answering, the port printed another line: {excerpt(got)}")
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
                shown = "" if isinstance(got, LineError) else f": {excerpt(got)}"
                raise PortFailure(f"the port printed {exc.message}{shown}") from None
            if not isinstance(answer, dict):
                raise PortFailure(f"the port printed JSON that is not an object: {excerpt(got)}")
            got_seq = answer.get("seq")
            if type(got_seq) is int and got_seq == seq:
                return answer
            if type(got_seq) is int and got_seq in self._tags:
                self._stray(got, quitting=False)  # an earlier request answered again
                continue
            raise PortFailure(
                f"the answer has seq {printable(json.dumps(got_seq), 60)}, expected {seq}"
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
        tail = " | ".join(printable(line.rstrip(), 200) for line in list(self._stderr)[-3:])
        if tail:
            text += f"; stderr: {tail[:300]}"
        return text


def _handshake_problem(
    answer: Message, protocol: int, supports: SupportsCheck | None
) -> str | None:
    """Say what is wrong with a ``hello`` answer, or return ``None``."""
    spoken = answer.get("protocol")
    if answer.get("ok") is not True:
        return "it did not answer ok"
    if type(spoken) is not int or spoken != protocol:
        return f"it does not speak protocol {protocol}"
    declared = answer.get("supports", {})
    if not isinstance(declared, dict):
        return "'supports' is not an object"
    return None if supports is None else supports(declared)


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
