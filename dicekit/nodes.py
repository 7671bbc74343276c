"""Node kinds: each state of a game is a player's decision, chance's turn, or the end.

A game's protocol (:class:`~dicekit.protocol.Core`) lists the legal actions
of a state and chance's outcomes.  Most states have one or the other.  In a
game that leaves it to the player whether chance acts
(:attr:`~dicekit.protocol.Capability.CHANCE_BY_CHOICE`: rolling again
beside stopping, the toy game's roll on beside the hold), a state may
have both; the layer settles it one way, here, and every loop of the layer
(play, demonstrations, simulations, the conformance pools, the Hypothesis
strategies, OpenSpiel) asks this module and nothing else:

* such a state is a **decision**: the player's decisions are the legal
  actions and then :data:`~dicekit.protocol.CHANCE` (:func:`decisions`);
* choosing :data:`~dicekit.protocol.CHANCE` leads to a **chance** node,
  whose outcomes are ``chance_outcomes`` of the same state;
* a state with no decision is chance's (:func:`kind`), unless the game is
  over.

So "roll again" is a decision followed by a chance node, and a forced roll
(a state whose only decision is :data:`~dicekit.protocol.CHANCE`) is still
the player's.  Records and the port protocol write the outcome alone: the
decision to let chance act is implied by the outcome that follows it.

>>> from fractions import Fraction
>>> from pathlib import Path
>>> from dicekit.protocol import Capability, GameInfo
>>> class Press:  # press on (chance: heads wins, tails loses) or bank, once per game
...     info = GameInfo("press", "Press", 1, 1, Path("spec"),
...                     frozenset({Capability.CHANCE_BY_CHOICE}))
...     def is_over(self, state): return state in ("won", "lost", "banked")
...     def legal_actions(self, state): return ("bank",) if state == "start" else ()
...     def chance_outcomes(self, state):
...         return () if self.is_over(state) else (("heads", Fraction(1, 2)),
...                                                ("tails", Fraction(1, 2)))
...     def chance_by_choice(self, state): return state == "start"
>>> decisions(Press(), "start"), kind(Press(), "start"), kind(Press(), "won")
(('bank', <Chance.ACT: 'chance'>), <Kind.DECISION: 'decision'>, <Kind.OVER: 'over'>)
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence
from typing import Any

from dicekit.protocol import CHANCE, Capability, capable

__all__ = ["Kind", "decider", "decisions", "kind", "turn_ends"]


_BY_CHOICE = Capability.CHANCE_BY_CHOICE


class Kind(enum.Enum):
    """What a state waits for: a player's decision, chance, or nothing (the game is over)."""

    DECISION = "decision"
    CHANCE = "chance"
    OVER = "over"


def decisions(game: Any, state: Any) -> Sequence[Any]:
    """Return the player's decisions in ``state``: the legal actions, then ``CHANCE`` if chosen.

    :data:`~dicekit.protocol.CHANCE` is a decision where the game declares
    :attr:`~dicekit.protocol.Capability.CHANCE_BY_CHOICE` and says that
    chance acts only if the player decides so.  Empty at a chance node and
    once the game is over.
    """
    legal: Sequence[Any] = game.legal_actions(state)
    # The capability read as capable() does, without its call: every step of play asks.
    if _BY_CHOICE in game.info.capabilities and game.chance_by_choice(state):
        return (*legal, CHANCE)
    return legal


def decider(game: Any) -> Callable[[Any], Sequence[Any]]:
    """Return :func:`decisions` for ``game`` alone, its capabilities read once, for hot loops.

    ``decider(game)(state)`` equals ``decisions(game, state)`` for every state.
    """
    legal: Callable[[Any], Sequence[Any]] = game.legal_actions
    chooser = capable(game, Capability.CHANCE_BY_CHOICE)
    if chooser is None:
        return legal
    by_choice = chooser.chance_by_choice

    def decide(state: Any) -> Sequence[Any]:
        actions = legal(state)
        return (*actions, CHANCE) if by_choice(state) else actions

    return decide


def kind(game: Any, state: Any) -> Kind:
    """Return whether ``state`` waits for a player's decision, for chance, or for nothing."""
    if game.is_over(state):
        return Kind.OVER
    return Kind.DECISION if decisions(game, state) else Kind.CHANCE


def turn_ends(game: Any, after: Any) -> bool:
    """Return whether an action that led to ``after`` ended a turn.

    A turn is a player's run of decisions between two chance nodes that the
    rules force: it ends when the game does, or where chance must act with
    no decision of the player's (the dice are due).  The research adapters
    count turns with it (a limit on them, a reward for fewer).
    """
    return kind(game, after) is not Kind.DECISION
