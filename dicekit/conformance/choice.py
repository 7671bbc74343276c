"""What the conformance commands need of a game: its suite, vectors, generator and ports.

``conform``, ``serve`` and ``verify`` work on a :class:`GameConformance`:
the suite the harness runs, the folder of its versions, the generator, the
reference port and the bundled port.  :func:`conformance_of` gives it for
any game: the layer's generic suite (:class:`dicekit.conformance.gamesuite.GameVectorsSuite`,
the vectors under ``conformance/`` in the game's spec folder, the one-call
generator and the layer's reference port), or the suite of the game's own
for a game that declares :attr:`~dicekit.protocol.Capability.OWN_SUITE`
(:class:`OwnSuite`).  Nothing here names a game.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from dicekit.conformance import vectors
from dicekit.conformance.cases import load_cases, suite_versions
from dicekit.conformance.gamesuite import GameVectorsSuite
from dicekit.conformance.serve import Message, Server
from dicekit.conformance.suite import Case, GameSuite
from dicekit.conformance.vectorfiles import write_next
from dicekit.protocol import Capability, Game, capable

__all__ = ["GameConformance", "OwnSuite", "conformance_of", "layered"]


@dataclass(frozen=True)
class GameConformance:
    """What ``conform``, ``serve`` and ``verify`` need of one game."""

    #: The game object.
    game: Game[Any, Any, Any]
    #: The suite the harness runs.
    suite: GameSuite
    #: The folder of every version of the suite.
    root: Path
    #: The version the generator writes, or ``None`` when it writes the newest installed.
    newest: int | None
    #: Rewrites the vectors (in a folder, or where the suite's next change goes); returns the
    #: counts and the folder, and no counts when the newest version is released and unchanged.
    regenerate: Callable[[Path | None], tuple[dict[str, int], Path]]
    #: Answers one request of the protocol as the game's reference port.
    answer: Callable[[object], Message]
    #: The bundled port's script, looked for in this order.
    port_scripts: tuple[Path, ...]

    @property
    def title(self) -> str:
        """The game's title, for messages."""
        title: str = self.game.info.title
        return title

    def versions(self) -> list[int]:
        """Return the versions of the suite installed, oldest first."""
        return suite_versions(self.root)

    def vectors_dir(self, version: int) -> Path:
        """Return the folder of ``version``'s vector files."""
        return self.root / f"v{version}"

    def load(self, directory: Path) -> list[Case]:
        """Read every case of the vector files in ``directory`` (``HarnessError`` if it cannot)."""
        return load_cases(directory, self.suite.checks)

    def bundled_port(self) -> list[str] | None:
        """Return the command of the game's bundled JavaScript port, or ``None`` without Node.

        Raise :class:`FileNotFoundError` when the port is missing.
        """
        node = shutil.which("node")
        for script in self.port_scripts:
            if script.is_file():
                return None if node is None else [node, str(script)]
        raise FileNotFoundError(
            f"the bundled JavaScript port of {self.title} ({self.port_scripts[0]}) is missing"
        )


class OwnSuite(Protocol):
    """:attr:`~dicekit.protocol.Capability.OWN_SUITE`: a conformance suite of the game's own.

    A game whose suite is older than the layer's generic one, or richer
    (versions of its own, cases the generic families do not write), gives
    everything the commands need of it here.
    """

    def conformance(self) -> GameConformance:
        """Return the game's suite, vectors, generator, reference port and bundled port."""
        ...


def layered(game: Game[Any, Any, Any]) -> GameConformance:
    """Return the layer's suite, vectors, generator and reference port of ``game``."""

    def regenerate(directory: Path | None) -> tuple[dict[str, int], Path]:
        installed = vectors.versions(game)
        newest = installed[-1] if installed else 1
        if directory is None:  # where the suite's next change goes
            root = vectors.suite_root(game)
            return write_next(root, newest, lambda v: vectors.generate_vectors(game, v))
        return vectors.write_vectors(game, newest, directory=directory), directory

    home = game.info.spec_dir.parent
    return GameConformance(
        game,
        GameVectorsSuite(game),
        vectors.suite_root(game),
        None,
        regenerate,
        Server(game, program="cantstop serve").handle,
        (home / "ports" / "javascript" / "port.js",),
    )


def conformance_of(game: Game[Any, Any, Any]) -> GameConformance:
    """Return the suite, vectors, generator, reference port and bundled port of ``game``.

    The game's own (:class:`OwnSuite`) if it declares one, else the layer's (:func:`layered`).
    """
    own = capable(game, Capability.OWN_SUITE)
    return layered(game) if own is None else own.conformance()
