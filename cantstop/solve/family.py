"""The boards of the solitaire table: the standard board with every column shortened alike.

Board ``k`` (1 to 13) keeps all eleven columns and three columns to win, and
gives column ``c`` the height ``k / 13`` of its standard height, rounded to
the nearest whole number and at least 1.  Board 13 is the standard board;
the boards grow towards it one step at a time.

>>> dict(scaled_rules(4).heights)
{2: 1, 3: 2, 4: 2, 5: 3, 6: 3, 7: 4, 8: 3, 9: 3, 10: 2, 11: 2, 12: 1}
>>> scaled_rules(13).heights == Rules().heights
True
"""

from __future__ import annotations

from cantstop import STANDARD_HEIGHTS, Rules
from cantstop.errors import InvalidRules

__all__ = ["FULL", "scaled_heights", "scaled_rules"]

#: The step of the standard board itself.
FULL = 13


def scaled_heights(k: int) -> dict[int, int]:
    """Return the heights of board ``k``: ``k / 13`` of the standard ones, rounded, at least 1."""
    if not isinstance(k, int) or isinstance(k, bool) or not 1 <= k <= FULL:
        raise InvalidRules(f"the scaled boards are numbered 1 to {FULL}, not {k!r}", "R15.3")
    # Round half up in integers: no height is ever exactly half way for k < 13.
    return {c: max(1, (2 * h * k + FULL) // (2 * FULL)) for c, h in STANDARD_HEIGHTS.items()}


def scaled_rules(k: int) -> Rules:
    """Return the solitaire rules of board ``k``: its heights, three columns to win."""
    return Rules(players=1, heights=scaled_heights(k), columns_to_win=3)
