"""Precomputed roll tables and the legal-move table of the rules kernel.

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
from collections import Counter

from cantstop.actions import Move
from cantstop.rules import COLUMNS, MARKERS

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
    """Compute the legal moves that a move-table key stands for (R6, R7)."""
    roll = key & 127
    play = key >> 7 & _SET
    marked = key >> 20 & _SET
    twice = key >> 33 & _SET
    two_free = bool(key >> 46)
    found: set[tuple[int, ...]] = set()
    for a, b in PAIRINGS[roll]:
        play_a, play_b = bool(play >> a & 1), bool(play >> b & 1)
        if a == b:
            if play_a:
                # R7: the second step needs a space above the first.
                found.add((a, a) if twice >> a & 1 else (a,))
        elif play_a and play_b:
            # Both sums play unless each needs a new marker and only one is free.
            if (marked >> a | marked >> b) & 1 or two_free:
                found.add((a, b))  # R6.1
            else:
                found.update(((a,), (b,)))  # R6.3
        elif play_a:
            found.add((a,))  # R6.2
        elif play_b:
            found.add((b,))  # R6.2
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
