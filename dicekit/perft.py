"""Whole-chance counts ("perft") of any game: what every outcome of chance leaves the player.

For a state where chance acts, :func:`perft` goes over every chance outcome
with its integer weight (:func:`weighted_outcomes`: the smallest integers in
the proportion of the exact probabilities, so that for dice they count the
ordered throws each outcome stands for) and sums, weighted, the legal
actions after it and the outcomes after which the player has no decision at
all (a bust, a forfeited throw).  Two implementations of a game that agree
on these counts agree on every outcome of that state: the counts are a
cheap check of a port, as the chess engines' perft is.

The counts read nothing but the game protocol (``chance_outcomes``,
``apply`` and ``legal_actions``), so they are the same for every game; a
game's own, faster count must agree with them.

>>> from fractions import Fraction
>>> class Coin:  # one coin: heads lets the player pick one of two moves, tails passes
...     def chance_outcomes(self, state):
...         return [("heads", Fraction(1, 2)), ("tails", Fraction(1, 2))] if state == "toss" else []
...     def apply(self, state, action):
...         return {"heads": "pick", "tails": "toss"}[action]
...     def legal_actions(self, state):
...         return ["left", "right"] if state == "pick" else []
>>> perft(Coin(), "toss")
Perft(choices=2, no_decision=1, weight=2)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from typing import Any, NamedTuple, Protocol, TypeVar

from dicekit.errors import GameError, RuleError

__all__ = ["NoChance", "Perft", "ThrowCounts", "no_chance", "perft", "weighted_outcomes"]

_S = TypeVar("_S")
_A = TypeVar("_A")


class _Chance(Protocol[_S, _A]):
    """The part of :class:`~dicekit.protocol.Game` the counts read."""

    def chance_outcomes(self, state: _S) -> Sequence[tuple[_A, Fraction]]: ...

    def apply(self, state: _S, action: _A) -> _S: ...

    def legal_actions(self, state: _S) -> Sequence[_A]: ...


class Perft(NamedTuple):
    """The whole-chance counts of a state: see :func:`perft`."""

    #: The legal actions after each outcome, summed with the outcomes' weights.
    choices: int
    #: The weight of the outcomes after which the player has no legal action.
    no_decision: int
    #: The weight of all outcomes (36 for two dice, 1296 for four).
    weight: int


class ThrowCounts(NamedTuple):
    """A two-dice game's own whole-throw counts of a state about to throw, over 36 throws.

    A game's ``perft`` gives them faster than :func:`perft` does, under the
    game's own name (a subclass, so that its repr says so); over the same
    throws, ``choices`` is :attr:`Perft.choices` and ``forfeits`` is
    :attr:`Perft.no_decision`.

    >>> ThrowCounts(choices=22, forfeits=16).forfeits
    16
    """

    #: Legal actions summed over the ordered throws.
    choices: int
    #: Ordered throws after which the player has no legal action: the turn is forfeited.
    forfeits: int


class NoChance(GameError, ValueError):
    """Whole-chance counts asked of a state where chance does not act.

    When the game refuses a chance action in that state, its refusal (with the
    rule it names) is the ``__cause__``, and the message ends with it.
    """


def weighted_outcomes(outcomes: Sequence[tuple[_A, Fraction]]) -> tuple[tuple[_A, int], ...]:
    """Return chance's outcomes with integer weights in the proportion of their probabilities.

    The weights are the smallest such integers: each probability times the
    least common multiple of their denominators.

    >>> weighted_outcomes([("double", Fraction(1, 36)), ("other", Fraction(35, 36))])
    (('double', 1), ('other', 35))
    >>> weighted_outcomes([("a", Fraction(1, 2)), ("b", Fraction(1, 3)), ("c", Fraction(1, 6))])
    (('a', 3), ('b', 2), ('c', 1))
    """
    scale = math.lcm(*(Fraction(p).denominator for _, p in outcomes)) if outcomes else 1
    return tuple((action, int(Fraction(p) * scale)) for action, p in outcomes)


def perft(game: _Chance[_S, _A], state: _S) -> Perft:
    """Return the whole-chance counts of ``state``: legal actions and no-decision outcomes.

    ``state`` is one where chance acts (``chance_outcomes`` is not empty);
    otherwise :class:`NoChance` is raised (see :func:`no_chance`).
    """
    outcomes = game.chance_outcomes(state)
    if not outcomes:
        raise no_chance(game, state)
    choices = no_decision = total = 0
    for action, weight in weighted_outcomes(outcomes):
        count = len(game.legal_actions(game.apply(state, action)))
        choices += weight * count
        no_decision += weight * (count == 0)
        total += weight
    return Perft(choices, no_decision, total)


def no_chance(game: Any, state: Any, probe: Any = None) -> NoChance:
    """Return the error for counts asked of ``state``, where chance does not act.

    The game is asked to apply a chance action in ``state`` (``probe``, by
    default the first outcome of chance in the opening of the game's
    smallest configuration), so that its refusal names the rule that keeps
    chance from acting; the error quotes it.
    """
    if probe is None:
        try:
            opening = game.new_game(game.config(game.info.min_players))
            probe = next(iter(game.chance_outcomes(opening)), (None,))[0]
        except (AttributeError, RuleError):  # a game without the full protocol: no probe
            probe = None
    if probe is not None:
        try:
            game.apply(state, probe)
        except RuleError as refusal:
            error = NoChance(
                f"chance does not act here, so there is nothing to count; "
                f"a throw is refused: {refusal}"
            )
            error.__cause__ = refusal
            return error
    return NoChance("chance does not act in this state, so there is nothing to count")
