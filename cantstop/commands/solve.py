"""The ``solve`` command's module, kept at this path: see :mod:`cantstop.solvecommand`.

The solver's command is Can't Stop's own, and lives in its package; its
layer object adds it to the command line (:mod:`cantstop.commandline`).
"""

from cantstop.solvecommand import add_commands, table_row

__all__ = ["add_commands", "table_row"]
