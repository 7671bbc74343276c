"""Dice thrown together, of which one die's points are used: the throws and their chances.

A throw of ``count`` ordinary dice has ``6 ** count`` equally likely ordered
results.  A game that keeps the dice sorted once thrown sees fewer distinct
results, each with the summed chance of its orderings; a game that lets the
player use the points of one die sees, for each throw, the distinct values
shown.

>>> len(ORDERED_THROWS), ORDERED_THROWS[:3]
(36, ((1, 1), (1, 2), (1, 3)))
>>> sorted_outcomes()[:2]
(((1, 1), Fraction(1, 36)), ((1, 2), Fraction(1, 18)))
>>> usable_points((5, 5)), usable_points((6, 2))
((5,), (2, 6))
"""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

__all__ = ["FACES", "ORDERED_THROWS", "ordered_throws", "sorted_outcomes", "usable_points"]

#: The faces of an ordinary die.
FACES = 6


def ordered_throws(count: int = 2) -> tuple[tuple[int, ...], ...]:
    """Return every ordered throw of ``count`` dice, the first die changing slowest."""
    return tuple(itertools.product(range(1, FACES + 1), repeat=count))


#: The 36 ordered throws of two dice.
ORDERED_THROWS: tuple[tuple[int, ...], ...] = ordered_throws(2)


def sorted_outcomes(count: int = 2) -> tuple[tuple[tuple[int, ...], Fraction], ...]:
    """Return each sorted throw of ``count`` dice with its exact chance; the chances sum to 1."""
    counts = Counter(tuple(sorted(throw)) for throw in ordered_throws(count))
    total = FACES**count
    return tuple((throw, Fraction(n, total)) for throw, n in sorted(counts.items()))


def usable_points(dice: tuple[int, ...]) -> tuple[int, ...]:
    """Return the distinct values a player may choose from when one die of ``dice`` is used."""
    return tuple(sorted(set(dice)))
