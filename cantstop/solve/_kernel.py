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
def build_blocks(
    s: np.ndarray,
    h: np.ndarray,
    markers: int,
    bcols: np.ndarray,
    bn: np.ndarray,
    bsize: np.ndarray,
    boff: np.ndarray,
    bstride: np.ndarray,
    block_of: np.ndarray,
) -> int:  # pragma: no cover
    """Lay out the in-turn positions of anchor ``s``; return how many blocks there are.

    Blocks are the sets of up to ``markers`` open columns, largest first; each
    block's positions follow the previous block's.  ``block_of[mask]`` is the
    block of a column set (left as it was for sets that are not blocks: the
    caller resets it with :func:`clear_blocks`).
    """
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
def clear_blocks(
    nb: int, bcols: np.ndarray, bn: np.ndarray, block_of: np.ndarray
) -> None:  # pragma: no cover
    """Reset the ``block_of`` entries that :func:`build_blocks` set."""
    for b in range(nb):
        mask = 0
        for j in range(bn[b]):
            mask |= 1 << bcols[b, j]
        block_of[mask] = -1


@njit(cache=True)
def turn_pass(
    a: int,
    x: float,
    s: np.ndarray,
    h: np.ndarray,
    stride: np.ndarray,
    values: np.ndarray,
    over: np.ndarray,
    roll_cols: np.ndarray,
    roll_ncols: np.ndarray,
    roll_base: np.ndarray,
    roll_weight: np.ndarray,
    entry: np.ndarray,
    pool: np.ndarray,
    nb: int,
    bcols: np.ndarray,
    bn: np.ndarray,
    bsize: np.ndarray,
    boff: np.ndarray,
    bstride: np.ndarray,
    block_of: np.ndarray,
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
    position as an anchor number), marking each requested.  Entries already
    requested but not written (``misses`` was full) are found again once the
    caller resets them to unknown.
    """
    k = h.shape[0]
    wmask = won_mask(s, h)
    cls = np.empty(k, np.int64)
    room = np.empty(k, np.int64)
    for i in range(k):
        room[i] = h[i] - s[i]
        cls[i] = min(room[i], 2)
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
                    if e == UNKNOWN:
                        entry[key] = REQUESTED
                        if recorded < misses.shape[0]:
                            misses[recorded, 0] = key
                            misses[recorded, 1] = a
                            misses[recorded, 2] = t
                            recorded += 1
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
    h: np.ndarray,
    stride: np.ndarray,
    markers: int,
    values: np.ndarray,
    over: np.ndarray,
    roll_cols: np.ndarray,
    roll_ncols: np.ndarray,
    roll_base: np.ndarray,
    roll_weight: np.ndarray,
    entry: np.ndarray,
    pool: np.ndarray,
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
    k = h.shape[0]
    s = np.zeros(k, np.int64)
    bcols = np.zeros((256, 3), np.int64)
    bn = np.zeros(256, np.int64)
    bsize = np.zeros(256, np.int64)
    boff = np.zeros(256, np.int64)
    bstride = np.zeros((256, 3), np.int64)
    block_of = np.full(1 << k, -1, np.int64)
    for position in range(start, anchors.shape[0]):
        a = anchors[position]
        decode(a, h, stride, s)
        if over[won_mask(s, h)]:
            values[a] = 0.0
            continue
        nb = build_blocks(s, h, markers, bcols, bn, bsize, boff, bstride, block_of)
        x = first_guess(a, s, h, stride, values, over)
        passes = 0
        while True:
            missing = turn_pass(
                a, x, s, h, stride, values, over, roll_cols, roll_ncols, roll_base,
                roll_weight, entry, pool, nb, bcols, bn, bsize, boff, bstride, block_of,
                w, d, roll_value, misses,
            )  # fmt: skip
            passes += 1
            if missing >= 0:
                clear_blocks(nb, bcols, bn, block_of)
                return position, missing
            start_at = boff[nb - 1]
            f = w[start_at]
            slope = d[start_at]
            nxt = (f - slope * x) / (1.0 - slope)
            done = abs(nxt - x) <= TOLERANCE * abs(nxt) or passes >= MAX_PASSES
            x = nxt
            if done:
                break
        values[a] = x
        stats[0] += 1
        stats[1] += boff[nb - 1] + 1
        stats[2] += passes
        if passes >= MAX_PASSES:
            stats[3] += 1
        clear_blocks(nb, bcols, bn, block_of)
    return anchors.shape[0], -1


@njit(cache=True)
def first_guess(
    a: int, s: np.ndarray, h: np.ndarray, stride: np.ndarray, values: np.ndarray, over: np.ndarray
) -> float:  # pragma: no cover
    """Return a starting value for Newton's method at anchor ``a``.

    It depends on already solved anchors only (one space higher in the first
    open column), so that the result does not depend on the order in which
    independent anchors are solved.
    """
    for i in range(h.shape[0]):
        if s[i] < h[i]:
            s[i] += 1
            finished = over[won_mask(s, h)]
            s[i] -= 1
            return 1.0 if finished else values[a + stride[i]] + 0.25
    return 1.0


# -- the laid-out kernel ------------------------------------------------------------------
#
# What a roll does in an in-turn position depends on the position only through
# its table key, that is through the number of markers in use and the classes
# of the columns (see above).  A *template* is what the 126 rolls do at one
# such (markers, classes) pair: the weight of the rolls that bust, and the
# rolls that do not, grouped by their table entry (the board stores entries
# that list the same moves once, so one entry is one list of moves), each
# move given as the step it makes in anchor numbering (``sum(climb *
# stride)``).  Templates are made from the move table when first met and
# kept for the whole board.  An anchor's turn is then laid out once: its
# positions in the order a pass values them (successors first), each with
# its stop value, bust weight and groups, and each group with the places of
# the positions its moves lead to.  Newton's passes read only that layout:
# contiguous arrays, no table keys, no hashing.

#: A template store with no room left: the caller grows it and calls again.
FULL = -3


@njit(cache=True)
def class_key(cls: np.ndarray, n: int) -> int:  # pragma: no cover
    """Return the number of a (markers, classes) pair: the key of its template."""
    key = 0
    for i in range(cls.shape[0] - 1, -1, -1):
        key = key * 6 + cls[i]
    return key * 4 + n


@njit(cache=True)
def entry_key(r: int, cls: np.ndarray, n: int, roll_cols: np.ndarray, roll_ncols: np.ndarray,
              roll_base: np.ndarray) -> int:  # pragma: no cover  # fmt: skip
    """Return the move-table key of roll ``r`` with ``n`` markers in use and classes ``cls``."""
    key = roll_base[r]
    scale = 1
    for j in range(roll_ncols[r]):
        key += cls[roll_cols[r, j]] * scale
        scale *= 6
    return int(key + n * scale)


@njit(cache=True)
def make_template(
    cls: np.ndarray,
    n: int,
    stride: np.ndarray,
    roll_cols: np.ndarray,
    roll_ncols: np.ndarray,
    roll_base: np.ndarray,
    roll_weight: np.ndarray,
    entry: np.ndarray,
    pool: np.ndarray,
    store: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    mark: np.ndarray,
    group_of: np.ndarray,
) -> int:  # pragma: no cover
    """Add the template of (``n`` markers, classes ``cls``) to ``store``; return its number.

    ``store`` is (bust weight and first group of each template, group weight
    and first step of each group, steps, counts of templates, groups and
    steps).  ``mark`` and ``group_of`` are scratch arrays over the pool (a
    pool entry's last template and its group there).  Returns -1 when a
    table entry it needs is unknown (nothing is added) and :data:`FULL` when the store has no room.
    """
    t_bust, t_start, g_weight, g_first, steps, counts = store
    rolls = roll_weight.shape[0]
    found_at = np.empty(rolls, np.int64)
    for r in range(rolls):
        e = entry[entry_key(r, cls, n, roll_cols, roll_ncols, roll_base)]
        if e < 0:
            return -1
        found_at[r] = e
    t = counts[0]
    g0 = counts[1]
    m0 = counts[2]
    if t + 2 > t_bust.shape[0] or g0 + rolls + 1 > g_weight.shape[0]:
        return FULL
    bust = 0.0
    groups = 0
    m = m0
    for r in range(rolls):
        e = found_at[r]
        count = pool[e]
        if count == 0:
            bust += roll_weight[r]
            continue
        if mark[e] == t:
            found = group_of[e]
        else:
            if m + count > steps.shape[0]:
                return FULL
            found = g0 + groups
            mark[e] = t
            group_of[e] = found
            groups += 1
            g_weight[found] = 0.0
            g_first[found] = m
            for mv in range(count):
                step = 0
                for half in range(2):
                    code = pool[e + 1 + 2 * mv + half]
                    if code >= 0:
                        step += (code & 7) * stride[code >> 3]
                steps[m] = step
                m += 1
            g_first[found + 1] = m  # the group's end: the next group's start
        g_weight[found] += roll_weight[r]
    t_bust[t] = bust
    t_start[t] = g0
    t_start[t + 1] = g0 + groups
    counts[0] = t + 1
    counts[1] = g0 + groups
    counts[2] = m
    return int(t)


@njit(cache=True)
def lay_out(
    a: int,
    s: np.ndarray,
    h: np.ndarray,
    stride: np.ndarray,
    values: np.ndarray,
    over: np.ndarray,
    roll_cols: np.ndarray,
    roll_ncols: np.ndarray,
    roll_base: np.ndarray,
    roll_weight: np.ndarray,
    entry: np.ndarray,
    pool: np.ndarray,
    templates: dict[int, int],
    store: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    nb: int,
    bcols: np.ndarray,
    bn: np.ndarray,
    bsize: np.ndarray,
    slot: np.ndarray,
    mark: np.ndarray,
    group_of: np.ndarray,
    p_stop: np.ndarray,
    p_bust: np.ndarray,
    p_group: np.ndarray,
    lay: tuple[np.ndarray, np.ndarray, np.ndarray],
    misses: np.ndarray,
) -> tuple[int, tuple[np.ndarray, np.ndarray, np.ndarray]]:  # pragma: no cover
    """Lay out the turn of anchor ``a``; return (code, ``lay``).

    Positions are numbered in the order a pass values them (successors
    first; the anchor's own position last): ``p_stop[i]`` is position
    ``i``'s stop value (infinite where no stop is possible), ``p_bust[i]``
    the weight of the rolls that bust, and ``p_group[i]:p_group[i + 1]`` its
    groups in ``lay`` = (group weight, group's first successor, successors),
    the successors of group ``q`` being ``succ[first[q]:first[q + 1]]``.
    ``slot[t - a]`` is the number of the position of anchor number ``t``;
    ``mark`` and ``group_of`` are :func:`make_template`'s scratch.
    The arrays of ``lay`` grow as needed and are returned.

    The code is -1 when laid out; otherwise the count of misses recorded
    (as :func:`turn_pass` does), or :data:`FULL` when the template store is
    full.
    """
    t_bust, t_start, g_weight, g_first, steps, _ = store
    gw, gfirst, succ = lay
    k = h.shape[0]
    wmask = won_mask(s, h)
    cls = np.empty(k, np.int64)
    room = np.empty(k, np.int64)
    for c in range(k):
        room[c] = h[c] - s[c]
        cls[c] = min(room[c], 2)
    missing = 0
    recorded = 0
    i = 0
    ng = 0
    ns = 0
    p_group[0] = 0
    gfirst[0] = 0
    for b in range(nb):
        n = bn[b]
        for local in range(bsize[b] - 1, -1, -1):
            t = a
            tmask = wmask
            rest = local
            for j in range(n - 1, -1, -1):
                c = bcols[b, j]
                u = rest % room[c] + 1
                rest //= room[c]
                t += u * stride[c]
                left = room[c] - u
                cls[c] = 3 + min(left, 2)
                if left == 0:
                    tmask |= 1 << c
            key = class_key(cls, n)
            tid = -1
            if key in templates:
                tid = templates[key]
            else:
                tid = make_template(
                    cls, n, stride, roll_cols, roll_ncols, roll_base, roll_weight, entry, pool,
                    store, mark, group_of,
                )  # fmt: skip
                if tid == FULL:
                    return FULL, (gw, gfirst, succ)
                if tid >= 0:
                    templates[key] = tid
            if tid < 0:
                # Record the entries the template lacks, for the engine to fill.
                for r in range(roll_weight.shape[0]):
                    ekey = entry_key(r, cls, n, roll_cols, roll_ncols, roll_base)
                    if entry[ekey] < 0:
                        if entry[ekey] == UNKNOWN:
                            entry[ekey] = REQUESTED
                            if recorded < misses.shape[0]:
                                misses[recorded, 0] = ekey
                                misses[recorded, 1] = a
                                misses[recorded, 2] = t
                                recorded += 1
                        missing += 1
            elif missing == 0:
                slot[t - a] = i
                if n > 0:
                    p_stop[i] = 1.0 if over[tmask] else 1.0 + values[t]
                else:
                    p_stop[i] = np.inf
                p_bust[i] = t_bust[tid]
                g_lo = t_start[tid]
                g_hi = t_start[tid + 1]
                if ng + (g_hi - g_lo) + 1 > gw.shape[0]:
                    grown_w = np.empty(2 * gw.shape[0] + 256, np.float64)
                    grown_w[:ng] = gw[:ng]
                    gw = grown_w
                    grown_f = np.empty(2 * gfirst.shape[0] + 256, np.int64)
                    grown_f[: ng + 1] = gfirst[: ng + 1]
                    gfirst = grown_f
                if ns + (g_first[g_hi] - g_first[g_lo]) > succ.shape[0]:
                    grown_s = np.empty(2 * succ.shape[0] + 4096, np.int64)
                    grown_s[:ns] = succ[:ns]
                    succ = grown_s
                base = t - a
                for g in range(g_lo, g_hi):
                    for m in range(g_first[g], g_first[g + 1]):
                        succ[ns] = slot[base + steps[m]]
                        ns += 1
                    gw[ng] = g_weight[g]
                    ng += 1
                    gfirst[ng] = ns
                i += 1
                p_group[i] = ng
            for j in range(n):
                c = bcols[b, j]
                cls[c] = min(room[c], 2)
    return (recorded if missing else -1), (gw, gfirst, succ)


@njit(cache=True)
def laid_pass(
    x: float,
    count: int,
    p_stop: np.ndarray,
    p_bust: np.ndarray,
    p_group: np.ndarray,
    gw: np.ndarray,
    gfirst: np.ndarray,
    succ: np.ndarray,
    w: np.ndarray,
    d: np.ndarray,
) -> None:  # pragma: no cover
    """Value the ``count`` laid-out positions for a bust cost of ``1 + x``: write ``w`` and ``d``.

    Each position is worth the better of its stop and its roll: the mean over
    the rolls of the best successor, a bust costing ``1 + x``; ``d`` is the
    slope in ``x`` (ties keep the first best move, and a tie of stop and roll
    stops).
    """
    for i in range(count):
        total = p_bust[i] * (1.0 + x)
        slope = p_bust[i]
        for q in range(p_group[i], p_group[i + 1]):
            best = np.inf
            best_slope = 0.0
            for j in range(gfirst[q], gfirst[q + 1]):
                pos = succ[j]
                value = w[pos]
                if value < best:
                    best = value
                    best_slope = d[pos]
            total += gw[q] * best
            slope += gw[q] * best_slope
        rolling = total / ROLLS
        if p_stop[i] <= rolling:
            w[i] = p_stop[i]
            d[i] = 0.0
        else:
            w[i] = rolling
            d[i] = slope / ROLLS


@njit(cache=True)
def solve_anchors_laid(
    anchors: np.ndarray,
    start: int,
    h: np.ndarray,
    stride: np.ndarray,
    markers: int,
    values: np.ndarray,
    over: np.ndarray,
    roll_cols: np.ndarray,
    roll_ncols: np.ndarray,
    roll_base: np.ndarray,
    roll_weight: np.ndarray,
    entry: np.ndarray,
    pool: np.ndarray,
    templates: dict[int, int],
    store: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    w: np.ndarray,
    d: np.ndarray,
    misses: np.ndarray,
    stats: np.ndarray,
) -> tuple[int, int]:  # pragma: no cover
    """Solve ``anchors[start:]`` as :func:`solve_anchors` does, each turn laid out once.

    Returns ``(position reached, code)``: code -1 when every anchor was
    solved, the count of misses written when table entries are missing, and
    :data:`FULL` when the template store needs room; in both last cases the
    anchor at that position is left unsolved.
    """
    k = h.shape[0]
    s = np.zeros(k, np.int64)
    bcols = np.zeros((256, 3), np.int64)
    bn = np.zeros(256, np.int64)
    bsize = np.zeros(256, np.int64)
    boff = np.zeros(256, np.int64)
    bstride = np.zeros((256, 3), np.int64)
    block_of = np.full(1 << k, -1, np.int64)
    total = 1
    for c in range(k):
        total *= h[c] + 1
    slot = np.empty(total, np.int32)
    mark = np.full(pool.shape[0], -1, np.int64)
    group_of = np.empty(pool.shape[0], np.int64)
    size = w.shape[0]
    p_stop = np.empty(size, np.float64)
    p_bust = np.empty(size, np.float64)
    p_group = np.empty(size + 1, np.int64)
    lay = (np.empty(32 * size, np.float64), np.empty(32 * size + 1, np.int64),
           np.empty(64 * size, np.int64))  # fmt: skip
    for position in range(start, anchors.shape[0]):
        a = anchors[position]
        decode(a, h, stride, s)
        if over[won_mask(s, h)]:
            values[a] = 0.0
            continue
        nb = build_blocks(s, h, markers, bcols, bn, bsize, boff, bstride, block_of)
        code, lay = lay_out(
            a, s, h, stride, values, over, roll_cols, roll_ncols, roll_base, roll_weight,
            entry, pool, templates, store, nb, bcols, bn, bsize, slot, mark, group_of, p_stop,
            p_bust, p_group, lay, misses,
        )  # fmt: skip
        clear_blocks(nb, bcols, bn, block_of)
        if code != -1:
            return position, code
        count = boff[nb - 1] + 1
        gw, gfirst, succ = lay
        x = first_guess(a, s, h, stride, values, over)
        passes = 0
        while True:
            laid_pass(x, count, p_stop, p_bust, p_group, gw, gfirst, succ, w, d)
            passes += 1
            f = w[count - 1]
            slope = d[count - 1]
            nxt = (f - slope * x) / (1.0 - slope)
            done = abs(nxt - x) <= TOLERANCE * abs(nxt) or passes >= MAX_PASSES
            x = nxt
            if done:
                break
        values[a] = x
        stats[0] += 1
        stats[1] += count
        stats[2] += passes
        if passes >= MAX_PASSES:
            stats[3] += 1
    return anchors.shape[0], -1
