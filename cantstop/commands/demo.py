"""The ``demo`` command: a game between built-in players, told turn by turn.

``--game NAME`` picks the game (:mod:`cantstop.commands.games`): Can't Stop's
demonstration is :func:`cantstop.demo.play_demo`, any other game's
:func:`dicekit.demo.play_demo`.
"""

from __future__ import annotations

import argparse

from cantstop.commands.games import DEFAULT, add_game_option, load_game
from cantstop.commands.options import (
    add_command,
    add_players_option,
    add_seed_option,
    bot_names,
    examples,
    player_names,
)
from cantstop.demo import play_demo
from cantstop.players import PLAYERS
from dicekit import demo as layer

__all__ = ["add_commands"]


def _demo(args: argparse.Namespace) -> int:
    if args.game != DEFAULT:
        game = load_game(args.game)
        seats = bot_names(game, args.players)
        for line in layer.play_demo(game, seats, args.seed):
            print(line)
        return 0
    names = player_names(args.players or "cautious,bold")
    for line in play_demo([PLAYERS[name]() for name in names], args.seed):
        print(line)
    return 0


def add_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``demo``."""
    demo = add_command(sub, "demo", _demo, "play a demonstration game between built-in players")
    add_players_option(demo, "cautious,bold")
    add_seed_option(demo, "the dice")
    add_game_option(demo)
    demo.epilog = examples(
        "cantstop demo --players rule28,greedy --seed 7",
        "cantstop demo --game tower --players runner,random",
    )
