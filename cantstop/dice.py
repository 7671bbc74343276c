"""Dice: the three pairings of a roll and the exact chances of every roll (R4)."""

from __future__ import annotations

from fractions import Fraction

from cantstop.actions import Roll
from dicekit.dice import ordered_throws, sorted_outcomes

__all__ = ["ORDERED_ROLLS", "pairings", "roll_outcomes", "sorted_dice"]

#: All 1296 ordered rolls of four dice, each with probability 1/1296, in
#: ``itertools.product`` order: ``ORDERED_ROLLS[0]`` is 1 1 1 1, the last 6 6 6 6.
ORDERED_ROLLS: tuple[Roll, ...] = tuple(Roll((a, b, c, d)) for a, b, c, d in ordered_throws(4))


def pairings(dice: tuple[int, int, int, int]) -> tuple[tuple[int, int], ...]:
    """Return the sums of the three ways to split four dice into two pairs (R4.2).

    Each pairing's two sums are given smaller first, in the order: first die
    with the second, with the third, with the fourth.

    >>> pairings((1, 3, 3, 4))
    ((4, 7), (4, 7), (5, 6))
    """
    a, b, c, d = dice
    return (
        _ordered(a + b, c + d),
        _ordered(a + c, b + d),
        _ordered(a + d, b + c),
    )


def _ordered(x: int, y: int) -> tuple[int, int]:
    return (x, y) if x <= y else (y, x)


def roll_outcomes() -> tuple[tuple[Roll, Fraction], ...]:
    """Return the 126 distinct rolls (dice sorted) with their exact probabilities.

    The probabilities are exact fractions that sum to 1.

    >>> outcomes = roll_outcomes()
    >>> len(outcomes), sum(p for _, p in outcomes)
    (126, Fraction(1, 1))
    >>> outcomes[0]
    (Roll(dice=(1, 1, 1, 1)), Fraction(1, 1296))
    """
    return tuple((Roll((a, b, c, d)), chance) for (a, b, c, d), chance in sorted_outcomes(4))


def sorted_dice(dice: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
    """Return the four dice in non-decreasing order, as a state holds them.

    >>> sorted_dice((5, 3, 5, 4))
    (3, 4, 5, 5)
    """
    a, b, c, d = sorted(dice)
    return (a, b, c, d)
