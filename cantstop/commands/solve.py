"""The ``solve`` command's module, kept at this path: see :mod:`cantstop.solve.command`.

The solver's command is Can't Stop's own, and lives with the solver; its
layer object adds it to the command line (:mod:`cantstop.commandline`).
"""

from cantstop.solve.command import add_commands, table_row

__all__ = ["add_commands", "table_row"]
