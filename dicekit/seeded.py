"""Seeded play of any game: chance thrown by its exact odds, bots asked, a game played out.

Everything the layer plays (simulations, demonstrations, the terminal game,
strategies' completions, tests) goes through these few functions, so that
one seed gives one game whoever plays it:

- :func:`throw` draws one of chance's outcomes with one ``rng.randrange``
  over their integer weights (:func:`dicekit.perft.weighted_outcomes`), so
  an outcome's chance is exactly its probability;
- :func:`next_action` asks the bot of the player to act, and throws when
  chance acts: at a chance node, or after the player's decision to let
  chance act, :data:`~dicekit.protocol.CHANCE` (:mod:`dicekit.nodes`);
- :func:`play_out` plays a game on from a state, step by step
  (``Turn`` says who acted and what happened).

>>> import random
>>> from fractions import Fraction
>>> loaded = [("six", Fraction(1)), ("one", Fraction(0))]  # a die that always shows six
>>> {pick(loaded, random.Random(seed)) for seed in range(20)}
{'six'}
"""

from __future__ import annotations

import bisect
import itertools
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from dicekit.errors import GameError
from dicekit.nodes import decisions
from dicekit.perft import weighted_outcomes
from dicekit.protocol import CHANCE, Bot, Core, Game

__all__ = ["Acted", "NoAction", "next_action", "pick", "play_out", "player_count", "throw"]


class NoAction(GameError, RuntimeError):
    """A state where nobody can act although the game is not over: the game object is broken."""


def pick(outcomes: Sequence[tuple[Any, Fraction]], rng: random.Random) -> Any:
    """Return one of ``outcomes`` drawn by its probability, with one ``rng.randrange``.

    The outcomes' integer weights (:func:`~dicekit.perft.weighted_outcomes`)
    are laid end to end and one number below their total picks the outcome.
    """
    weighted = weighted_outcomes(outcomes)
    bounds = list(itertools.accumulate(weight for _, weight in weighted))
    return weighted[bisect.bisect_right(bounds, rng.randrange(bounds[-1]))][0]


def player_count(game: Core[Any, Any, Any], config: Any) -> int:
    """Return the number of players of ``config``, as the game's ``player_count`` gives it."""
    return game.player_count(config)


def throw(game: Game[Any, Any, Any], state: Any, rng: random.Random) -> Any:
    """Return chance's action in ``state``, drawn by its exact odds (:func:`pick`).

    Raises :class:`NoAction` if chance cannot act in ``state``.
    """
    outcomes = game.chance_outcomes(state)
    if not outcomes:
        raise NoAction(f"chance cannot act in state {game.format_state(state)!r}")
    return pick(outcomes, rng)


def next_action(
    game: Game[Any, Any, Any], state: Any, bot: Bot[Any, Any] | None, rng: random.Random
) -> tuple[Any, bool]:
    """Return the next action of a game in ``state``, and whether chance chose it.

    At a chance node (:func:`dicekit.nodes.kind`) chance acts.  At a
    decision, ``bot``, the player's, picks one of the decisions
    (:func:`dicekit.nodes.decisions`), and chance acts if it picks
    :data:`~dicekit.protocol.CHANCE`; with no bot (``None``) chance acts.
    """
    if not decisions(game, state) or bot is None:
        return throw(game, state, rng), True
    chosen = bot.act(state, rng)
    if chosen is CHANCE:
        return throw(game, state, rng), True
    return chosen, False


@dataclass(frozen=True)
class Acted:
    """One step of a game: who acted in which state, the action, and the state after it."""

    #: The player to act before the action (for chance, the player it acted for).
    player: int
    #: The state before the action.
    before: Any
    #: The action.
    action: Any
    #: Whether chance chose the action.
    by_chance: bool
    #: The state after the action.
    after: Any


def play_out(
    game: Game[Any, Any, Any],
    state: Any,
    bots: Sequence[Bot[Any, Any]],
    rng: random.Random,
    limit: int | None = None,
) -> Iterator[Acted]:
    """Play on from ``state`` until the game is over; yield every step.

    ``bots`` holds one bot per player; the dice and the bots draw from
    ``rng``.  At most ``limit`` steps are played when it is given.
    """
    steps = itertools.count() if limit is None else range(limit)
    for _ in steps:
        if game.is_over(state):
            return
        player = game.player(state)
        action, by_chance = next_action(game, state, bots[player], rng)
        after = game.apply(state, action)
        yield Acted(player, state, action, by_chance, after)
        state = after
