"""The games this distribution's command line knows, and the ``--game`` option that picks one.

The command line is the one place that names every game: it maps each name
to the module holding the game's :class:`dicekit.protocol.Game` object and
imports a game only when a command asks for it.  The layer (:mod:`dicekit`)
knows no game, and no game imports another.

>>> names()
('cantstop', 'finishline', 'tower')
>>> load_game('finishline').info.title
'The finish-line race'
"""

from __future__ import annotations

import argparse
import importlib
from typing import Any

from cantstop.commands.report import UsageError
from dicekit.protocol import Game

__all__ = ["DEFAULT", "add_game_option", "load_game", "names"]

#: Each game's name, and the module whose ``GAME`` is its game object.
_MODULES: dict[str, str] = {
    "cantstop": "cantstop.layer",
    "finishline": "finishline",
    "tower": "tower",
}

#: The game a command plays when ``--game`` is not given.
DEFAULT = "cantstop"


def names() -> tuple[str, ...]:
    """Return the names of the games, in the order the help lists them."""
    return tuple(_MODULES)


def load_game(name: str) -> Game[Any, Any, Any]:
    """Return the game object of the game called ``name``; an unknown name is a usage error."""
    module = _MODULES.get(name)
    if module is None:
        raise UsageError(f"no game is called {name!r}; the games are {', '.join(names())}")
    game: Game[Any, Any, Any] = importlib.import_module(module).GAME
    return game


def add_game_option(parser: argparse.ArgumentParser) -> None:
    """Add ``--game NAME`` to a command's parser, defaulting to Can't Stop."""
    parser.add_argument(
        "--game",
        default=DEFAULT,
        choices=names(),
        metavar="NAME",
        help=f"the game: {', '.join(names())} (default {DEFAULT})",
    )
