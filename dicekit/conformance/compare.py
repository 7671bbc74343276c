"""JSON comparison for conformance checks, and text from a port made safe to show.

Two JSON values are the same when they are equal as JSON: the order of an
object's keys does not count, but ``true`` is not ``1`` and ``1`` is not
``1.0``.  Every check of the harness and of the diagnosis compares this way.

>>> same_json({"a": [1, True]}, {"a": [1, True]}), same_json([1], [True]), same_json(1, 1.0)
(True, False, False)
"""

from __future__ import annotations

import json
from collections.abc import Sequence

__all__ = ["Mismatch", "canonical", "check_same", "excerpt", "printable", "same_json"]


class Mismatch(Exception):
    """A case whose answers differ from its expectations; ``lines`` hold a diagnosis."""

    def __init__(self, message: str, lines: Sequence[str] = ()) -> None:
        super().__init__(message)
        self.message = message
        self.lines = list(lines)


def canonical(value: object) -> str:
    """Return ``value`` as JSON with sorted keys: equal values, equal text.

    >>> canonical({"b": 1, "a": [True, None]})
    '{"a":[true,null],"b":1}'
    """
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def same_json(got: object, want: object) -> bool:
    """Whether two JSON values are equal (key order aside; ``true`` is not ``1``)."""
    return canonical(got) == canonical(want)


def check_same(what: str, got: object, want: object) -> None:
    """Raise :class:`Mismatch` naming ``what`` unless ``got`` is the JSON value ``want``.

    >>> check_same("event", "moved", "moved")
    >>> check_same("event", "rolled", "moved")
    Traceback (most recent call last):
    ...
    dicekit.conformance.compare.Mismatch: event: got "rolled", expected "moved"
    """
    if not same_json(got, want):
        raise Mismatch(
            f"{what}: got {printable(json.dumps(got), 1000)}, expected {json.dumps(want)}"
        )


def printable(text: str, limit: int = 300) -> str:
    r"""Return ``text`` from the port safe to print: control characters escaped, cut at ``limit``.

    >>> printable("no\x1b[2J")
    'no\\x1b[2J'
    """
    shown = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text[: limit + 1])
    return shown if len(shown) <= limit else shown[:limit] + "..."


def excerpt(raw: bytes | str, limit: int = 200) -> str:
    """Return the start of a line the port printed, quoted, for a message."""
    text = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else raw
    return repr(printable(text, limit))
