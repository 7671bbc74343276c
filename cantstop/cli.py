"""The ``cantstop`` command line.

``cantstop demo`` plays a demonstration game; ``cantstop spec`` counts (and with
``--check`` runs) the spec's rules and examples; ``cantstop show``, ``moves``
and ``perft`` inspect a state given in notation.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

from cantstop.errors import CantStopError
from cantstop.notation import format_action, parse_state

__all__ = ["build_parser", "main"]

#: Modules that add further subcommands. Each defines
#: ``add_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None``
#: and sets ``run`` on each parser it adds, as the commands below do.
COMMAND_MODULES: tuple[str, ...] = (
    "cantstop.conformance.cli",
    "cantstop.simulate",
    "cantstop.odds",
    "cantstop.play",
    "cantstop.explain",
)


def _demo(args: argparse.Namespace) -> int:
    from cantstop.demo import PLAYERS, play_demo

    names = args.players.split(",")
    unknown = [n for n in names if n not in PLAYERS]
    if unknown or not 1 <= len(names) <= 4:
        print(
            f"cantstop demo: --players takes 1 to 4 of {', '.join(PLAYERS)}, "
            f"comma-separated; got {args.players!r}",
            file=sys.stderr,
        )
        return 2
    for line in play_demo(tuple(PLAYERS[n] for n in names), args.seed):
        print(line)
    return 0


def _spec(args: argparse.Namespace) -> int:
    from cantstop.spec import iter_failures, load_spec

    spec = load_spec()
    rules = [r for r in spec.rules.values() if not r.is_chapter]
    chapters = len(spec.rules) - len(rules)
    print(f"{len(rules)} rules in {chapters} chapters, {len(spec.examples)} examples")
    if not args.check:
        return 0
    failures = list(iter_failures(spec))
    for _, message in failures:
        print(message)
    print(f"{len(spec.examples) - len(failures)} passed, {len(failures)} failed")
    return 1 if failures else 0


def _show(args: argparse.Namespace) -> int:
    from cantstop.text import render_board

    print(render_board(parse_state(args.state)))
    return 0


def _moves(args: argparse.Namespace) -> int:
    state = parse_state(args.state)
    print(" ".join(format_action(m) for m in state.legal_moves()) or "none")
    return 0


def _perft(args: argparse.Namespace) -> int:
    from cantstop.game import perft

    counts = perft(parse_state(args.state))
    print(f"choices={counts.choices} busts={counts.busts}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    """Return the argument parser of the ``cantstop`` command."""
    parser = argparse.ArgumentParser(
        prog="cantstop", description="Reference rules engine for the dice game Can't Stop."
    )
    sub = parser.add_subparsers(dest="command", required=True)
    demo = sub.add_parser("demo", help="play a demonstration game between built-in players")
    demo.add_argument(
        "--players",
        default="cautious,bold",
        help="comma-separated players (default: cautious,bold)",
    )
    demo.add_argument("--seed", type=int, default=1, help="seed of the dice (default: 1)")
    demo.set_defaults(run=_demo)
    spec = sub.add_parser("spec", help="count the spec's rules and examples")
    spec.add_argument(
        "--check", action="store_true", help="also run every example against the engine"
    )
    spec.set_defaults(run=_spec)
    show = sub.add_parser("show", help="draw a state given in notation")
    show.add_argument("state", help="a state in notation, e.g. '7:2/- 7:3 0d'")
    show.set_defaults(run=_show)
    moves = sub.add_parser("moves", help="list the legal moves of a state")
    moves.add_argument("state")
    moves.set_defaults(run=_moves)
    perft = sub.add_parser("perft", help="count moves and busts over all 1296 rolls")
    perft.add_argument("state")
    perft.set_defaults(run=_perft)
    for name in COMMAND_MODULES:
        importlib.import_module(name).add_commands(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return its exit status.

    >>> main(['moves', '-/- - 0c3455'])
    7+10 8+9
    0
    """
    args = build_parser().parse_args(argv)
    try:
        status: int = args.run(args)
    except CantStopError as exc:
        print(f"cantstop {args.command}: {exc}", file=sys.stderr)
        return 1
    except BrokenPipeError:
        # The reader went away (``cantstop demo | head``); that is not an error.
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - replaced for the rest of the process
        return 0
    return status
