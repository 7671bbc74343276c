"""dicekit: the game-neutral layer under every game of this distribution.

A game provides the :class:`~dicekit.protocol.Game` protocol (the
:class:`~dicekit.protocol.Core` a game-playing framework asks for, the
:class:`~dicekit.protocol.Forms` of its notation and JSON, an invariant check,
a drawing and its players) and declares what more it offers as
:class:`~dicekit.protocol.Capability` data; the layer gives, for any such
game, the spec reader and example runner, the conformance vectors, port
protocol and harness, the record writer and verifier, perft, play,
simulation, Hypothesis strategies and the research adapters.

The layer imports no game and names none, and no game imports another.
"""

from dicekit import errors
from dicekit.errors import *  # noqa: F403  (every error a game raises)
from dicekit.protocol import Capability, Core, Forms, Game, GameInfo, Step, Stepping

__all__ = [
    "Capability",
    "Core",
    "Forms",
    "Game",
    "GameInfo",
    "Step",
    "Stepping",
    *errors.__all__,
]
