"""Built-in players: the :class:`Player` protocol and three strategies.

A player makes the two decisions of a turn (R3): which legal move to play for
the dice on the table, and, once the roll is played, whether to stop or roll
again.  Chance stays outside the player: the dice are rolled by whoever runs
the game (:func:`cantstop.simulate.play_game`, ``cantstop play``), and a
player that wants randomness draws from the generator it is handed, so that
a game is determined by its seeds.

>>> import random
>>> from cantstop import Roll, new_game
>>> state = new_game().apply(Roll((3, 4, 5, 5)))
>>> Rule28Player().choose(state, random.Random(1))  # 8 and 9 are likelier than 7 and 10
Move(columns=(8, 9))
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Protocol, runtime_checkable

from cantstop.actions import Move
from cantstop.game import State
from cantstop.odds import bust_probability, expected_gain, single_column_chances
from cantstop.rules import Variant

__all__ = [
    "PLAYERS",
    "RULE_28_VALUES",
    "GreedyPlayer",
    "Player",
    "RandomPlayer",
    "Rule28Player",
    "may_stop",
    "stopping_wins",
    "turn_progress",
]


@runtime_checkable
class Player(Protocol):
    """What the game asks of a player.

    ``choose`` is called in :attr:`~cantstop.Phase.CHOOSE` and returns one of
    ``state.legal_moves()``; ``stops`` is called in
    :attr:`~cantstop.Phase.DECIDE` and returns ``True`` to stop, ``False`` to
    roll again.  Both may draw from ``rng`` and nothing else that is random.
    """

    #: A short name for tables and prompts.
    name: str

    def choose(self, state: State, rng: random.Random) -> Move:
        """Return the move to play for the dice of ``state``."""
        ...

    def stops(self, state: State, rng: random.Random) -> bool:
        """Return whether to stop now (``True``) rather than roll again."""
        ...


def turn_progress(state: State) -> int:
    """Return how many spaces the markers stand above the player's own squares.

    That is the progress a bust would lose (R10.2).

    >>> from cantstop import parse_state
    >>> turn_progress(parse_state('7:2/- 7:5,9:1 0d'))
    4
    """
    own = state.squares[state.player]
    return sum(space - own.get(column, 0) for column, space in state.markers.items())


def stopping_wins(state: State) -> bool:
    """Return whether stopping now would win the game (R11.3, R12.1).

    >>> from cantstop import parse_state
    >>> stopping_wins(parse_state('2:3,3:5/- 4:7 0d'))
    True
    """
    heights = state.rules.heights
    held = sum(1 for owner in state.won.values() if owner == state.player)
    held += sum(1 for column, space in state.markers.items() if space == heights[column])
    return held >= state.rules.columns_to_win


def may_stop(state: State) -> bool:
    """Return whether the rules allow a stop now: only Variant B ever forbids one (R14.2).

    >>> from cantstop import parse_state
    >>> may_stop(parse_state('-/7:3 7:3 0d B')), may_stop(parse_state('-/7:3 7:4 0d B'))
    (False, True)
    """
    if state.rules.variant is not Variant.B:
        return True
    return not any(
        theirs.get(column) == space
        for column, space in state.markers.items()
        for p, theirs in enumerate(state.squares)
        if p != state.player
    )


class RandomPlayer:
    """Chooses a legal move uniformly at random; rolls again with probability ``roll_again``.

    >>> from cantstop import Roll, new_game
    >>> state = new_game().apply(Roll((3, 4, 5, 5)))
    >>> RandomPlayer().choose(state, random.Random(1)) in state.legal_moves()
    True
    """

    name = "random"

    def __init__(self, roll_again: float = 0.7) -> None:
        self.roll_again = roll_again

    def choose(self, state: State, rng: random.Random) -> Move:
        """Return a legal move chosen uniformly at random."""
        moves = state.legal_moves()
        return moves[int(rng.random() * len(moves))]

    def stops(self, state: State, rng: random.Random) -> bool:
        """Stop with probability ``1 - roll_again``."""
        return rng.random() >= self.roll_again


class GreedyPlayer:
    """Takes the biggest step up the board, and rolls again while the odds favour it.

    Move: the move that climbs the largest fraction of the columns' heights
    (a space in a short column is worth more than one in a tall column); among
    equals, the one placing fewer new markers, then the first in order.

    Stop or roll: it rolls again while the spaces the next roll is expected
    to add (:func:`cantstop.odds.expected_gain`) exceed the spaces it expects to
    lose, the bust probability times the turn's progress
    (:func:`turn_progress`).  It always stops when stopping wins or when a
    marker stands on a top space, claiming a column.

    >>> from cantstop import parse_state
    >>> GreedyPlayer().stops(parse_state('-/- 7:2 0d'), random.Random(1))
    False
    >>> GreedyPlayer().stops(parse_state('-/- 2:2,3:4,12:2 0d'), random.Random(1))
    True
    """

    name = "greedy"

    def choose(self, state: State, rng: random.Random) -> Move:
        """Return the move that climbs the largest share of its columns."""
        heights = state.rules.heights

        def value(move: Move) -> tuple[float, int]:
            new = len({c for c in move.columns if c not in state.markers})
            return (sum(1 / heights[c] for c in move.columns), -new)

        return max(state.legal_moves(), key=value)

    def stops(self, state: State, rng: random.Random) -> bool:
        """Stop unless the next roll's expected gain beats its expected loss."""
        heights = state.rules.heights
        if stopping_wins(state) or any(
            space == heights[column] for column, space in state.markers.items()
        ):
            return True
        return expected_gain(state) <= bust_probability(state) * turn_progress(state)


