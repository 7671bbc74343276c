"""The decisions of Can't Stop: what a roll does, why an action is refused, what a stop does.

Each rule of a turn is decided once, and the rest of the package reads the
decision:

* what a roll does, sum by sum and pairing by pairing, and the legal moves
  it gives (R4 to R7): :func:`analyse_roll`, :func:`decide_sum`,
  :func:`decide_offer` and :func:`landing`, written in
  :mod:`cantstop.analysis`;
* why an action is refused (R3, R5 to R7, R11.1, R14.2): :func:`refusal`
  and :func:`stop_blockers`, written in :mod:`cantstop.refusals`;
* whose turn follows a turn (R2.3): :func:`following`, written here;
* what a stop does (R11, R9.3, R12.1, R2.3): :func:`decide_stop`, written
  here, as a :class:`StopDecision`: the columns the stop claims, whether it
  wins the game, the squares it leaves (the stopper's progress made
  permanent, and the squares other players lose in a claimed column), the
  won columns, and who moves next.

The engine's stop (:func:`cantstop.transitions.apply_stop`), the fast
playouts (:mod:`cantstop.playout`), the built-in players
(:mod:`cantstop.players`), the explanations and the rule tags of the
conformance vectors (:mod:`cantstop.tags`) all read :func:`decide_stop`.

>>> from cantstop import parse_state
>>> found = decide_stop(parse_state('2:3,3:5/4:2 4:7 0d'))
>>> found.claimed, found.wins, found.held, found.next_player, found.lost
((4,), True, 3, None, ((4, 1, 2),))
>>> found.squares
(ColumnMap({2: 3, 3: 5, 4: 7}), ColumnMap({}))
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, NamedTuple

from cantstop.analysis import (
    Offer,
    PairingAnalysis,
    RollAnalysis,
    SumPlay,
    analyse_roll,
    decide_offer,
    decide_sum,
    landing,
)
from cantstop.columnmap import ColumnMap
from cantstop.config import Rules
from cantstop.refusals import Refusal, Share, refusal, stop_blockers

if TYPE_CHECKING:
    from cantstop.state import State

__all__ = [
    "Offer",
    "PairingAnalysis",
    "Refusal",
    "RollAnalysis",
    "Share",
    "StopDecision",
    "SumPlay",
    "analyse_roll",
    "decide_offer",
    "decide_stop",
    "decide_sum",
    "following",
    "landing",
    "refusal",
    "settle_stop",
    "stop_blockers",
]

_from_sorted = ColumnMap._from_sorted_dict


class StopDecision(NamedTuple):
    """What a stop does (R11, R9.3, R12.1, R2.3), as :func:`decide_stop` decides it.

    It says nothing of whether the stop is allowed: :func:`stop_blockers`
    says that (R14.2).
    """

    #: The stopping player.
    stopper: int
    #: The columns the stop claims (R11.3), in increasing order: each marker's on its top space.
    claimed: tuple[int, ...]
    #: Whether the stop wins the game (R12.1).
    wins: bool
    #: How many columns the stopper holds after the stop.
    held: int
    #: Every player's squares after the stop (R11.2, R9.3).
    squares: tuple[Mapping[int, int], ...]
    #: The won columns after the stop, each with its owner.
    won: ColumnMap
    #: The squares other players lose in the claimed columns (R9.3), as ``(column, player, space)``
    #: in increasing column, then player, order.
    lost: tuple[tuple[int, int, int], ...]
    #: The player to move after the stop: the next player (R2.3), or the stopper when the stop wins.
    player: int

    @property
    def next_player(self) -> int | None:
        """Return the player whose turn follows the stop, or ``None`` when the stop wins."""
        return None if self.wins else self.player


def following(rules: Rules, player: int) -> int:
    """Return the player whose turn follows ``player``'s (R2.3): the next in seat order.

    >>> from cantstop import Rules
    >>> following(Rules(players=3), 1), following(Rules(players=3), 2)
    (2, 0)
    """
    return (player + 1) % rules.players


def settle_stop(
    rules: Rules,
    stopper: int,
    markers: Mapping[int, int],
    squares: Sequence[Mapping[int, int]],
    won: ColumnMap,
) -> StopDecision:
    """Return what a stop by ``stopper`` does, given the fields of the position.

    ``markers`` may list its columns in any order; ``squares`` are each
    player's squares (kept as they are where the stop leaves them
    unchanged, so they should be :class:`~cantstop.ColumnMap` values) and
    ``won`` the won columns.  :func:`decide_stop` asks this of a state; the
    fast playouts (:mod:`cantstop.playout`) ask it of their own fields.

    >>> from cantstop import ColumnMap, Rules
    >>> none = ColumnMap()
    >>> settle_stop(Rules(), 1, {7: 13}, (ColumnMap({7: 4}), none), none).lost
    ((7, 0, 4),)
    """
    heights = rules.heights
    claimed = [column for column, space in markers.items() if space == heights[column]]
    own = squares[stopper]
    mine = dict(own.items())
    mine.update(markers)  # R11.2: the markers become the stopper's squares
    if len(mine) != len(own):  # a new column: keep the columns in order
        mine = dict(sorted(mine.items()))
    mine_map = _from_sorted(mine)
    if claimed:  # R11.3: each topped column is won; R9.3: the others' squares there go
        claimed.sort()
        won_dict = dict(won.items())
        for column in claimed:
            won_dict[column] = stopper
        won = _from_sorted(dict(sorted(won_dict.items())))
        lost = tuple(
            (column, player, theirs[column])
            for column in claimed
            for player, theirs in enumerate(squares)
            if player != stopper and column in theirs
        )
        new_squares = tuple(
            mine_map if player == stopper else _without(theirs, claimed)
            for player, theirs in enumerate(squares)
        )
    else:
        lost = ()
        new_squares = (*squares[:stopper], mine_map, *squares[stopper + 1 :])
    held = sum(1 for owner in won.values() if owner == stopper)
    wins = bool(claimed) and held >= rules.columns_to_win  # R12.1
    player = stopper if wins else following(rules, stopper)
    return StopDecision(stopper, tuple(claimed), wins, held, new_squares, won, lost, player)


def decide_stop(state: State) -> StopDecision:
    """Return what stopping now would do in ``state`` (R11, R9.3, R12.1, R2.3).

    >>> from cantstop import parse_state
    >>> found = decide_stop(parse_state('7:2/- 7:5,9:1 0d'))
    >>> found.claimed, found.wins, found.next_player, found.squares[0]
    ((), False, 1, ColumnMap({7: 5, 9: 1}))
    """
    return settle_stop(state.rules, state.player, state.markers, state.squares, state._won)


def _without(squares: Mapping[int, int], columns: Sequence[int]) -> Mapping[int, int]:
    """Return ``squares`` without ``columns``: the squares a won column takes off (R9.3)."""
    if not any(column in squares for column in columns):
        return squares
    return _from_sorted({c: v for c, v in squares.items() if c not in columns})
