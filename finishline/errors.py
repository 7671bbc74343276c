"""The errors of the finish-line race: the layer's rule errors, and a shape error for action values.

Every refusal names the spec rule it enforces (``finishline/spec/``).  The
classes are those of :mod:`dicekit.errors`, so that the layer's tools report
this game's refusals like any other game's; :class:`InvalidActionValue` adds
the refusal of an action value of the wrong shape, such as a roll of three
dice.
"""

from __future__ import annotations

import json

from dicekit.errors import (
    GameError,
    IllegalAction,
    InvalidConfig,
    InvalidState,
    NotationError,
    RuleError,
)

__all__ = [
    "GameError",
    "IllegalAction",
    "InvalidActionValue",
    "InvalidConfig",
    "InvalidState",
    "NotationError",
    "RuleError",
    "brief",
]


class InvalidActionValue(RuleError):
    """An action value of the wrong shape, such as a die showing 7 or a play of three dice.

    >>> from finishline.actions import Roll
    >>> Roll((3, 7))
    Traceback (most recent call last):
    ...
    finishline.errors.InvalidActionValue: a die shows 1 to 6, not 7 (rule R4.1)
    """


def brief(value: object, width: int = 40) -> str:
    """Return a short quote of ``value`` for an error message, as JSON writes it when it can.

    A long text or a deep or long container is cut, so that a hostile value
    can be named in one line; the function never raises.

    >>> brief('C2'), brief(True), brief(None), brief([1, 2, 3])
    ('"C2"', 'true', 'null', '[1, 2, 3]')
    >>> brief('x' * 100)
    '"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…" (100 characters)'
    >>> brief(10**40)
    '10000…00000 (41 digits)'
    """
    try:
        return _quote(value, width, 2)
    except Exception:  # a value that cannot be written: name its type alone
        return f"<{type(value).__name__}>"


def _quote(value: object, width: int, depth: int) -> str:
    if value is None or isinstance(value, bool | float):
        return json.dumps(value) if not isinstance(value, float) else repr(value)
    if isinstance(value, int):
        if abs(value) < 10**15:
            return str(value)
        digits = len(str(abs(value))) if value.bit_length() < 100_000 else None
        if digits is None:
            return "a very long integer"
        text = str(abs(value))
        return f"{'-' if value < 0 else ''}{text[:5]}…{text[-5:]} ({digits:,} digits)"
    if isinstance(value, str):
        if len(value) <= width:
            return json.dumps(value, ensure_ascii=False)
        head = json.dumps(value[: width - 10], ensure_ascii=False)
        return f'{head[:-1]}…" ({len(value):,} characters)'
    if isinstance(value, list | tuple | dict):
        opening, closing = ("{", "}") if isinstance(value, dict) else ("[", "]")
        if depth == 0:
            return f"{opening}…{closing}" if value else opening + closing
        if isinstance(value, dict):
            parts = [
                f"{_quote(k, width // 2, depth - 1)}: {_quote(v, width // 2, depth - 1)}"
                for k, v in list(value.items())[:4]
            ]
        else:
            parts = [_quote(item, width // 2, depth - 1) for item in list(value)[:4]]
        if len(value) > 4:
            parts.append("…")
        return opening + ", ".join(parts) + closing
    text = repr(value)
    return text if len(text) <= 2 * width else text[: 2 * width] + "…"
