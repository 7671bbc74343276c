"""Built-in players: a random one and the runner, which weighs each move by what it leaves.

A player is asked only when a move is to be chosen (phase CHOOSE); the dice
are thrown by whoever runs the game.  Each satisfies
:class:`dicekit.protocol.Bot`: ``act(state, rng)`` returns one of
``state.legal_moves()``, drawing from ``rng`` and nothing else.

The runner looks one move ahead.  It applies each legal move and scores the
position left: its own stones' progress along their routes against the
opponents', a stone home worth more than one at the gate, a throw again
worth the average advance of a throw, and a penalty for each of its stones
that an opponent stone stands one to six steps behind, weighted by the chance
of the die it needs (11/36) and the progress the stone would lose.

>>> import random
>>> from tower import parse_state
>>> state = parse_state('R4,9/B7,20 - 0c35 @ours')  # 4+3 captures on red field 7
>>> RunnerPlayer().act(state, random.Random(1))
Move(step=4, points=3)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping

from dicekit.protocol import Bot
from tower.actions import Action, Move
from tower.state import Phase, State

__all__ = ["PLAYERS", "RandomPlayer", "RunnerPlayer", "score"]

#: The chance that a given number of points shows on at least one of two dice.
HIT = 11 / 36
#: What a throw again is worth: about the points of the die a player would pick.
AGAIN = 4.5
#: What a stone in the goal is worth beyond its steps.
HOME = 4.0


def _threats(state: State, player: int, place: int) -> int:
    """Count the other players' stones one to six steps behind ``player``'s stone on ``place``."""
    config = state.config
    spot = config.routes[player][place]
    count = 0
    for q, places in enumerate(state.stones):
        if q == player:
            continue
        route, length = config.routes[q], config.lengths[q]
        steps = [k for k in range(1, length) if route[k] == spot]
        for theirs in set(places):
            if theirs < length and any(1 <= k - theirs <= 6 for k in steps):
                count += places.count(theirs)
    return count


def score(state: State, player: int) -> float:
    """Return how good ``state`` is for ``player``: progress, threats and a throw again.

    >>> from tower import parse_state
    >>> home = score(parse_state('R12,g/B0,0 - 1t @ours'), 0)
    >>> home > score(parse_state('R12,30/B0,0 - 1t @ours'), 0)
    True
    """
    if state.phase is Phase.OVER:
        return 1000.0 if state.winner == player else -1000.0
    config = state.config
    total = 0.0
    for p, places in enumerate(state.stones):
        length = config.lengths[p]
        mine = p == player
        for place in places:
            value = float(place) + (HOME if place == length else 0.0)
            if mine and 0 < place < length:
                value -= HIT * min(_threats(state, p, place), 2) * place
            total += value if mine else -value / (config.players - 1)
    if state.player == player:
        total += AGAIN
    return total


class RandomPlayer:
    """Plays a legal move chosen uniformly at random."""

    name = "random"

    def act(self, state: State, rng: random.Random) -> Action:
        """Return one of the legal moves, drawn from ``rng``."""
        return rng.choice(_moves(state))


class RunnerPlayer:
    """Plays the legal move that leaves the best :func:`score`; ties go to the first in order."""

    name = "runner"

    def act(self, state: State, rng: random.Random) -> Action:
        """Return the legal move whose result scores best for the player to move."""
        me = state.player
        return max(_moves(state), key=lambda move: score(state.apply(move), me))


def _moves(state: State) -> tuple[Move, ...]:
    moves = state.legal_moves()
    if not moves:
        raise ValueError(f"no move to choose in {state!r}: a player acts only in phase CHOOSE")
    return moves


#: The built-in players by name.
PLAYERS: Mapping[str, Callable[[], Bot[State, Action]]] = {
    "random": RandomPlayer,
    "runner": RunnerPlayer,
}
