"""What a roll does in a position: each sum, each pairing's offer and the legal moves (R4-R7).

Each decision about one roll is written here once, and every other part of
the package reads it:

* where a marker lands when it climbs (:func:`landing`: one space up, and
  past other players' squares under Variant A, R14.1);
* what one sum does (:func:`decide_sum`, the decision table of R5 with R8.1,
  R9.2 and R15.3), as a :class:`SumPlay`; :meth:`State.sum_play
  <cantstop.State.sum_play>` asks it;
* what a pairing offers, given what its sums do (:func:`decide_offer`, R6.1
  to R6.5 and R7), as an :class:`Offer` and the moves it gives; the move
  table of the engine (``cantstop._tables``), which keeps
  :meth:`State.legal_moves <cantstop.State.legal_moves>` fast, is built by
  the same function;
* the whole roll (:func:`analyse_roll`): the three pairings, pairing by
  pairing and sum by sum, and the legal moves they give (R6.6).

>>> from cantstop import parse_state
>>> found = analyse_roll(parse_state('7:2/- - 0r'), (3, 4, 5, 5))
>>> found.moves
(Move(columns=(7, 10)), Move(columns=(8, 9)))
>>> first = found.pairings[0]
>>> first.sums, first.offer, first.first.landing
((7, 10), <Offer.BOTH: 'both'>, 3)
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from cantstop.actions import Move, Roll
from cantstop.board import MARKERS
from cantstop.config import Rules, Variant
from cantstop.dice import pairings
from cantstop.errors import IllegalAction, InvalidState
from cantstop.phase import Phase

if TYPE_CHECKING:
    from cantstop.state import State

__all__ = [
    "DROP_RULES",
    "OFFER_RULES",
    "Offer",
    "PairingAnalysis",
    "Play",
    "RollAnalysis",
    "SumPlay",
    "analyse_roll",
    "decide_offer",
    "decide_sum",
    "landing",
]


class Play(enum.Enum):
    """What one sum does in a position: the decision table of R5.

    ``ADVANCE`` and ``PLACE`` play the sum; every other value drops it, and
    names the reason.

    >>> from cantstop import parse_state
    >>> state = parse_state('2:3/- 7:13 1d')
    >>> state.play_of(7), state.play_of(2), state.play_of(8)
    (<Play.TOP: 'top'>, <Play.WON: 'won'>, <Play.PLACE: 'place'>)
    >>> state.play_of(8).plays
    True
    """

    #: The column holds a marker below the top: it moves up (R5.1).
    ADVANCE = "advance"
    #: The column is open and holds no marker, and a marker is free: one is placed (R5.2).
    PLACE = "place"
    #: The column has been won (R9.2).
    WON = "won"
    #: The column's marker is on the top space (R8.1).
    TOP = "top"
    #: All three markers are on other columns (R5.3).
    NO_MARKER = "no marker"
    #: The board has no such column (R15.3).
    NO_COLUMN = "no column"

    @property
    def plays(self) -> bool:
        """Whether this outcome moves a marker."""
        return self in (Play.ADVANCE, Play.PLACE)


#: The rule behind each way of dropping a sum (R5.3).
DROP_RULES: Mapping[Play, str] = {
    Play.WON: "R9.2",
    Play.TOP: "R8.1",
    Play.NO_MARKER: "R5.3",
    Play.NO_COLUMN: "R15.3",
}


class Offer(enum.Enum):
    """What one pairing offers, given what its two sums do (R6, R7).

    The first four are for a pairing of two different sums, the last three
    for a pairing of equal sums; :data:`OFFER_RULES` names the rule of each.
    """

    #: Both sums play together: the one move of both (R6.1).
    BOTH = "both"
    #: Each sum plays alone, but both need a new marker and one is free: either alone (R6.3).
    EITHER = "either"
    #: Only one sum plays: that sum alone (R6.2).
    ONE = "one"
    #: Neither sum plays: no move (R6.5).
    NONE = "none"
    #: Both steps of equal sums play: the double move (R7.1).
    DOUBLE = "double"
    #: Only the first step plays: one step (R7.3).
    FIRST_STEP = "first-step"
    #: Not even the first step plays: no move (R6.5).
    NO_STEP = "no-step"


#: The rule that decides each offer.
OFFER_RULES: Mapping[Offer, str] = {
    Offer.BOTH: "R6.1",
    Offer.EITHER: "R6.3",
    Offer.ONE: "R6.2",
    Offer.NONE: "R6.5",
    Offer.DOUBLE: "R7.1",
    Offer.FIRST_STEP: "R7.3",
    Offer.NO_STEP: "R6.5",
}


@dataclass(frozen=True, slots=True)
class SumPlay:
    """What one sum, or one step of equal sums, does in a position: see :func:`decide_sum`.

    >>> from cantstop import parse_state
    >>> parse_state('7:2/7:3 - 0r A').sum_play(7)  # player 1's square on space 3 is skipped
    SumPlay(column=7, step=0, play=<Play.PLACE: 'place'>, start=2, landing=4, skipped=(3,),
            owner=None, top=False)
    """

    #: The sum, which names its column.
    column: int
    #: 0 for a sum of a pairing of two different sums; 1 or 2 for the steps of equal sums (R7).
    step: int
    #: What the sum does (R5).
    play: Play
    #: Where the marker rises from: its space, or the player's square (0 for none);
    #: ``None`` if dropped.
    start: int | None
    #: The space the marker lands on; ``None`` if dropped.
    landing: int | None
    #: The spaces passed over under Variant A (R14.1), lowest first.
    skipped: tuple[int, ...]
    #: The player who won the column, when the sum is dropped for that (R9.2).
    owner: int | None
    #: Whether the marker lands on the column's top space (R8.1).
    top: bool

    @property
    def plays(self) -> bool:
        """Whether the sum moves a marker (it advances or places one)."""
        return self.play.plays

    @property
    def drop_rule(self) -> str | None:
        """The rule that drops the sum (:data:`DROP_RULES`), or ``None`` when it plays."""
        return DROP_RULES.get(self.play)


def landing(
    rules: Rules, squares: Sequence[Mapping[int, int]], player: int, column: int, start: int
) -> tuple[int, tuple[int, ...]]:
    """Return where a marker of ``player`` climbing from space ``start`` lands, and what it skips.

    A marker climbs one space (R5.1, R5.2); under Variant A it goes on past
    every space of ``column`` that holds another player's square (R14.1).
    ``start`` is the marker's space, or the player's own square (0 for none)
    for a new marker; ``squares`` are each player's squares.

    >>> from cantstop import Rules, Variant
    >>> landing(Rules(variant=Variant.A), ({}, {7: 3}, {7: 4}), 0, 7, 2)
    (5, (3, 4))
    >>> landing(Rules(), ({}, {7: 3}), 0, 7, 2)
    (3, ())
    """
    space = start + 1
    if rules.variant is not Variant.A:
        return space, ()
    taken = {theirs[column] for p, theirs in enumerate(squares) if p != player and column in theirs}
    skipped: list[int] = []
    while space in taken:
        skipped.append(space)
        space += 1
    return space, tuple(skipped)


def decide_sum(
    state: State, markers: Mapping[int, int] | None, column: int, step: int = 0
) -> SumPlay:
    """Return what a sum for ``column`` does in ``state``, with ``markers`` on the board (R5).

    The cases of R5.3, in order: no such column (R15.3), a won column (R9.2),
    a marker on the top space (R8.1), a marker below it (advance, R5.1), no
    free marker (R5.3), otherwise a placement (R5.2); a marker that climbs
    lands as :func:`landing` says.  ``markers`` (``None`` for the state's own)
    asks about a sum played after another; ``step`` is copied into the answer.

    >>> from cantstop import parse_state
    >>> state = parse_state('-/7:13 2:3,5:1,9:2 0d')
    >>> [decide_sum(state, None, c).play.value for c in (7, 2, 5, 8)]
    ['won', 'top', 'advance', 'no marker']
    """
    if markers is None:
        markers = state.markers
    rules = state.rules
    height = rules.heights.get(column)
    if height is None:
        return SumPlay(column, step, Play.NO_COLUMN, None, None, (), None, False)
    owner = state.won.get(column)
    if owner is not None:
        return SumPlay(column, step, Play.WON, None, None, (), owner, False)
    position = markers.get(column)
    if position is not None:
        if position >= height:
            return SumPlay(column, step, Play.TOP, None, None, (), None, False)
        play, start = Play.ADVANCE, position
    elif len(markers) >= MARKERS:
        return SumPlay(column, step, Play.NO_MARKER, None, None, (), None, False)
    else:
        play, start = Play.PLACE, state.squares[state.player].get(column, 0)
    space, skipped = landing(rules, state.squares, state.player, column, start)
    return SumPlay(column, step, play, start, space, skipped, None, space == height)


#: The sums of a move: one, or two.
Sums = tuple[int] | tuple[int, int]


def decide_offer(
    x: int, y: int, x_plays: bool, y_plays: bool, together: bool
) -> tuple[Offer, tuple[Sums, ...]]:
    """Return what a pairing of the sums ``x <= y`` offers, and the moves it gives (R6, R7).

    For ``x < y``: ``x_plays`` and ``y_plays`` say whether each sum plays
    alone, in the markers of the position, and ``together`` whether ``y``
    plays in the markers that ``x`` leaves.  For ``x == y``: ``x_plays`` says
    whether the first step plays and ``together`` whether the second step
    plays after it (``y_plays`` is not read).  The moves are tuples of sums.

    >>> decide_offer(7, 10, True, True, True)
    (<Offer.BOTH: 'both'>, ((7, 10),))
    >>> decide_offer(6, 9, True, True, False)
    (<Offer.EITHER: 'either'>, ((6,), (9,)))
    >>> decide_offer(7, 7, True, True, False)
    (<Offer.FIRST_STEP: 'first-step'>, ((7,),))
    """
    if x == y:
        if not x_plays:
            return Offer.NO_STEP, ()
        if together:
            return Offer.DOUBLE, ((x, x),)
        return Offer.FIRST_STEP, ((x,),)
    if x_plays and y_plays:
        if together:
            return Offer.BOTH, ((x, y),)
        return Offer.EITHER, ((x,), (y,))
    if x_plays:
        return Offer.ONE, ((x,),)
    if y_plays:
        return Offer.ONE, ((y,),)
    return Offer.NONE, ()


@dataclass(frozen=True, slots=True)
class PairingAnalysis:
    """One pairing of a roll, and what it offers: part of a :class:`RollAnalysis`."""

    #: 1, 2 or 3, in the order of :func:`~cantstop.pairings`.
    number: int
    #: The two pairs of dice, the pair with the smaller sum first (on equal sums, the one
    #: holding the lowest die), each smaller die first.
    pairs: tuple[tuple[int, int], tuple[int, int]]
    #: The two sums, smaller first.
    sums: tuple[int, int]
    #: The first earlier pairing that makes the same sums, or ``None``; such a pairing is
    #: the same pairing (R4.2), and repeats that one's answers.
    same_as: int | None
    #: The smaller sum alone, or the first step of equal sums.
    first: SumPlay
    #: The larger sum alone, or the second step of equal sums (``None`` when the first
    #: step does not play).
    second: SumPlay | None
    #: For two different sums that each play alone: the larger one played in the
    #: markers the smaller one leaves; otherwise ``None``.
    together: SumPlay | None
    #: What the pairing offers (R6, R7).
    offer: Offer
    #: The moves it offers.
    moves: tuple[Move, ...]


@dataclass(frozen=True, slots=True)
class RollAnalysis:
    """A roll in a position, pairing by pairing: the result of :func:`analyse_roll`.

    >>> from cantstop import Move, parse_state
    >>> found = analyse_roll(parse_state('7:2/- 7:3,10:1 0d'), (2, 3, 4, 6))
    >>> [p.offer.value for p in found.pairings]
    ['both', 'either', 'both']
    >>> found.offering(Move((6,))), dict(found.markers_after(Move((5, 10))))
    ((2,), {5: 1, 7: 3, 10: 2})
    """

    #: The position the roll is played in.
    state: State
    #: The four dice, sorted.
    dice: tuple[int, int, int, int]
    #: The three pairings, in the order of :func:`~cantstop.pairings`.
    pairings: tuple[PairingAnalysis, ...]
    #: The legal moves, each once, sorted (R6.6); empty for a bust.
    moves: tuple[Move, ...]

    @property
    def busts(self) -> bool:
        """Whether the roll is a bust: no pairing plays anything (R10.1)."""
        return not self.moves

    def offering(self, move: Move) -> tuple[int, ...]:
        """Return the numbers of the pairings that offer ``move`` (repeats included)."""
        return tuple(p.number for p in self.pairings if move in p.moves)

    def markers_after(self, move: Move) -> dict[int, int]:
        """Return the markers after the legal ``move``: each of its sums lands where it says.

        A move the roll does not offer raises :class:`~cantstop.IllegalAction` (R6.6).
        """
        markers = dict(self.state.markers)
        for pairing in self.pairings:
            if move in pairing.moves:
                for played in _played(pairing, move):
                    assert played.landing is not None
                    markers[played.column] = played.landing
                return dict(sorted(markers.items()))
        raise IllegalAction(
            f"{'+'.join(map(str, move.columns))} is not a legal move of the roll "
            f"{'-'.join(map(str, self.dice))}",
            "R6.6",
            self.state,
            move,
        )


def _played(pairing: PairingAnalysis, move: Move) -> tuple[SumPlay, ...]:
    """Return the sums of ``pairing`` that ``move`` plays, in the order they are played."""
    if pairing.offer is Offer.BOTH:
        assert pairing.together is not None
        return (pairing.first, pairing.together)
    if pairing.offer is Offer.DOUBLE:
        assert pairing.second is not None
        return (pairing.first, pairing.second)
    if pairing.first.plays and move.columns[0] == pairing.first.column:
        return (pairing.first,)
    assert pairing.second is not None
    return (pairing.second,)


def _pairs(dice: tuple[int, int, int, int]) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """Return the three splits of sorted dice into two pairs, the smaller sum's pair first."""
    a, b, c, d = dice
    splits = [((a, b), (c, d)), ((a, c), (b, d)), ((a, d), (b, c))]
    # On equal sums the first pair holds the lowest die, as it is written already.
    return [
        (first, second) if sum(first) <= sum(second) else (second, first)
        for first, second in splits
    ]


def _after(markers: Mapping[int, int], played: SumPlay) -> dict[int, int]:
    """Return ``markers`` with the marker of a sum that plays where it lands."""
    assert played.landing is not None
    moved = dict(markers)
    moved[played.column] = played.landing
    return moved


def _analyse_pairing(
    state: State, number: int, pairs: tuple[tuple[int, int], tuple[int, int]], x: int, y: int
) -> PairingAnalysis:
    """Work out one pairing of sums ``x <= y``: its sums one by one, then its offer."""
    markers = state.markers
    second: SumPlay | None
    together: SumPlay | None = None
    if x != y:
        first = decide_sum(state, markers, x)
        second = decide_sum(state, markers, y)
        if first.plays and second.plays:
            together = decide_sum(state, _after(markers, first), y)
        offer, moves = decide_offer(
            x, y, first.plays, second.plays, together is not None and together.plays
        )
    else:
        first = decide_sum(state, markers, x, 1)
        second = decide_sum(state, _after(markers, first), x, 2) if first.plays else None
        offer, moves = decide_offer(x, y, first.plays, first.plays, bool(second and second.plays))
    return PairingAnalysis(
        number,
        pairs,
        (x, y),
        None,
        first,
        second,
        together,
        offer,
        tuple(Move(sums) for sums in moves),
    )


def analyse_roll(state: State, dice: tuple[int, int, int, int] | Roll) -> RollAnalysis:
    """Return what ``dice`` do in ``state``: every pairing, sum by sum, and the legal moves.

    ``dice`` are four dice in any order, or a :class:`~cantstop.Roll`; they are
    played in the markers and squares of ``state``, whatever its phase (to ask
    about the dice on the table, pass ``state.dice``).  The moves are those of
    :meth:`State.legal_moves <cantstop.State.legal_moves>` for the same dice.
    A finished game has no roll to analyse (R12.3).

    >>> from cantstop import parse_state
    >>> found = analyse_roll(parse_state('-/- 2:1,3:1,12:1 0d'), (1, 3, 3, 5))
    >>> found.busts, [p.offer.value for p in found.pairings]
    (True, ['none', 'none', 'no-step'])
    """
    from cantstop.state import State

    if not isinstance(state, State):
        raise InvalidState(f"analyse_roll needs a State, not {type(state).__name__!r}", "R16.5")
    roll = dice if isinstance(dice, Roll) else Roll(tuple(dice))  # type: ignore[arg-type]
    if state.phase is Phase.OVER:
        raise IllegalAction("the game is over, so no roll is played", "R12.3", state, roll)
    a, b, c, d = sorted(roll.dice)
    ordered = (a, b, c, d)
    found: list[PairingAnalysis] = []
    for number, (pairs, sums) in enumerate(zip(_pairs(ordered), pairings(ordered), strict=True), 1):
        same = next((p for p in found if p.sums == sums), None)
        if same is None:
            found.append(_analyse_pairing(state, number, pairs, *sums))
        else:
            found.append(
                PairingAnalysis(
                    number,
                    pairs,
                    sums,
                    same.number,
                    same.first,
                    same.second,
                    same.together,
                    same.offer,
                    same.moves,
                )
            )
    moves = tuple(sorted({move for pairing in found for move in pairing.moves}))
    return RollAnalysis(state, ordered, tuple(found), moves)
