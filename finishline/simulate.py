"""Play many games between built-in players and count the wins: ``python -m finishline.simulate``.

Every game is determined by the seed: game ``i`` of a run with seed ``s``
draws its dice and its players' choices from ``random.Random(f"{s}:{i}")``,
and the seats take turns to start (game ``i`` starts with seat ``i mod n``).
:func:`play_game` uses nothing but the layer's game protocol.

>>> from finishline.layer import GAME
>>> result = simulate(GAME, ["racer", "random"], games=20, seed=1)
>>> result.games, sum(result.wins)
(20, 20)
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NoReturn

from dicekit.protocol import Bot, Game

__all__ = ["Result", "main", "play_game", "simulate", "wilson"]


def play_game(
    game: Game[Any, Any, Any],
    bots: Sequence[Bot[Any, Any]],
    rng: random.Random,
    first_player: int = 0,
) -> tuple[int, int]:
    """Play one game of ``game`` between ``bots``, one per seat; return the winner and the turns.

    The dice come from ``rng`` by the exact chances of ``chance_outcomes``,
    and so do the players' draws.
    """
    state = game.new_game(game.config(len(bots)), first_player)
    turns = 0
    while not game.is_over(state):
        outcomes = game.chance_outcomes(state)
        if outcomes:
            turns += 1
            actions = [action for action, _ in outcomes]
            weights = [float(chance) for _, chance in outcomes]
            state = game.apply(state, rng.choices(actions, weights)[0])
        else:
            state = game.apply(state, bots[game.player(state)].act(state, rng))
    winner = game.winner(state)
    assert winner is not None
    return winner, turns


@dataclass(frozen=True)
class Result:
    """The outcome of a run: wins per seat and the number of turns."""

    #: The players' names, by seat.
    names: tuple[str, ...]
    #: Games played.
    games: int
    #: Games won, by seat.
    wins: tuple[int, ...]
    #: Turns (rolls) over all games.
    turns: int


def simulate(game: Game[Any, Any, Any], names: Sequence[str], games: int, seed: int) -> Result:
    """Play ``games`` games between the built-in players ``names``, one per seat."""
    makers = game.bots()
    bots = [makers[name]() for name in names]
    wins = [0] * len(bots)
    turns = 0
    for i in range(games):
        winner, played = play_game(game, bots, random.Random(f"{seed}:{i}"), i % len(bots))
        wins[winner] += 1
        turns += played
    return Result(tuple(names), games, tuple(wins), turns)


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """Return the Wilson score interval of a win rate, at 95% by default.

    >>> low, high = wilson(8_500, 10_000)
    >>> round(low, 4), round(high, 4)
    (0.8429, 0.8569)
    """
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return centre - half, centre + half


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        sys.stderr.write(f"{self.prog}: error: {message}\n")
        raise SystemExit(2)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command; return its exit status (0, or 2 for a usage error)."""
    from finishline.layer import GAME

    parser = _Parser(
        prog="python -m finishline.simulate",
        description="Play games between built-in players of the finish-line race.",
        epilog="example: python -m finishline.simulate --players racer,random --games 10000 "
        "--seed 1",
    )
    parser.add_argument("--players", default="racer,random", help="seats, comma-separated")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    names = args.players.split(",")
    known = GAME.bots()
    unknown = [name for name in names if name not in known]
    if unknown:
        parser.error(f"unknown player {unknown[0]!r}; the players are {', '.join(known)}")
    if not GAME.info.min_players <= len(names) <= GAME.info.max_players:
        parser.error(f"{len(names)} seats; the game has 2 to 4 players")
    if args.games < 1:
        parser.error(f"--games must be at least 1, not {args.games}")
    result = simulate(GAME, names, args.games, args.seed)
    print(f"{result.games} games, seed {args.seed}, {result.turns / result.games:.1f} turns a game")
    for seat, (name, wins) in enumerate(zip(result.names, result.wins, strict=True)):
        low, high = wilson(wins, result.games)
        print(
            f"seat {seat} {name:<8} {wins:>6} wins  {wins / result.games:7.2%}  "
            f"(95% interval {low:.2%} to {high:.2%})"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
