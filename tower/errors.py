"""The errors Off to the Tower raises: the layer's errors, and one for boards.

Every refusal names the spec rule it enforces (``rule``).  The classes are
those of :mod:`dicekit.errors`, so that the layer reports them without
knowing the game; :class:`InvalidBoard` is the configuration error of a board
that breaks the board file's form (N4) or the rules of a playable board (R2).

>>> from tower import parse_state
>>> try:
...     parse_state('R5,5/B0,0 - 0t @ours')
... except NotationError as exc:
...     print(exc.rule, exc.position)
R5.4 3
"""

from __future__ import annotations

import json
import math

from dicekit.errors import *  # noqa: F403  (every error of the layer is the game's)
from dicekit.errors import InvalidConfig, RuleError
from dicekit.errors import __all__ as _LAYER_ERRORS

__all__ = [*_LAYER_ERRORS, "InvalidActionValue", "InvalidBoard", "shown"]


class InvalidBoard(InvalidConfig):
    """A board that breaks the form of the board file (N4) or the rules of a playable board (R2)."""


class InvalidActionValue(RuleError):
    """An action value that no notation could write: dice or points outside 1 to 6 (N2.2, N2.3)."""


def shown(value: object, limit: int = 60) -> str:
    """Return ``value`` as JSON writes it, for a message: cut short, huge numbers by their size.

    Values read from JSON or given by a caller may be anything: an integer of
    thousands of digits (which Python will not turn into text), ``NaN``, a lone
    surrogate, lists nested thousands deep.  None of them may turn a refusal
    into a crash.

    >>> shown(True), shown([1, "R", None]), shown(10**5000), shown(float('nan'))
    ('true', '[1, "R", null]', 'an integer of about 5000 digits', 'NaN')
    """
    text = _json(value, 3)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _json(value: object, depth: int) -> str:
    if value is None or isinstance(value, bool):
        return json.dumps(value)
    if isinstance(value, int):
        if value.bit_length() > 200:
            return f"an integer of about {round(value.bit_length() * math.log10(2))} digits"
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "NaN"
        return (
            json.dumps(value)
            if math.isfinite(value)
            else ("Infinity" if value > 0 else "-Infinity")
        )
    if isinstance(value, str):
        return json.dumps(value[:80])
    if isinstance(value, list | tuple):
        if depth == 0:
            return "[...]"
        items = [_json(v, depth - 1) for v in list(value)[:6]]
        return "[" + ", ".join(items) + (", ..." if len(value) > 6 else "") + "]"
    if isinstance(value, dict):
        if depth == 0:
            return "{...}"
        pairs = [f"{_json(str(k), 0)}: {_json(v, depth - 1)}" for k, v in list(value.items())[:6]]
        return "{" + ", ".join(pairs) + (", ..." if len(value) > 6 else "") + "}"
    return f"a {type(value).__name__}"
