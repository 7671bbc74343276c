"""OpenSpiel's MCTS bot against the Rule of 28, in whole games of ``python_cant_stop``.

``python -m benchmarks.mcts --games 100 --simulations 200 --rollouts 1``
plays that many two-player games on the standard board, the seats swapping
every game, and prints the MCTS bot's win rate with its 95% Wilson
interval.  The MCTS bot is ``open_spiel.python.algorithms.mcts.MCTSBot``
with UCT constant 2 and OpenSpiel's random-rollout evaluator; the Rule of 28
plays through :class:`cantstop.openspiel.PlayerBot`.  The dice come from a
seeded generator, so a run is determined by ``--seed``.  It needs the
``openspiel`` extra and takes long (uniform random rollouts are long games): run it under ``nice``.
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

from cantstop.openspiel import GAME_NAME, PlayerBot
from cantstop.players import Rule28Player
from cantstop.simulate import wilson_interval


def play(
    games: int, simulations: int, rollouts: int, seed: int, heights: str = "", verbose: bool = False
) -> tuple[int, int]:
    """Play the match; return the MCTS bot's wins and the games played.

    With ``verbose``, each game's result is printed as it ends.
    """
    game = pyspiel.load_game(GAME_NAME, {"players": 2, "heights": heights})
    dice = np.random.RandomState(seed)
    wins = 0
    for i in range(games):
        evaluator = mcts.RandomRolloutEvaluator(
            n_rollouts=rollouts, random_state=np.random.RandomState(seed + 1 + i)
        )
        bot = mcts.MCTSBot(
            game,
            uct_c=2.0,
            max_simulations=simulations,
            evaluator=evaluator,
            random_state=np.random.RandomState(seed + 10_000 + i),
        )
        mcts_seat = i % 2
        bots = [bot, PlayerBot(Rule28Player(), seed=seed + i)]
        if mcts_seat:
            bots.reverse()
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(dice.choice(actions, p=probs)))
            else:
                state.apply_action(bots[state.current_player()].step(state))
        won = state.returns()[mcts_seat] > 0
        wins += won
        if verbose:
            print(f"game {i + 1}: MCTS in seat {mcts_seat} {'won' if won else 'lost'}", flush=True)
    return wins, games


def main(argv: list[str] | None = None) -> int:
    """Play the match and print the win rate."""
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.mcts", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--simulations", type=int, default=200, help="MCTS simulations per move")
    parser.add_argument("--rollouts", type=int, default=1, help="random rollouts per leaf")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--heights", default="", help="a custom board, e.g. 5:3;6:3;7:4")
    parser.add_argument("--verbose", action="store_true", help="print each game's result")
    args = parser.parse_args(argv)
    start = time.monotonic()
    wins, games = play(
        args.games, args.simulations, args.rollouts, args.seed, args.heights, args.verbose
    )
    low, high = wilson_interval(wins, games)
    print(
        f"MCTS ({args.simulations} simulations, {args.rollouts} rollout(s)) against the "
        f"Rule of 28: {wins} of {games} games won, {wins / games:.1%} "
        f"(95% interval {low:.1%} to {high:.1%}), {time.monotonic() - start:.0f} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
