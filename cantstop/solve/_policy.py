"""The compiled kernel of exact evaluation: a player's own choices read through the solver's tables.

The solver's laid-out turns (:func:`cantstop.solve._laid.lay_out`) give,
for every in-turn position of an anchor's turn, its stop value, the weight
of the rolls that bust, and for each other group of rolls the positions its
moves lead to, in the order the engine lists the moves.  Here, in place of
the best move and the better of stopping and rolling, the player's own
decisions are taken, and they come from tables the player filled itself
(:mod:`cantstop.solve.evaluate` builds them by asking the player):

- ``slot_of[placing]`` numbers a placing of markers: the set of marker
  columns (bits of column indices) and each marker's climb above the
  player's square, as ``mask * width**3 + sum(climb_j * width**j)`` over the
  marker columns in increasing order (``width`` is the tallest column's
  height plus 1);
- ``choice[slot]`` and ``likely[c1 * k + c2]`` make a move's key, as the
  player compares moves: the score of a move that leaves that placing, then
  the figure of a move that climbs in columns ``c1`` and ``c2`` (``c1 == c2``
  for one column).  The player takes the move with the highest key, the
  first in the engine's order among equal keys, as ``max`` over its legal
  moves does (``Rule28Player.choose`` and ``move_key``);
- ``stop[slot, open, wins, claims]`` is whether the player stops with that
  placing, ``open`` columns neither won nor topped by a marker, ``wins``
  whether a stop wins and ``claims`` whether a marker stands on a top
  space.

A player that chooses uniformly among the legal moves and stops with a
fixed chance (the random player) needs no table: its policy has the width
:data:`RANDOM` and its chance of stopping as ``likely[0]``, and
:func:`random_pass` takes the mean of the moves and of stopping and
rolling where ``player_pass`` takes the player's choice.

A player that weighs a roll's expected gain against its expected loss (the
greedy player) has the width :data:`GAIN` and is valued by
:func:`gain_pass`:

- ``choice[((c1 * (k + 1) + c2) * 3 + new]`` is the rank of the player's key
  of a move whose sums are in column indices ``c1`` and ``c2`` (``c1 <=
  c2``; ``c2 == k`` for a move of one sum), ``new`` of its columns without a
  marker; the highest rank is played, the first in the engine's order
  among equal ranks;
- ``stop[0, 0, wins, claims]`` is whether it stops whatever the dice offer;
- ``limit[bust, progress]`` is, for the weight ``bust`` (out of 1296) of the
  rolls that bust and the spaces ``progress`` the markers have climbed, the
  most expected gain, in spaces times 1296, at which it stops.  The
  expected gain of a position is the mean over the rolls of the most
  spaces a legal move climbs, as :func:`cantstop.odds.expected_gain`
  counts it: here read off the laid-out moves' climbs.

The optimal player of a solution (:class:`cantstop.solve.player.OptimalPlayer`)
has the width :data:`SOLVED`, and ``likely`` holds the solution's value of
every anchor: its decisions are the solution's, the move to the successor
of least value and a stop where stopping is worth no more than rolling, at
the anchor's value as the bust cost, and :func:`solved_pass` takes them as
a pass of the solve does, while it values the play.

Where a player stops whatever its rolls (``stops_outright``: a stop table
that says so, or for the solver a stop that wins), the position's rolls are
not laid out at all, and the position is worth its stop.

With the decisions fixed, a position's value is affine in the cost ``x`` of
a bust, so one pass at ``x = 0`` gives the turn-start value ``a`` and its
slope ``b``, and the anchor's value is ``a / (1 - b)`` exactly (infinite when
the player's turn busts with certainty, up to rounding: :data:`NEVER`).  No
rule is decided here: what a roll allows comes from the move table, which
the engine filled.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from cantstop.solve._kernel import ROLLS, won_mask

__all__ = [
    "BARE",
    "GAIN",
    "NEVER",
    "RANDOM",
    "SOLVED",
    "Policy",
    "gain_pass",
    "optimal",
    "placings",
    "player_pass",
    "random_pass",
    "stops_outright",
]

#: A turn whose chance of not busting is this small or less never ends well (as in ``evaluate``).
NEVER = 1e-9
#: The width of the policy of a player that chooses uniformly and stops with a fixed chance.
RANDOM = -1
#: The width of the policy of a player that weighs a roll's expected gain against its loss.
GAIN = -2
#: The width of the policy of the optimal player of a solution.
SOLVED = -3
#: The bust weight that marks a position laid out without its rolls: it is worth its stop.
BARE = -1.0

#: A player's tables as the kernels take them: (width, slot_of, choice, likely, stop, limit).
Policy = tuple[int, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]


@njit(cache=True)
def placings(
    a: int,
    s: np.ndarray,
    h: np.ndarray,
    nb: int,
    blocks: tuple[np.ndarray, ...],
    policy: Policy,
    placed: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
) -> int:  # pragma: no cover
    """Give each position of anchor ``a``'s turn, numbered as ``lay_out`` does, its placing.

    ``p_slot[i]`` is the slot of position ``i``'s placing of markers (0 for
    a policy without slots, of width 0 or less), ``p_pack[i]`` its climbs,
    four bits per column (column index ``c`` at bit ``4 * c``; no column is
    taller than 15), ``p_top[i]`` the columns won or topped by a marker and
    ``p_sum[i]`` the spaces its markers climbed in all.  Those four arrays
    are ``placed``, and ``policy`` is the player's tables (``slot_of`` is
    its second).  Returns the number of positions.
    """
    bcols, bn, bsize = blocks[0], blocks[1], blocks[2]
    width, slot_of = policy[0], policy[1]
    p_slot, p_pack, p_top, p_sum = placed
    k = h.shape[0]
    wmask = won_mask(s, h)
    room = np.empty(k, np.int64)
    for c in range(k):
        room[c] = h[c] - s[c]
    cube = width * width * width
    i = 0
    for b in range(nb):
        n = bn[b]
        for local in range(bsize[b] - 1, -1, -1):
            pack = 0
            top = wmask
            mask = 0
            index = 0
            climbed = 0
            rest = local
            for j in range(n - 1, -1, -1):
                c = bcols[b, j]
                u = rest % room[c] + 1
                rest //= room[c]
                pack |= u << (4 * c)
                climbed += u
                if u == room[c]:
                    top |= 1 << c
                mask |= 1 << c
                index = index * width + u
            p_slot[i] = slot_of[mask * cube + index] if width > 0 else 0
            p_pack[i] = pack
            p_top[i] = top
            p_sum[i] = climbed
            i += 1
    return i


@njit(cache=True)
def stops_outright(
    count: int,
    k: int,
    over: np.ndarray,
    placed: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    policy: Policy,
    bare: np.ndarray,
) -> None:  # pragma: no cover
    """Write in ``bare[i]`` whether the player stops at position ``i`` whatever its rolls.

    A table player (width above 0) says so in ``stop[slot, open, wins,
    claims]``, the gain player (:data:`GAIN`) in ``stop[0, 0, wins,
    claims]``, and the random player only if it always stops.  The turn's
    start (the last position) must roll.
    """
    width = policy[0]
    stop = policy[4]
    if width == RANDOM:
        always = policy[3][0] >= 1.0
        for i in range(count - 1):
            bare[i] = always
    else:
        p_slot, p_pack, p_top = placed[0], placed[1], placed[2]
        for i in range(count - 1):
            top = p_top[i]
            closed = 0
            claims = 0
            for c in range(k):
                if (top >> c) & 1:
                    closed += 1
                    if (p_pack[i] >> (4 * c)) & 15:
                        claims = 1
            wins = 1 if over[top] else 0
            if width == GAIN:
                bare[i] = stop[0, 0, wins, claims]
            else:
                bare[i] = stop[p_slot[i], k - closed, wins, claims]
    bare[count - 1] = False


@njit(cache=True)
def tie_break(a: int, b: int, k: int, likely: np.ndarray) -> float:  # pragma: no cover
    """Return the tie-break of the move between packed climbs ``a`` and ``b``: its columns'."""
    moved = a ^ b
    first = -1
    second = -1
    for c in range(k):
        if (moved >> (4 * c)) & 15:
            if first < 0:
                first = c
            else:
                second = c
    if second < 0:
        second = first
    return float(likely[first * k + second])


