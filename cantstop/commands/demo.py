"""The ``demo`` command: a game between built-in players, told turn by turn."""

from __future__ import annotations

import argparse

from cantstop.commands.options import int_option
from cantstop.commands.report import UsageError, quoted
from cantstop.demo import PLAYERS, play_demo
from cantstop.record import MAX_SEED

__all__ = ["add_commands"]


def _demo(args: argparse.Namespace) -> int:
    names = args.players.split(",")
    unknown = [n for n in names if n not in PLAYERS]
    if unknown or not 1 <= len(names) <= 4:
        raise UsageError(
            f"--players takes 1 to 4 of {', '.join(PLAYERS)}, comma-separated; "
            f"got {quoted(args.players)}"
        )
    for line in play_demo(tuple(PLAYERS[n] for n in names), args.seed):
        print(line)
    return 0


def add_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``demo``."""
    demo = sub.add_parser("demo", help="play a demonstration game between built-in players")
    demo.add_argument(
        "--players",
        default="cautious,bold",
        help="comma-separated players (default: cautious,bold)",
    )
    demo.add_argument(
        "--seed", type=int_option(0, MAX_SEED), default=1, help="seed of the dice (default: 1)"
    )
    demo.set_defaults(run=_demo)
