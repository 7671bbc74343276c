r"""The games installed on the layer: found by their entry points, loaded by name.

A game joins by registering its game object in the entry-point group
:data:`GROUP` of its distribution, under the name ``--game`` takes::

    [project.entry-points."dicekit.games"]
    mygame = "mygame.layer:GAME"

Every distribution installed in the environment is read, so a game
installed as its own distribution appears in every command's ``--game``
with no edit to the layer or the command line.  A source tree run without
installing it (``python3 -m PACKAGE`` from a clone) has no installed entry
points of its own; its ``pyproject.toml``, beside the layer's package, is
read for the same table, so the games of the tree are found either way.

>>> GROUP
'dicekit.games'
>>> sorted(read_table('[project.entry-points."dicekit.games"]\nmine = "pkg.layer:GAME"\n'))
['mine']
"""

from __future__ import annotations

import importlib
import tomllib
from collections.abc import Mapping
from importlib import metadata
from pathlib import Path
from typing import Any

from dicekit.protocol import Game

__all__ = ["GROUP", "RegistryError", "load_game", "names", "read_table", "registered"]

#: The entry-point group a game registers its game object in.
GROUP = "dicekit.games"


class RegistryError(LookupError):
    """A game name that no distribution registers, or an entry that is not a game object."""


def read_table(text: str) -> dict[str, str]:
    """Return the games a ``pyproject.toml``'s text registers: each name and its object's path."""
    data = tomllib.loads(text)
    table = data.get("project", {}).get("entry-points", {}).get(GROUP, {})
    return {str(name): str(target) for name, target in table.items()}


def _source_tree() -> dict[str, str]:
    """Return the games the ``pyproject.toml`` beside the layer's package registers, if any."""
    pyproject = Path(__file__).resolve().parent.parent / "pyproject.toml"
    try:
        return read_table(pyproject.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return {}


def registered() -> Mapping[str, str]:
    """Return every registered game's name and the path of its game object (``module:NAME``).

    The installed distributions' entry points, and those of the source tree
    the layer runs from; an installed entry wins over the tree's of the same name.
    """
    found = _source_tree()
    for entry in metadata.entry_points(group=GROUP):
        found[entry.name] = entry.value
    return dict(sorted(found.items()))


def names() -> tuple[str, ...]:
    """Return the names of the registered games, in alphabetical order."""
    return tuple(registered())


def load_game(name: str) -> Game[Any, Any, Any]:
    """Return the game object registered as ``name``.

    Raises :class:`RegistryError` for a name no distribution registers, or
    for an entry whose object is not a game of that name.
    """
    target = registered().get(name)
    if target is None:
        raise RegistryError(f"no game is called {name!r}; the games are {', '.join(names())}")
    module_name, _, attribute = target.partition(":")
    try:
        found: Any = importlib.import_module(module_name.strip())
        for part in attribute.strip().split(".") if attribute.strip() else ():
            found = getattr(found, part)
    except (ImportError, AttributeError) as exc:
        raise RegistryError(f"the game {name!r} is registered as {target!r}: {exc}") from exc
    info = getattr(found, "info", None)
    if getattr(info, "name", None) != name:
        raise RegistryError(
            f"the game {name!r} is registered as {target!r}, which is not the game object "
            f"of a game called {name!r}"
        )
    game: Game[Any, Any, Any] = found
    return game