#: Michael Keller's "Rule of 28": the points one space is worth in each column.
RULE_28_VALUES: Mapping[int, int] = {
    2: 6,
    3: 5,
    4: 4,
    5: 3,
    6: 2,
    7: 1,
    8: 2,
    9: 3,
    10: 4,
    11: 5,
    12: 6,
}


class Rule28Player:
    """Michael Keller's "Rule of 28" for stopping, with a simple move choice.

    Stopping (:meth:`score`): each space a marker has advanced this turn scores
    :data:`RULE_28_VALUES` for its column, and the first space of every marker
    (each was newly placed this turn) counts double.  Once all three markers
    are placed, add 2 if their three columns are all odd, subtract 2 if all
    even, add 4 if all are 7 or higher and add 4 if all are 7 or lower.  The
    player stops at 28 or more, and always stops when stopping wins.  Spaces
    are counted from the player's own square to the marker, so a marker that
    skips other players' squares under Variant A counts the spaces it skipped.

    Moves, in order of preference (the rule itself says nothing about them):
    the move that advances the most markers already on the board (a free
    step); then the one that plays more sums; then the one placing fewer new
    markers (free markers keep later rolls playable); then the one whose
    columns a roll makes most often (:func:`cantstop.odds.single_column_chances`);
    then the first in order.

    >>> from cantstop import parse_state
    >>> Rule28Player().score(parse_state('-/- 2:2,4:1,12:1 0d'))
    36
    >>> Rule28Player().stops(parse_state('-/- 6:1,7:2 0d'), random.Random(1))
    False
    """

    name = "rule28"

    #: The score at which the player stops.
    threshold = 28

    def __init__(self) -> None:
        self._chances = {c: float(p) for c, p in single_column_chances().items()}

    def score(self, state: State) -> int:
        """Return the Rule of 28 score of the turn so far."""
        own = state.squares[state.player]
        markers = state.markers
        points = sum(
            RULE_28_VALUES[column] * (space - own.get(column, 0) + 1)
            for column, space in markers.items()
        )
        if len(markers) == 3:
            columns = list(markers)
            if all(c % 2 for c in columns):
                points += 2
            if not any(c % 2 for c in columns):
                points -= 2
            if all(c >= 7 for c in columns):
                points += 4
            if all(c <= 7 for c in columns):
                points += 4
        return points

    def choose(self, state: State, rng: random.Random) -> Move:
        """Return the preferred move (see the class docstring)."""

        def value(move: Move) -> tuple[int, int, int, float]:
            advances = sum(1 for c in move.columns if c in state.markers)
            new = len({c for c in move.columns if c not in state.markers})
            chance = sum(self._chances[c] for c in set(move.columns))
            return (advances, len(move.columns), -new, chance)

        return max(state.legal_moves(), key=value)

    def stops(self, state: State, rng: random.Random) -> bool:
        """Stop at a score of 28 or more, or when stopping wins."""
        return stopping_wins(state) or self.score(state) >= self.threshold


#: The built-in players by name: each entry makes a new player.
PLAYERS: Mapping[str, Callable[[], Player]] = {
    "random": RandomPlayer,
    "greedy": GreedyPlayer,
    "rule28": Rule28Player,
}
