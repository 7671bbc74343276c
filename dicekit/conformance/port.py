"""The port process: one long-lived program, one JSON line each way (``spec/protocol.md``).

:class:`Port` starts the program, shakes hands, sends requests and reads the
answers with a clock per case.  Whatever the port prints is read as a line
of the protocol (:mod:`~dicekit.conformance.lines`); anything that is
not the answer asked for raises :class:`PortFailure`, and a line that comes
after an answer without being asked for (an earlier request answered again,
an answer to a request not yet sent, any other line) is kept as a *stray*
with the tag of the request whose answer it follows, so that the case it
follows is blamed.

When the port dies, the message shows the first lines of its standard error,
where a program says why it stops, and its last line, and names the file
that keeps all of it (:data:`STDERR_KEPT` bytes of each start at most).

A port is a stranger's program, so the harness never waits on it without a
clock and never holds more of what it prints than a few lines:

- the port runs in a process group of its own, and stopping it kills the
  whole group, children included;
- the port's output is read on threads that own their pipes: the harness
  never closes a pipe that a reader may still be reading (a child that left
  the group may hold it open for ever), and never blocks writing a request
  the port does not read;
- at most :data:`QUEUED_LINES` lines wait to be read, each at most
  :data:`~dicekit.conformance.lines.MAX_LINE_BYTES`; of the stray lines
  of one case, the first :data:`STRAYS_KEPT` are kept and the rest counted.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import select
import signal
import subprocess
import tempfile
import threading
import time
from collections import Counter, deque
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import IO, Any

from dicekit.conformance.compare import excerpt, printable
from dicekit.conformance.lines import MAX_LINE_BYTES, LineError, decode

__all__ = [
    "QUEUED_LINES",
    "STDERR_KEPT",
    "STDERR_SHOWN",
    "STRAYS_KEPT",
    "Port",
    "PortFailure",
    "SupportsCheck",
]

Message = dict[str, Any]
#: Says what is wrong with the ``supports`` object of a ``hello`` answer, or returns ``None``.
SupportsCheck = Callable[[Mapping[str, Any]], str | None]

#: Lines the port printed that may wait to be read: the harness holds at most
#: this many times :data:`~dicekit.conformance.lines.MAX_LINE_BYTES`.
QUEUED_LINES = 16
#: Stray lines kept for each case; the others are counted.
STRAYS_KEPT = 3
#: Lines of the port's standard error a message shows when it dies: the first ones.
STDERR_SHOWN = 4
#: Bytes of the port's standard error kept in a file for each start; the rest is counted.
STDERR_KEPT = 1 << 20
#: Files of standard error a port keeps for its failures, at most.
_STDERR_FILES = 20
#: Bytes of an unfinished line kept to show in a message.
_PARTIAL_SHOWN = 200
#: The longest single wait the threading module allows.
_LONGEST_WAIT = min(threading.TIMEOUT_MAX, 24 * 3600.0)

_TOO_LONG = f"a line longer than {MAX_LINE_BYTES:,} bytes"


class PortFailure(Exception):
    """The port broke the protocol: it crashed, hung, closed its output or printed garbage.

    ``hang`` is true when the port let the clock run out on a request.
    """

    def __init__(self, message: str, *, hang: bool = False) -> None:
        super().__init__(message)
        self.hang = hang


_EOF = object()


class _Output:
    """Reads one of the port's output pipes on a thread of its own, which alone closes it.

    Complete lines go to ``lines`` (bytes, or a :class:`LineError` for a line
    too long), each with ``asked()`` as it was when the line was read, then
    ``_EOF``; ``partial`` is the start of a line not yet ended.  With no queue
    (standard error) the output is written to ``log`` as it comes, and the
    first lines that are not blank and the last one are kept to show.
    """

    def __init__(
        self,
        stream: IO[bytes],
        lines: queue.Queue[object] | None,
        asked: Callable[[], int] = lambda: 0,
        log: IO[bytes] | None = None,
    ) -> None:
        self.stream = stream
        self.lines = lines
        self.asked = asked
        self.log = log
        self.logged = 0
        self.halt = threading.Event()
        self.partial = b""
        self.partial_size = 0
        #: With no queue (standard error): the first lines that are not blank, the last
        #: line, and how many lines came; each kept line cut to 300 bytes.
        self.head: list[str] = []
        self.tail: deque[str] = deque(maxlen=1)
        self.count = 0
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _put(self, item: object) -> None:
        if self.lines is None:
            if isinstance(item, bytes) and item.strip():
                line = item[:300].decode("utf-8", "replace")
                self.count += 1
                if len(self.head) < STDERR_SHOWN:
                    self.head.append(line)
                self.tail.append(line)
            return
        stamped = item if item is _EOF else (item, self.asked())
        while not self.halt.is_set():
            try:
                self.lines.put(stamped, timeout=0.1)
                return
            except queue.Full:
                continue

    def _write(self, chunk: bytes) -> None:
        """Keep ``chunk`` of standard error in the log, up to :data:`STDERR_KEPT` bytes."""
        if self.log is None:
            return
        room = STDERR_KEPT - self.logged
        if room > 0:
            with contextlib.suppress(OSError, ValueError):
                self.log.write(chunk[:room])
                self.log.flush()
        self.logged += len(chunk)

    def shown(self) -> list[str]:
        """Return the lines of standard error to show: the first ones, then the last."""
        lines = list(self.head)
        if self.count > len(self.head) and self.tail:
            if self.count > len(self.head) + 1:
                lines.append("...")
            lines.append(self.tail[-1])
        return lines

    def _run(self) -> None:
        buffer = bytearray()
        skipping = False  # the line at hand is too long: drop it up to its end
        try:
            descriptor = self.stream.fileno()
            while not self.halt.is_set():
                chunk = os.read(descriptor, 1 << 16)
                if not chunk:
                    break
                self._write(chunk)
                start = 0
                while (end := chunk.find(b"\n", start)) != -1:
                    piece, start = chunk[start:end], end + 1
                    if skipping or len(buffer) + len(piece) > MAX_LINE_BYTES:
                        self._put(LineError(_TOO_LONG))
                    else:
                        buffer += piece
                        self._put(bytes(buffer).removesuffix(b"\r"))
                    buffer.clear()
                    skipping = False
                rest = chunk[start:]
                if not skipping and len(buffer) + len(rest) > MAX_LINE_BYTES:
                    skipping = True
                    buffer.clear()
                if not skipping:
                    buffer += rest
                self.partial = bytes(buffer[:_PARTIAL_SHOWN])
                self.partial_size = len(buffer) if not skipping else MAX_LINE_BYTES + 1
            if buffer and not self.halt.is_set():
                self._put(bytes(buffer).removesuffix(b"\r"))  # a last line without its end
        except (OSError, ValueError):
            pass
        finally:
            self._put(_EOF)
            with contextlib.suppress(OSError):
                self.stream.close()


class Port:
    """A port process and the requests sent to it, one JSON line each way.

    ``timeout`` is the time allowed for one case: :meth:`begin_case` starts its
    clock, and every request of the case must be answered before it runs out.
    ``tag`` marks the requests sent from now on (the harness sets it to the
    index of the case at hand); a line that comes after an answer without
    being its own (an earlier request answered again, a request answered
    before it was sent, any other line) is kept in ``strays`` with the tag of
    the request whose answer it follows, so that the case it follows is
    blamed.  Of each tag's strays the first
    :data:`~dicekit.conformance.port.STRAYS_KEPT` are kept; ``stray_counts``
    counts all.
    """

    def __init__(
        self,
        command: Sequence[str],
        timeout: float,
        *,
        protocol: int = 1,
        supports: SupportsCheck | None = None,
        game: str | None = None,
        unnamed: bool = False,
        suite_version: int | None = None,
    ) -> None:
        self.command = list(command)
        self.timeout = timeout
        self.protocol = protocol
        self._supports = supports
        self.game = game
        self.unnamed = unnamed
        self.suite_version = suite_version
        self._deadline: float | None = None
        self.hello: Message | None = None
        self._proc: subprocess.Popen[bytes] | None = None
        self._lines: queue.Queue[object] = queue.Queue(QUEUED_LINES)
        self._closed = False
        self._output: _Output | None = None
        self._errors: _Output | None = None
        self._seq = 0
        self._tags: dict[int, int | None] = {}
        self.tag: int | None = None
        self.strays: list[tuple[int | None, str]] = []
        self.stray_counts: Counter[int | None] = Counter()
        self.starts = 0
        #: The tag of the request whose answer was read last: a stray line follows it.
        self._follows: int | None = None
        #: The port's standard error of the current start, kept in a file.
        self._log_dir: Path | None = None
        self._log: IO[bytes] | None = None
        self._log_path: Path | None = None
        self._kept: set[Path] = set()

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
                start_new_session=True,  # its own process group, killed as a whole
            )
        except (OSError, ValueError) as exc:
            raise PortFailure(f"cannot start {' '.join(self.command)}: {exc}") from None
        assert proc.stdin is not None
        assert proc.stdout is not None
        assert proc.stderr is not None
        os.set_blocking(proc.stdin.fileno(), False)
        self._proc = proc
        self._lines = queue.Queue(QUEUED_LINES)
        self._closed = False
        self._tags = {}
        self._follows = self.tag
        self._open_log()
        self._output = _Output(proc.stdout, self._lines, lambda: self._seq)
        self._errors = _Output(proc.stderr, None, log=self._log)
        answer = self.request(self.hello_request())
        problem = _handshake_problem(answer, self.protocol, self._supports, self.game, self.unnamed)
        if problem is not None:
            raise PortFailure(
                f"the handshake failed: {problem}; the port answered "
                f"{printable(json.dumps(answer), 300)}"
            )
        self.hello = answer
        return answer

    def _open_log(self) -> None:
        """Open the file that keeps this start's standard error (none if it cannot be made)."""
        self._log = self._log_path = None
        try:
            if self._log_dir is None:
                self._log_dir = Path(tempfile.mkdtemp(prefix="cantstop-port-"))
            path = self._log_dir / f"stderr-{self.starts}.txt"
            self._log = path.open("wb")
            self._log_path = path
        except OSError:
            pass

    def _close_log(self) -> None:
        """Close the standard error file; delete it unless a message names it."""
        log, path = self._log, self._log_path
        self._log = self._log_path = None
        if log is not None:
            with contextlib.suppress(OSError):
                log.close()
        if path is not None and path not in self._kept:
            path.unlink(missing_ok=True)
        if self._log_dir is not None and not self._kept:
            with contextlib.suppress(OSError):
                self._log_dir.rmdir()
            self._log_dir = None

    def hello_request(self) -> Message:
        """Return the ``hello`` request: the protocol, and the game and suite version when known.

        >>> Port(["port"], 1, game="toy", suite_version=1).hello_request()
        {'op': 'hello', 'protocol': 1, 'game': 'toy', 'suite_version': 1}
        """
        request: Message = {"op": "hello", "protocol": self.protocol}
        if self.game is not None:
            request["game"] = self.game
        if self.suite_version is not None:
            request["suite_version"] = self.suite_version
        return request

    def stop(self, *, kill: bool = False, collect: bool = False) -> None:
        """End the process: ask it to quit, or with ``kill`` kill it at once.

        Either way its whole process group is killed at the end.  With
        ``collect``, the lines the port printed before it exited (other than
        the answer to ``quit``) are kept in ``strays``.
        """
        proc, self._proc = self._proc, None
        if proc is None:
            return
        if not kill and proc.poll() is None:
            try:
                self._send(b'{"seq":-1,"op":"quit"}\n', time.monotonic() + 1, proc)
                assert proc.stdin is not None
                proc.stdin.close()  # a port may also stop at the end of its input
                proc.wait(timeout=1)
            except (PortFailure, OSError, subprocess.TimeoutExpired):
                pass
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)  # the group may be gone already
        proc.wait()
        try:
            assert proc.stdin is not None
            proc.stdin.close()  # the harness's own end: closing it never waits on the port
        except OSError:
            pass
        output, errors = self._output, self._errors
        if collect and output is not None:
            output.thread.join(timeout=1)
            self._collect(quitting=True)
        for reader in (output, errors):
            if reader is not None:
                reader.halt.set()  # a pipe a stranger still holds is left to its reader
        if errors is not None:
            errors.log = None  # the reader stops writing to a file about to be closed
        self._close_log()

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
            assert isinstance(got, tuple)
            self._stray(got[0], quitting=quitting)

    def _keep(self, tag: int | None, message: str) -> None:
        self.stray_counts[tag] += 1
        if self.stray_counts[tag] <= STRAYS_KEPT:
            self.strays.append((tag, message))

    def _stray(self, got: bytes | LineError, *, quitting: bool) -> None:
        """Keep a line that answers no request in flight, charged to the case it follows.

        The case is the one whose answer the port printed last before the line:
        a port that prints a stray line after every answer fails every case.
        """
        follows = self._follows
        try:
            if isinstance(got, LineError):
                raise got
            answer = decode(got)
        except LineError as exc:
            self._keep(follows, f"after answering, the port printed {exc.message}")
            return
        seq = answer.get("seq") if isinstance(answer, dict) else None
        if quitting and seq == -1:
            return  # the answer to quit
        if type(seq) is int and seq in self._tags:
            said = f"the port answered request {seq} a second time: {excerpt(got)}"
        elif type(seq) is int and seq > self._seq:
            said = f"the port answered request {seq} before it was asked: {excerpt(got)}"
        else:
            said = f"after answering, the port printed another line: {excerpt(got)}"
        self._keep(follows, said)

    def _remaining(self) -> float:
        if self._deadline is None:
            return min(self.timeout, _LONGEST_WAIT)
        return min(max(self._deadline - time.monotonic(), 0.001), _LONGEST_WAIT)

    def _send(
        self, data: bytes, deadline: float, proc: subprocess.Popen[bytes] | None = None
    ) -> None:
        """Write ``data`` to the port's input without ever blocking past ``deadline``."""
        proc = self._proc if proc is None else proc
        if proc is None or proc.stdin is None:
            raise PortFailure("the port is not running")
        descriptor = proc.stdin.fileno()
        view = memoryview(data)
        while view:
            try:
                view = view[os.write(descriptor, view) :]
                continue
            except BlockingIOError:
                pass
            except (OSError, ValueError):
                raise PortFailure(self._died("the port stopped reading its input")) from None
            left = min(deadline - time.monotonic(), _LONGEST_WAIT)
            if left <= 0 or not select.select([], [descriptor], [], left)[1]:
                raise PortFailure(
                    f"the port read none of its input within the case's {self.timeout:g} s",
                    hang=True,
                )

    def request(self, message: Message) -> Message:
        """Send one request and return its response; raise :class:`PortFailure` on any breakage."""
        if self._proc is None:
            raise PortFailure("the port is not running")
        if self._closed:
            raise PortFailure(self._died("the port had closed its output before this request"))
        self._seq += 1
        seq = self._seq
        self._tags[seq] = self.tag
        line = json.dumps({"seq": seq, **message}, separators=(",", ":"))
        self._send(line.encode("utf-8") + b"\n", time.monotonic() + self._remaining())
        while True:
            try:
                got = self._lines.get(timeout=self._remaining())
            except queue.Empty:
                raise PortFailure(self._silent(line), hang=True) from None
            if got is _EOF:
                self._closed = True
                raise PortFailure(self._died("the port closed its output"))
            assert isinstance(got, tuple)
            line, asked = got
            try:
                if isinstance(line, LineError):
                    raise line
                answer = decode(line)
            except LineError as exc:
                shown = "" if isinstance(line, LineError) else f": {excerpt(line)}"
                raise PortFailure(f"the port printed {exc.message}{shown}") from None
            if not isinstance(answer, dict):
                raise PortFailure(f"the port printed JSON that is not an object: {excerpt(line)}")
            got_seq = answer.get("seq")
            if type(got_seq) is int and got_seq == seq and asked < seq:
                # Printed before the request was sent: not an answer to it.
                said = f"the port answered request {seq} before it was asked: {excerpt(line)}"
                self._keep(self._follows, said)
                continue
            if type(got_seq) is int and got_seq == seq:
                self._follows = self.tag
                return answer
            if type(got_seq) is int and got_seq in self._tags:
                self._stray(line, quitting=False)  # an earlier request answered again
                continue
            raise PortFailure(
                f"the answer has seq {printable(json.dumps(got_seq), 60)}, expected {seq}"
            )

    def _silent(self, line: str) -> str:
        """Say that no answer came in time, and what the port had begun to write, if anything."""
        text = f"no answer within the case's {self.timeout:g} s, to {line[:200]}"
        output = self._output
        if output is not None and output.partial_size:
            size = output.partial_size
            shown = excerpt(output.partial)
            text += (
                f"; the port wrote part of a line ({size:,} bytes, no end of line) and stopped: "
                f"{shown}"
            )
        return text

    def _died(self, what: str) -> str:
        """Say that the port died: its exit status, the start of its stderr, the file of all of it.

        The first lines of standard error say why a program stops (Node.js
        names the file and the error, Python ends its traceback with the
        error: its last line is shown too).
        """
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
        errors = self._errors
        if errors is None:
            return text
        errors.thread.join(timeout=0.5)  # what it wrote before it ended
        shown = " | ".join(printable(line.rstrip(), 160) for line in errors.shown())
        if not shown:
            return text
        lines = "1 line" if errors.count == 1 else f"{errors.count:,} lines"
        text += f"; its standard error ({lines}): {printable(shown, 700)}"
        path = self._log_path
        if path is not None and (path in self._kept or len(self._kept) < _STDERR_FILES):
            self._kept.add(path)
            text += f"; all of it is in {path}"
        return text


