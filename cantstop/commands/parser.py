"""The ``cantstop`` command: its parser, built from the command modules, and one run loop.

Each module of :data:`COMMAND_MODULES` adds its subcommands; :func:`main`
parses the command line, runs the subcommand and turns every problem into
the one line and exit status of :func:`~cantstop.commands.report.report_error`.

>>> main(['moves', '-/- - 0c3455'])
7+10 8+9
0
>>> main(['perft', '--depth', '3'])  # stderr: cantstop perft: error: unrecognized arguments: ...
2
"""

from __future__ import annotations

import argparse
import importlib
import io
import os
import sys
from collections.abc import Sequence

from cantstop import __version__
from cantstop.commands.games import command_modules, default_game
from cantstop.commands.options import CommandParser
from cantstop.commands.report import ExitStatus, UsageError, report_error

__all__ = ["COMMAND_MODULES", "build_parser", "main"]

#: The modules that add the subcommands of every game, in the order ``cantstop --help`` lists
#: them; the commands a game has of its own come after them
#: (:func:`~cantstop.commands.games.command_modules`).  Each
#: defines ``add_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None``
#: and sets ``run`` on each parser it adds: a function of the parsed arguments that returns
#: the exit status.  A command raises :class:`~cantstop.commands.report.UsageError` for a
#: bad option, and :func:`~cantstop.commands.parser.main` reports it.
COMMAND_MODULES: tuple[str, ...] = (
    "cantstop.commands.demo",
    "cantstop.commands.spec",
    "cantstop.commands.state",
    "cantstop.conformance.cli",
    "cantstop.commands.simulate",
    "cantstop.commands.odds",
    "cantstop.commands.play",
    "cantstop.commands.explain",
)


def build_parser() -> argparse.ArgumentParser:
    """Return the argument parser of the ``cantstop`` command."""
    parser = CommandParser(
        prog="cantstop",
        description=f"Reference rules engine for the dice game {default_game().info.title}.",
    )
    parser.add_argument("--version", action="version", version=f"cantstop {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in (*COMMAND_MODULES, *command_modules()):
        importlib.import_module(name).add_commands(sub)
    return parser


def _tolerant_output() -> None:
    """Let stdout and stderr write any text: what their encoding lacks is written as escapes."""
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper) and stream.errors == "strict":
            stream.reconfigure(errors="backslashreplace")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return its exit status.

    >>> main(['moves', '-/- - 0c3455'])
    7+10 8+9
    0
    """
    _tolerant_output()
    parser = build_parser()
    try:
        args, extra = parser.parse_known_args(argv)
    except SystemExit as exc:  # argparse after --help, --version or a usage error
        return exc.code if isinstance(exc.code, int) else 0 if exc.code is None else 2
    command: str = args.command
    if extra:
        # Left over after the subcommand took its own: the subcommand's error.
        problem = UsageError(
            f"unrecognized arguments: {' '.join(extra)} (see cantstop {command} --help)"
        )
        return int(report_error(command, problem))
    try:
        status: int = args.run(args)
    except KeyboardInterrupt:
        return ExitStatus.INTERRUPTED.value
    except BrokenPipeError:
        # The reader went away (``cantstop demo | head``); that is not an error.
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - replaced for the rest of the process
        return ExitStatus.SUCCESS.value
    except Exception as exc:  # every problem is one line, never a traceback
        return int(report_error(command, exc))
    return int(status)
