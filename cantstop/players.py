"""Built-in players: the :class:`Player` protocol, its strategies and the one decision rule.

A player makes the two decisions of a turn (R3): which legal move to play for
the dice on the table, and, once the roll is played, whether to stop or roll
again.  Chance stays outside the player: the dice are rolled by whoever runs
the game (:func:`cantstop.simulate.play_game`, ``cantstop play``, ``cantstop
demo``), and a player that wants randomness draws from the generator it is
handed, so that a game is determined by its seeds.  Every runner asks
:func:`decide` for the decision to stop or roll, so a stop the rules forbid
(Variant B, R14.2) is never played, and every command knows the same players
by name (:data:`PLAYERS`).

>>> import random
>>> from cantstop import Roll, new_game
>>> state = new_game().apply(Roll((3, 4, 5, 5)))
>>> Rule28Player().choose(state, random.Random(1))  # ties at -2; rolls make 8 and 9 more often
Move(columns=(8, 9))
"""

from __future__ import annotations

import enum
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Protocol, runtime_checkable

from cantstop.actions import Move
from cantstop.board import MARKERS
from cantstop.decide import decide_stop
from cantstop.errors import CantStopError
from cantstop.odds import bust_probability, expected_gain, single_column_chances
from cantstop.state import State

__all__ = [
    "MARKER_COST",
    "PLAYERS",
    "RULE_28_VALUES",
    "BoldPlayer",
    "CautiousPlayer",
    "Decision",
    "GreedyPlayer",
    "Player",
    "QuotaPlayer",
    "RandomPlayer",
    "Rule28Player",
    "claims_a_column",
    "climbs_of",
    "decide",
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
    The built-in players never want a stop that the rules forbid
    (:func:`may_stop`); a runner asks :func:`decide`, which holds any player to it.
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
    """Return whether stopping now would win the game (R11.3, R12.1), as ``decide_stop`` says.

    >>> from cantstop import parse_state
    >>> stopping_wins(parse_state('2:3,3:5/- 4:7 0d'))
    True
    """
    return decide_stop(state).wins


def may_stop(state: State) -> bool:
    """Return whether the rules allow a stop now, as :meth:`State.decisions` says (R11.1, R14.2).

    A player who has played a roll may stop, unless Variant B forbids it; a
    player about to start the turn, or with dice to play, may not.

    >>> from cantstop import parse_state
    >>> may_stop(parse_state('-/7:3 7:3 0d B')), may_stop(parse_state('-/7:3 7:4 0d B'))
    (False, True)
    """
    return state.decisions().may_stop


def claims_a_column(state: State) -> bool:
    """Return whether stopping now claims a column (R11.3), as ``decide_stop`` says.

    >>> from cantstop import parse_state
    >>> claims_a_column(parse_state('-/- 2:3 0d')), claims_a_column(parse_state('-/- 2:2 0d'))
    (True, False)
    """
    return bool(decide_stop(state).claimed)


class Decision(enum.Enum):
    """What a player does once a roll is played (R3.4): roll again or stop."""

    #: Roll the dice again.
    ROLL = "roll"
    #: Stop: the markers become the player's squares (R11).
    STOP = "stop"


def decide(player: Player, state: State, rng: random.Random) -> Decision:
    """Return ``player``'s decision in ``state`` (:attr:`~cantstop.Phase.DECIDE`).

    The player is asked first (it may draw from ``rng``); a stop the rules
    forbid (:func:`may_stop`, R14.2) is a roll, whatever the player wanted.

    >>> from cantstop import parse_state
    >>> decide(CautiousPlayer(), parse_state('-/- 2:3 0d'), random.Random(1))
    <Decision.STOP: 'stop'>
    >>> decide(CautiousPlayer(), parse_state('-/7:5 7:5 0d B'), random.Random(1))  # shares 7:5
    <Decision.ROLL: 'roll'>
    """
    wants = player.stops(state, rng)
    return Decision.STOP if wants and may_stop(state) else Decision.ROLL


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
        """Stop with probability ``1 - roll_again`` (one draw), when the rules allow a stop."""
        return rng.random() >= self.roll_again and may_stop(state)

    def stop_chance(self) -> float:
        """Return the chance that :meth:`stops` stops where the rules allow a stop.

        It stops when a draw of ``rng.random()``, uniform on [0, 1), is
        ``roll_again`` or more; :meth:`choose` plays each legal move with the
        same chance.  The exact evaluation through the solver's tables reads
        both (:func:`cantstop.solve.evaluate.policy_tables`).

        >>> RandomPlayer().stop_chance()  # 1 - 0.7, in floating point
        0.30000000000000004
        """
        return min(1.0, max(0.0, 1.0 - self.roll_again))


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

    def score(
        self, columns: Sequence[int], new: int, heights: Mapping[int, int]
    ) -> tuple[float, int]:
        """Return the key of a move playing the sums ``columns``, ``new`` of them in new columns.

        The highest key is played: the sum of ``1 / height`` over the sums
        (in floating point, as the move lists them), then the fewest new
        markers.

        >>> from cantstop import STANDARD_HEIGHTS
        >>> GreedyPlayer().score((2, 12), 2, STANDARD_HEIGHTS) > GreedyPlayer().score(
        ...     (7, 7), 1, STANDARD_HEIGHTS
        ... )
        True
        """
        return (sum(1 / heights[c] for c in columns), -new)

    def choose(self, state: State, rng: random.Random) -> Move:
        """Return the move that climbs the largest share of its columns."""
        heights = state.rules.heights

        def value(move: Move) -> tuple[float, int]:
            new = len({c for c in move.columns if c not in state.markers})
            return self.score(move.columns, new, heights)

        return max(state.legal_moves(), key=value)

    def stops_outright(self, wins: bool, claims: bool) -> bool:
        """Return whether the player stops whatever the dice offer: when stopping wins or claims.

        ``wins`` is whether a stop now wins the game, ``claims`` whether it
        claims a column.

        >>> GreedyPlayer().stops_outright(False, True), GreedyPlayer().stops_outright(False, False)
        (True, False)
        """
        return wins or claims

    def gain_limit(self, bust: Fraction, progress: int) -> Fraction:
        """Return the most expected gain at which the player stops: the spaces it expects to lose.

        ``bust`` is the chance that the next roll busts, ``progress`` the
        spaces the markers stand above the player's squares.

        >>> GreedyPlayer().gain_limit(Fraction(1, 4), 6)
        Fraction(3, 2)
        """
        return bust * progress

    def stops(self, state: State, rng: random.Random) -> bool:
        """Stop unless the next roll's expected gain beats its expected loss."""
        if not may_stop(state):
            return False
        if self.stops_outright(stopping_wins(state), claims_a_column(state)):
            return True
        return expected_gain(state) <= self.gain_limit(
            bust_probability(state), turn_progress(state)
        )


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

#: Points each marker in use costs a move's choice score.
MARKER_COST = 6


class Rule28Player:
    """Michael Keller's "Rule of 28", stopping and choosing moves as its reference play does.

    Sources: the rule is Michael Keller's, from his Can't Stop strategy
    notes; Glenn and Aloi, in their study of Can't Stop heuristics, published
    its solitaire average as 10.74 turns to win.  This player, which settles
    the ties the rule leaves open as below, averages 10.71 turns over 20,000
    games (``cantstop simulate --players rule28 --games 20000 --seed 1``).

    *Progress points* (:meth:`progress`): each space a marker stands above the
    player's own square in its column is worth :data:`RULE_28_VALUES` for that
    column, and each marker's first space counts twice, since every marker on
    the board was placed this turn.  Under Variant A the spaces a marker
    skipped count too.

    *Stopping* (:meth:`score`, :meth:`stops`): the count is the progress
    points, and once all three markers are in use, 2 more if their columns
    are all odd, 2 fewer if all even, 4 more if all are 7 or higher and 4
    more if all are 7 or lower.  The player rolls again while the count is
    under 28, and also while fewer than three markers are in use and more
    columns are open than markers are in use; a column is open when it is
    not won and no marker is on its top space.  It never rolls when stopping
    wins the game.

    *Moves* (:meth:`choice_score`, :meth:`choose`): the move with the highest
    choice score.  The rule leaves ties open; among equals the player takes
    the move whose columns a roll makes most often
    (:func:`cantstop.odds.single_column_chances`, each column once), then the
    first in order.  A move's choice score is
    the progress points after it, minus :data:`MARKER_COST` for each marker
    in use after it, and once all three markers are in use, 2 fewer if their
    columns are all odd, 2 more if all even, 4 fewer if all are 7 or higher
    and 4 fewer if all are 7 or lower: the count's adjustments with their
    signs turned round, so that the choice keeps markers free and spreads
    them across the board.

    >>> from cantstop import parse_state
    >>> Rule28Player().score(parse_state('-/- 2:2,4:1,12:1 0d'))
    36
    >>> Rule28Player().stops(parse_state('-/- 6:1,7:2 0d'), random.Random(1))
    False
    """

    name = "rule28"

    #: The count at which the player stops.
    threshold = 28

    def __init__(self) -> None:
        self._chances = {c: float(p) for c, p in single_column_chances().items()}

    def progress(self, state: State) -> int:
        """Return the progress points of the turn so far (see the class docstring).

        >>> from cantstop import parse_state
        >>> Rule28Player().progress(parse_state('7:2/- 7:4,10:1 0d'))  # 7: 1 * 3, 10: 4 * 2
        11
        """
        return self.points(climbs_of(state))

    def points(self, climbs: Mapping[int, int]) -> int:
        """Return the progress points of markers ``climbs[c]`` spaces above the player's squares.

        What :meth:`progress`, :meth:`count` and :meth:`choice_points` read;
        the exact evaluation through the solver's tables
        (:mod:`cantstop.solve.evaluate`) asks it of every placing of markers.

        >>> Rule28Player().points({7: 2, 10: 1})  # 7: 1 * 3, 10: 4 * 2
        11
        """
        return sum(RULE_28_VALUES[column] * (climb + 1) for column, climb in climbs.items())

    def count(self, climbs: Mapping[int, int]) -> int:
        """Return the count the stop decision compares with 28, for markers ``climbs`` up.

        >>> Rule28Player().count({2: 2, 4: 1, 12: 1})  # 18 + 8 + 12 points, even -2
        36
        """
        return self.points(climbs) + _three_marker_bonus(climbs)

    def score(self, state: State) -> int:
        """Return the count the stop decision compares with 28."""
        return self.count(climbs_of(state))

    def choice_points(self, climbs: Mapping[int, int]) -> int:
        """Return the choice score of a move that leaves the markers ``climbs`` up.

        >>> Rule28Player().choice_points({3: 1, 6: 1})  # 10 + 4 points, two markers -12
        2
        """
        return self.points(climbs) - MARKER_COST * len(climbs) - _three_marker_bonus(climbs)

    def choice_score(self, state: State, move: Move) -> int:
        """Return the choice score of playing ``move`` in ``state`` (see the class docstring).

        >>> from cantstop import Move, parse_state
        >>> state = parse_state('-/- 6:1 0c1256')  # 3+11, 6+8 or 7+7
        >>> [Rule28Player().choice_score(state, m) for m in state.legal_moves()]
        [6, -2, -5]
        """
        return self.choice_points(climbs_of(state.apply(move)))

    def move_key(self, state: State, move: Move) -> tuple[int, float]:
        """Return what the choice of a move compares: its choice score, then its likeliness.

        :meth:`choose` takes the legal move with the highest key, the first
        in order among equal keys; the exact evaluation through the solver's
        tables takes the same move from the same two numbers
        (:func:`cantstop.solve.evaluate.policy_tables`).

        >>> from cantstop import Move, parse_state
        >>> state = parse_state('-/- 6:1 0c1256')  # 3+11, 6+8 or 7+7
        >>> [Rule28Player().move_key(state, m)[0] for m in state.legal_moves()]
        [6, -2, -5]
        """
        return (self.choice_score(state, move), self.likeliness(move.columns))

    def choose(self, state: State, rng: random.Random) -> Move:
        """Return the move with the highest :meth:`move_key`, the first in order among equals."""
        return max(state.legal_moves(), key=lambda move: self.move_key(state, move))

    def likeliness(self, columns: Iterable[int]) -> float:
        """Return the tie-break of moves with equal choice scores: how often a roll makes them.

        The sum over the move's columns, each once, of the chance that a roll
        makes the column (:func:`cantstop.odds.single_column_chances`).
        """
        return sum(self._chances[column] for column in set(columns))

    def stops(self, state: State, rng: random.Random) -> bool:
        """Return whether the rule stops here (see the class docstring)."""
        if not may_stop(state):
            return False
        markers = state.markers
        heights = state.rules.heights
        won = state.won
        open_columns = sum(
            1 for column in heights if column not in won and markers.get(column) != heights[column]
        )
        return self.stop_rule(self.score(state), len(markers), open_columns, stopping_wins(state))

    def stop_rule(self, count: int, markers: int, open_columns: int, wins: bool) -> bool:
        """Return whether the rule stops, given what its decision reads of a position.

        ``count`` is :meth:`count`, ``markers`` the markers in use,
        ``open_columns`` the columns neither won nor with a marker on their
        top space, ``wins`` whether stopping wins.  :meth:`stops` asks it of
        a state; the exact evaluation through the solver's tables asks it of
        every such combination of a board.

        >>> Rule28Player().stop_rule(30, 2, 5, False), Rule28Player().stop_rule(30, 3, 5, False)
        (False, True)
        """
        if wins:
            return True
        if markers < MARKERS and open_columns > markers:
            return False
        return count >= self.threshold


def climbs_of(state: State) -> dict[int, int]:
    """Return how many spaces each marker stands above the player's own square in its column.

    >>> from cantstop import parse_state
    >>> climbs_of(parse_state('7:2/- 7:4,10:1 0d'))
    {7: 2, 10: 1}
    """
    own = state.squares[state.player]
    return {column: space - own.get(column, 0) for column, space in state.markers.items()}


def _three_marker_bonus(markers: Mapping[int, int]) -> int:
    """Return the count's adjustment for three markers in use: odd +2, even -2, high +4, low +4."""
    if len(markers) < MARKERS:
        return 0
    points = 0
    if all(column % 2 for column in markers):
        points += 2
    if not any(column % 2 for column in markers):
        points -= 2
    if all(column >= 7 for column in markers):
        points += 4
    if all(column <= 7 for column in markers):
        points += 4
    return points


#: How many of the 36 throws of one pair of dice make each sum: central sums are likelier,
#: so a move into them is easier to follow up.
_PAIR_WAYS: Mapping[int, int] = {c: 6 - abs(7 - c) for c in range(2, 13)}


class QuotaPlayer:
    """Plays the longest move, and stops once the turn has climbed ``quota`` spaces.

    Move: the one with the most sums; among equals, the one placing the
    fewest new markers, then the one whose sums a pair of dice makes most
    often, then the first in order.  Stop: once the markers stand ``quota``
    spaces above the player's squares (:func:`turn_progress`), and always
    when a marker stands on a top space (:func:`claims_a_column`), whenever
    the rules allow a stop.  It draws nothing from ``rng``, which it may be
    called without.

    >>> from cantstop import parse_state
    >>> QuotaPlayer(3).stops(parse_state('-/- 7:2,8:1 0d'))
    True
    >>> QuotaPlayer(4).stops(parse_state('-/- 7:2,8:1 0d'))
    False
    """

    name = "quota"

    def __init__(self, quota: int) -> None:
        self.quota = quota

    def score(self, columns: Sequence[int], new: int) -> tuple[int, int, int]:
        """Return the key of a move playing the sums ``columns``, ``new`` of them in new columns.

        The highest key is played: the most sums, then the fewest new
        markers, then the sums a pair of dice makes most often.

        >>> QuotaPlayer(4).score((7, 7), 1) > QuotaPlayer(4).score((2, 12), 2)
        True
        """
        return (len(columns), -new, sum(_PAIR_WAYS[c] for c in columns))

    def choose(self, state: State, rng: random.Random | None = None) -> Move:
        """Return the move with the most sums, fewest new markers and likeliest sums."""

        def key(move: Move) -> tuple[int, int, int]:
            new = sum(1 for c in set(move.columns) if c not in state.markers)
            return self.score(move.columns, new)

        return max(state.legal_moves(), key=key)

    def stop_rule(self, progress: int, claims: bool) -> bool:
        """Return whether the player wants to stop, its markers ``progress`` spaces up.

        ``claims`` is whether a stop now claims a column.

        >>> QuotaPlayer(4).stop_rule(3, False), QuotaPlayer(4).stop_rule(3, True)
        (False, True)
        """
        return claims or progress >= self.quota

    def stops(self, state: State, rng: random.Random | None = None) -> bool:
        """Return whether the turn has climbed the quota, or claims a column, and may stop."""
        return self.stop_rule(turn_progress(state), claims_a_column(state)) and may_stop(state)


class CautiousPlayer(QuotaPlayer):
    """The :class:`QuotaPlayer` that stops after 4 spaces: the demonstration's first player."""

    name = "cautious"

    def __init__(self) -> None:
        super().__init__(4)


class BoldPlayer(QuotaPlayer):
    """The :class:`QuotaPlayer` that stops after 8 spaces: the demonstration's second player."""

    name = "bold"

    def __init__(self) -> None:
        super().__init__(8)


def _optimal() -> Player:
    """Return the optimal solitaire player of :mod:`cantstop.solve` (the ``solve`` extra).

    It plays solitaire boards that have been solved (``cantstop solve board``).
    """
    try:
        from cantstop.solve.player import OptimalPlayer
    except ModuleNotFoundError as exc:
        raise CantStopError(f"the optimal player cannot start: {exc}") from None
    return OptimalPlayer()


#: The built-in players by name, the same for every command: each entry makes a new player.
PLAYERS: Mapping[str, Callable[[], Player]] = {
    "random": RandomPlayer,
    "greedy": GreedyPlayer,
    "rule28": Rule28Player,
    "cautious": CautiousPlayer,
    "bold": BoldPlayer,
    "optimal": _optimal,
}