@njit(cache=True)
def player_pass(
    count: int,
    k: int,
    p_stop: np.ndarray,
    p_bust: np.ndarray,
    p_group: np.ndarray,
    lay: tuple[np.ndarray, np.ndarray, np.ndarray],
    placed: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    policy: Policy,
    w: np.ndarray,
    d: np.ndarray,
) -> tuple[float, float]:  # pragma: no cover
    """Value the ``count`` laid-out positions as the player plays them, a bust costing 1.

    ``w`` gets each position's value at ``x = 0`` and ``d`` its slope in ``x``.
    Where the player stops (its stop table, read by :func:`stops_outright`
    before the turn was laid out) the position is :data:`BARE` and worth its
    stop; elsewhere it rolls, and takes the move of highest score, the
    tie-break worked out only between moves of equal score.  Returns the
    turn start's value and slope, ``(w, d)`` of the last position.
    """
    gw, gfirst, succ = lay
    p_slot, p_pack = placed[0], placed[1]
    choice, likely = policy[2], policy[3]
    for i in range(count):
        if p_bust[i] == BARE:
            w[i] = p_stop[i]
            d[i] = 0.0
            continue
        total = p_bust[i]
        slope = p_bust[i]
        here = p_pack[i]
        for q in range(p_group[i], p_group[i + 1]):
            best = succ[gfirst[q]]
            best_score = choice[p_slot[best]]
            best_tie = -1.0  # not worked out yet
            for j in range(gfirst[q] + 1, gfirst[q + 1]):
                pos = succ[j]
                score = choice[p_slot[pos]]
                if score > best_score:
                    best = pos
                    best_score = score
                    best_tie = -1.0
                elif score == best_score:
                    if best_tie < 0.0:
                        best_tie = tie_break(here, p_pack[best], k, likely)
                    tie = tie_break(here, p_pack[pos], k, likely)
                    if tie > best_tie:
                        best = pos
                        best_tie = tie
            total += gw[q] * w[best]
            slope += gw[q] * d[best]
        w[i] = total / ROLLS
        d[i] = slope / ROLLS
    return w[count - 1], d[count - 1]


