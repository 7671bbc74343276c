"""The ``demo`` command: a game between built-in players, told turn by turn."""

from __future__ import annotations

import argparse

from cantstop.commands.options import int_option, player_names
from cantstop.demo import play_demo
from cantstop.players import PLAYERS
from cantstop.record import MAX_SEED

__all__ = ["add_commands"]


def _demo(args: argparse.Namespace) -> int:
    names = player_names(args.players)
    for line in play_demo([PLAYERS[name]() for name in names], args.seed):
        print(line)
    return 0


def add_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``demo``."""
    demo = sub.add_parser(
        "demo",
        help="play a demonstration game between built-in players",
        epilog="example: cantstop demo --players rule28,greedy --seed 7",
    )
    demo.add_argument(
        "--players",
        default="cautious,bold",
        help=f"comma-separated built-in players, 1 to 4 of {', '.join(PLAYERS)} "
        "(default: cautious,bold)",
    )
    demo.add_argument(
        "--seed", type=int_option(0, MAX_SEED), default=1, help="seed of the dice (default: 1)"
    )
    demo.set_defaults(run=_demo)
