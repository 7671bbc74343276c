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
from finishline.decide import Board
from finishline.state import State

__all__ = ["HAND_COST", "PLAYERS", "RacerPlayer", "RandomPlayer", "distance", "score"]


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


#: The die uses a counter in hand still needs: one to place it, then on average 3.5 rows.
HAND_COST = 4.5


def distance(board: Board, across: int, counters: int, player: int) -> float:
    """Return how many die uses ``player``'s counters still need to cross the line, in all.

    A counter in row r needs r (one per row), one across none, and one in hand
    :data:`HAND_COST`: one die to place it, in a row from 1 to 6, 3.5 on average.

    >>> distance((None,) * 24, 0, 6, 0)
    27.0
    """
    on_board = 0
    rows = 0
    for c, owner in enumerate(board):
        if owner == player:
            on_board += 1
            rows += c // 4 + 1
    return rows + HAND_COST * (counters - on_board - across)


def _blocking(board: Board, player: int) -> tuple[int, int, int]:
    """Count the player's blocked counters, the rival counters it blocks, and its free rows.

    A free row is a row where the player has a counter that can move forward.
    """
    mine = theirs = 0
    rows = set()
    for c, owner in enumerate(board):
        above = board[c - 4] if c >= 4 else None
        if owner == player:
            if above is None:
                rows.add(c // 4)
            else:
                mine += 1
        elif owner is not None and above == player:
            theirs += 1
    return mine, theirs, len(rows)


def score(state: State, action: Action) -> float:
    """Return how good ``action`` is for the player of ``state``: higher is better.

    The racer's measure: the die uses it saves towards the line
    (:func:`distance`), plus one for each rival counter the player's counters
    then block, half of one less for each of the player's own counters left
    blocked, and a little for each row where the player has a counter free to
    move, so that more of the next roll's numbers move something.
    """
    board, mine = state._outcomes()[action]
    me = state.player
    counters = state.config.counters
    gained = distance(state.board, state.across[me], counters, me) - distance(
        board, mine, counters, me
    )
    own_blocked, rivals_blocked, free_rows = _blocking(board, me)
    return gained + 1.0 * rivals_blocked - 0.5 * own_blocked + 0.3 * free_rows


class RacerPlayer:
    """Takes the action that saves the most die uses, then blocks rivals and keeps moving.

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
