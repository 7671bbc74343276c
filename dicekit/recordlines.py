"""The lines of a game record: numbered, decoded one at a time, each one JSON object.

What every record format shares (:mod:`dicekit.record`): a line is UTF-8
text of at most :data:`MAX_LINE_BYTES` bytes holding one JSON object, and a
line that is not is a :class:`RecordError` at its number.
"""

from __future__ import annotations

import io
import json
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import partial
from typing import Any, BinaryIO

from dicekit.errors import GameError

__all__ = ["MAX_LINE_BYTES", "RecordError", "brief", "load_object", "numbered_lines"]

#: The longest line a reader takes, in bytes with its line end: a record's lines are far shorter.
MAX_LINE_BYTES = 1 << 20


class RecordError(GameError, ValueError):
    """A record that is malformed, or whose action or claim the rules reject.

    ``line`` is the 1-based line number, ``reason`` the message alone,
    ``rules`` the ids of the spec rules broken (empty for a line that breaks
    only the record format) and ``rule`` the first of them, ``state_text`` the
    state before the line's action in notation (``None`` when the line could
    not be read) and ``alternatives`` the actions that were legal there.

    >>> str(RecordError(3, "hold is not legal", ("R2.5",), "0,0/0/0r", ("r1", "r2")))
    "line 3: hold is not legal (rule R2.5) in state '0,0/0/0r'"
    """

    def __init__(
        self,
        line: int,
        reason: str,
        rules: Sequence[str] = (),
        state_text: str | None = None,
        alternatives: tuple[str, ...] = (),
    ) -> None:
        self.line = line
        self.reason = reason
        self.rules = tuple(rules)
        self.rule = self.rules[0] if self.rules else None
        self.state_text = state_text
        self.alternatives = alternatives
        super().__init__(self._text())

    def _text(self) -> str:
        text = f"line {self.line}: {self.reason}"
        if len(self.rules) == 1:
            text += f" (rule {self.rules[0]})"
        elif self.rules:
            text += f" (rules {', '.join(self.rules)})"
        if self.state_text is not None:
            text += f" in state {self.state_text!r}"
        return text


def numbered_lines(
    file: Iterable[str] | BinaryIO, limit: int | None = None
) -> Iterator[tuple[int, str]]:
    """Yield the lines of ``file`` with their numbers from 1, decoding bytes line by line.

    Bytes are decoded one line at a time, so a byte that is not UTF-8 is
    reported at its line and its offset in the file; a text stream decodes
    ahead of the line being read, so such a byte is said to be at that line or
    after it.  A line longer than ``limit`` bytes (:data:`MAX_LINE_BYTES`) is
    refused before it is read whole.
    """
    limit = MAX_LINE_BYTES if limit is None else limit
    lines: Iterable[str | bytes]
    if isinstance(file, io.BufferedIOBase | io.RawIOBase):
        lines = iter(partial(file.readline, limit + 1), b"")
    else:
        lines = file
    number = 0
    offset = 0  # of the line's first byte in the file, when the file is bytes
    try:
        for line in lines:
            number += 1
            if len(line) > limit:
                raise RecordError(number, f"the line is longer than {limit:,} bytes")
            if isinstance(line, str):
                yield number, line
                continue
            try:
                text = line.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise RecordError(
                    number,
                    f"not UTF-8 text: byte 0x{line[exc.start]:02x} at byte {exc.start + 1} of "
                    f"the line (offset {offset + exc.start} in the file): {exc.reason}",
                ) from None
            offset += len(line)
            yield number, text
    except UnicodeDecodeError as exc:  # from a text stream's decoder, which reads ahead
        raise RecordError(
            number + 1, f"not UTF-8 text, at this line or after it: {exc.reason}"
        ) from None


class _NotJSON(ValueError):
    """Text that Python's decoder reads but JSON (RFC 8259) does not allow."""


def _no_constant(name: str) -> object:
    raise _NotJSON(f"{name} is not a JSON number")


def brief(value: object) -> str:
    """Quote a JSON value briefly for a message; never raise.

    >>> brief({"type": "roll", "dice": [1, 2, 3, 4]}), brief(object())
    ('{"type": "roll", "dice": [1, 2, 3, 4]}', 'a object')
    """
    try:
        text = json.dumps(value)
    except (TypeError, ValueError, RecursionError):
        return f"a {type(value).__name__}"
    return text if len(text) <= 40 else text[:37] + "..."


def load_object(
    number: int, text: str, describe: Callable[[object], str] = brief
) -> dict[str, Any]:
    """Return the JSON object of line ``number``; raise :class:`RecordError` saying what is wrong.

    ``describe`` quotes a value that is not an object.

    >>> load_object(2, '{"action": {"type": "hold"}}')
    {'action': {'type': 'hold'}}
    >>> load_object(2, '[1, NaN]')
    Traceback (most recent call last):
    ...
    dicekit.recordlines.RecordError: line 2: not valid JSON: NaN is not a JSON number
    """
    try:
        obj = json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        # The decoder's message may end with a dangling "at"; the column says where.
        reason = exc.msg.removesuffix(" at")
        raise RecordError(number, f"not valid JSON at column {exc.colno}: {reason}") from None
    except _NotJSON as exc:
        raise RecordError(number, f"not valid JSON: {exc}") from None
    except ValueError:  # int() refuses a number of more digits than the interpreter's limit
        most = sys.get_int_max_str_digits()
        raise RecordError(
            number, f"not valid JSON for a record: a number has more than {most:,} digits"
        ) from None
    except RecursionError:
        raise RecordError(number, "not valid JSON for a record: it is nested too deeply") from None
    if not isinstance(obj, dict):
        raise RecordError(number, f"a record line is a JSON object, not {describe(obj)}")
    return obj
