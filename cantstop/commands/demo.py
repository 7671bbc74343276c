"""The ``demo`` command: a game between built-in players, told turn by turn.

``--game NAME`` picks the game (:mod:`cantstop.commands.games`): a game
that tells its demonstration its own way
(:meth:`dicekit.commandline.CommandHooks.run`) does, any other is told by
:func:`dicekit.demo.play_demo`.
"""

from __future__ import annotations

import argparse

from cantstop.commands.games import (
    add_game_option,
    add_own_options,
    default_game,
    load_game,
    run_own,
)
from cantstop.commands.options import (
    add_command,
    add_players_option,
    add_seed_option,
    bot_names,
    default_seats,
    examples,
)
from dicekit import demo as layer

__all__ = ["add_commands"]


def _demo(args: argparse.Namespace) -> int:
    game = load_game(args.game)
    own = run_own("demo", args, game)
    if own is not None:
        return own
    given = args.players
    seats = bot_names(game, default_seats(game, "demo") if given is None else given)
    for line in layer.play_demo(game, seats, args.seed):
        print(line)
    return 0


def add_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``demo``."""
    demo = add_command(sub, "demo", _demo, "play a demonstration game between built-in players")
    add_players_option(demo, default_seats(default_game(), "demo"))
    add_seed_option(demo, "the dice")
    add_own_options("demo", demo)
    add_game_option(demo)
    demo.epilog = examples(
        "cantstop demo --players rule28,greedy --seed 7",
        "cantstop demo --game tower --players runner,random",
    )
