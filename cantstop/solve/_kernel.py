"""The compiled kernel of the solver: one anchor's turn, solved by Newton's method.

Everything here works on plain integer and float arrays that
:mod:`cantstop.solve.board` prepares; no
rule is decided here.  What a roll allows comes from the move table, filled
from the engine's answers; this kernel only looks entries up and minimises.

Indexing.  A board of ``k`` columns with heights ``h`` numbers its anchors
(start-of-turn positions: the player's square in each column, ``s[i]`` from 0
to ``h[i]``) by the mixed-radix index ``sum(s[i] * stride[i])``.  An in-turn
position of anchor ``s`` is ``s`` with up to three columns raised, the
columns holding a marker; ``u[c] = t[c] - s[c]`` is a marker's climb.  The
in-turn positions are stored in *blocks*, one per set of marker columns, each
block a dense array over the climbs of its columns.  Blocks with more
markers come first and, within a block, higher climbs come first, so a
position's successors are always written before it is read.

Classes.  What the move table needs of a column is its *class*: without a
marker, 0, 1 or 2 for the spaces above the square (two meaning two or more;
0 only for a won column); with a marker, 3, 4 or 5 for the spaces above the
marker.  A table key is made of the roll, the number of markers in use and
the classes of the board's columns that the roll's pairings name.

Value.  ``W`` is the expected number of turns still to play from an
in-turn position, this turn included, when a bust costs ``1 + x`` turns (the
turn, then the anchor again): a stop is worth ``1 + E[t]`` (1 when it wins),
a roll the mean over the rolls of the best successor, or ``1 + x`` on a bust.
The anchor's value is the fixed point ``x = f(x)`` of its turn-start value
``f``, which is concave and piecewise linear with slopes below 1; Newton's
method on ``f(x) - x`` is then policy iteration and ends in a few passes.
"""

from __future__ import annotations

import numpy as np
from numba import njit

#: A table entry not yet asked of the engine, and one already requested.
UNKNOWN, REQUESTED = -1, -2
#: The ordered rolls of four dice: table weights are out of this many.
ROLLS = 1296.0
#: Newton's method stops when a step changes the value by less than this, relatively.
TOLERANCE = 1e-13
#: The most Newton passes one anchor may take before the solver gives up on it.
MAX_PASSES = 60

# The board's tables reach every kernel as one tuple, ``tables`` =
# (h, stride, over, roll_cols, roll_ncols, roll_base, roll_weight, entry, pool)
# (:meth:`cantstop.solve.board.Board.tables`), and the blocks of an anchor's
# turn as ``blocks`` = (bcols, bn, bsize, boff, bstride, block_of)
# (:func:`block_scratch`, filled by :func:`build_blocks`).


