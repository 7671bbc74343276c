"""The public-API figure: random games by a plain loop over ``legal_moves()`` and ``apply()``.

This is the path adapters and research code take: no fast playout, only
:meth:`State.legal_moves() <cantstop.State.legal_moves>` and
:meth:`State.apply() <cantstop.State.apply>` on immutable states.  The
policy is the benchmark's (:mod:`cantstop.playout`): a roll picks ordered
roll ``int(r * 1296)``, a move index ``int(r * len(moves))``, and a decision
rolls again when ``r < 0.7``, one ``rng.random()`` each, so that the loop
plays exactly the games of :func:`cantstop.playout.playout` (the standard
rules never forbid a stop).

The module imports only names that every version of ``cantstop`` has, so
that ``benchmarks/compare.py`` can run it against an older engine.  Run
alone it prints one line: ``python benchmarks/public_api.py [GAMES] [PLAYERS]``.
"""

from __future__ import annotations

import random
import sys
import time

from cantstop import ORDERED_ROLLS, Phase, Rules, Stop, new_game

#: The policy's chance of rolling again.
ROLL_AGAIN = 0.7


def play(games: int, players: int = 2, seed: int = 1) -> int:
    """Play ``games`` random games through the public API; return the actions played."""
    draw = random.Random(seed).random
    start = new_game(Rules(players=players))
    stop = Stop()
    rolls = ORDERED_ROLLS
    choose, decide, over = Phase.CHOOSE, Phase.DECIDE, Phase.OVER
    actions = 0
    for _ in range(games):
        state = start
        while state.phase is not over:
            phase = state.phase
            if phase is choose:
                moves = state.legal_moves()
                state = state.apply(moves[int(draw() * len(moves))])
            elif phase is decide and draw() >= ROLL_AGAIN:
                state = state.apply(stop)
            else:
                state = state.apply(rolls[int(draw() * 1296)])
            actions += 1
    return actions


def games_per_second(games: int, players: int = 2, rounds: int = 3) -> tuple[float, float]:
    """Return the best games and actions per second of CPU time over ``rounds`` rounds."""
    best = float("inf")
    actions = 0
    for _ in range(rounds):
        start = time.process_time()
        actions = play(games, players)
        best = min(best, time.process_time() - start)
    best = max(best, 1e-9)
    return games / best, actions / best


def main(argv: list[str]) -> int:
    """Print ``GAMES_PER_S ACTIONS_PER_S`` for the games and players given."""
    games = int(argv[0]) if argv else 300
    players = int(argv[1]) if len(argv) > 1 else 2
    per_game, per_action = games_per_second(games, players)
    print(f"{per_game:.1f} {per_action:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
