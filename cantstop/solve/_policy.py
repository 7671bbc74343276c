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

__all__ = ["NEVER", "RANDOM", "optimal", "placings", "player_pass", "random_pass"]

#: A turn whose chance of not busting is this small or less never ends well (as in ``evaluate``).
NEVER = 1e-9
#: The width of the policy of a player that chooses uniformly and stops with a fixed chance.
RANDOM = -1


@njit(cache=True)
def placings(
    a: int,
    s: np.ndarray,
    h: np.ndarray,
    nb: int,
    blocks: tuple[np.ndarray, ...],
    policy: tuple[int, np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    placed: tuple[np.ndarray, np.ndarray, np.ndarray],
) -> int:  # pragma: no cover
    """Give each position of anchor ``a``'s turn, numbered as ``lay_out`` does, its placing's slot.

    ``p_slot[i]`` is the slot of position ``i``'s placing of markers,
    ``p_pack[i]`` its climbs, four bits per column (column index ``c`` at bit
    ``4 * c``; no column is taller than 15), and ``p_top[i]`` the columns won
    or topped by a marker.
    Those three arrays are ``placed``, and ``policy`` is the player's tables
    (``slot_of`` is its second).  Returns the number of positions.
    """
    bcols, bn, bsize = blocks[0], blocks[1], blocks[2]
    width, slot_of = policy[0], policy[1]
    p_slot, p_pack, p_top = placed
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
            rest = local
            for j in range(n - 1, -1, -1):
                c = bcols[b, j]
                u = rest % room[c] + 1
                rest //= room[c]
                pack |= u << (4 * c)
                if u == room[c]:
                    top |= 1 << c
                mask |= 1 << c
                index = index * width + u
            p_slot[i] = slot_of[mask * cube + index]
            p_pack[i] = pack
            p_top[i] = top
            i += 1
    return i


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
    over: np.ndarray,
    p_stop: np.ndarray,
    p_bust: np.ndarray,
    p_group: np.ndarray,
    lay: tuple[np.ndarray, np.ndarray, np.ndarray],
    placed: tuple[np.ndarray, np.ndarray, np.ndarray],
    policy: tuple[int, np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    w: np.ndarray,
    d: np.ndarray,
) -> tuple[float, float]:  # pragma: no cover
    """Value the ``count`` laid-out positions as the player plays them, a bust costing 1.

    ``w`` gets each position's value at ``x = 0`` and ``d`` its slope in ``x``.
    The tie-break is worked out only between moves of equal score.  Returns
    the turn start's value and slope, ``(w, d)`` of the last position.
    """
    gw, gfirst, succ = lay
    p_slot, p_pack, p_top = placed
    choice, likely, stop = policy[2], policy[3], policy[4]
    for i in range(count):
        if (
            i < count - 1
        ):  # the turn's start (the last position) must roll; elsewhere the player says
            top = p_top[i]
            closed = 0
            claims = 0
            for c in range(k):
                closed += (top >> c) & 1
                if (top >> c) & 1 and (p_pack[i] >> (4 * c)) & 15:
                    claims = 1
            wins = 1 if over[top] else 0
            if stop[p_slot[i], k - closed, wins, claims]:
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
    stopping and rolling.  Writes ``w`` and ``d`` as :func:`player_pass`
    does and returns the turn start's value and slope.
    """
    gw, gfirst, succ = lay
    for i in range(count):
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


def optimal() -> tuple[int, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Return the policy that stands for optimal play: width 0, and empty tables of the right types.

    :func:`cantstop.solve._laid.run_anchors` solves an anchor when given it
    and values it as a player plays when given that player's tables.
    """
    return (0, np.zeros(1, np.int64), np.zeros(1, np.int64), np.zeros(1, np.float64),
            np.zeros((1, 1, 1, 1), np.bool_))  # fmt: skip
