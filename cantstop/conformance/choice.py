"""Can't Stop's own conformance suite, as the conformance commands take it from the game.

Can't Stop's suite is older than the layer's generic one and its own: its
versions (``spec/conformance/vN/``, v1 frozen), its generator
(:mod:`cantstop.conformance.generate`, with the play, text and explain cases),
its reference port (:mod:`cantstop.conformance.serve`) and its bundled
JavaScript port.  :func:`cantstop_conformance` gathers them into the layer's
:class:`~dicekit.conformance.choice.GameConformance`, which
:data:`cantstop.layer.GAME` gives as its own
(:attr:`~dicekit.protocol.Capability.OWN_SUITE`).  The commands find any
game's with :func:`~dicekit.conformance.choice.conformance_of`, the layer's (re-exported here with
:class:`~dicekit.conformance.choice.GameConformance`), which names no game.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from dicekit.conformance.choice import GameConformance, conformance_of
from dicekit.protocol import Game

__all__ = ["GameConformance", "cantstop_conformance", "conformance_of"]

#: The Can't Stop port that ships with the package, beside it in a checkout or inside a wheel.
_CANTSTOP_PORTS = (
    Path("examples") / "ports" / "javascript" / "port.js",
    Path("cantstop") / "_ports" / "javascript" / "port.js",
)


def cantstop_conformance(game: Game[Any, Any, Any]) -> GameConformance:
    """Return Can't Stop's suite, vectors, generator, reference port and bundled port."""
    from cantstop.conformance import generate, serve
    from cantstop.conformance.suite import SUITE

    def regenerate(directory: Path | None) -> tuple[dict[str, int], Path]:
        if directory is None:
            return generate.write_next_version()
        return generate.write(directory), directory

    checkout = Path(__file__).resolve().parent.parent.parent
    return GameConformance(
        game,
        SUITE,
        generate.suite_root(),
        generate.SUITE_VERSION,
        regenerate,
        serve.handle,
        tuple(checkout / path for path in _CANTSTOP_PORTS),
    )