@njit(cache=True)
def move_rank(here: int, there: int, k: int, ranks: np.ndarray) -> int:  # pragma: no cover
    """Return the gain player's rank of the move from packed climbs ``here`` to ``there``.

    The move's sums are the columns it climbs, once per space (a move's
    sums are its climbs in solitaire, which the board checks); ``new``
    counts those of its columns that had no marker.
    """
    moved = there - here  # no borrow: a move only raises climbs
    first = -1
    second = k
    new = 0
    c = 0
    while moved:
        spaces = moved & 15
        if spaces:
            if first < 0:
                first = c
                if spaces == 2:
                    second = c
            else:
                second = c
            if (here >> (4 * c)) & 15 == 0:
                new += 1
        moved >>= 4
        c += 1
    return int(ranks[(first * (k + 1) + second) * 3 + new])


@njit(cache=True)
def gain_pass(
    count: int,
    k: int,
    p_stop: np.ndarray,
    p_bust: np.ndarray,
    p_group: np.ndarray,
    lay: tuple[np.ndarray, np.ndarray, np.ndarray],
    placed: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    policy: Policy,
    w: np.ndarray,
    d: np.ndarray,
) -> tuple[float, float]:  # pragma: no cover
    """Value the ``count`` laid-out positions as the gain player (:data:`GAIN`) plays them.

    At each position rolled from, the roll's move is the one of highest
    rank (``choice``, :func:`move_rank`), and the expected gain is the mean
    over the rolls of the most spaces one of its moves climbs (a bust
    adding none).  After a move (not at the turn's start) the player stops
    when that gain is at most ``limit[bust weight, spaces climbed]``, and
    everywhere :func:`stops_outright` found (:data:`BARE`).  Writes ``w``
    and ``d`` as :func:`player_pass` does and returns the turn start's.
    """
    gw, gfirst, succ = lay
    p_pack, p_sum = placed[1], placed[3]
    ranks, limit = policy[2], policy[5]
    for i in range(count):
        if p_bust[i] == BARE:
            w[i] = p_stop[i]
            d[i] = 0.0
            continue
        total = p_bust[i]
        slope = p_bust[i]
        gain = 0.0
        here = p_pack[i]
        for q in range(p_group[i], p_group[i + 1]):
            best = succ[gfirst[q]]
            most = p_sum[best]
            if gfirst[q + 1] - gfirst[q] > 1:
                best_rank = move_rank(here, p_pack[best], k, ranks)
                for j in range(gfirst[q] + 1, gfirst[q + 1]):
                    pos = succ[j]
                    rank = move_rank(here, p_pack[pos], k, ranks)
                    if rank > best_rank:
                        best = pos
                        best_rank = rank
                    if p_sum[pos] > most:
                        most = p_sum[pos]
            gain += gw[q] * (most - p_sum[i])
            total += gw[q] * w[best]
            slope += gw[q] * d[best]
        if i < count - 1 and gain <= limit[int(p_bust[i]), p_sum[i]]:
            w[i] = p_stop[i]
            d[i] = 0.0
        else:
            w[i] = total / ROLLS
            d[i] = slope / ROLLS
    return w[count - 1], d[count - 1]


