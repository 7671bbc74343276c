"""The outcome templates of the laid-out kernel, their store, and the hash table that finds them.

A *template* is what the 126 rolls do at one (markers in use, classes of the
columns) pair (see :mod:`cantstop.solve._kernel` for the classes): the
weight of the rolls that bust, and the rolls that do not, grouped by their
entry in the move table (one entry is one list of moves).  This module makes
them from the move table (:func:`make_template`), keeps a move's step in
anchor numbering beside its entry (:func:`entry_steps`), computes the rolls'
entry keys a marker at a time (:func:`roll_keys`), and finds a template by
its key through an open-addressing hash table over numpy arrays
(:func:`find`, :func:`put`).  The store has a bounded size and is emptied
when full (:func:`empty_store`).  :mod:`cantstop.solve._laid` lays out the
turns with them; no rule is decided here.
"""

from __future__ import annotations

import numpy as np
from numba import njit

#: A table with no room left: the caller makes it larger and calls again.
FULL = -3


@njit(cache=True)
def class_key(cls: np.ndarray, n: int) -> int:  # pragma: no cover
    """Return the number of a (markers, classes) pair: the key of its template."""
    key = 0
    for i in range(cls.shape[0] - 1, -1, -1):
        key = key * 6 + cls[i]
    return key * 4 + n


#: What :func:`find` gives for a key not in the table.
ABSENT = -1
#: The multiplier of the table's hash (Fibonacci hashing: 2**64 over the golden ratio).
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)


@njit(cache=True)
def _home(count: np.ndarray, key: int) -> int:  # pragma: no cover
    """Return the first slot to try for ``key`` in a table of ``2 ** count[1]`` slots."""
    return int(np.int64((np.uint64(key) * _GOLDEN) >> np.uint64(64 - count[1])))


@njit(cache=True)
def find(table: tuple[np.ndarray, np.ndarray, np.ndarray], key: int) -> int:  # pragma: no cover
    """Return the value of ``key`` (0 or more) in ``table``, or :data:`ABSENT`.

    ``table`` is (keys, values, (entries, log2 of the slots)): open
    addressing over a power-of-2 number of slots, -1 in the keys marking
    an empty slot.
    """
    keys, vals = table[0], table[1]
    mask = keys.shape[0] - 1
    i = _home(table[2], key)
    while keys[i] != -1:
        if keys[i] == key:
            return int(vals[i])
        i = (i + 1) & mask
    return ABSENT


@njit(cache=True)
def put(
    table: tuple[np.ndarray, np.ndarray, np.ndarray], key: int, value: int
) -> bool:  # pragma: no cover
    """Enter ``key`` with ``value`` in ``table``; return False, entering nothing, once half full."""
    keys, vals, count = table
    mask = keys.shape[0] - 1
    i = _home(count, key)
    while keys[i] != -1:
        if keys[i] == key:
            vals[i] = value
            return True
        i = (i + 1) & mask
    if 2 * (count[0] + 1) > keys.shape[0]:
        return False
    keys[i] = key
    vals[i] = value
    count[0] += 1
    return True


