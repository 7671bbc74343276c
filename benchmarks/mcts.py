"""OpenSpiel's MCTS bot against the Rule of 28, in whole games of ``python_cant_stop``.

``python -m benchmarks.mcts --games 200 --simulations 25,100,400`` plays, for
each simulation budget, that many two-player games on the standard board,
the seats swapping every game, and prints a table of the MCTS bot's wins
with a 95% Wilson interval for each budget.  Game ``i`` throws the same dice
at every budget (its dice generator is seeded from ``--seed`` and ``i``), so
the budgets meet the same luck.  The MCTS bot is
``open_spiel.python.algorithms.mcts.MCTSBot`` with UCT constant 2; its
evaluator scores a leaf by ``--rollouts`` random games played to the end:
by default with the engine's fast :func:`cantstop.playout.playout`
(uniformly random moves, rolling again half of the time), or, with
``--evaluator openspiel``, by OpenSpiel's ``RandomRolloutEvaluator``
(uniformly random actions through the OpenSpiel game; some ten times
slower).  The Rule of 28 plays through :class:`cantstop.openspiel.PlayerBot`.
A run is determined by ``--seed``.  It needs the ``openspiel`` extra and
takes long: run it under ``nice``, not in CI.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Sequence
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

from cantstop.dice import ORDERED_ROLLS
from cantstop.openspiel import GAME_NAME, CantStopState, PlayerBot
from cantstop.players import Rule28Player
from cantstop.playout import playout
from cantstop.simulate import wilson_interval
from dicekit.rewards import outcome_returns


class PlayoutEvaluator(mcts.Evaluator):  # type: ignore[misc]
    """Scores a leaf by random games the engine plays out, with uniform priors.

    A state whose player chose to roll again gets its roll first; then
    :func:`cantstop.playout.playout` plays to the end, rolling again with
    probability ``roll_again``.
    """

    def __init__(self, rollouts: int, seed: int, roll_again: float = 0.5) -> None:
        self.rollouts = rollouts
        self.rng = random.Random(seed)
        self.roll_again = roll_again

    def evaluate(self, state: CantStopState) -> Any:
        """Return the mean returns of the random games from ``state``."""
        total = np.zeros(state.num_players())
        for _ in range(self.rollouts):
            start = state.engine_state
            if state.awaiting_dice:
                start = start.apply(ORDERED_ROLLS[int(self.rng.random() * 1296)])
            end = playout(start, self.rng, self.roll_again)
            total += outcome_returns(state.num_players(), end.winner, 0, "win")
        return total / self.rollouts

    def prior(self, state: CantStopState) -> list[tuple[int, float]]:
        """Return the chance outcomes at a chance node, else the legal actions, uniformly."""
        if state.is_chance_node():
            return state.chance_outcomes()
        legal = state.legal_actions()
        return [(action, 1.0 / len(legal)) for action in legal]


def _evaluator(kind: str, rollouts: int, seed: int) -> Any:
    if kind == "openspiel":
        return mcts.RandomRolloutEvaluator(rollouts, np.random.RandomState(seed))
    return PlayoutEvaluator(rollouts, seed)


def play(
    games: int,
    simulations: int,
    rollouts: int,
    seed: int,
    heights: str = "",
    evaluator: str = "playout",
    verbose: bool = False,
) -> tuple[int, int]:
    """Play the match at one budget; return the MCTS bot's wins and the games played.

    With ``verbose``, each game's result is printed as it ends.
    """
    game = pyspiel.load_game(GAME_NAME, {"players": 2, "heights": heights})
    wins = 0
    for i in range(games):
        bot = mcts.MCTSBot(
            game,
            uct_c=2.0,
            max_simulations=simulations,
            evaluator=_evaluator(evaluator, rollouts, seed * 100_003 + 2 * i),
            random_state=np.random.RandomState(seed * 100_003 + 2 * i + 1),
        )
        mcts_seat = i % 2
        bots = [bot, PlayerBot(Rule28Player(), seed=seed + i)]
        if mcts_seat:
            bots.reverse()
        dice = np.random.RandomState([seed, i])
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
            print(
                f"{simulations} simulations, game {i + 1}: MCTS in seat {mcts_seat} "
                f"{'won' if won else 'lost'}",
                flush=True,
            )
    return wins, games


def _budgets(text: str) -> list[int]:
    try:
        budgets = [int(part) for part in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"simulations are numbers separated by commas, like 25,100,400, not {text!r}"
        ) from None
    if not budgets or min(budgets) < 1:
        raise argparse.ArgumentTypeError(f"each budget must be at least 1 simulation: {text!r}")
    return budgets


def table(rows: Sequence[tuple[int, int, int, float]]) -> str:
    """Return the results as a text table: budget, games, wins, rate, 95% interval, seconds."""
    lines = [
        f"{'simulations':>11}  {'games':>5}  {'MCTS won':>8}  {'rate':>6}  "
        f"{'95% interval':>15}  {'CPU s':>7}"
    ]
    for simulations, wins, games, seconds in rows:
        low, high = wilson_interval(wins, games)
        lines.append(
            f"{simulations:>11}  {games:>5}  {wins:>8}  {wins / games:>6.1%}  "
            f"{low:>6.1%} to {high:>5.1%}  {seconds:>7.0f}"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Play the match at each budget and print the table."""
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.mcts", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--games", type=int, default=200, help="games at each budget")
    parser.add_argument(
        "--simulations",
        type=_budgets,
        default=[25, 100, 400],
        help="MCTS simulations per move, one budget or several: 25,100,400",
    )
    parser.add_argument("--rollouts", type=int, default=1, help="random games per leaf")
    parser.add_argument(
        "--evaluator",
        choices=["playout", "openspiel"],
        default="playout",
        help="who plays the random games: the engine's playout or OpenSpiel's",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--heights", default="", help="a custom board, e.g. 5:3;6:3;7:4")
    parser.add_argument("--verbose", action="store_true", help="print each game's result")
    args = parser.parse_args(argv)
    if args.games < 1 or args.rollouts < 1:
        parser.error("--games and --rollouts must be at least 1")
    rows = []
    for simulations in args.simulations:
        start = time.process_time()
        wins, games = play(
            args.games,
            simulations,
            args.rollouts,
            args.seed,
            args.heights,
            args.evaluator,
            args.verbose,
        )
        rows.append((simulations, wins, games, time.process_time() - start))
    board = f"board {args.heights}" if args.heights else "the standard board"
    print(
        f"OpenSpiel MCTS (UCT c=2, {args.rollouts} {args.evaluator} rollout(s) a leaf) against "
        f"the Rule of 28, {board}, seed {args.seed}"
    )
    print(table(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
