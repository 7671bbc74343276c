"""How many turns games take, against the adapters' turn limit.

``python -m benchmarks.lengths --games 1000 --seed 1`` plays that many games
on the standard board for 1 to 4 players under two random policies (a
uniformly random legal move; then roll again with probability 0.5, or 0.9)
and prints, for each, the median, the 99th percentile and the longest game
in turns (all players' turns counted, as the turn limit counts them), next
to the adapters' default limit, :data:`cantstop.envs.MAX_TURNS`.  The engine
alone plays (``cantstop.envs``, read for its limit, needs NumPy).  A policy
that rolls again more often plays longer games, and one that always rolls
again never ends one: the limit is there for it.
"""

from __future__ import annotations

import argparse
import random
import sys

from cantstop import ORDERED_ROLLS, Phase, Rules, Stop, new_game
from cantstop.envs import MAX_TURNS


def turns_of_game(players: int, roll_again: float, rng: random.Random) -> int:
    """Play one random game; return the turns it took."""
    state = new_game(Rules(players=players))
    stop = Stop()
    turns = 1
    while state.phase is not Phase.OVER:
        if state.phase is Phase.CHOOSE:
            moves = state.legal_moves()
            state = state.apply(moves[int(rng.random() * len(moves))])
            continue
        decide = state.phase is Phase.DECIDE
        if decide and rng.random() >= roll_again and state.decisions().may_stop:
            state = state.apply(stop)
        else:
            state = state.apply(ORDERED_ROLLS[int(rng.random() * 1296)])
        if state.phase is Phase.ROLL:  # a stop or a bust passed the turn
            turns += 1
    return turns


def lengths(games: int, seed: int) -> list[tuple[int, float, list[int]]]:
    """Return, for each player count and policy, the sorted game lengths in turns."""
    out = []
    for players in (1, 2, 3, 4):
        for roll_again in (0.5, 0.9):
            rng = random.Random(seed * 100 + players)
            turns = sorted(turns_of_game(players, roll_again, rng) for _ in range(games))
            out.append((players, roll_again, turns))
    return out


def main(argv: list[str] | None = None) -> int:
    """Play the games and print the table."""
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.lengths", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--games", type=int, default=1000, help="games per row")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error(f"--games must be at least 1, not {args.games}")
    print(f"{'players':>7}  {'rolls again':>11}  {'median':>6}  {'99%':>5}  {'longest':>7}")
    for players, roll_again, turns in lengths(args.games, args.seed):
        median = turns[len(turns) // 2]
        high = turns[min(len(turns) - 1, int(0.99 * len(turns)))]
        print(f"{players:>7}  {roll_again:>11.0%}  {median:>6}  {high:>5}  {turns[-1]:>7}")
    print(f"turns in {args.games} games a row; the adapters' turn limit is {MAX_TURNS}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
