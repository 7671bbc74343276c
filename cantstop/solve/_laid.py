"""The laid-out kernel of the solver: each anchor's turn laid out once, then Newton's passes.

What a roll does in an in-turn position depends on the position only through
its table key, that is through the number of markers in use and the classes
of the columns (see :mod:`cantstop.solve._kernel`).  A *template* is what the 126 rolls do at one
such (markers, classes) pair: the weight of the rolls that bust, and the
rolls that do not, grouped by their table entry (the board stores entries
that list the same moves once, so one entry is one list of moves), each
move given as the step it makes in anchor numbering (``sum(climb *
stride)``).  Templates are made from the move table when first met and
kept for the whole board.  An anchor's turn is then laid out once: its
positions in the order a pass values them (successors first), each with
its stop value, bust weight and groups, and each group with the places of
the positions its moves lead to.  Newton's passes read only that layout:
contiguous arrays, no table keys, no hashing.

The indexing, the classes and the value are those of :mod:`cantstop.solve._kernel`,
whose reference kernel this one agrees with to 1e-12; no rule is decided here.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from cantstop.solve._kernel import (
    ROLLS,
    begin_anchor,
    block_scratch,
    clear_blocks,
    count_anchor,
    first_guess,
    newton_step,
    open_classes,
    request,
)
from cantstop.solve._policy import NEVER, placings, player_pass

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
    tables: tuple[np.ndarray, ...],
    values: np.ndarray,
    templates: dict[int, int],
    store: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    nb: int,
    blocks: tuple[np.ndarray, ...],
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
    h, stride, over, roll_cols, roll_ncols, roll_base, roll_weight, entry, pool = tables
    bcols, bn, bsize = blocks[0], blocks[1], blocks[2]
    t_bust, t_start, g_weight, g_first, steps, _ = store
    gw, gfirst, succ = lay
    wmask, cls, room = open_classes(s, h)
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
                        recorded = request(entry, ekey, misses, recorded, a, t)
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
def run_anchors(
    anchors: np.ndarray,
    start: int,
    tables: tuple[np.ndarray, ...],
    markers: int,
    values: np.ndarray,
    templates: dict[int, int],
    store: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    policy: tuple[int, np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    w: np.ndarray,
    d: np.ndarray,
    misses: np.ndarray,
    stats: np.ndarray,
) -> tuple[int, int]:  # pragma: no cover
    """Solve ``anchors[start:]``, or value them as a player plays, each turn laid out once.

    With ``policy`` = (width, slot_of, choice, likely, stop) of width 0
    (:func:`cantstop.solve._policy.optimal`), each anchor is solved as
    :func:`~cantstop.solve._kernel.solve_anchors` solves it, by Newton's
    passes over its laid-out turn.  With a player's tables
    (:class:`cantstop.solve.evaluate.PolicyTables`), it is valued as that
    player plays it, by one :func:`~cantstop.solve._policy.player_pass`.

    Returns ``(position reached, code)``: code -1 when every anchor was
    done, the count of misses written when table entries are missing, and
    :data:`FULL` when the template store needs room; in both last cases the
    anchor at that position is left undone.  ``stats`` accumulates anchors,
    in-turn positions, passes and anchors that did not settle.
    """
    h, over = tables[0], tables[2]
    k = h.shape[0]
    s = np.zeros(k, np.int64)
    blocks = block_scratch(k)
    total = 1
    for c in range(k):
        total *= h[c] + 1
    slot = np.empty(total, np.int32)
    pool = tables[8]
    mark = np.full(pool.shape[0], -1, np.int64)
    group_of = np.empty(pool.shape[0], np.int64)
    size = w.shape[0]
    p_stop = np.empty(size, np.float64)
    p_bust = np.empty(size, np.float64)
    p_group = np.empty(size + 1, np.int64)
    placed = (np.empty(size, np.int64), np.empty(size, np.int64), np.empty(size, np.int64))
    lay = (np.empty(32 * size, np.float64), np.empty(32 * size + 1, np.int64),
           np.empty(64 * size, np.int64))  # fmt: skip
    for position in range(start, anchors.shape[0]):
        a = anchors[position]
        nb = begin_anchor(a, s, tables, values, markers, blocks)
        if nb == 0:
            continue
        code, lay = lay_out(
            a, s, tables, values, templates, store, nb, blocks, slot, mark, group_of, p_stop,
            p_bust, p_group, lay, misses,
        )  # fmt: skip
        if code != -1:
            clear_blocks(nb, blocks)
            return position, code
        count = blocks[3][nb - 1] + 1
        if policy[0]:
            placings(a, s, h, nb, blocks, policy, placed)
        clear_blocks(nb, blocks)
        if policy[0]:
            f, b = player_pass(count, k, over, p_stop, p_bust, p_group, lay, placed, policy, w, d)
            values[a] = np.inf if 1.0 - b <= NEVER else f / (1.0 - b)
            count_anchor(stats, count, 1)
            continue
        x = first_guess(a, s, tables, values)
        passes = 0
        while True:
            laid_pass(x, count, p_stop, p_bust, p_group, lay[0], lay[1], lay[2], w, d)
            passes += 1
            x, done = newton_step(x, w[count - 1], d[count - 1], passes)
            if done:
                break
        values[a] = x
        count_anchor(stats, count, passes)
    return anchors.shape[0], -1
