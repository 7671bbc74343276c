"""The exceptions raised by :mod:`cantstop`.

Every exception the library raises on purpose derives from :class:`CantStopError`,
and each also derives from the built-in exception it stands for, so that callers
may catch either.  Errors about the game name the spec rule they enforce.  Each
class also derives from its counterpart in :mod:`dicekit.errors`, so that the
game-neutral layer reports Can't Stop's refusals as it reports any game's.
"""

from __future__ import annotations

import json
import math
import unicodedata
from collections.abc import Iterable
from typing import TYPE_CHECKING

from dicekit import errors as layer

if TYPE_CHECKING:
    from cantstop.state import State

__all__ = [
    "CantStopError",
    "IllegalAction",
    "InvalidRules",
    "InvalidState",
    "NotationError",
    "RuleError",
]


class CantStopError(layer.GameError):
    """Root of every error that :mod:`cantstop` raises deliberately.

    >>> from cantstop import parse_state
    >>> try:
    ...     parse_state('7:2/- 7:1 0d')
    ... except CantStopError as exc:
    ...     print(type(exc).__name__, exc.rule)
    NotationError R16.3
    """


class RuleError(CantStopError, layer.RuleError):
    """A value that breaks a spec rule: ``rule`` is its id, ``reason`` the message alone."""

    def __init__(self, message: str, rule: str) -> None:
        layer.GameError.__init__(self, f"{message} (rule {rule})")
        self.rule = rule
        self.reason = message


class InvalidRules(RuleError, layer.InvalidConfig):
    """A :class:`~cantstop.Rules` value that the spec does not allow."""


class InvalidState(RuleError, layer.InvalidState):
    """A state that breaks one of the invariants of the spec."""


class IllegalAction(CantStopError, layer.IllegalAction):
    """An action that the rules do not allow in the given state.

    ``rule`` is the id of the spec rule that forbids it, ``action`` the rejected
    action, ``state`` the state it was applied to (which is unchanged) and
    ``reason`` the message without the rule and state.

    >>> from cantstop import Stop, parse_state
    >>> try:
    ...     parse_state('-/- - 0r').apply(Stop())
    ... except IllegalAction as exc:
    ...     print(exc.rule, '|', exc.reason)
    R11.1 | stop is not legal: a player must roll at least once before stopping
    """

    def __init__(self, message: str, rule: str, state: State, action: object) -> None:
        from cantstop.notation import format_state

        text = format_state(state)
        layer.GameError.__init__(self, f"{message} (rule {rule}) in state {text!r}")
        self.state_text = text
        self.rule = rule
        self.reason = message
        self.state = state
        self.action = action


class NotationError(CantStopError, layer.NotationError):
    """Text that is not valid state or action notation, or a JSON value that is not a valid form.

    ``text`` is the input, ``position`` the index of the offending character,
    ``rule`` the spec rule (a notation rule ``N...`` or a game rule ``R...``)
    that the text breaks and ``reason`` the message alone.  The message starts
    with the position and shows the text with a caret under that character (a
    long text is cut around it, and characters that do not print are escaped).

    >>> from cantstop import parse_action
    >>> try:
    ...     parse_action('10+7')
    ... except NotationError as exc:
    ...     print(exc.rule, exc.position)
    ...     print(exc)
    N2.3 3
    at position 3: the sums of a move are written in increasing order (rule N2.3)
      10+7
         ^

    An error in a JSON value (N3) has no character to point at: ``pointed`` is
    false, ``text`` is a short quote of the value, ``position`` is 0 and the
    message ends with the quote instead of a caret.
    """

    def __init__(
        self, message: str, text: str, position: int, rule: str, *, pointed: bool = True
    ) -> None:
        if pointed:
            shown, column = _window(text, position)
            full = f"at position {position}: {message} (rule {rule})\n  {shown}\n  {' ' * column}^"
        else:
            full = f"{message} (rule {rule}) in {text}"
        layer.GameError.__init__(self, full)
        self.reason = message
        self.text = text
        self.position = position
        self.rule = rule
        self.pointed = pointed


