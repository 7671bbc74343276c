"""The ``cantstop`` command line's entry point, kept at this path: see :mod:`cantstop.commands`.

``cantstop demo`` plays a demonstration game; ``cantstop spec`` counts (and with
``--check`` runs) the spec's rules and examples; ``cantstop show``, ``moves``
and ``perft`` inspect a state given in notation; the other commands are listed
by ``cantstop --help``.

Every subcommand keeps one contract.  Exit status 0 means success, 1 that a
rule or a check failed, 2 a usage error (a bad option, a missing or unreadable
file), 3 an internal error (a bug; ``CANTSTOP_TRACEBACK=1`` shows its
traceback) and 130 an interruption (Ctrl-C).  A problem is one line on stderr,
``cantstop COMMAND: error: ...``, never a traceback; argparse's own complaints
take the same form (:func:`cantstop.commands.report.report_error`).

>>> main(['moves', '-/- - 0c3455'])
7+10 8+9
0
>>> main(['perft', '--depth', '3'])  # stderr: cantstop perft: error: unrecognized arguments: ...
2
"""

from cantstop.commands.options import int_option, read_state, seconds_option
from cantstop.commands.parser import COMMAND_MODULES, build_parser, main
from cantstop.commands.report import INTERRUPTED, UsageError

__all__ = [
    "COMMAND_MODULES",
    "INTERRUPTED",
    "UsageError",
    "build_parser",
    "int_option",
    "main",
    "read_state",
    "seconds_option",
]
