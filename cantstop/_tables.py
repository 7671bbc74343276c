"""Precomputed roll tables, the legal-move table and the situation of a position it reads.

Which moves a roll allows (R6, R7) depends on very little of a position: for
each column, whether it holds a neutral marker, and how many more spaces a
marker there could still climb this turn, counted up to two (0 when the
column is won, its marker is on the top space or the board lacks it; only an
equal-sum move, R7, ever climbs twice in one column).  That summary is the
position's *situation*, one integer made of three 13-bit sets (bit ``c`` for
column ``c``)::

    situation = one_step | two_steps << 13 | markers << 26

The number of markers on the board is the number of bits of ``markers``.  A
roll only looks at the columns its pairings can make, so the move table is
keyed by the roll and the situation narrowed to those columns: positions that
look alike to a roll share one entry, and the table stays small (a roll makes
at most six sums, so the keys are bounded; random games meet some tens of
thousands).
"""

from __future__ import annotations

import itertools
import operator
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

from cantstop.actions import Move
from cantstop.analysis import decide_offer, landing
from cantstop.board import COLUMNS, MARKERS
from cantstop.columnmap import ColumnMap
from cantstop.config import Rules, Variant

if TYPE_CHECKING:
    from cantstop.state import State

#: The one- and two-step sets of a situation, without its markers.
UNMARKED = (1 << 26) - 1
#: A 13-bit set with every column's bit.
ALL_COLUMNS = sum(1 << c for c in COLUMNS)
#: The low 13 bits, to take one set out of a situation.
_SET = (1 << 13) - 1


#: The 126 distinct rolls with their dice sorted, in increasing order.
SORTED_ROLLS: tuple[tuple[int, int, int, int], ...] = tuple(
    sorted({tuple(sorted(r)) for r in itertools.product(range(1, 7), repeat=4)})  # type: ignore[misc]
)

#: Any four dice (in any order) to the index of their sorted roll in :data:`SORTED_ROLLS`.
ROLL_INDEX: dict[tuple[int, ...], int] = {
    r: SORTED_ROLLS.index(tuple(sorted(r))) for r in itertools.product(range(1, 7), repeat=4)
}

#: For each ordered roll number (``itertools.product`` order), its sorted-roll index.
ORDERED_INDEX: tuple[int, ...] = tuple(
    ROLL_INDEX[r] for r in itertools.product(range(1, 7), repeat=4)
)

#: How many of the 1296 ordered rolls each sorted roll stands for.
ROLL_WEIGHT: tuple[int, ...] = tuple(Counter(ORDERED_INDEX)[i] for i in range(len(SORTED_ROLLS)))


def _pairings(dice: tuple[int, int, int, int]) -> tuple[tuple[int, int], ...]:
    """Return the distinct pairings of a sorted roll, each as (smaller sum, larger sum) (R4.2)."""
    a, b, c, d = dice
    found = [(a + b, c + d), (a + c, b + d), (a + d, b + c)]
    return tuple(dict.fromkeys((min(p), max(p)) for p in found))


#: The distinct pairings of each sorted roll.
PAIRINGS: tuple[tuple[tuple[int, int], ...], ...] = tuple(_pairings(r) for r in SORTED_ROLLS)

#: For each sorted roll, the bit set of the sums its pairings make (bit ``c`` for sum ``c``).
SUM_MASK: tuple[int, ...] = tuple(
    sum({1 << s for pair in pairs for s in pair}) for pairs in PAIRINGS
)

#: Every move value, made once and shared.
_MOVE: dict[tuple[int, ...], Move] = {}
#: Every distinct tuple of legal moves, made once and shared.
_MOVE_TUPLES: dict[tuple[Move, ...], tuple[Move, ...]] = {}
#: Narrowed key (see :func:`moves`) to the legal moves; filled as positions are met.
MOVES: dict[int, tuple[Move, ...]] = {}
#: Playable sums (a column set) to the number of ordered rolls that bust.
_BUSTS: dict[int, int] = {}


