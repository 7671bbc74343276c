"""Built-in players: :class:`RandomPlayer` and :class:`RacerPlayer`, a greedy racer.

A player is a :class:`dicekit.protocol.Bot`: given a state in the CHOOSE
phase, it returns one of the legal actions, drawing only from the generator
it is handed, so that a game is determined by its seeds.  The dice are thrown
by whoever runs the game (:mod:`finishline.simulate`).

>>> import random
>>> from finishline.notation import format_action, parse_state
>>> state = parse_state('..../..0./..../..../01../...1 0/0 0c24')
>>> format_action(RacerPlayer().act(state, random.Random(1)))
'+A2,+B4'
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping

from dicekit.protocol import Bot
from finishline.actions import Action
from finishline.rules import Board
from finishline.state import State

__all__ = ["PLAYERS", "RacerPlayer", "RandomPlayer", "distance", "score"]


class RandomPlayer:
    """Takes a legal action uniformly at random.

    >>> from finishline.notation import parse_state
    >>> state = parse_state('..../..0./..../..../01../...1 0/0 0c24')
    >>> RandomPlayer().act(state, random.Random(1)) in state.legal_actions()
    True
    """

    name = "random"

    def act(self, state: State, rng: random.Random) -> Action:
        """Return a legal action of ``state`` drawn uniformly from ``rng``."""
        return rng.choice(state.legal_actions())


def distance(board: Board, across: int, counters: int, player: int) -> int:
    """Return how many rows ``player``'s counters still have to go to the line, in all.

    A counter in row r has r rows to go, one across none, and one in hand 7:
    a placement puts it in some row, which is at least one row of progress.

    >>> distance((None,) * 24, 0, 6, 0)
    42
    """
    on_board = 0
    rows = 0
    for c, owner in enumerate(board):
        if owner == player:
            on_board += 1
            rows += c // 4 + 1
    return rows + 7 * (counters - on_board - across)


def _blocked(board: Board, player: int) -> tuple[int, int]:
    """Count ``player``'s counters blocked from behind, and others' counters the player blocks."""
    mine = theirs = 0
    for c in range(4, 24):
        owner, above = board[c], board[c - 4]
        if owner is None or above is None:
            continue
        if owner == player:
            mine += 1
        elif above == player:
            theirs += 1
    return mine, theirs


def score(state: State, action: Action) -> float:
    """Return how good ``action`` is for the player of ``state``: higher is better.

    The racer's measure: rows gained towards the line (:func:`distance`),
    then a little for each rival counter left blocked behind the player's,
    less a little for each of the player's own counters left blocked.
    """
    board, mine = state._outcomes()[action]
    me = state.player
    counters = state.config.counters
    before = distance(state.board, state.across[me], counters, me)
    gained = before - distance(board, mine, counters, me)
    own_blocked, rivals_blocked = _blocked(board, me)
    return gained + 0.25 * rivals_blocked - 0.4 * own_blocked


class RacerPlayer:
    """Takes the action that gains the most rows, then blocks rivals and frees its own counters.

    Ties go to the first such action in the order of N2.6, so the racer draws
    nothing from its generator.
    """

    name = "racer"

    def act(self, state: State, rng: random.Random) -> Action:
        """Return the legal action of ``state`` with the best :func:`score`."""
        actions = state.legal_actions()
        return max(actions, key=lambda action: score(state, action))


#: The built-in players by name.
PLAYERS: Mapping[str, Callable[[], Bot[State, Action]]] = {
    "random": RandomPlayer,
    "racer": RacerPlayer,
}