#: How many characters of a long text an error shows before and after the one it points at.
_BEFORE, _AFTER = 30, 40


def _window(text: str, position: int) -> tuple[str, int]:
    """Return the part of ``text`` to show around ``position``, and the caret's column in it."""
    start = max(0, position - _BEFORE)
    end = min(len(text), position + _AFTER)
    if start <= 10:  # too little would be cut at the start to be worth an ellipsis
        start = 0
    if len(text) - end <= 10:
        end = len(text)
    before = ("…" if start else "") + _printable(text[start:position])
    after = _printable(text[position:end]) + ("…" if end < len(text) else "")
    return before + after, _width(before)


def _printable(text: str) -> str:
    """Escape every character that does not print as itself in one column or two."""
    if text.isprintable() and text.isascii():
        return text
    return "".join(
        c if c.isprintable() and not unicodedata.combining(c) else repr(c)[1:-1] for c in text
    )


def _width(text: str) -> int:
    """Count the terminal columns ``text`` takes (wide East Asian characters take two)."""
    if text.isascii():
        return len(text)
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


# -- quoting values in messages ------------------------------------------------

#: Integers with at least this many digits are quoted shortened.
_LONG_NUMBER = 16
#: Above this many bits an integer's digits are only estimated, since writing it out costs too much.
_EXACT_BITS = 400_000


def _brief(value: object, width: int = 40) -> str:
    """Return a short repr of ``value`` for an error message; it never raises.

    A long integer keeps its first and last digits and says how many it has, a
    long text keeps its start, and a container shows its first few items to a
    small depth, so that a hostile value (a number of ten thousand digits, a
    list nested a thousand deep) can be named in a message.

    >>> _brief(10**5000 // 9)  # 5000 ones: too many for int() or repr()
    '11111…11111 (5,000 digits)'
    >>> _brief('x' * 100)
    "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…' (100 characters)"
    >>> nested: list[object] = []
    >>> for _ in range(5000):
    ...     nested = [nested]
    >>> _brief(nested)
    '[[[[…]]]]'
    """
    try:
        return _quote(value, width, 3)
    except Exception:  # a repr that fails: name the type alone
        return f"<{type(value).__name__}>"


def _brief_json(value: object, width: int = 40) -> str:
    """Return a short quote of a value read from JSON, written as JSON writes it.

    A record or a JSON form is written in JSON, so its values are quoted as
    its author wrote them: ``true``, ``null`` and ``"A"``, not Python's
    ``True``, ``None`` and ``'A'``.  Long and deep values are cut as
    :func:`_brief` cuts them.

    >>> _brief_json(True), _brief_json(None), _brief_json('A'), _brief_json([1, None, 'x'])
    ('true', 'null', '"A"', '[1, null, "x"]')
    >>> _brief_json({'2': False})
    '{"2": false}'
    """
    try:
        return _quote(value, width, 3, as_json=True)
    except Exception:  # a repr that fails: name the type alone
        return f"<{type(value).__name__}>"


def _brief_digits(digits: str) -> str:
    """Return a run of decimal digits as an error message quotes it: shortened when long.

    >>> _brief_digits('1234'), _brief_digits('7' * 5000)
    ('1234', '77777…77777 (5,000 digits)')
    """
    if len(digits) < _LONG_NUMBER:
        return digits
    return f"{digits[:5]}…{digits[-5:]} ({len(digits):,} digits)"


def _names(keys: Iterable[object]) -> str:
    """Name some keys, briefly and in a stable order: ``'a', 'b'`` or ``'a', 'b' and 7 more``."""
    shown = sorted(_brief(key) for key in keys)
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
        trailing = "," if isinstance(value, tuple) and len(value) == 1 else ""
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
