"""The command-line hooks a game may give: options of its own, and commands it runs its own way.

A command of the layer's command line (``demo``, ``show``, ``odds``,
``play`` and the rest) runs every game alike, through the layer.  A game
that does a command its own way declares
:attr:`~dicekit.protocol.Capability.COMMAND_LINE` and returns, from
``command_line()``, a :class:`CommandHooks`: the command line asks it, for
each command,

* which options of the game's own the command takes
  (:meth:`CommandHooks.add_options`); another game refuses them,
* which seats the command gives the game when ``--players`` is not given
  (:meth:`CommandHooks.default_seats`),
* whether the game runs the command itself (:meth:`CommandHooks.run`),

and which commands of its own the game adds (:meth:`CommandHooks.command_modules`).

The base class answers "none of its own" to all four, so a game overrides
only what it does differently.  A game installed as its own distribution
gets the same treatment as those of this one: the command line reads the
hooks of whichever game ``--game`` names, and never a game's name.

>>> import argparse
>>> hooks = CommandHooks()
>>> hooks.add_options("odds", argparse.ArgumentParser()), hooks.default_seats("demo")
((), None)
>>> hooks.run("odds", argparse.Namespace()) is None, hooks.command_modules()
(True, ())
"""

from __future__ import annotations

import argparse
from typing import Protocol

__all__ = ["CommandHooks", "CommandLine"]


class CommandHooks:
    """What a game does its own way on the command line; the base class does nothing its own way.

    Every method takes the name of the command (``"demo"``, ``"odds"``,
    ``"play"``, ...).  A game subclasses it and overrides what it needs.
    """

    def add_options(self, command: str, parser: argparse.ArgumentParser) -> tuple[str, ...]:
        """Add the game's own options of ``command`` to ``parser``; return their flags.

        Each option's default is ``None`` (or ``False`` for a switch), so
        that the command can tell an option given for another game and
        refuse it.  The options are added where the command's help lists
        them, before the options every game takes.
        """
        return ()

    def default_seats(self, command: str) -> str | None:
        """Return the seats ``command`` gives the game without ``--players``; ``None``: the layer's.

        The layer's default is the game's best-known built-in player
        against random play, or a person against it.
        """
        return None

    def command_modules(self) -> tuple[str, ...]:
        """Return the modules that add the game's own commands, each by its ``add_commands``.

        Each module defines ``add_commands(sub)``, which adds subcommands to
        the command line's ``sub`` (the subparsers action of ``argparse``),
        as the command line's own command modules do; they come after those.
        """
        return ()

    def run(self, command: str, args: argparse.Namespace) -> int | None:
        """Run ``command`` the game's own way and return its exit status; ``None``: the layer's way.

        ``args`` are the parsed arguments, the game's own options among them.
        A problem raises what every command raises
        (:class:`~dicekit.errors.GameError`, or the command line's usage error).
        """
        return None


class CommandLine(Protocol):
    """:attr:`~dicekit.protocol.Capability.COMMAND_LINE`: a game's own part of the command line."""

    def command_line(self) -> CommandHooks:
        """Return the game's command-line hooks."""
        ...
