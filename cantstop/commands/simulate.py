"""The ``simulate`` command: many games between built-in players, and their win rates.

``--game NAME`` picks the game (:mod:`cantstop.commands.games`): a game
that simulates its own way (:meth:`dicekit.commandline.CommandHooks.run`;
Can't Stop's games are :func:`cantstop.simulate.simulate`'s) does, any
other game's are :func:`dicekit.simulate.simulate`'s, with the same seeds,
processes and progress bar.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, TextIO

from cantstop.commands.games import (
    add_game_option,
    add_own_options,
    default_game,
    game_runner,
)
from cantstop.commands.options import (
    add_command,
    add_players_option,
    add_seed_option,
    chosen_seats,
    default_seats,
    examples,
    int_option,
)
from cantstop.commands.report import INTERRUPTED, UsageError
from dicekit import simulate as layer
from dicekit.protocol import Game
from dicekit.seeded import player_count
from dicekit.simulate import MAX_GAMES, MAX_PROCESSES

__all__ = ["add_commands"]


def _simulate_game(
    game: Game[Any, Any, Any], args: argparse.Namespace, bar: TextIO | None
) -> layer.Simulation:
    """Simulate a game through the layer."""
    names = chosen_seats(game, args, "simulate")
    config = None
    if args.rules is not None:
        try:
            config = game.config_from_json(json.loads(args.rules))
        except ValueError as exc:
            raise UsageError(f"--rules takes the configuration's JSON form: {exc}") from None
        seats = player_count(game, config)
        if seats != len(names):
            raise UsageError(
                f"--rules describes a game of {seats} players, but --players names {len(names)}"
            )
    return layer.simulate(game, names, args.games, args.seed, config, args.processes, bar)


def _simulate(args: argparse.Namespace) -> int:
    try:
        return _RUN(args)
    except KeyboardInterrupt:
        # As conform says it: one line on stderr, and the status of Ctrl-C.
        print("cantstop simulate: interrupted", file=sys.stderr)
        return INTERRUPTED


def _run(game: Game[Any, Any, Any], args: argparse.Namespace) -> int:
    show = args.progress if args.progress is not None else sys.stderr.isatty()
    print(_simulate_game(game, args, sys.stderr if show else None).table())
    return 0


_RUN = game_runner("simulate", _run)


def add_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``simulate``."""
    p = add_command(sub, "simulate", _simulate, "play many games between built-in players")
    add_players_option(p, default_seats(default_game(), "simulate"))
    p.add_argument(
        "--games",
        type=int_option(1, MAX_GAMES),
        default=1000,
        help=f"number of games, 1 to {MAX_GAMES:,} (default: 1000)",
    )
    add_seed_option(p, "the run")
    p.add_argument(
        "--rules",
        default=None,
        metavar="JSON",
        help="the rules' JSON form, e.g. a solved solitaire board for the optimal player "
        "(default: the standard rules for the players named); for another game, "
        "its configuration's JSON form",
    )
    p.add_argument(
        "--processes",
        type=int_option(1, MAX_PROCESSES),
        default=None,
        help=f"worker processes, 1 to {MAX_PROCESSES} (default: every core)",
    )
    p.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="draw a progress bar on stderr (default: when stderr is a terminal)",
    )
    add_own_options("simulate", p)
    add_game_option(p)
    p.description = (
        "Play many games between built-in players and print each seat's win "
        "rate with its 95% confidence interval. The results depend on the seed alone, "
        "not on the number of processes. Ctrl-C stops the run: it says so on stderr and "
        "exits with status 130."
    )
    p.epilog = examples(
        "cantstop simulate --players rule28,random --games 10000 --seed 1",
        "cantstop simulate --game finishline --players racer,random",
    )