@njit(cache=True)
def decode(a: int, h: np.ndarray, stride: np.ndarray, s: np.ndarray) -> None:  # pragma: no cover
    """Write the squares of anchor number ``a`` into ``s``."""
    for i in range(h.shape[0]):
        s[i] = (a // stride[i]) % (h[i] + 1)


@njit(cache=True)
def won_mask(s: np.ndarray, h: np.ndarray) -> int:  # pragma: no cover
    """Return the bit set of the columns whose square is on the top space."""
    mask = 0
    for i in range(h.shape[0]):
        if s[i] == h[i]:
            mask |= 1 << i
    return mask


@njit(cache=True)
def block_scratch(
    k: int,
) -> tuple[
    np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray
]:  # pragma: no cover
    """Return empty ``blocks`` for a board of ``k`` columns, for :func:`build_blocks` to fill."""
    return (np.zeros((256, 3), np.int64), np.zeros(256, np.int64), np.zeros(256, np.int64),
            np.zeros(256, np.int64), np.zeros((256, 3), np.int64),
            np.full(1 << k, -1, np.int64))  # fmt: skip


@njit(cache=True)
def build_blocks(
    s: np.ndarray, h: np.ndarray, markers: int, blocks: tuple[np.ndarray, ...]
) -> int:  # pragma: no cover
    """Lay out the in-turn positions of anchor ``s`` in ``blocks``; return how many blocks.

    Blocks are the sets of up to ``markers`` open columns, largest first; each
    block's positions follow the previous block's.  ``block_of[mask]`` is the
    block of a column set (left as it was for sets that are not blocks: the
    caller resets it with :func:`clear_blocks`).
    """
    bcols, bn, bsize, boff, bstride, block_of = blocks
    k = h.shape[0]
    nb = 0
    offset = 0
    for size in range(markers, -1, -1):
        # Every set of `size` open columns, in increasing order of its columns.
        idx = np.zeros(3, np.int64)
        for j in range(size):
            idx[j] = j
        while True:
            ok = True
            for j in range(size):
                if idx[j] >= k:
                    ok = False
            if not ok:
                break
            usable = True
            for j in range(size):
                if s[idx[j]] >= h[idx[j]]:
                    usable = False
            if usable:
                mask = 0
                count = 1
                for j in range(size - 1, -1, -1):
                    c = idx[j]
                    bcols[nb, j] = c
                    bstride[nb, j] = count
                    count *= h[c] - s[c]
                    mask |= 1 << c
                for j in range(size, 3):
                    bcols[nb, j] = -1
                    bstride[nb, j] = 0
                bn[nb] = size
                bsize[nb] = count
                boff[nb] = offset
                block_of[mask] = nb
                offset += count
                nb += 1
            if size == 0:
                break
            # The next set of `size` indices in lexicographic order.
            j = size - 1
            while j >= 0 and idx[j] == k - size + j:
                j -= 1
            if j < 0:
                break
            idx[j] += 1
            for q in range(j + 1, size):
                idx[q] = idx[q - 1] + 1
    return nb


@njit(cache=True)
def clear_blocks(nb: int, blocks: tuple[np.ndarray, ...]) -> None:  # pragma: no cover
    """Reset the ``block_of`` entries that :func:`build_blocks` set."""
    bcols, bn, block_of = blocks[0], blocks[1], blocks[5]
    for b in range(nb):
        mask = 0
        for j in range(bn[b]):
            mask |= 1 << bcols[b, j]
        block_of[mask] = -1


@njit(cache=True)
def open_classes(
    s: np.ndarray, h: np.ndarray
) -> tuple[int, np.ndarray, np.ndarray]:  # pragma: no cover
    """Return the columns won at anchor ``s``, and each column's class and room without a marker.

    The room is the spaces above the square; the class is the room, 2 for
    two or more.
    """
    k = h.shape[0]
    cls = np.empty(k, np.int64)
    room = np.empty(k, np.int64)
    for c in range(k):
        room[c] = h[c] - s[c]
        cls[c] = min(room[c], 2)
    return won_mask(s, h), cls, room


@njit(cache=True)
def request(
    entry: np.ndarray, key: int, misses: np.ndarray, recorded: int, a: int, t: int
) -> int:  # pragma: no cover
    """Ask for the missing table entry ``key``, met at in-turn position ``t`` of anchor ``a``.

    While ``misses`` has room, an entry not yet asked for is written there
    as (entry key, anchor, position) after the ``recorded`` already
    written, and marked requested so that it is written once.  Once
    ``misses`` is full, entries are left unknown, to be found again after
    the engine fills the ones written.  Returns how many are written now.
    """
    if entry[key] == UNKNOWN and recorded < misses.shape[0]:
        entry[key] = REQUESTED
        misses[recorded, 0] = key
        misses[recorded, 1] = a
        misses[recorded, 2] = t
        recorded += 1
    return recorded


@njit(cache=True)
def turn_pass(
    a: int,
    x: float,
    s: np.ndarray,
    tables: tuple[np.ndarray, ...],
    values: np.ndarray,
    nb: int,
    blocks: tuple[np.ndarray, ...],
    w: np.ndarray,
    d: np.ndarray,
    roll_value: np.ndarray,
    misses: np.ndarray,
) -> int:  # pragma: no cover
    """Value every in-turn position of anchor ``a`` for a bust cost of ``1 + x``.

    Writes ``w`` (the best value), ``d`` (its slope in ``x``: the chance of
    busting back to the anchor under the best play) and ``roll_value`` (the
    value of rolling on).  Returns -1 when the pass is complete; otherwise
    table entries were missing and the pass is incomplete, and it returns how
    many of them it wrote to ``misses`` as (entry key, anchor, in-turn
    position as an anchor number), marking each requested (:func:`request`).
    """
    h, stride, over, roll_cols, roll_ncols, roll_base, roll_weight, entry, pool = tables
    bcols, bn, bsize, boff, bstride, block_of = blocks
    k = h.shape[0]
    wmask, cls, room = open_classes(s, h)
    u = np.zeros(k, np.int64)
    nu = np.zeros(k, np.int64)
    missing = 0
    recorded = 0
    for b in range(nb):
        n = bn[b]
        mask = 0
        for j in range(n):
            mask |= 1 << bcols[b, j]
        for local in range(bsize[b] - 1, -1, -1):
            t = a
            tmask = wmask
            for j in range(n):
                c = bcols[b, j]
                u[c] = (local // bstride[b, j]) % room[c] + 1
                t += u[c] * stride[c]
                left = room[c] - u[c]
                cls[c] = 3 + min(left, 2)
                if left == 0:
                    tmask |= 1 << c
            total = 0.0
            slope = 0.0
            for r in range(roll_weight.shape[0]):
                m = roll_ncols[r]
                key = roll_base[r]
                scale = 1
                for j in range(m):
                    key += cls[roll_cols[r, j]] * scale
                    scale *= 6
                key += n * scale
                e = entry[key]
                if e < 0:
                    recorded = request(entry, key, misses, recorded, a, t)
                    missing += 1
                    continue
                weight = roll_weight[r]
                count = pool[e]
                if count == 0:
                    total += weight * (1.0 + x)
                    slope += weight
                    continue
                best = np.inf
                best_slope = 0.0
                for mv in range(count):
                    for j in range(n):
                        c = bcols[b, j]
                        nu[c] = u[c]
                    nmask = mask
                    for half in range(2):
                        code = pool[e + 1 + 2 * mv + half]
                        if code >= 0:
                            c = code >> 3
                            nu[c] += code & 7
                            nmask |= 1 << c
                    nbk = block_of[nmask]
                    pos = boff[nbk]
                    for j in range(bn[nbk]):
                        c = bcols[nbk, j]
                        pos += (nu[c] - 1) * bstride[nbk, j]
                    for j in range(bn[nbk]):
                        nu[bcols[nbk, j]] = 0
                    value = w[pos]
                    if value < best:
                        best = value
                        best_slope = d[pos]
                total += weight * best
                slope += weight * best_slope
            here = boff[b] + local
            rolling = total / ROLLS
            roll_value[here] = rolling
            if n > 0:
                stop = 1.0 if over[tmask] else 1.0 + values[t]
                if stop <= rolling:
                    w[here] = stop
                    d[here] = 0.0
                else:
                    w[here] = rolling
                    d[here] = slope / ROLLS
            else:
                w[here] = rolling
                d[here] = slope / ROLLS
            for j in range(n):
                c = bcols[b, j]
                u[c] = 0
                cls[c] = min(room[c], 2)
    return recorded if missing else -1


@njit(cache=True)
def solve_anchors(
    anchors: np.ndarray,
    start: int,
    tables: tuple[np.ndarray, ...],
    markers: int,
    values: np.ndarray,
    w: np.ndarray,
    d: np.ndarray,
    roll_value: np.ndarray,
    misses: np.ndarray,
    stats: np.ndarray,
) -> tuple[int, int]:  # pragma: no cover
    """Solve ``anchors[start:]`` in order, writing each value into ``values``.

    Every stop successor of an anchor must be solved before it (descending
    anchor numbers do that).  Returns ``(position reached, entries written to
    misses)``, the second -1 when every anchor was solved: otherwise the
    anchor at that position is left unsolved, for the caller to fill the table
    and call again from there.  ``stats``
    accumulates anchors solved, in-turn positions and passes.
    """
    h = tables[0]
    s = np.zeros(h.shape[0], np.int64)
    blocks = block_scratch(h.shape[0])
    boff = blocks[3]
    for position in range(start, anchors.shape[0]):
        a = anchors[position]
        nb = begin_anchor(a, s, tables, values, markers, blocks)
        if nb == 0:
            continue
        x = first_guess(a, s, tables, values)
        passes = 0
        while True:
            missing = turn_pass(a, x, s, tables, values, nb, blocks, w, d, roll_value, misses)
            passes += 1
            if missing >= 0:
                clear_blocks(nb, blocks)
                return position, missing
            x, done = newton_step(x, w[boff[nb - 1]], d[boff[nb - 1]], passes)
            if done:
                break
        values[a] = x
        count_anchor(stats, boff[nb - 1] + 1, passes)
        clear_blocks(nb, blocks)
    return anchors.shape[0], -1


@njit(cache=True)
def newton_step(
    x: float, f: float, slope: float, passes: int
) -> tuple[float, bool]:  # pragma: no cover
    """Return Newton's next value from ``x``, and whether it is the last.

    At ``x`` the turn's start is worth ``f``, with ``slope``.  The last value
    is the one that moves less than :data:`TOLERANCE` relatively, or the one
    after :data:`MAX_PASSES` passes.
    """
    nxt = (f - slope * x) / (1.0 - slope)
    return nxt, abs(nxt - x) <= TOLERANCE * abs(nxt) or passes >= MAX_PASSES


@njit(cache=True)
def count_anchor(stats: np.ndarray, positions: int, passes: int) -> None:  # pragma: no cover
    """Add an anchor solved to ``stats``: anchors, in-turn positions, passes, anchors unsettled."""
    stats[0] += 1
    stats[1] += positions
    stats[2] += passes
    if passes >= MAX_PASSES:
        stats[3] += 1


@njit(cache=True)
def begin_anchor(
    a: int,
    s: np.ndarray,
    tables: tuple[np.ndarray, ...],
    values: np.ndarray,
    markers: int,
    blocks: tuple[np.ndarray, ...],
) -> int:  # pragma: no cover
    """Decode anchor ``a`` into ``s`` and build its blocks; return how many.

    An anchor already won is worth 0 turns: its value is written and no
    block is built (0 is returned).
    """
    h, stride, over = tables[0], tables[1], tables[2]
    decode(a, h, stride, s)
    if over[won_mask(s, h)]:
        values[a] = 0.0
        return 0
    return build_blocks(s, h, markers, blocks)


@njit(cache=True)
def first_guess(
    a: int, s: np.ndarray, tables: tuple[np.ndarray, ...], values: np.ndarray
) -> float:  # pragma: no cover
    """Return a starting value for Newton's method at anchor ``a``.

    It depends on already solved anchors only (one space higher in the first
    open column), so that the result does not depend on the order in which
    independent anchors are solved.
    """
    h, stride, over = tables[0], tables[1], tables[2]
    for i in range(h.shape[0]):
        if s[i] < h[i]:
            s[i] += 1
            finished = over[won_mask(s, h)]
            s[i] -= 1
            return 1.0 if finished else values[a + stride[i]] + 0.25
    return 1.0