def _move(columns: tuple[int, ...]) -> Move:
    move = _MOVE.get(columns)
    if move is None:
        move = _MOVE[columns] = Move(columns)  # type: ignore[arg-type]
    return move


def playable(situation: int) -> int:
    """Return the set of columns a single sum could be played in now (R5.1, R5.2, R5.3)."""
    markers = situation >> 26
    one_step = situation & _SET
    return one_step & markers if markers.bit_count() >= MARKERS else one_step


def moves(situation: int, roll: int) -> tuple[Move, ...]:
    """Return the sorted legal moves of sorted roll number ``roll`` in ``situation`` (R6, R7).

    The table's key holds the roll, the columns among its sums that can be
    played, which of those hold a marker and which could climb twice, and
    whether at least two markers are free: all that R6 and R7 look at.
    """
    markers = situation >> 26
    count = markers.bit_count()
    play = situation & SUM_MASK[roll] & (markers if count >= MARKERS else ALL_COLUMNS)
    key = (
        roll
        | play << 7
        | (markers & play) << 20
        | (situation >> 13 & play) << 33
        | (count <= MARKERS - 2) << 46
    )
    found = MOVES.get(key)
    if found is None:
        found = MOVES[key] = moves_of_key(key)
    return found


def moves_of_key(key: int) -> tuple[Move, ...]:
    """Compute the legal moves that a move-table key stands for (R6, R7).

    Each pairing's offer is decided by :func:`cantstop.analysis.decide_offer`,
    the function the analysis of a roll calls, from what the key says of its
    sums: whether each plays alone, and whether the second plays after the
    first (a second step needs a second space, R7; two different sums play
    together unless each needs a new marker and only one is free, R6.3).
    """
    roll = key & 127
    play = key >> 7 & _SET
    marked = key >> 20 & _SET
    twice = key >> 33 & _SET
    two_free = bool(key >> 46)
    found: set[tuple[int, ...]] = set()
    for a, b in PAIRINGS[roll]:
        play_a = bool(play >> a & 1)
        if a == b:
            together = bool(twice >> a & 1)
            play_b = play_a
        else:
            play_b = bool(play >> b & 1)
            together = play_a and play_b and (bool((marked >> a | marked >> b) & 1) or two_free)
        found.update(decide_offer(a, b, play_a, play_b, together)[1])
    result = tuple(_move(cols) for cols in sorted(found))
    return _MOVE_TUPLES.setdefault(result, result)


def bust_weight(situation: int) -> int:
    """Return how many of the 1296 ordered rolls have no legal move in ``situation`` (R10.1)."""
    mask = playable(situation)
    busts = _BUSTS.get(mask)
    if busts is None:
        busts = _BUSTS[mask] = sum(
            w for w, sums in zip(ROLL_WEIGHT, SUM_MASK, strict=True) if not sums & mask
        )
    return busts


# -- the situation of a position ---------------------------------------------------------


#: ``situation(state)`` returns the situation of ``state``, which the state keeps (found
#: once, when it is made, and updated by each transition).  This is how the fast paths
#: of the engine (:mod:`cantstop.playout`, :mod:`cantstop.odds`) read a position: with
#: :func:`moves` and :func:`bust_weight` it answers every question about its next roll.
#: (An attribute getter, so that reading it costs no more than reading the field.)
situation: Callable[[State], int] = operator.attrgetter("_situation")


def room(
    rules: Rules, squares: Sequence[Mapping[int, int]], player: int, column: int, start: int
) -> int:
    """Return how many spaces a marker of ``player`` above space ``start`` of ``column`` can climb.

    The count is exact without Variant A; under it, where a marker skips
    other players' squares (:func:`cantstop.analysis.landing`), it is counted
    up to 2, all the situation needs.  The column must be open (not won).
    """
    height = rules.heights[column]
    if rules.variant is not Variant.A:
        return height - start
    first = landing(rules, squares, player, column, start)[0]
    if first > height:
        return 0
    return 1 if landing(rules, squares, player, column, first)[0] > height else 2