def new_table(slots: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Return an empty table of :func:`find` with ``slots`` slots (a power of 2)."""
    shape = np.array([0, slots.bit_length() - 1], np.int64)
    return np.full(slots, -1, np.int64), np.zeros(slots, np.int64), shape


@njit(cache=True)
def grown(
    table: tuple[np.ndarray, np.ndarray, np.ndarray],
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:  # pragma: no cover
    """Return a table of twice the slots with the same keys and values."""
    keys, vals = table[0], table[1]
    shape = np.array([0, table[2][1] + 1], np.int64)
    bigger = (np.full(2 * keys.shape[0], -1, np.int64), np.zeros(2 * keys.shape[0], np.int64),
              shape)  # fmt: skip
    for i in range(keys.shape[0]):
        if keys[i] != -1:
            put(bigger, keys[i], vals[i])
    return bigger


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
def entry_steps(
    pool: np.ndarray, used: int, stride: np.ndarray, pstep: np.ndarray
) -> None:  # pragma: no cover
    """Write each move's step in anchor numbering beside its entry: ``pstep[e + 1 + mv]``.

    The entry at ``e`` lists ``pool[e]`` moves, move ``mv`` as two codes
    (column and climb, or -1); its step is ``sum(climb * stride[column])``.
    Entries start at pool offset 1 and fill it up to ``used``.
    """
    e = 1
    while e < used:
        count = pool[e]
        for mv in range(count):
            step = 0
            for half in range(2):
                code = pool[e + 1 + 2 * mv + half]
                if code >= 0:
                    step += (code & 7) * stride[code >> 3]
            pstep[e + 1 + mv] = step
        e += 1 + 2 * count


@njit(cache=True)
def key_coefficients(
    tables: tuple[np.ndarray, ...],
) -> tuple[np.ndarray, np.ndarray]:  # pragma: no cover
    """Return what a roll's entry key gains per class of a column, and per marker in use.

    ``coef[c, r]`` is the place value of column ``c`` among the columns roll
    ``r`` names (0 if it names none), and ``per_marker[r]`` the place value
    of the markers in use: :func:`entry_key` is ``roll_base[r] + sum(cls[c] *
    coef[c, r]) + n * per_marker[r]``.
    """
    h, roll_cols, roll_ncols = tables[0], tables[3], tables[4]
    rolls = roll_ncols.shape[0]
    coef = np.zeros((h.shape[0], rolls), np.int64)
    per_marker = np.empty(rolls, np.int64)
    for r in range(rolls):
        scale = 1
        for j in range(roll_ncols[r]):
            coef[roll_cols[r, j], r] = scale
            scale *= 6
        per_marker[r] = scale
    return coef, per_marker


@njit(cache=True)
def anchor_keys(
    cls: np.ndarray, tables: tuple[np.ndarray, ...], base: np.ndarray
) -> None:  # pragma: no cover
    """Write into ``base`` each roll's entry key with no marker in use and classes ``cls``."""
    roll_cols, roll_ncols, roll_base = tables[3], tables[4], tables[5]
    for r in range(base.shape[0]):
        base[r] = entry_key(r, cls, 0, roll_cols, roll_ncols, roll_base)


@njit(cache=True)
def roll_keys(
    keys: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    cls: np.ndarray,
    room: np.ndarray,
    cols: np.ndarray,
    n: int,
) -> np.ndarray:  # pragma: no cover
    """Return each roll's entry key with markers in columns ``cols[:n]``, the classes ``cls``.

    ``keys`` is (``coef``, ``per_marker``) of :func:`key_coefficients`, the
    anchor's keys of :func:`anchor_keys` and the array written and
    returned; ``room`` is each column's room without a marker, whose class
    the anchor's keys hold.  Only the marker columns' classes differ, so a
    key costs one addition per marker.
    """
    coef, per_marker, base, out = keys
    rolls = out.shape[0]
    for r in range(rolls):
        out[r] = base[r] + n * per_marker[r]
    for j in range(n):
        c = cols[j]
        delta = cls[c] - min(room[c], 2)
        for r in range(rolls):
            out[r] += delta * coef[c, r]
    return out


@njit(cache=True)
def make_template(
    rkeys: np.ndarray,
    tables: tuple[np.ndarray, ...],
    store: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    scratch: tuple[np.ndarray, np.ndarray, np.ndarray],
) -> int:  # pragma: no cover
    """Add the template of the rolls' entry keys ``rkeys`` (:func:`roll_keys`) to ``store``.

    Returns the template's number.

    ``store`` is (bust weight and first group of each template, weight and
    table entry of each group, counts of templates and groups): a group is
    the rolls whose entry lists the same moves, and its moves are the
    entry's.  ``scratch`` is (each roll's entry, and over the pool: an
    entry's last template and its group there).  Returns -1 when a table
    entry it needs is unknown (nothing is added) and :data:`FULL` when the
    store has no room.
    """
    roll_weight, entry, pool = tables[6], tables[7], tables[8]
    t_bust, t_start, g_weight, g_entry, counts = store
    found_at, mark, group_of = scratch
    rolls = roll_weight.shape[0]
    for r in range(rolls):
        e = entry[rkeys[r]]
        if e < 0:
            return -1
        found_at[r] = e
    t = counts[0]
    g0 = counts[1]
    if t + 2 > t_bust.shape[0] or g0 + rolls + 1 > g_weight.shape[0]:
        return FULL
    bust = 0.0
    groups = 0
    for r in range(rolls):
        e = found_at[r]
        if pool[e] == 0:
            bust += roll_weight[r]
            continue
        if mark[e] == t:
            found = group_of[e]
        else:
            found = g0 + groups
            mark[e] = t
            group_of[e] = found
            groups += 1
            g_weight[found] = 0.0
            g_entry[found] = e
        g_weight[found] += roll_weight[r]
    t_bust[t] = bust
    t_start[t] = g0
    t_start[t + 1] = g0 + groups
    counts[0] = t + 1
    counts[1] = g0 + groups
    return int(t)


@njit(cache=True)
def empty_store(
    templates: tuple[np.ndarray, np.ndarray, np.ndarray],
    store: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    mark: np.ndarray,
) -> None:  # pragma: no cover
    """Empty the template store and its table, noting in ``store`` the most bytes it held.

    The store's counts are (templates, groups, most bytes in use); an empty
    store has room for any one template (``cantstop.solve._solution.Templates``
    sees to that).  ``mark`` is :func:`make_template`'s scratch, whose marks
    name templates by number: they are cleared, since the numbers start again.
    """
    counts = store[4]
    counts[2] = max(counts[2], 16 * counts[0] + 8 * counts[1])
    counts[0] = 0
    counts[1] = 0
    templates[0][:] = -1
    templates[2][0] = 0
    mark[:] = -1
