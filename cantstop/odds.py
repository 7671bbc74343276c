"""Exact odds of the next roll: busting, advancing each column, spaces gained.

Every probability is an exact :class:`~fractions.Fraction` over the 1296
equally likely ordered rolls of four dice (R4.1), computed from the legal moves
the engine finds for each roll (R6, R7), so the odds always follow the rules in
force: the board, the won columns, the markers already placed and the variant.

>>> from cantstop import parse_state
>>> bust_probability(parse_state('-/- 6:1,7:1,8:1 0d'))
Fraction(13, 162)
>>> float(bust_probability(parse_state('-/- 6:1,7:1,8:1 0d')))
0.08024691358024691

Two tables depend on the dice alone: the chance that a roll can make each sum,
and, for every choice of three columns, the chance that a roll makes at least
one of them (the three-column table; a player whose three markers stand in
those columns busts with the rest of the probability).

>>> single_column_chances()[7]
Fraction(139, 216)
>>> three_column_table()[(6, 7, 8)]
Fraction(149, 162)
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from fractions import Fraction

from cantstop import _tables
from cantstop.actions import Move
from cantstop.board import COLUMNS, STANDARD_HEIGHTS
from cantstop.config import Variant
from cantstop.dice import ORDERED_ROLLS
from cantstop.errors import IllegalAction
from cantstop.state import Phase, State

__all__ = [
    "bust_probability",
    "column_chances",
    "expected_gain",
    "format_percent",
    "single_column_chances",
    "three_column_report",
    "three_column_table",
]

_ROLLS = len(ORDERED_ROLLS)


def _about_to_roll(state: State, what: str) -> None:
    if state.phase not in (Phase.ROLL, Phase.DECIDE):
        raise IllegalAction(f"{what} needs a state that is about to roll", "R3.3", state, None)


def bust_probability(state: State) -> Fraction:
    """Return the probability that the next roll from ``state`` is a bust (R10.1).

    ``state`` must be about to roll (:attr:`~cantstop.Phase.ROLL` or
    :attr:`~cantstop.Phase.DECIDE`); its markers, squares and won columns
    decide which sums can still be played.

    >>> from cantstop import new_game, parse_state
    >>> bust_probability(new_game())
    Fraction(0, 1)
    >>> bust_probability(parse_state('-/- 2:1,3:1,12:1 0d'))
    Fraction(91, 162)
    """
    _about_to_roll(state, "a bust probability")
    return _bust_fraction(_tables.bust_weight(_tables.situation(state)))


def _bust_fraction(weight: int, cache: dict[int, Fraction] = {}) -> Fraction:  # noqa: B006
    """``Fraction(weight, 1296)``, made once per weight (a cache shared between calls)."""
    found = cache.get(weight)
    if found is None:
        found = cache[weight] = Fraction(weight, _ROLLS)
    return found


def column_chances(state: State) -> dict[int, Fraction]:
    """Return, for each column not yet won, the probability that the next roll can advance it.

    A column counts as advanced by a roll when at least one legal move for that
    roll plays its sum (R6): a marker already there climbs, or a free marker is
    placed.  A column whose marker is on its top space (R8.1), or that needs a
    marker when all three are placed (R5.3), gets 0.

    >>> from cantstop import parse_state
    >>> chances = column_chances(parse_state('-/- 6:1,7:1,8:1 0d'))
    >>> chances[7], chances[2]
    (Fraction(139, 216), Fraction(0, 1))
    """
    _about_to_roll(state, "column chances")
    counts = dict.fromkeys((c for c in state.rules.heights if c not in state.won), 0)
    situation = _tables.situation(state)
    for roll, weight in enumerate(_tables.ROLL_WEIGHT):
        playable = {c for move in _tables.moves(situation, roll) for c in move.columns}
        for column in playable:
            counts[column] += weight
    return {column: Fraction(count, _ROLLS) for column, count in counts.items()}


def expected_gain(state: State) -> Fraction:
    """Return the expected number of spaces the markers climb on the next roll.

    The move choice: for each roll, the legal move that climbs the most
    spaces, counting each sum as the distance from where its marker was (or,
    for a newly placed marker, from the player's own square, 0 if none) to
    where it lands.  That is one space per sum, except under Variant A, where
    a marker skipping other players' squares climbs more (R14.1).  A bust
    counts as 0: the figure is what the roll adds, not the progress the turn
    might lose.

    >>> from cantstop import new_game, parse_state
    >>> expected_gain(new_game())
    Fraction(2, 1)
    >>> expected_gain(parse_state('-/- 6:1,7:1,8:1 0d'))
    Fraction(427, 324)
    """
    _about_to_roll(state, "an expected gain")
    situation = _tables.situation(state)
    if state.rules.variant is not Variant.A:
        # Every sum climbs exactly one space, so the gain is the number of sums
        # of the longest legal move, which the situation alone decides.
        found = _GAINS.get(situation)
        if found is None:
            total = sum(
                weight * max((len(m.columns) for m in _tables.moves(situation, roll)), default=0)
                for roll, weight in enumerate(_tables.ROLL_WEIGHT)
            )
            found = _GAINS[situation] = Fraction(total, _ROLLS)
        return found
    total = 0
    gains: dict[Move, int] = {}
    for roll, weight in enumerate(_tables.ROLL_WEIGHT):
        moves = _tables.moves(situation, roll)
        if moves:
            for move in moves:
                if move not in gains:
                    gains[move] = _gain(state, move)
            total += weight * max(gains[move] for move in moves)
    return Fraction(total, _ROLLS)


#: Situation to expected gain, for the rules without Variant A.
_GAINS: dict[int, Fraction] = {}


def _gain(state: State, move: Move) -> int:
    """How many spaces ``move`` makes the markers climb in ``state`` (which is about to roll)."""
    markers = dict(state.markers)
    gained = 0
    for column in move.columns:
        played = state.sum_play(column, markers)  # where the marker lands (R5, R14.1)
        assert played.start is not None  # a legal move plays each of its sums
        assert played.landing is not None
        markers[column] = played.landing
        gained += played.landing - played.start
    return gained


def _rolls_making(columns: int) -> int:
    """How many of the 1296 ordered rolls have a pairing with a sum in the column set."""
    return sum(
        weight
        for weight, sums in zip(_tables.ROLL_WEIGHT, _tables.SUM_MASK, strict=True)
        if sums & columns
    )


def single_column_chances() -> dict[int, Fraction]:
    """Return, for each sum 2 to 12, the probability that some pairing of a roll makes it.

    >>> chances = single_column_chances()
    >>> chances[2], chances[7]
    (Fraction(19, 144), Fraction(139, 216))
    """
    return {c: Fraction(_rolls_making(1 << c), _ROLLS) for c in COLUMNS}


def three_column_table(
    heights: Mapping[int, int] = STANDARD_HEIGHTS,
) -> dict[tuple[int, int, int], Fraction]:
    """Return, for each three distinct columns of the board, the chance a roll makes one of them.

    The keys are the sorted triples of the board's columns (165 on the standard
    board); the value is the probability that at least one pairing of the roll
    has a sum among the three.  With markers in exactly those columns and
    nothing blocking them, one minus the value is the chance of busting.

    >>> table = three_column_table()
    >>> len(table), table[(2, 3, 12)]
    (165, Fraction(71, 162))
    """
    table: dict[tuple[int, int, int], Fraction] = {}
    for a, b, c in itertools.combinations(sorted(heights), 3):
        table[(a, b, c)] = Fraction(_rolls_making(1 << a | 1 << b | 1 << c), _ROLLS)
    return table


def format_percent(chance: Fraction, decimals: int = 1) -> str:
    """Return ``chance`` in percent, rounded to ``decimals`` places, halves up, computed exactly.

    Every percentage the package prints (``cantstop explain``, ``cantstop
    odds``, ``cantstop play``) is written by this function, so a chance is
    rounded alike everywhere: 81 of the 1296 rolls, 6.25%, is ``6.3%``
    (spec/explain.md, X4.1).

    >>> format_percent(Fraction(81, 1296)), format_percent(Fraction(91, 162), 2)
    ('6.3%', '56.17%')
    >>> format_percent(Fraction(0)), format_percent(Fraction(1), 0)
    ('0.0%', '100%')
    """
    scale = 10 ** (decimals + 2)
    units = (2 * chance.numerator * scale + chance.denominator) // (2 * chance.denominator)
    if decimals == 0:
        return f"{units}%"
    whole, part = divmod(units, 10**decimals)
    return f"{whole}.{part:0{decimals}d}%"


def _percent(p: Fraction) -> str:
    """``p`` in percent with two decimals, in a column of width 7, for the tables."""
    return f"{format_percent(p, 2):>7}"


def _rolls(p: Fraction) -> str:
    """``p`` as a count of the 1296 rolls, which every probability here is exactly."""
    return f"{p * _ROLLS}/{_ROLLS}"


def three_column_report() -> str:
    r"""Return the three-column table as ``cantstop odds --table`` prints it, with its header.

    Each row is a triple of columns, the chance to advance and the chance to bust.

    >>> print("\n".join(three_column_report().splitlines()[3:5]))
    columns             advance               bust
     2  3  4   676/1296  52.16%   620/1296  47.84%
    """
    lines = [
        "Three columns with a marker each (and nothing blocking them): the chance that the",
        "next roll advances at least one of them, and the chance that it busts (R10.1),",
        "out of the 1296 equally likely rolls of four dice.",
        f"{'columns':<8}  {'advance':>17}  {'bust':>17}",
    ]
    for (a, b, c), chance in three_column_table().items():
        bust = 1 - chance
        lines.append(
            f"{a:>2} {b:>2} {c:>2}  {_rolls(chance):>9} {_percent(chance)}  "
            f"{_rolls(bust):>9} {_percent(bust)}"
        )
    return "\n".join(lines)
