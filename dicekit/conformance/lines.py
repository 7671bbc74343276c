r"""One line of the conformance protocol, read defensively (``spec/protocol.md``, "Lines").

Both ends of the protocol read lines that may come from a broken or hostile
program: a game's reference port (:mod:`dicekit.conformance.serve`) reads
requests and the harness (:mod:`dicekit.conformance.run`) reads answers.  They use
the same reader, so the limits of the protocol are stated once:

- a line holds at most :data:`MAX_LINE_BYTES` bytes, not counting its ``\n``;
- it is UTF-8 and holds one JSON value (an empty line, of spaces, tabs and
  ``\r`` alone, holds none);
- that value nests at most :data:`MAX_DEPTH` arrays and objects;
- its numbers are those every JSON reader agrees on (I-JSON, RFC 7493):
  integers within ``±(2**53 - 1)`` and no number beyond the range of a double
  (``1e999``); ``NaN`` and ``Infinity`` are not JSON at all.

A line that breaks one of these raises :class:`LineError`, whose message says
which, and never another exception.

>>> decode(b'{"seq": 1, "op": "hello"}')
{'seq': 1, 'op': 'hello'}
>>> decode(b'{"seq": 1e999}')
Traceback (most recent call last):
...
dicekit.conformance.lines.LineError: a number out of range: 1e999 ...
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from typing import IO

__all__ = ["MAX_DEPTH", "MAX_LINE_BYTES", "MAX_SAFE_INTEGER", "LineError", "decode", "lines"]

#: The longest line, in bytes without its ``\n``; the longest answer of the suite is about 24 KB.
MAX_LINE_BYTES = 1 << 20

#: How deeply arrays and objects may nest; the protocol's own messages nest 4 deep.
MAX_DEPTH = 64

#: The largest integer (in size) that every JSON reader holds exactly (I-JSON, RFC 7493).
MAX_SAFE_INTEGER = 2**53 - 1

_TOO_LONG = f"a line longer than {MAX_LINE_BYTES:,} bytes"
_RANGE = "I-JSON allows integers within ±(2**53 - 1) and finite numbers"


class LineError(ValueError):
    """A protocol line that is not one JSON value within the limits; ``seq`` if it could be read.

    ``seq`` is the request's sequence number when the line is an object whose
    ``seq`` is a valid integer, so that an answer can still repeat it; otherwise
    ``None``.
    """

    def __init__(self, message: str, seq: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.seq = seq


def lines(stream: IO[bytes]) -> Iterator[bytes | LineError]:
    r"""Yield each line of ``stream`` without its line end, until the end of the stream.

    A line longer than :data:`MAX_LINE_BYTES` is not kept in memory: its bytes
    are skipped and a :class:`LineError` stands in its place.  A last line
    without ``\n`` is still a line.

    >>> import io
    >>> list(lines(io.BytesIO(b'{"seq": 1}\r\n\nlast')))
    [b'{"seq": 1}', b'', b'last']
    """
    while True:
        line = stream.readline(MAX_LINE_BYTES + 1)
        if not line:
            return
        if len(line) > MAX_LINE_BYTES and not line.endswith(b"\n"):
            while line and not line.endswith(b"\n"):
                line = stream.readline(1 << 16)
            yield LineError(_TOO_LONG)
            continue
        yield line.rstrip(b"\r\n")


class _Numbers:
    """Number hooks for :func:`json.loads` that note what is out of range instead of failing."""

    def __init__(self) -> None:
        self.bad: list[str] = []

    def _out(self, text: str) -> None:
        shown = text if len(text) <= 30 else f"{text[:12]}...{text[-6:]} ({len(text):,} characters)"
        self.bad.append(f"a number out of range: {shown} ({_RANGE})")

    def integer(self, text: str) -> int | None:
        # Counting digits first keeps int() away from 4,301-digit strings (a ValueError).
        if len(text.lstrip("-")) <= 16:
            value = int(text)
            if -MAX_SAFE_INTEGER <= value <= MAX_SAFE_INTEGER:
                return value
        self._out(text)
        return None

    def real(self, text: str) -> float | None:
        value = float(text)
        if math.isfinite(value):
            return value
        self._out(text)
        return None

    def constant(self, text: str) -> None:
        self.bad.append(f"{text} is not JSON")


def _depth(value: object) -> int:
    """Return how deeply arrays and objects nest in ``value`` (0 for a scalar), iteratively."""
    deepest = 0
    todo: list[tuple[object, int]] = [(value, 0)]
    while todo:
        item, depth = todo.pop()
        if isinstance(item, dict):
            children: Iterator[object] = iter(item.values())
        elif isinstance(item, list):
            children = iter(item)
        else:
            continue
        depth += 1
        deepest = max(deepest, depth)
        if deepest > MAX_DEPTH:
            break
        todo.extend((child, depth) for child in children)
    return deepest


def _seq(value: object) -> int | None:
    if isinstance(value, dict):
        seq = value.get("seq")
        if type(seq) is int:
            return seq
    return None


def decode(line: bytes | str) -> object:
    r"""Return the JSON value of one line (without its line end); raise :class:`LineError`.

    >>> decode(b'  ')
    Traceback (most recent call last):
    ...
    dicekit.conformance.lines.LineError: an empty line
    >>> decode(b'{"seq": 2, "op": "\xff"}')
    Traceback (most recent call last):
    ...
    dicekit.conformance.lines.LineError: a line that is not UTF-8: byte 0xff at position 18
    """
    if isinstance(line, bytes):
        if len(line) > MAX_LINE_BYTES:
            raise LineError(_TOO_LONG)
        try:
            text = line.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise LineError(
                f"a line that is not UTF-8: byte 0x{line[exc.start]:02x} at position {exc.start}"
            ) from None
    else:
        text = line
        if len(text) > MAX_LINE_BYTES:
            raise LineError(_TOO_LONG)
    if not text.strip(" \t\r"):  # JSON's blanks but the line end; a form feed is not one
        raise LineError("an empty line")
    numbers = _Numbers()
    try:
        value = json.loads(
            text,
            parse_int=numbers.integer,
            parse_float=numbers.real,
            parse_constant=numbers.constant,
        )
    except json.JSONDecodeError as exc:
        raise LineError(f"a line that is not JSON: {exc.msg} at column {exc.colno}") from None
    except RecursionError:
        raise LineError(f"JSON nested more than {MAX_DEPTH} levels deep") from None
    if _depth(value) > MAX_DEPTH:
        raise LineError(f"JSON nested more than {MAX_DEPTH} levels deep", _seq(value))
    if numbers.bad:
        raise LineError(numbers.bad[0], _seq(value))
    return value
