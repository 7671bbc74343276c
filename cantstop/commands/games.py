"""The ``--game`` option: the games the layer's registry finds, and the one a command plays.

The games are not named here: each registers itself in the layer's
entry-point group (:mod:`dicekit.registry`), and the command line offers
every game found there, those installed as their own distributions
included.  Can't Stop, whose command this is, is played when ``--game`` is
not given.

>>> 'finishline' in names() and 'tower' in names()
True
>>> load_game(DEFAULT).info.title
"Can't Stop"
"""

from __future__ import annotations

import argparse
from typing import Any

from cantstop.commands.report import UsageError
from dicekit import registry
from dicekit.protocol import Game

__all__ = ["DEFAULT", "add_game_option", "load_game", "names"]

#: The game a command plays when ``--game`` is not given: the one the command is named for.
DEFAULT = "cantstop"


def names() -> tuple[str, ...]:
    """Return the names of the registered games, in the order the help lists them."""
    return registry.names()


def load_game(name: str) -> Game[Any, Any, Any]:
    """Return the game object of the game called ``name``; an unknown name is a usage error."""
    try:
        return registry.load_game(name)
    except registry.RegistryError as exc:
        raise UsageError(str(exc)) from None


def add_game_option(parser: argparse.ArgumentParser) -> None:
    """Add ``--game NAME`` to a command's parser, defaulting to Can't Stop."""
    parser.add_argument(
        "--game",
        default=DEFAULT,
        choices=names(),
        metavar="NAME",
        help=f"the game: {', '.join(names())} (default {DEFAULT})",
    )
