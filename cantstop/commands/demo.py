"""The ``demo`` command: a game between built-in players, told turn by turn.

``--game NAME`` picks the game (:mod:`cantstop.commands.games`): a game
that tells its demonstration its own way
(:meth:`dicekit.commandline.CommandHooks.run`) does, any other is told by
:func:`dicekit.demo.play_demo`.
"""

from __future__ import annotations

import argparse
from typing import Any

from cantstop.commands import games, options
from dicekit import demo as layer
from dicekit.protocol import Game

__all__ = ["add_commands"]


def _demo(game: Game[Any, Any, Any], args: argparse.Namespace) -> int:
    for line in layer.play_demo(game, options.chosen_seats(game, args, "demo"), args.seed):
        print(line)
    return 0


def add_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``demo``."""
    run = games.game_runner("demo", _demo)
    demo = options.add_command(
        sub, "demo", run, "play a demonstration game between built-in players"
    )
    options.add_players_option(demo, options.default_seats(games.default_game(), "demo"))
    options.add_seed_option(demo, "the dice")
    games.add_own_options("demo", demo)
    games.add_game_option(demo)
    demo.epilog = options.examples(
        "cantstop demo --players rule28,greedy --seed 7",
        "cantstop demo --game tower --players runner,random",
    )