@njit(cache=True)
def solved_pass(
    count: int,
    x: float,
    p_stop: np.ndarray,
    p_at: np.ndarray,
    p_bust: np.ndarray,
    p_group: np.ndarray,
    lay: tuple[np.ndarray, np.ndarray, np.ndarray],
    solution: np.ndarray,
    chosen: np.ndarray,
    w: np.ndarray,
    d: np.ndarray,
) -> tuple[float, float]:  # pragma: no cover
    """Value the ``count`` laid-out positions as the optimal player of ``solution`` plays them.

    The player's decisions are those of a pass of the solve
    (``_laid.laid_pass``) at the bust cost ``1 + x``, ``x`` the solution's
    value of the anchor, with stops worth ``1 + solution[p_at[i]]`` (or
    ``p_stop[i]`` where ``p_at[i]`` is -1: a stop that wins, or none): the
    successor of least value for each roll, the first among equals, and a
    stop where it is worth no more than rolling.  ``chosen`` gets each
    position's value under those decisions as the solution counts it; ``w``
    and ``d`` its value and slope as the player's play is worth, with stops
    worth ``p_stop`` (what :func:`player_pass` writes).  Returns the turn
    start's value and slope.
    """
    gw, gfirst, succ = lay
    for i in range(count):
        if p_bust[i] == BARE:
            chosen[i] = p_stop[i]
            w[i] = p_stop[i]
            d[i] = 0.0
            continue
        stop = p_stop[i] if p_at[i] < 0 else 1.0 + solution[p_at[i]]
        planned = p_bust[i] * (1.0 + x)
        total = p_bust[i]
        slope = p_bust[i]
        for q in range(p_group[i], p_group[i + 1]):
            best = succ[gfirst[q]]
            for j in range(gfirst[q] + 1, gfirst[q + 1]):
                if chosen[succ[j]] < chosen[best]:
                    best = succ[j]
            planned += gw[q] * chosen[best]
            total += gw[q] * w[best]
            slope += gw[q] * d[best]
        rolling = planned / ROLLS
        if stop <= rolling:
            chosen[i] = stop
            w[i] = p_stop[i]
            d[i] = 0.0
        else:
            chosen[i] = rolling
            w[i] = total / ROLLS
            d[i] = slope / ROLLS
    return w[count - 1], d[count - 1]


@njit(cache=True)
def random_pass(
    count: int,
    p_stop: np.ndarray,
    p_bust: np.ndarray,
    p_group: np.ndarray,
    lay: tuple[np.ndarray, np.ndarray, np.ndarray],
    chance: float,
    w: np.ndarray,
    d: np.ndarray,
) -> tuple[float, float]:  # pragma: no cover
    """Value the ``count`` laid-out positions as the random player plays them, a bust costing 1.

    After a move it stops with ``chance`` and rolls on otherwise, and of a
    roll's legal moves it plays each with the same chance: a position is
    worth the mean of its moves' positions for each roll, and the mix of
    stopping and rolling (its stop alone where it always stops,
    :data:`BARE`).  Writes ``w`` and ``d`` as :func:`player_pass` does and
    returns the turn start's value and slope.
    """
    gw, gfirst, succ = lay
    for i in range(count):
        if p_bust[i] == BARE:
            w[i] = p_stop[i]
            d[i] = 0.0
            continue
        total = p_bust[i]
        slope = p_bust[i]
        for q in range(p_group[i], p_group[i + 1]):
            value = 0.0
            value_slope = 0.0
            for j in range(gfirst[q], gfirst[q + 1]):
                value += w[succ[j]]
                value_slope += d[succ[j]]
            moves = gfirst[q + 1] - gfirst[q]
            total += gw[q] * value / moves
            slope += gw[q] * value_slope / moves
        w[i] = total / ROLLS
        d[i] = slope / ROLLS
        if i < count - 1 and chance > 0.0:  # after a move; the turn's start must roll
            w[i] = chance * p_stop[i] + (1.0 - chance) * w[i]
            d[i] = (1.0 - chance) * d[i]
    return w[count - 1], d[count - 1]


def optimal() -> Policy:
    """Return the policy that stands for optimal play: width 0, and empty tables of the right types.

    :func:`cantstop.solve._laid.run_anchors` solves an anchor when given it
    and values it as a player plays when given that player's tables.
    """
    return (0, np.zeros(1, np.int64), np.zeros(1, np.int64), np.zeros(1, np.float64),
            np.zeros((1, 1, 1, 1), np.bool_), np.zeros((1, 1), np.int64))  # fmt: skip
