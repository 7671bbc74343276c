"""The game's configuration: players, board heights, target and variant.

Spec chapters R14 (variants) and R15 (configuration); the board it sets up
is in :mod:`cantstop.board` (R1).
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field

from cantstop.board import COLUMNS, MAX_HEIGHT, STANDARD_HEIGHTS
from cantstop.columnmap import ColumnMap
from cantstop.errors import InvalidRules
from dicekit.quote import brief

__all__ = ["Rules", "Variant"]

#: The player counts the rules support (R15.1).
MIN_PLAYERS, MAX_PLAYERS = 1, 4


class Variant(enum.Enum):
    """The rulebook's optional variants (R14).  At most one is in force.

    >>> Rules(variant=Variant("B")).variant is Variant.B
    True
    """

    #: A marker skips spaces that hold another player's square (R14.1).
    A = "A"
    #: No stopping while a marker shares a space with another player's square (R14.2).
    B = "B"


@dataclass(frozen=True, slots=True)
class Rules:
    """A frozen game configuration; the defaults are the standard game.

    >>> Rules()
    Rules(players=2, columns_to_win=3, heights=standard, variant=None)
    >>> Rules(players=3, columns_to_win=4, variant=Variant.A).variant
    <Variant.A: 'A'>

    A configuration the spec does not allow raises :class:`~cantstop.InvalidRules`
    naming the rule it breaks:

    >>> Rules(players=5)
    Traceback (most recent call last):
    ...
    cantstop.errors.InvalidRules: players must be from 1 to 4, not 5 (rule R15.1)
    """

    #: Number of players, 1 (solitaire) to 4 (R15.1).
    players: int = 2
    #: Columns a player must hold to win (R12.1, R15.2).
    columns_to_win: int = 3
    #: Column to number of spaces; any non-empty subset of 2..12 (R15.3).
    heights: Mapping[int, int] = field(default=STANDARD_HEIGHTS)
    #: The variant in force, or ``None`` for the standard rules (R14).
    variant: Variant | None = None

    def __post_init__(self) -> None:
        _check_int("players", self.players, "R15.1")
        if not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise InvalidRules(
                f"players must be from {MIN_PLAYERS} to {MAX_PLAYERS}, not {brief(self.players)}",
                "R15.1",
            )
        if not isinstance(self.heights, Mapping):
            raise InvalidRules(
                f"heights must be a mapping of column to spaces, not {brief(self.heights)}",
                "R15.3",
            )
        heights = dict(self.heights.items())
        if not heights:
            raise InvalidRules("the board must have at least one column", "R15.3")
        for column, height in heights.items():
            _check_int("a column", column, "R15.3")
            if column not in COLUMNS:
                raise InvalidRules(
                    f"column {brief(column)} is not a sum of two dice (2 to 12)", "R15.3"
                )
            _check_int(f"the height of column {column}", height, "R15.3")
            if not 1 <= height <= MAX_HEIGHT:
                raise InvalidRules(
                    f"column {column} must have 1 to {MAX_HEIGHT} spaces, not {brief(height)}",
                    "R15.3",
                )
        if not isinstance(self.heights, ColumnMap):
            object.__setattr__(self, "heights", ColumnMap(heights))
        _check_int("columns_to_win", self.columns_to_win, "R15.2")
        if not 1 <= self.columns_to_win <= len(heights):
            raise InvalidRules(
                f"columns_to_win must be from 1 to the number of columns "
                f"({len(heights)}), not {brief(self.columns_to_win)}",
                "R15.2",
            )
        stalled = self.players * (self.columns_to_win - 1)
        if len(heights) <= stalled:
            raise InvalidRules(
                f"{self.players} players could win all {len(heights)} columns with "
                f"{self.columns_to_win - 1} each and nobody reaching "
                f"{self.columns_to_win}, so the game might never end; "
                f"the board needs more than {stalled} columns",
                "R15.4",
            )
        if self.variant is not None and not isinstance(self.variant, Variant):
            raise InvalidRules(
                f"variant must be Variant.A, Variant.B or None, not {brief(self.variant)}",
                "R14.3",
            )

    def __repr__(self) -> str:
        heights = "standard" if self.heights == STANDARD_HEIGHTS else repr(dict(self.heights))
        variant = None if self.variant is None else f"Variant.{self.variant.value}"
        return (
            f"Rules(players={self.players}, columns_to_win={self.columns_to_win}, "
            f"heights={heights}, variant={variant})"
        )

    @property
    def columns(self) -> tuple[int, ...]:
        """The board's columns, in increasing order.

        >>> Rules(heights={12: 3, 7: 13, 2: 3}, columns_to_win=1).columns
        (2, 7, 12)
        """
        return tuple(self.heights)


def _check_int(what: str, value: object, rule: str) -> None:
    if not isinstance(value, int) or isinstance(value, bool):
        raise InvalidRules(f"{what} must be an integer, not {brief(value)}", rule)