def with_column(situation: int, column: int, room: int, marked: bool) -> int:
    """Return ``situation`` with the bits of ``column`` set for ``room`` spaces and a marker."""
    bit = 1 << column
    return (
        situation & ~(bit | bit << 13 | bit << 26)
        | (bit if room >= 1 else 0)
        | (bit << 13 if room >= 2 else 0)
        | (bit << 26 if marked else 0)
    )


def compute_situation(state: State) -> int:
    """Return the situation of ``state`` worked out from its fields (the state keeps it)."""
    rules, player, squares = state.rules, state.player, state.squares
    start = dict(_plain(squares[player]))
    markers = _plain(state.markers)
    start.update(markers)
    won = _plain(state.won)
    variant_a = rules.variant is Variant.A
    one = two = marked = 0
    for column, height in _plain(rules.heights).items():
        if column in won:
            continue
        at = start.get(column, 0)
        spaces = room(rules, squares, player, column, at) if variant_a else height - at
        bit = 1 << column
        one |= bit if spaces >= 1 else 0
        two |= bit if spaces >= 2 else 0
        marked |= bit if column in markers else 0
    return one | two << 13 | marked << 26


def _plain(mapping: Mapping[int, int]) -> Mapping[int, int]:
    """Return a column map's own dict, for fast lookups; other mappings as they are."""
    return mapping._dict if isinstance(mapping, ColumnMap) else mapping


def start_bits(
    rules: Rules,
    squares: Sequence[Mapping[int, int]],
    won: Mapping[int, int],
    player: int,
    column: int,
) -> int:
    """Return the situation bits of ``column`` for ``player`` at the start of a turn."""
    if column in won:
        return 0
    spaces = room(rules, squares, player, column, squares[player].get(column, 0))
    bit = 1 << column
    return (bit if spaces >= 1 else 0) | (bit << 13 if spaces >= 2 else 0)


def compute_starts(state: State) -> tuple[int, ...]:
    """Return each player's situation at the start of a turn on the board of ``state``."""
    rules, squares, won = state.rules, state.squares, state.won
    return tuple(
        sum(start_bits(rules, squares, won, p, column) for column in rules.heights)
        for p in range(rules.players)
    )


def starts_after_stop(
    starts: tuple[int, ...],
    rules: Rules,
    squares: Sequence[Mapping[int, int]],
    won: Mapping[int, int],
    player: int,
    markers: Mapping[int, int],
    topped: Sequence[int],
    situation: int,
) -> tuple[int, ...]:
    """Return each player's turn-start situation after ``player`` stops (R11).

    ``starts`` are the turn-start situations before the stop, ``squares`` and
    ``won`` the board after it, ``markers`` the markers that became squares,
    ``topped`` the columns the stop won and ``situation`` the stopping
    player's situation at the stop.
    """
    new = list(starts)
    if rules.variant is Variant.A:
        # A square changes where the others' markers land (R14.1): recompute its columns.
        for column in markers:
            bit = 1 << column
            for p in range(rules.players):
                new[p] = new[p] & ~(bit | bit << 13) | start_bits(rules, squares, won, p, column)
        return tuple(new)
    # Each marker's column has the room its marker had, and a won column none:
    # the player's next turn starts from this turn's situation without markers.
    new[player] = situation & UNMARKED
    for column in topped:
        bit = 1 << column
        for p in range(rules.players):
            new[p] &= ~(bit | bit << 13)
    return tuple(new)


def clear() -> None:
    """Empty the tables that fill as positions are met (for tests that must start afresh)."""
    for table in (MOVES, _BUSTS, _MOVE, _MOVE_TUPLES):
        table.clear()
