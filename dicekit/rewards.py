"""The reward conventions every research adapter shares: outcome returns, turn limit, shaping.

Nothing here knows a game.  It speaks of players, a winner, turns and a
potential, so that every game's OpenSpiel game (:mod:`dicekit.openspiel`) and
the learning environments a game has pay the same rewards from one place.

* **Outcome.**  With 2 or more players the game is zero-sum: the winner gets
  1 and every other player ``-1 / (players - 1)``; a game the turn limit
  cuts short gives everyone 0.  Alone, the player is paid for speed by
  default (``"turns"``: -1 for every turn, so the return is minus the turns
  the game took), or 1 for the win and 0 otherwise (``"win"``).
* **Turn limit.**  Every game ends after a finite number of turns, so that
  no policy, however poor, plays for ever; a game cut short is truncated,
  not won or lost.
* **Shaping** by a potential ``phi`` pays ``scale * (gamma * phi(s') - phi(s))``
  for each of a player's transitions ``s -> s'``, with ``phi = 0`` once the
  game is over.  That form leaves every optimal policy as it was for a
  learner whose discount is ``gamma`` (Ng, Harada and Russell, 1999).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

#: The solitaire rewards, by name; the first is the default.
SOLITAIRE_REWARDS = ("turns", "win")


def _plain_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def check_max_turns(value: object) -> int:
    """Return ``value`` if it is a turn limit (a whole number from 1); raise ``ValueError``."""
    if not _plain_int(value) or value < 1:  # type: ignore[operator]
        raise ValueError(
            f"max_turns must be a whole number of turns from 1, not {value!r}; "
            f"every game needs a limit, so that no policy plays for ever"
        )
    return value  # type: ignore[return-value]


def check_solitaire_reward(value: object) -> str:
    """Return ``value`` if it names a solitaire reward; raise ``ValueError`` if not."""
    if value not in SOLITAIRE_REWARDS:
        raise ValueError(
            f"the solitaire reward must be {' or '.join(map(repr, SOLITAIRE_REWARDS))}, "
            f"not {value!r}"
        )
    return str(value)


def check_real(name: str, value: object, low: float = -math.inf, high: float = math.inf) -> float:
    """Return ``value`` as a float if it is a finite number from ``low`` to ``high``; else raise."""
    if (
        not isinstance(value, int | float)
        or isinstance(value, bool)
        or not math.isfinite(value)
        or not low <= value <= high
    ):
        bounds = f" from {low:g} to {high:g}" if math.isfinite(low) else ""
        raise ValueError(f"{name} must be a finite number{bounds}, not {value!r}")
    return float(value)


def outcome_returns(players: int, winner: int | None, turns: int, solitaire: str) -> list[float]:
    """Return each player's return for a game that has ended: won, or cut short by the limit.

    ``winner`` is ``None`` for a game the turn limit cut short; ``turns`` is
    the number of turns played, which only the ``"turns"`` solitaire reward
    reads.

    >>> outcome_returns(3, 1, 40, "turns"), outcome_returns(3, None, 1000, "turns")
    ([-0.5, 1.0, -0.5], [0.0, 0.0, 0.0])
    >>> outcome_returns(1, 0, 17, "turns"), outcome_returns(1, 0, 17, "win")
    ([-17.0], [1.0])
    """
    if players == 1:
        if solitaire == "turns":
            return [-float(turns)]
        return [1.0 if winner == 0 else 0.0]
    if winner is None:
        return [0.0] * players
    loss = -1.0 / (players - 1)
    return [1.0 if p == winner else loss for p in range(players)]


def winner_returns(players: int, winner: int | None) -> tuple[float, ...]:
    """Return each player's return in a game decided by its winner, ``None`` while it goes on.

    The convention of :func:`outcome_returns` without a turn count: with 2
    or more players zero-sum, the winner 1; alone, 1 for the win; 0 for
    everyone until somebody wins.  The games of this distribution give it as
    their :meth:`~dicekit.protocol.Core.returns`.

    >>> winner_returns(3, 2), winner_returns(1, 0), winner_returns(2, None)
    ((-0.5, -0.5, 1.0), (1.0,), (0.0, 0.0))
    """
    return tuple(outcome_returns(players, winner, 0, "win"))


def return_range(players: int, solitaire: str, max_turns: int) -> tuple[float, float]:
    """Return the lowest and the highest return a player can get, for OpenSpiel's game info.

    >>> return_range(2, "turns", 1000), return_range(1, "turns", 1000), return_range(1, "win", 9)
    ((-1.0, 1.0), (-1000.0, -1.0), (0.0, 1.0))
    """
    if players > 1:
        return -1.0, 1.0
    if solitaire == "turns":
        return -float(max_turns), -1.0
    return 0.0, 1.0


class Shaping:
    """Potential-based shaping for each seat: ``scale * (gamma * phi(s') - phi(s))``.

    A seat's transition runs from a state where it acts (or the start) to the
    next state where it acts, or to the end of the game: :meth:`pay` is
    called with the potential of that next state (0 when the game is over),
    and returns the shaping reward of the transition.  Summed with discount
    ``gamma`` over a seat's transitions, the rewards come to
    ``scale * (gamma ** T * phi(last) - phi(first))``.

    >>> shaping = Shaping(2.0, 0.5, [0.0])
    >>> shaping.pay(0, 0.25), shaping.pay(0, 0.75), shaping.pay(0, 0.0)
    (0.25, 0.25, -1.5)
    """

    def __init__(self, scale: float, gamma: float, start: Sequence[float]) -> None:
        self.scale = scale
        self.gamma = gamma
        #: Each seat's potential where its transition began.
        self.reference = list(start)

    def pay(self, seat: int, potential: float) -> float:
        """Return the shaping reward of ``seat``'s transition to a state of ``potential``."""
        reward = self.scale * (self.gamma * potential - self.reference[seat])
        self.reference[seat] = potential
        return reward