def _handshake_problem(
    answer: Message,
    protocol: int,
    supports: SupportsCheck | None,
    game: str | None = None,
    unnamed: bool = False,
) -> str | None:
    """Say what is wrong with a ``hello`` answer, or return ``None``.

    With ``game``, the answer must name that game in ``game``; a port that
    names none is taken for it only when ``unnamed`` allows (ports written
    before ``hello`` named the game).

    >>> _handshake_problem({"ok": True, "protocol": 1, "game": "toy"}, 1, None, "pig")
    "it implements the game 'toy', not 'pig'"
    >>> _handshake_problem({"ok": True, "protocol": 1}, 1, None, "toy")
    "it does not name its game in 'game' (this suite is for 'toy')"
    """
    spoken = answer.get("protocol")
    if answer.get("ok") is not True:
        return "it did not answer ok"
    if type(spoken) is not int or spoken != protocol:
        return f"it does not speak protocol {protocol}"
    if game is not None:
        if "game" not in answer:
            if not unnamed:
                return f"it does not name its game in 'game' (this suite is for {game!r})"
        elif answer["game"] != game:
            shown = answer["game"]
            named = repr(shown) if isinstance(shown, str) else printable(json.dumps(shown), 60)
            return f"it implements the game {printable(named, 60)}, not {game!r}"
    declared = answer.get("supports", {})
    if not isinstance(declared, dict):
        return "'supports' is not an object"
    return None if supports is None else supports(declared)
