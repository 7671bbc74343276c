"""The laid-out kernel of the solver: each anchor's turn laid out once, then Newton's passes.

What a roll does in an in-turn position depends on the position only through
its table key, that is through the number of markers in use and the classes
of the columns (see :mod:`cantstop.solve._kernel`).  A *template* is what the
126 rolls do at one such (markers, classes) pair: the weight of the rolls
that bust, and the rolls that do not, grouped by their table entry (the board
stores entries that list the same moves once, so one entry is one list of
moves).  A move's step in anchor numbering (``sum(climb * stride)``) is kept
beside its entry.  Templates are made from the move table when first met
and kept in a store of bounded size, emptied when full, and a hash table
finds them by key: all of that is :mod:`cantstop.solve._templates`.

Before a solve, :func:`discover` walks every turn and lists the table
entries its templates will need, many at a time, so that the engine fills
them in a few calls rather than one anchor at a time.

An anchor's turn is then laid out once: its positions in the order a pass
values them (successors first), each with its stop value, bust weight and
groups, and each group with the places of the positions its moves lead to.
Newton's passes read only that layout: contiguous arrays, no table keys, no
hashing.  Two things spare work without changing a value:

- a position whose stop wins the game is worth 1 turn, its stop, since no
  value is less than 1; its rolls are not laid out (``_policy.BARE``), nor,
  when a player's play is valued, those of a position where it stops
  whatever the dice would offer;
- a pass also finds how far the bust cost may move with its choices still
  best (:func:`laid_pass`); when Newton's next value lies within that, it
  is the fixed point, and no further pass is needed to confirm it.

The indexing, the classes and the value are those of :mod:`cantstop.solve._kernel`,
whose reference kernel this one agrees with to 1e-12; no rule is decided here.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from cantstop.solve._kernel import (
    ROLLS,
    UNKNOWN,
    begin_anchor,
    block_scratch,
    build_blocks,
    clear_blocks,
    count_anchor,
    decode,
    first_guess,
    newton_step,
    open_classes,
    request,
    won_mask,
)
from cantstop.solve._policy import (
    BARE,
    GAIN,
    NEVER,
    RANDOM,
    SOLVED,
    Policy,
    gain_pass,
    placings,
    player_pass,
    random_pass,
    solved_pass,
    stops_outright,
)
from cantstop.solve._templates import (
    ABSENT,
    FULL,
    anchor_keys,
    class_key,
    empty_store,
    find,
    key_coefficients,
    make_template,
    put,
    roll_keys,
)


@njit(cache=True)
def place(
    a: int,
    local: int,
    cols: np.ndarray,
    n: int,
    wmask: int,
    room: np.ndarray,
    stride: np.ndarray,
    cls: np.ndarray,
) -> tuple[int, int]:  # pragma: no cover
    """Place the markers of in-turn position ``local`` of a block of anchor ``a``.

    The block's marker columns are ``cols[:n]`` and ``local`` numbers their
    climbs as ``build_blocks`` lays them out.  Writes the marker columns'
    classes into ``cls`` and returns the position's anchor number and the
    columns won or topped by a marker (``wmask`` being those the anchor won).
    """
    t = a
    tmask = wmask
    rest = local
    for j in range(n - 1, -1, -1):
        c = cols[j]
        u = rest % room[c] + 1
        rest //= room[c]
        t += u * stride[c]
        left = room[c] - u
        cls[c] = 3 + min(left, 2)
        if left == 0:
            tmask |= 1 << c
    return t, tmask


@njit(cache=True)
def unplace(
    cols: np.ndarray, n: int, room: np.ndarray, cls: np.ndarray
) -> None:  # pragma: no cover
    """Undo :func:`place`: give the marker columns ``cols[:n]`` their classes without a marker."""
    for j in range(n):
        c = cols[j]
        cls[c] = min(room[c], 2)


@njit(cache=True)
def outright(
    a: int,
    s: np.ndarray,
    h: np.ndarray,
    over: np.ndarray,
    nb: int,
    blocks: tuple[np.ndarray, ...],
    policy: Policy,
    placed: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    bare: np.ndarray,
) -> None:  # pragma: no cover
    """Place the markers of anchor ``a``'s positions and find where the player stops outright.

    Fills ``placed`` (``_policy.placings``; the random player needs none)
    and ``bare`` (``_policy.stops_outright``) in the order :func:`lay_out`
    numbers the positions.
    """
    if policy[0] != RANDOM:
        placings(a, s, h, nb, blocks, policy, placed)
    stops_outright(blocks[3][nb - 1] + 1, h.shape[0], over, placed, policy, bare)


@njit(cache=True)
def discover(
    anchors: np.ndarray,
    start: int,
    tables: tuple[np.ndarray, ...],
    markers: int,
    checked: tuple[np.ndarray, np.ndarray, np.ndarray],
    misses: np.ndarray,
    policy: Policy,
    placed: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    bare: np.ndarray,
) -> tuple[int, int]:  # pragma: no cover
    """Find the table entries that the turns of ``anchors[start:]`` need and the table lacks.

    The positions whose rolls :func:`lay_out` will not lay out are passed
    over: in a solve (and for the optimal player of a solution) those whose
    stop wins, in an evaluation of another player those where it stops outright
    (``_policy.stops_outright``, with ``placed`` and ``bare`` its
    scratch).  Each (markers, classes) pair met is
    checked once: its 126 entries are
    looked up, the missing ones written to ``misses`` (:func:`request`),
    and the pair is entered in ``checked`` (a table of ``_templates.find``).
    Returns ``(position reached, code)``: the code is -1 when every anchor
    was checked; otherwise the anchor at that position is to be checked
    again, after the engine fills the entries written (the code is how
    many: ``misses`` is full), or after ``checked`` is made larger (the
    code is :data:`FULL`).
    """
    h, stride, over, entry = tables[0], tables[1], tables[2], tables[7]
    k = h.shape[0]
    s = np.zeros(k, np.int64)
    blocks = block_scratch(k)
    bcols, bn, bsize = blocks[0], blocks[1], blocks[2]
    rolls = tables[6].shape[0]
    keys = (*key_coefficients(tables), np.empty(rolls, np.int64), np.empty(rolls, np.int64))
    recorded = 0
    evaluating = policy[0] != 0 and policy[0] != SOLVED  # SOLVED: laid out as in a solve
    for position in range(start, anchors.shape[0]):
        a = anchors[position]
        decode(a, h, stride, s)
        if over[won_mask(s, h)]:
            continue
        nb = build_blocks(s, h, markers, blocks)
        if evaluating:
            outright(a, s, h, over, nb, blocks, policy, placed, bare)
        wmask, cls, room = open_classes(s, h)
        anchor_keys(cls, tables, keys[2])
        i = 0
        for b in range(nb):
            n = bn[b]
            for local in range(bsize[b] - 1, -1, -1):
                t, tmask = place(a, local, bcols[b], n, wmask, room, stride, cls)
                key = class_key(cls, n)
                skip = bare[i] if evaluating else n > 0 and over[tmask]
                i += 1
                if not skip and find(checked, key) == ABSENT:
                    rkeys = roll_keys(keys, cls, room, bcols[b], n)
                    for r in range(rolls):
                        ekey = rkeys[r]
                        if entry[ekey] == UNKNOWN:
                            recorded = request(entry, ekey, misses, recorded, a, t)
                            if recorded == misses.shape[0]:
                                clear_blocks(nb, blocks)
                                return position, recorded
                    if not put(checked, key, 0):
                        clear_blocks(nb, blocks)
                        return position, (recorded if recorded else FULL)
                unplace(bcols[b], n, room, cls)
        clear_blocks(nb, blocks)
    return anchors.shape[0], (recorded if recorded else -1)


@njit(cache=True)
def lay_out(
    a: int,
    s: np.ndarray,
    tables: tuple[np.ndarray, ...],
    pstep: np.ndarray,
    values: np.ndarray,
    templates: tuple[np.ndarray, np.ndarray, np.ndarray],
    store: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    nb: int,
    blocks: tuple[np.ndarray, ...],
    slot: np.ndarray,
    keys: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    scratch: tuple[np.ndarray, np.ndarray, np.ndarray],
    p_stop: np.ndarray,
    p_at: np.ndarray,
    p_bust: np.ndarray,
    p_group: np.ndarray,
    lay: tuple[np.ndarray, np.ndarray, np.ndarray],
    misses: np.ndarray,
    evaluating: bool,
    bare: np.ndarray,
) -> tuple[int, tuple[np.ndarray, np.ndarray, np.ndarray]]:  # pragma: no cover
    """Lay out the turn of anchor ``a``; return (code, ``lay``).

    Positions are numbered in the order a pass values them (successors
    first; the anchor's own position last): ``p_stop[i]`` is position
    ``i``'s stop value (infinite where no stop is possible), ``p_at[i]``
    the anchor its stop leads to (-1 where the stop wins or there is none,
    ``p_stop`` then not depending on ``values``), ``p_bust[i]``
    the weight of the rolls that bust, and ``p_group[i]:p_group[i + 1]`` its
    groups in ``lay`` = (group weight, group's first successor, successors),
    the successors of group ``q`` being ``succ[first[q]:first[q + 1]]``, in
    the order the engine lists the moves.  ``slot[t - a]`` is the number of
    the position of anchor number ``t``; ``pstep`` the moves' steps
    (``_templates.entry_steps``); ``keys`` is ``_templates.roll_keys``'s
    and ``scratch`` ``_templates.make_template``'s.
    The arrays of ``lay`` grow as needed and are returned.

    Some positions are laid out without their rolls, their bust weight
    ``_policy.BARE``, and are worth their stop.  In a solve, those whose
    stop wins the game: its value is 1, and no roll can do better, every
    value being 1 turn or more.  When ``evaluating`` a player's play, those
    where ``bare[i]`` says the player stops whatever its rolls.

    When the template store is full it is emptied (``_templates.empty_store``) and
    the layout goes on: what is laid out no longer needs the templates.

    The code is -1 when laid out, otherwise the count of misses recorded
    (as :func:`turn_pass` does).
    """
    h, stride, over, entry, pool = tables[0], tables[1], tables[2], tables[7], tables[8]
    bcols, bn, bsize = blocks[0], blocks[1], blocks[2]
    t_bust, t_start, g_weight, g_entry, _ = store
    gw, gfirst, succ = lay
    wmask, cls, room = open_classes(s, h)
    anchor_keys(cls, tables, keys[2])
    missing = 0
    recorded = 0
    i = 0
    ng = 0
    ns = 0
    p_group[0] = 0
    gfirst[0] = 0
    numbered = 0
    for b in range(nb):
        n = bn[b]
        for local in range(bsize[b] - 1, -1, -1):
            t, tmask = place(a, local, bcols[b], n, wmask, room, stride, cls)
            skip = bare[numbered] if evaluating else n > 0 and over[tmask]
            numbered += 1
            if skip:
                if missing == 0:
                    slot[t - a] = i
                    p_at[i] = -1 if over[tmask] else t
                    p_stop[i] = 1.0 if over[tmask] else 1.0 + values[t]
                    p_bust[i] = BARE
                    i += 1
                    p_group[i] = ng
                unplace(bcols[b], n, room, cls)
                continue
            key = class_key(cls, n)
            tid = find(templates, key)
            rkeys = keys[3]
            if tid < 0:
                rkeys = roll_keys(keys, cls, room, bcols[b], n)
                tid = make_template(rkeys, tables, store, scratch)
                if tid == FULL:
                    empty_store(templates, store, scratch[1])
                    tid = make_template(rkeys, tables, store, scratch)
                if tid >= 0 and not put(templates, key, tid):
                    empty_store(templates, store, scratch[1])
                    tid = make_template(rkeys, tables, store, scratch)
                    put(templates, key, tid)
            if tid < 0:
                # Record the entries the template lacks, for the engine to fill.
                for r in range(rkeys.shape[0]):
                    ekey = rkeys[r]
                    if entry[ekey] < 0:
                        recorded = request(entry, ekey, misses, recorded, a, t)
                        missing += 1
            elif missing == 0:
                slot[t - a] = i
                p_at[i] = t if n > 0 and not over[tmask] else -1
                if n > 0:
                    p_stop[i] = 1.0 if over[tmask] else 1.0 + values[t]
                else:
                    p_stop[i] = np.inf
                p_bust[i] = t_bust[tid]
                g_lo = t_start[tid]
                g_hi = t_start[tid + 1]
                moves = 0
                for g in range(g_lo, g_hi):
                    moves += pool[g_entry[g]]
                if ng + (g_hi - g_lo) + 1 > gw.shape[0]:
                    grown_w = np.empty(2 * gw.shape[0] + 256, np.float64)
                    grown_w[:ng] = gw[:ng]
                    gw = grown_w
                    grown_f = np.empty(2 * gfirst.shape[0] + 256, np.int64)
                    grown_f[: ng + 1] = gfirst[: ng + 1]
                    gfirst = grown_f
                if ns + moves > succ.shape[0]:
                    grown_s = np.empty(2 * succ.shape[0] + 4096, np.int64)
                    grown_s[:ns] = succ[:ns]
                    succ = grown_s
                base = t - a
                for g in range(g_lo, g_hi):
                    e = g_entry[g]
                    for m in range(e + 1, e + 1 + pool[e]):
                        succ[ns] = slot[base + pstep[m]]
                        ns += 1
                    gw[ng] = g_weight[g]
                    ng += 1
                    gfirst[ng] = ns
                i += 1
                p_group[i] = ng
            unplace(bcols[b], n, room, cls)
    return (recorded if missing else -1), (gw, gfirst, succ)


@njit(cache=True)
def narrow(bound: np.ndarray, gap: float, slope: float) -> None:  # pragma: no cover
    """Narrow ``bound`` = (lo, hi) to the shifts ``z`` of ``x`` with ``slope * z <= gap``."""
    if slope > 0.0:
        if bound[1] * slope > gap:
            bound[1] = gap / slope
    elif slope < 0.0 and bound[0] * slope > gap:
        bound[0] = gap / slope


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
    bound: np.ndarray,
) -> None:  # pragma: no cover
    """Value the ``count`` laid-out positions for a bust cost of ``1 + x``: write ``w`` and ``d``.

    Each position is worth the better of its stop and its roll: the mean over
    the rolls of the best successor, a bust costing ``1 + x``; ``d`` is the
    slope in ``x`` (ties keep the first best move, and a tie of stop and roll
    stops).  A position laid out without its rolls (``_policy.BARE``: its
    stop wins) is worth its stop.

    ``bound`` gets (lo, hi): the choices made here stay best, each
    position's value staying ``w + d * z``, for a bust cost of ``1 + x + z``
    with ``lo <= z <= hi``.  (With the choices fixed, every value is affine
    in ``z``; the choices stay best while no other move's or option's line
    falls below the chosen one's.)
    """
    bound[0] = -np.inf
    bound[1] = np.inf
    for i in range(count):
        if p_bust[i] == BARE:
            w[i] = p_stop[i]
            d[i] = 0.0
            continue
        total = p_bust[i] * (1.0 + x)
        slope = p_bust[i]
        for q in range(p_group[i], p_group[i + 1]):
            lo = gfirst[q]
            hi = gfirst[q + 1]
            best = np.inf
            best_slope = 0.0
            for j in range(lo, hi):
                pos = succ[j]
                value = w[pos]
                if value < best:
                    best = value
                    best_slope = d[pos]
            if hi - lo > 1:
                for j in range(lo, hi):
                    pos = succ[j]
                    narrow(bound, w[pos] - best, best_slope - d[pos])
            total += gw[q] * best
            slope += gw[q] * best_slope
        rolling = total / ROLLS
        slope /= ROLLS
        if p_stop[i] <= rolling:
            w[i] = p_stop[i]
            d[i] = 0.0
            narrow(bound, rolling - p_stop[i], -slope)
        else:
            w[i] = rolling
            d[i] = slope
            narrow(bound, p_stop[i] - rolling, slope)


@njit(cache=True)
def run_anchors(
    anchors: np.ndarray,
    start: int,
    tables: tuple[np.ndarray, ...],
    pstep: np.ndarray,
    markers: int,
    values: np.ndarray,
    templates: tuple[np.ndarray, np.ndarray, np.ndarray],
    store: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    policy: Policy,
    w: np.ndarray,
    d: np.ndarray,
    misses: np.ndarray,
    stats: np.ndarray,
) -> tuple[int, int]:  # pragma: no cover
    """Solve ``anchors[start:]``, or value them as a player plays, each turn laid out once.

    With ``policy`` (``_policy.Policy``) of width 0
    (:func:`cantstop.solve._policy.optimal`), each anchor is solved by
    Newton's passes over its laid-out turn, as
    :func:`~cantstop.solve._kernel.solve_anchors` solves it, but a pass
    also finds how far the bust cost may move with its choices still best
    (:func:`laid_pass`): when Newton's next value lies that near, it is
    the fixed point, and no pass is needed to confirm it.  With a player's
    tables (:class:`cantstop.solve.evaluate.PolicyTables`), it is valued as
    that player plays it, by one :func:`~cantstop.solve._policy.player_pass`
    (:func:`~cantstop.solve._policy.random_pass` for the random player,
    :func:`~cantstop.solve._policy.gain_pass` for the greedy one), the
    rolls of the positions where it stops outright not laid out.
    ``pstep`` is ``_templates.entry_steps`` of the pool in ``tables``.

    Returns ``(position reached, code)``: code -1 when every anchor was
    done, otherwise the count of misses written when table entries are
    missing, the anchor at that position left undone.  ``stats`` accumulates anchors,
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
    rolls = tables[6].shape[0]
    keys = (*key_coefficients(tables), np.empty(rolls, np.int64), np.empty(rolls, np.int64))
    scratch = (np.empty(rolls, np.int64), np.full(pool.shape[0], -1, np.int64),
               np.empty(pool.shape[0], np.int64))  # fmt: skip
    size = w.shape[0]
    p_stop = np.empty(size, np.float64)
    p_at = np.empty(size, np.int64)
    p_bust = np.empty(size, np.float64)
    p_group = np.empty(size + 1, np.int64)
    placed = (np.empty(size, np.int64), np.empty(size, np.int64), np.empty(size, np.int64),
              np.empty(size, np.int64))  # fmt: skip
    bare = np.zeros(size, np.bool_)
    lay = (np.empty(32 * size, np.float64), np.empty(32 * size + 1, np.int64),
           np.empty(64 * size, np.int64))  # fmt: skip
    bound = np.empty(2, np.float64)
    # The optimal player of a solution stops where a stop wins, as the solve does.
    evaluating = policy[0] != 0 and policy[0] != SOLVED
    chosen = np.empty(size if policy[0] == SOLVED else 0, np.float64)
    for position in range(start, anchors.shape[0]):
        a = anchors[position]
        nb = begin_anchor(a, s, tables, values, markers, blocks)
        if nb == 0:
            continue
        if evaluating:
            outright(a, s, h, over, nb, blocks, policy, placed, bare)
        code, lay = lay_out(
            a, s, tables, pstep, values, templates, store, nb, blocks, slot, keys, scratch,
            p_stop, p_at, p_bust, p_group, lay, misses, evaluating, bare,
        )  # fmt: skip
        if code != -1:
            clear_blocks(nb, blocks)
            return position, code
        count = blocks[3][nb - 1] + 1
        clear_blocks(nb, blocks)
        if policy[0] != 0:
            if policy[0] == SOLVED:
                solution = policy[3]
                f, b = solved_pass(
                    count, solution[a], p_stop, p_at, p_bust, p_group, lay, solution, chosen, w, d
                )
            elif policy[0] == RANDOM:
                f, b = random_pass(count, p_stop, p_bust, p_group, lay, policy[3][0], w, d)
            elif policy[0] == GAIN:
                f, b = gain_pass(count, k, p_stop, p_bust, p_group, lay, placed, policy, w, d)
            else:
                f, b = player_pass(count, k, p_stop, p_bust, p_group, lay, placed, policy, w, d)
            values[a] = np.inf if 1.0 - b <= NEVER else f / (1.0 - b)
            count_anchor(stats, count, 1)
            continue
        x = first_guess(a, s, tables, values)
        passes = 0
        while True:
            laid_pass(x, count, p_stop, p_bust, p_group, lay[0], lay[1], lay[2], w, d, bound)
            passes += 1
            nxt, done = newton_step(x, w[count - 1], d[count - 1], passes)
            shift = nxt - x
            x = nxt
            if done or bound[0] <= shift <= bound[1]:
                break
        values[a] = x
        count_anchor(stats, count, passes)
    return anchors.shape[0], -1
