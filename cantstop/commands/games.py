"""The ``--game`` option: the games the layer's registry finds, and the one a command plays.

The games are not named here: each registers itself in the layer's
entry-point group (:mod:`dicekit.registry`), and the command line offers
every game found there, those installed as their own distributions
included.  Can't Stop, whose command this is, is played when ``--game`` is
not given, and its records from before the layer's format, whose headers
name no game, are its own: this module is the one place of the command
line that names a game.

What a game does its own way on the command line it declares itself
(:class:`dicekit.commandline.CommandHooks`): :func:`hooks` returns a game's
hooks, :func:`add_own_options` adds the options of every registered game's
own to a command, and :func:`refuse_own_options` refuses them for another
game.  No command asks which game it runs.

>>> 'finishline' in names() and 'tower' in names()
True
>>> load_game(DEFAULT).info.title
"Can't Stop"
"""

from __future__ import annotations

import argparse
import functools
from collections.abc import Callable
from typing import Any

from cantstop.commands.report import UsageError
from dicekit import registry
from dicekit.commandline import CommandHooks
from dicekit.protocol import Capability, Game, capable

__all__ = [
    "DEFAULT",
    "OWN_OPTION",
    "add_game_option",
    "add_own_options",
    "command_modules",
    "default_game",
    "game_given",
    "game_runner",
    "hooks",
    "load_game",
    "names",
    "refuse_own_options",
    "run_own",
    "unnamed_record_game",
]

#: The game a command plays when ``--game`` is not given: the one the command is named for.
DEFAULT = "cantstop"

#: How a command refuses an option of another game's own, unless it words it otherwise.
OWN_OPTION = "{option} is an option of {owner}; {game} has none"

#: The attribute of the parsed arguments that maps each game's own option to its game.
_OWNERS = "own_options"


@functools.cache
def names() -> tuple[str, ...]:
    """Return the names of the registered games, in the order the help lists them.

    The installed distributions are read once a process: every command's parser asks.
    """
    return registry.names()


def load_game(name: str) -> Game[Any, Any, Any]:
    """Return the game object of the game called ``name``; an unknown name is a usage error."""
    try:
        return registry.load_game(name)
    except registry.RegistryError as exc:
        raise UsageError(str(exc)) from None


@functools.cache
def default_game() -> Game[Any, Any, Any]:
    """Return the game a command plays when ``--game`` is not given (loaded once a process)."""
    return load_game(DEFAULT)


def game_given(args: argparse.Namespace) -> bool:
    """Return whether ``--game`` names a game other than the one played without it."""
    name: str = args.game
    return name != DEFAULT


def unnamed_record_game() -> Game[Any, Any, Any]:
    """Return the game of a record whose header names no game: Can't Stop's older format."""
    return load_game(DEFAULT)


def hooks(game: Game[Any, Any, Any]) -> CommandHooks:
    """Return what ``game`` does its own way on the command line (the base hooks: nothing).

    >>> hooks(load_game('tower')).run('demo', argparse.Namespace()) is None
    True
    """
    own = capable(game, Capability.COMMAND_LINE)
    return CommandHooks() if own is None else own.command_line()


@functools.cache
def _loadable() -> tuple[Game[Any, Any, Any], ...]:
    """Return every registered game that loads; a broken registration is left out here.

    The registry is read once a process: every command's parser asks.

    The command says what is wrong with it when ``--game`` names it, and the
    other games are played as ever.
    """
    found = []
    for name in names():
        try:
            found.append(load_game(name))
        except UsageError:
            continue
    return tuple(found)


def command_modules() -> tuple[str, ...]:
    """Return the modules that add the registered games' own commands, game by game."""
    return tuple(module for game in _loadable() for module in hooks(game).command_modules())


def add_own_options(command: str, parser: argparse.ArgumentParser) -> None:
    """Add to ``command``'s ``parser`` the options that registered games have of their own.

    Each option is remembered with its game, for :func:`refuse_own_options`.  A game
    whose registration is broken adds none.
    """
    owners: dict[str, tuple[str, str, str]] = {}
    for game in _loadable():
        for flag in hooks(game).add_options(command, parser):
            dest = parser._option_string_actions[flag].dest
            owners[flag] = (dest, game.info.name, game.info.title)
    parser.set_defaults(**{_OWNERS: owners})


def refuse_own_options(args: argparse.Namespace, game: Game[Any, Any, Any], phrase: str) -> None:
    """Refuse an option given that another game than ``game`` has of its own.

    ``phrase`` words the refusal, with ``{option}``, ``{owner}`` (the title of
    the option's game), ``{game}`` (``game``'s title) and ``{name}`` (its name).
    """
    owners: dict[str, tuple[str, str, str]] = getattr(args, _OWNERS, {})
    for flag, (dest, owner, title) in owners.items():
        if owner != game.info.name and getattr(args, dest) not in (None, False):
            refusal = phrase.format(
                option=flag, owner=title, game=game.info.title, name=game.info.name
            )
            raise UsageError(refusal)


def run_own(
    command: str, args: argparse.Namespace, game: Game[Any, Any, Any], phrase: str = OWN_OPTION
) -> int | None:
    """Run ``command`` ``game``'s own way if it has one; return its status, or ``None``.

    ``None`` means the command runs the layer's way, and an option that
    another game has of its own is first refused (:func:`refuse_own_options`,
    worded by ``phrase``).
    """
    own = hooks(game).run(command, args)
    if own is None:
        refuse_own_options(args, game, phrase)
    return own


def game_runner(
    command: str,
    run: Callable[[Game[Any, Any, Any], argparse.Namespace], int],
    phrase: str = OWN_OPTION,
) -> Callable[[argparse.Namespace], int]:
    """Return the handler of ``command``: the chosen game's own way (:func:`run_own`), else ``run``.

    The handler loads the game ``--game`` names and returns the status of its
    own run of the command, or of ``run(game, args)`` when it has none.
    """

    def handler(args: argparse.Namespace) -> int:
        game = load_game(args.game)
        own = run_own(command, args, game, phrase)
        return run(game, args) if own is None else own

    return handler


def add_game_option(parser: argparse.ArgumentParser) -> None:
    """Add ``--game NAME`` to a command's parser, defaulting to Can't Stop."""
    parser.add_argument(
        "--game",
        default=DEFAULT,
        choices=names(),
        metavar="NAME",
        help=f"the game: {', '.join(names())} (default {DEFAULT})",
    )
