"""The configuration of a game: the number of players and of counters each (R2.1, R2.2, R11).

>>> Config()
Config(players=2, counters=6)
>>> Config(players=4).counters, Config(players=3, counters=2).counters
(4, 2)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from finishline.errors import InvalidConfig, brief

__all__ = ["DEFAULT_COUNTERS", "MAX_COUNTERS", "MAX_PLAYERS", "MIN_PLAYERS", "Config"]

#: The player counts the source allows (R2.1, R11.1).
MIN_PLAYERS, MAX_PLAYERS = 2, 4
#: The counters each player has, by the number of players (R2.2).
DEFAULT_COUNTERS: Mapping[int, int] = {2: 6, 3: 5, 4: 4}
#: The most counters a configuration may give each player (R11.2).
MAX_COUNTERS = 6

#: Stands for "the number R2.2 gives" until the configuration is made.
_BY_PLAYERS: Any = object()


@dataclass(frozen=True, slots=True)
class Config:
    """A frozen game configuration; the defaults are the two-player game of the source.

    ``counters`` left out takes the number of R2.2 for the player count.  A
    configuration the spec does not allow raises
    :class:`~finishline.errors.InvalidConfig` naming the rule:

    >>> Config(players=5)
    Traceback (most recent call last):
    ...
    dicekit.errors.InvalidConfig: players must be 2, 3 or 4, not 5 (rule R11.1)
    """

    #: Number of players, 2 to 4 (R2.1, R11.1).
    players: int = 2
    #: Counters per player, 1 to 6 (R2.2, R11.2).
    counters: int = _BY_PLAYERS

    def __post_init__(self) -> None:
        players = self.players
        if not isinstance(players, int) or isinstance(players, bool):
            raise InvalidConfig(f"players must be an integer, not {brief(players)}", "R11.1")
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise InvalidConfig(f"players must be 2, 3 or 4, not {brief(players)}", "R11.1")
        counters = self.counters
        if counters is _BY_PLAYERS:
            object.__setattr__(self, "counters", DEFAULT_COUNTERS[players])
            return
        if not isinstance(counters, int) or isinstance(counters, bool):
            raise InvalidConfig(f"counters must be an integer, not {brief(counters)}", "R11.2")
        if not 1 <= counters <= MAX_COUNTERS:
            raise InvalidConfig(
                f"counters must be from 1 to {MAX_COUNTERS}, not {brief(counters)}", "R11.2"
            )

    @property
    def standard(self) -> bool:
        """Whether the counters are those R2.2 gives for the player count.

        >>> Config(players=3).standard, Config(counters=3).standard
        (True, False)
        """
        return self.counters == DEFAULT_COUNTERS[self.players]
