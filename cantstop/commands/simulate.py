"""The ``simulate`` command: many games between built-in players, and their win rates."""

from __future__ import annotations

import argparse
import sys

from cantstop.commands.options import int_option, player_names
from cantstop.players import PLAYERS
from cantstop.record import MAX_SEED
from cantstop.simulate import MAX_GAMES, MAX_PROCESSES, simulate

__all__ = ["add_commands"]


def _simulate(args: argparse.Namespace) -> int:
    names = player_names(args.players)
    show = args.progress if args.progress is not None else sys.stderr.isatty()
    result = simulate(
        names,
        args.games,
        args.seed,
        processes=args.processes,
        progress=sys.stderr if show else None,
    )
    print(result.table())
    return 0


def add_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``simulate``."""
    p = sub.add_parser(
        "simulate",
        help="play many games between built-in players",
        description="Play many games between built-in players and print each seat's win "
        "rate with its 95% confidence interval. The results depend on the seed alone, "
        "not on the number of processes. Ctrl-C stops the run (exit status 130).",
        epilog="example: cantstop simulate --players rule28,random --games 10000 --seed 1",
    )
    p.add_argument(
        "--players",
        default="rule28,random",
        help=f"comma-separated built-in players, 1 to 4 of {', '.join(PLAYERS)}",
    )
    p.add_argument(
        "--games",
        type=int_option(1, MAX_GAMES),
        default=1000,
        help=f"number of games, 1 to {MAX_GAMES:,} (default: 1000)",
    )
    p.add_argument(
        "--seed", type=int_option(0, MAX_SEED), default=1, help="seed of the run (default: 1)"
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
    p.set_defaults(run=_simulate)
