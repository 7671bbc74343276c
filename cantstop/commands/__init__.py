"""The ``cantstop`` command line: argparse, terminal output and error reports, apart from the rules.

One module per command or family of commands adds its subcommands
(:data:`~cantstop.commands.parser.COMMAND_MODULES`), each running every
game alike; what a game does its own way, with options and commands of its
own, it declares in hooks its layer object gives (:mod:`dicekit.commandline`),
and only the registration, :mod:`cantstop.commands.games`, names games;
:mod:`cantstop.commands.options` holds the parser class and the option types
they share, and :mod:`cantstop.commands.report` the one way every command
reports a problem (:func:`~cantstop.commands.report.report_error`, with
:class:`~cantstop.commands.report.UsageError` and
:class:`~cantstop.commands.report.ExitStatus`).  The rules modules import
nothing from here.

>>> main(['moves', '-/- - 0c3455'])
7+10 8+9
0
"""

from cantstop.commands.parser import build_parser, main
from cantstop.commands.report import error_line, quoted, report_error, report_warning

__all__ = [
    "build_parser",
    "error_line",
    "main",
    "quoted",
    "report_error",
    "report_warning",
]
