"""The decisions of Can't Stop: what a roll does, why an action is refused, what a stop does.

Each rule of a turn is decided once, and the rest of the package reads the
decision:

* what a roll does, sum by sum and pairing by pairing, and the legal moves
  it gives (R4 to R7): :func:`~cantstop.analysis.analyse_roll`,
  :func:`~cantstop.analysis.decide_sum`, :func:`~cantstop.analysis.decide_offer`
  and :func:`~cantstop.analysis.landing`, written in :mod:`cantstop.analysis`;
* why an action is refused (R3, R5 to R7, R11.1, R14.2):
  :func:`~cantstop.refusals.refusal` and :func:`~cantstop.refusals.stop_blockers`,
  written in :mod:`cantstop.refusals`;
* whose turn follows a turn (R2.3): :func:`following`, written here;
* what a stop does (R11, R9.3, R12.1, R2.3): :func:`decide_stop`, written
  here, as a :class:`StopDecision`: the columns the stop claims, whether it
  wins the game, the squares it leaves (the stopper's progress made
  permanent, and the squares other players lose in a claimed column), the
  won columns, and who moves next.  The stop itself is played once, by
  :func:`play_stop` on plain maps.

The engine's stop (:func:`cantstop.transitions.apply_stop`), the built-in
players (:mod:`cantstop.players`), the explanations and the rule tags of the
conformance vectors (:mod:`cantstop.tags`) read :func:`decide_stop`; the fast
playouts (:mod:`cantstop.playout`) call :func:`play_stop` on their own dicts.

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

_from_sorted = ColumnMap._from_sorted_dict

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
    "play_stop",
    "refusal",
    "settle_stop",
    "stop_blockers",
    "stop_outcome",
]


class StopDecision(NamedTuple):
    """What a stop does (R11, R9.3, R12.1, R2.3), as :func:`decide_stop` decides it.

    It says nothing of whether the stop is allowed: :func:`~cantstop.refusals.stop_blockers`
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


def play_stop(
    heights: Mapping[int, int],
    columns_to_win: int,
    stopper: int,
    markers: Mapping[int, int],
    squares: list[Mapping[int, int]],
    won: Mapping[int, int],
) -> tuple[list[int], bool, Mapping[int, int]]:
    """Play a stop by ``stopper`` on plain maps; return what it claims, whether it wins, the won.

    ``squares[stopper]`` must be a dict, which the markers are written into
    (R11.2; a new column goes at its end).  Each marker on its column's top
    space claims the column (R11.3), in the order of ``markers``; a player
    with squares in a claimed column gets a new dict without them in
    ``squares`` (R9.3), and the won columns come back as a new dict with the
    claimed ones added (``won`` itself when nothing is claimed).  The stop
    wins when it claims a column and the stopper then holds
    ``columns_to_win`` columns (R12.1).  :func:`settle_stop` plays it for a
    state; the fast playouts (:mod:`cantstop.playout`) on their own fields.

    >>> squares = [{7: 4, 8: 1}, {}]
    >>> play_stop({7: 13, 8: 11}, 1, 1, {8: 2, 7: 13}, squares, {})
    ([7], True, {7: 1})
    >>> squares
    [{8: 1}, {8: 2, 7: 13}]
    """
    mine = squares[stopper]
    claimed = []
    for column, space in markers.items():
        mine[column] = space  # type: ignore[index]
        if space == heights[column]:
            claimed.append(column)
    if not claimed:
        return claimed, False, won
    won = dict(won.items())
    for column in claimed:
        won[column] = stopper
    for player, theirs in enumerate(squares):
        if player != stopper and any(column in theirs for column in claimed):
            squares[player] = {c: v for c, v in theirs.items() if c not in claimed}
    return claimed, [*won.values()].count(stopper) >= columns_to_win, won


def stop_outcome(
    rules: Rules,
    stopper: int,
    markers: Mapping[int, int],
    squares: Sequence[Mapping[int, int]],
    won: ColumnMap,
) -> tuple[tuple[Mapping[int, int], ...], ColumnMap, tuple[int, ...], bool, int]:
    """Return a stop's squares after, won columns after, claims, whether it wins, who moves next.

    The fields are those of the position, as in :func:`settle_stop`, which
    adds what the stop takes from the other players and the columns the
    stopper holds; :func:`~cantstop.transitions.apply_stop` reads only these
    five.  The player to move next is the stopper when the stop wins, else
    the next in seat order (:func:`following`).  The
    stop is played by :func:`play_stop`; the maps it leaves unchanged are
    handed on as they are.

    >>> from cantstop import ColumnMap, Rules
    >>> none = ColumnMap()
    >>> stop_outcome(Rules(), 1, {7: 13}, (ColumnMap({7: 4}), none), none)[1:]
    (ColumnMap({7: 1}), (7,), False, 0)
    """
    heights: dict[int, int] = rules.heights._dict  # type: ignore[attr-defined]
    own = squares[stopper]
    mine = dict(own.items())
    after: list[Mapping[int, int]] = [*squares]
    after[stopper] = mine
    claimed, wins, won_after = play_stop(
        heights, rules.columns_to_win, stopper, markers, after, won
    )
    if len(mine) != len(own):  # a new column goes at the dict's end: maybe out of order
        columns = [*mine]
        if columns != sorted(columns):
            mine = dict(sorted(mine.items()))
    after[stopper] = _from_sorted(mine)
    if not claimed:
        return tuple(after), won, (), False, following(rules, stopper)
    claimed.sort()
    for player, theirs in enumerate(after):
        if theirs is not squares[player] and player != stopper:
            after[player] = _from_sorted(dict(theirs.items()))
    player = stopper if wins else following(rules, stopper)
    return tuple(after), ColumnMap(won_after), tuple(claimed), wins, player


def settle_stop(
    rules: Rules,
    stopper: int,
    markers: Mapping[int, int],
    squares: Sequence[Mapping[int, int]],
    won: ColumnMap,
) -> StopDecision:
    """Return what a stop by ``stopper`` does, given the fields of the position.

    ``squares`` are each player's squares and ``won`` the won columns, as
    :class:`~cantstop.ColumnMap` values; the maps the stop leaves unchanged
    are handed on as they are.  The stop is played by :func:`stop_outcome`
    (and so by :func:`play_stop`).  :func:`decide_stop` asks this of a state.

    >>> from cantstop import ColumnMap, Rules
    >>> none = ColumnMap()
    >>> settle_stop(Rules(), 1, {7: 13}, (ColumnMap({7: 4}), none), none).lost
    ((7, 0, 4),)
    """
    after, won_after, claimed, wins, player = stop_outcome(rules, stopper, markers, squares, won)
    lost = tuple(
        (column, player, theirs[column])
        for column in claimed
        for player, theirs in enumerate(squares)
        if player != stopper and column in theirs
    )
    held = [*won_after.values()].count(stopper)
    return StopDecision(stopper, claimed, wins, held, after, won_after, lost, player)


def decide_stop(state: State) -> StopDecision:
    """Return what stopping now would do in ``state`` (R11, R9.3, R12.1, R2.3).

    >>> from cantstop import parse_state
    >>> found = decide_stop(parse_state('7:2/- 7:5,9:1 0d'))
    >>> found.claimed, found.wins, found.next_player, found.squares[0]
    ((), False, 1, ColumnMap({7: 5, 9: 1}))
    """
    return settle_stop(state.rules, state.player, state.markers, state.squares, state._won)
