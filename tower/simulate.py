"""Whole games between built-in players, and win rates over many seeded games.

The dice and the players draw from one generator each game, seeded from the
run's seed and the game's number, so a run is repeated exactly by its seed.
Seats alternate: game ``k`` is begun by player ``k mod players``, so that no
player keeps the first throw.

>>> from tower.config import make_config
>>> result = play_game(make_config(), ["runner", "random"], random.Random(1))
>>> result.winner in (0, 1), result.throws > 0
(True, True)
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from dicekit.protocol import Chance
from tower.actions import Throw
from tower.config import Config
from tower.players import PLAYERS
from tower.state import Phase, new_game

__all__ = ["GameResult", "WinRates", "play_game", "wilson", "win_rates"]

#: A game that has not ended after this many throws is stopped (none has come close).
MAX_THROWS = 100_000


@dataclass(frozen=True)
class GameResult:
    """How one game ended: the winner and the number of throws."""

    winner: int
    throws: int


@dataclass(frozen=True)
class WinRates:
    """Wins by seat over a run of games."""

    players: tuple[str, ...]
    wins: tuple[int, ...]
    games: int

    def rate(self, seat: int) -> tuple[float, float, float]:
        """Return ``seat``'s win rate and the 95% Wilson interval around it."""
        low, high = wilson(self.wins[seat], self.games)
        return self.wins[seat] / self.games, low, high


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """Return the Wilson score interval of ``wins`` out of ``games``.

    >>> [round(x, 3) for x in wilson(50, 100)]
    [0.404, 0.596]
    """
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return centre - half, centre + half


def play_game(
    config: Config, players: Sequence[str], rng: random.Random, first_player: int = 0
) -> GameResult:
    """Play one game between the named built-in players, throwing the dice from ``rng``."""
    bots = [PLAYERS[name]() for name in players]
    state = new_game(config, first_player)
    throws = 0
    while state.phase is not Phase.OVER:
        if state.phase is Phase.THROW:
            throws += 1
            if throws > MAX_THROWS:
                raise RuntimeError(f"a game went on for {MAX_THROWS} throws: {state!r}")
            state = state.apply(Throw((rng.randint(1, 6), rng.randint(1, 6))))
        else:
            choice = bots[state.player].act(state, rng)
            if isinstance(choice, Chance):  # chance acts only in phase THROW in this game
                raise TypeError(f"a player may not hand over to chance in {state!r}")
            state = state.apply(choice)
    assert state.winner is not None
    return GameResult(state.winner, throws)


def win_rates(config: Config, players: Sequence[str], games: int, seed: int) -> WinRates:
    """Play ``games`` seeded games, alternating who begins, and count the wins by seat.

    >>> from tower.config import make_config
    >>> win_rates(make_config(), ["random", "random"], 4, seed=1).games
    4
    """
    wins = [0] * len(players)
    for k in range(games):
        rng = random.Random(f"{seed}:{k}")
        wins[play_game(config, players, rng, k % len(players)).winner] += 1
    return WinRates(tuple(players), tuple(wins), games)
