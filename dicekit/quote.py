"""Quoting a value in an error message: short, one line, and never raising.

Every game names the value it refuses (``not 7``, ``not "C9"``), and a
hostile value (an integer of ten thousand digits, a text of a megabyte, a
list nested a thousand deep) must still be named in one short line.
:func:`brief` quotes as Python writes a value, :func:`brief_json` as JSON
writes it (for values read from a record or a JSON form), :func:`brief_digits`
shortens a run of digits read from a text, and :func:`brief_names` names some
keys.  Each game's errors quote through them.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable

__all__ = ["brief", "brief_digits", "brief_json", "brief_names"]

#: Integers with at least this many digits are quoted shortened.
_LONG_NUMBER = 16
#: Above this many bits an integer's digits are only estimated, since writing it out costs too much.
_EXACT_BITS = 400_000


def brief(value: object, width: int = 40, *, depth: int = 3) -> str:
    """Return a short repr of ``value`` for an error message; it never raises.

    A long integer keeps its first and last digits and says how many it has, a
    long text keeps its start, and a container shows its first few items to
    ``depth`` levels, so that a hostile value can be named in a message.

    >>> brief(10**5000 // 9)  # 5000 ones: too many for int() or repr()
    '11111…11111 (5,000 digits)'
    >>> brief('x' * 100)
    "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…' (100 characters)"
    >>> nested: list[object] = []
    >>> for _ in range(5000):
    ...     nested = [nested]
    >>> brief(nested)
    '[[[[…]]]]'
    """
    try:
        return _quote(value, width, depth)
    except Exception:  # a repr that fails: name the type alone
        return f"<{type(value).__name__}>"


def brief_json(value: object, width: int = 40, *, depth: int = 3) -> str:
    """Return a short quote of a value read from JSON, written as JSON writes it.

    A record or a JSON form is written in JSON, so its values are quoted as
    its author wrote them: ``true``, ``null`` and ``"A"``, not Python's
    ``True``, ``None`` and ``'A'``, and a tuple as an array.  Long and deep
    values are cut as :func:`dicekit.quote.brief` cuts them.

    >>> brief_json(True), brief_json(None), brief_json('A'), brief_json([1, None, 'x'])
    ('true', 'null', '"A"', '[1, null, "x"]')
    >>> brief_json({'2': False}), brief_json(10**40)
    ('{"2": false}', '10000…00000 (41 digits)')
    """
    try:
        return _quote(value, width, depth, as_json=True)
    except Exception:  # a repr that fails: name the type alone
        return f"<{type(value).__name__}>"


def brief_digits(digits: str) -> str:
    """Return a run of decimal digits as an error message quotes it: shortened when long.

    >>> brief_digits('1234'), brief_digits('7' * 5000)
    ('1234', '77777…77777 (5,000 digits)')
    """
    if len(digits) < _LONG_NUMBER:
        return digits
    return f"{digits[:5]}…{digits[-5:]} ({len(digits):,} digits)"


def brief_names(keys: Iterable[object]) -> str:
    """Name some keys, briefly and in a stable order: ``'a', 'b'`` or ``'a', 'b' and 7 more``.

    >>> brief_names(['b', 'a']), brief_names(range(7))
    ("'a', 'b'", '0, 1, 2, 3, 4 and 2 more')
    """
    shown = sorted(brief(key) for key in keys)
    listed = ", ".join(shown[:5])
    return listed if len(shown) <= 5 else f"{listed} and {len(shown) - 5} more"


def _quote(value: object, width: int, depth: int, *, as_json: bool = False) -> str:
    if as_json and (value is None or isinstance(value, bool)):
        return json.dumps(value)
    if value is None or isinstance(value, bool | float):
        return repr(value)
    if isinstance(value, int):
        return _quote_int(value)
    if isinstance(value, str | bytes):
        write = _json_text if as_json and isinstance(value, str) else repr
        if len(value) <= max(width, 24):  # cutting a short text would not make it shorter
            return write(value)
        head = write(value[: max(width - 10, 8)])
        unit = "characters" if isinstance(value, str) else "bytes"
        return f"{head[:-1]}…{head[-1]} ({len(value):,} {unit})"
    if isinstance(value, list | tuple | dict | set | frozenset) and not (
        isinstance(value, set | frozenset) and not value
    ):
        pair = next(pair for kind, pair in _BRACKETS if isinstance(value, kind))
        if as_json and isinstance(value, tuple):  # JSON writes a tuple as an array
            pair = "[]"
        opening, closing = pair[0], pair[1]
        if depth == 0 and value:
            return f"{opening}…{closing}"
        inner = max(width // 2, 12)
        if isinstance(value, dict):
            parts = [
                f"{_quote(k, inner, depth - 1, as_json=as_json)}: "
                f"{_quote(v, inner, depth - 1, as_json=as_json)}"
                for k, v in list(value.items())[:4]
            ]
        else:
            parts = [_quote(item, inner, depth - 1, as_json=as_json) for item in list(value)[:4]]
        if len(value) > 4:
            parts.append("…")
        single = isinstance(value, tuple) and len(value) == 1 and not as_json
        trailing = "," if single else ""
        return opening + ", ".join(parts) + trailing + closing
    text = repr(value)
    return text if len(text) <= 2 * width else text[: 2 * width] + "…"


def _json_text(value: object) -> str:
    return json.dumps(value, ensure_ascii=False)


_BRACKETS: tuple[tuple[type, str], ...] = (
    (list, "[]"),
    (tuple, "()"),
    (dict, "{}"),
    (set, "{}"),
    (frozenset, "{}"),
)


def _quote_int(value: int) -> str:
    if -(10 ** (_LONG_NUMBER - 1)) < value < 10 ** (_LONG_NUMBER - 1):
        return int.__repr__(value)
    sign = "-" if value < 0 else ""
    n = abs(value)
    if n.bit_length() > _EXACT_BITS:
        return f"{sign}an integer of about {round(n.bit_length() * math.log10(2)):,} digits"
    digits = int(math.log10(n)) + 1  # may be one off near a power of ten: corrected below
    power = 10 ** (digits - 1)
    if n < power:
        digits, power = digits - 1, power // 10
    elif n >= power * 10:
        digits, power = digits + 1, power * 10
    head = n // (power // 10**4)
    return f"{sign}{head}…{n % 10**5:05d} ({digits:,} digits)"
