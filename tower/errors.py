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
    "InvalidBoard",
    "InvalidConfig",
    "InvalidState",
    "NotationError",
    "RuleError",
]


class InvalidBoard(InvalidConfig):
    """A board that breaks the form of the board file (N4) or the rules of a playable board (R2)."""


class InvalidActionValue(RuleError):
    """An action value that no notation could write: dice or points outside 1 to 6 (N2.2, N2.3)."""
