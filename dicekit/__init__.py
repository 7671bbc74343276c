"""dicekit: the game-neutral layer under every game of this distribution.

A game provides the :class:`~dicekit.protocol.Game` protocol (its
configuration, states, actions, chance, notation, JSON forms, invariants and
drawing); the layer gives, for any such game, the spec reader and example
runner, the conformance vectors, port protocol and harness, the record writer
and verifier, perft, Hypothesis strategies and the research adapters.

The layer imports no game, and no game imports another.
"""

from dicekit.errors import (
    GameError,
    IllegalAction,
    InvalidConfig,
    InvalidState,
    NotationError,
    RuleError,
)
from dicekit.protocol import Game, GameInfo, Step, Stepping

__all__ = [
    "Game",
    "GameError",
    "GameInfo",
    "IllegalAction",
    "InvalidConfig",
    "InvalidState",
    "NotationError",
    "RuleError",
    "Step",
    "Stepping",
]
