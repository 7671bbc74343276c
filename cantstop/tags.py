"""Which rules decide an answer: the rule tags of Can't Stop, for the vectors and the diagnosis.

A conformance case names the rules that decide its expected answer, and only
those.  They are read from the engine's analysis of a roll
(:mod:`cantstop.analysis`): what each sum does and where it lands
(:func:`~cantstop.analysis.decide_sum`), the rule behind each dropped sum
(``DROP_RULES``), what a pairing offers and the rule that decides it
(:func:`~cantstop.analysis.decide_offer`, ``OFFER_RULES``); what a stop
claims and whether it wins (:func:`~cantstop.decide.decide_stop`); an illegal
action's :class:`~cantstop.IllegalAction` names the rule that forbids it.
A rule is named where its decision could go either way: forced play
(R6.1) where a pairing has two sums that play together, equal sums (R7.1 to
R7.3) where a pairing has them, placing (R5.2) where a sum places a marker,
advancing (R5.1) where a sum plays with no marker free, a column's height
(R1.1, or R15.3 on a custom board) where a piece is within reach of the top
space, Variant A (R14.1) where a marker skips a square, and at a stop the
other players' squares (R9.3), which leave only a column the stop wins.

The answer to an action is split into *aspects*, each the part of the result
that some rules decide (the space of one marker, the next player, the event).
The vector generator tags a case with the rules of all its aspects; the
diagnosis (:mod:`cantstop.conformance.diagnose`) blames the rules of the
aspects a port got wrong.

>>> from cantstop import parse_state
>>> roll_rules(parse_state('-/- 7:2,8:1 0d'), (1, 2, 5, 6))   # 3 or 11, 6+8, 7+7
['R4.2', 'R5.2', 'R5.3', 'R6.1', 'R6.3', 'R6.6', 'R7.1']
>>> sorted(legal_move_rules(parse_state('-/- 7:12 0c3344'), (7,)))  # 7+7 forfeits a step
['R1.1', 'R4.2', 'R7.3', 'R8.1']
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from cantstop.actions import Action, Move, Roll, Stop
from cantstop.analysis import (
    DROP_RULES,
    OFFER_RULES,
    Offer,
    Play,
    SumPlay,
    decide_offer,
    decide_sum,
)
from cantstop.board import MARKERS, STANDARD_HEIGHTS
from cantstop.config import Rules, Variant
from cantstop.conformance.positions import Field, Marker, Part, Square
from cantstop.decide import decide_stop
from cantstop.dice import pairings, sorted_dice
from cantstop.errors import IllegalAction
from cantstop.state import Event, State
from dicekit.conformance.ranking import rule_key, sorted_rules

__all__ = [
    "Aspect",
    "action_aspects",
    "action_rules",
    "board_rule",
    "game_rules",
    "illegal_move_rule",
    "legal_move_rules",
    "pairing_rules",
    "roll_rules",
    "rule_key",
    "sorted_rules",
    "state_rules",
]

Dice = tuple[int, int, int, int]


@dataclass(frozen=True, slots=True)
class Aspect:
    """One part of the answer to an action, and the rules that decide it."""

    #: What this part is, in a few words (``"the marker in column 7"``).
    what: str
    #: The fields of the result it decides.
    fields: frozenset[Field]
    #: The rules that decide it.
    rules: tuple[str, ...]
    #: What some fields would hold without this part (the second step of equal
    #: sums not taken): a port that answers these values misses this part alone.
    without: tuple[tuple[Field, int], ...] = ()


def board_rule(rules: Rules) -> str:
    """Return the rule that gives the columns' heights: R1.1, or R15.3 for a custom board.

    >>> board_rule(Rules()), board_rule(Rules(heights={7: 2}, columns_to_win=1))
    ('R1.1', 'R15.3')
    """
    return "R1.1" if rules.heights == STANDARD_HEIGHTS else "R15.3"


def _start(state: State, markers: Mapping[int, int], column: int) -> int:
    """Return the space a sum for ``column`` climbs from: its marker, else the own square."""
    if column in markers:
        return markers[column]
    return state.squares[state.player].get(column, 0)


def _near_top(state: State, markers: Mapping[int, int], column: int, steps: int) -> bool:
    """Whether the column's height decides what ``steps`` steps in it do.

    That is when the column is won (a square on its top space), or when the
    marker, or the space a new marker would rise from, is within ``steps``
    spaces of the top: a board one space shorter or taller would give
    another answer.
    """
    height = state.rules.heights.get(column)
    if height is None:
        return False
    if column in state.won:
        return True
    return height - _start(state, markers, column) <= steps


def _sum_rules(state: State, markers: Mapping[int, int], column: int, steps: int) -> list[str]:
    """Return the rule that plays or drops a sum, and the board rule where the height decides.

    A sum that places a marker plays by R5.2; one that advances a marker while
    no marker is free plays by R5.1 alone (R5.3 would drop it in another
    column); a sum dropped names the rule that drops it.
    """
    play = decide_sum(state, markers, column).play
    rules = [] if play.plays else [DROP_RULES[play]]
    if play is Play.PLACE:
        rules.append("R5.2")
    elif play is Play.ADVANCE and len(markers) >= MARKERS:
        rules.append("R5.1")
    if play is not Play.NO_MARKER and _near_top(state, markers, column, steps):
        rules.append(board_rule(state.rules))
    return rules


_Pairing = tuple[frozenset[tuple[int, ...]], tuple[str, ...]]
_PAIRINGS: dict[tuple[object, ...], _Pairing] = {}


def _pairing(state: State, pair: tuple[int, int]) -> _Pairing:
    """Return what one pairing offers in ``state`` (R6.6), and the rules that decide it.

    Only the markers and squares of ``state`` count, not its phase or dice, so
    the answer is kept for every roll that makes the same pairing.
    """
    key = (state.rules, state.player, state.markers, state.squares, pair)
    found = _PAIRINGS.get(key)
    if found is None:
        if len(_PAIRINGS) > 100_000:
            _PAIRINGS.clear()
        offers, rules = _work_out_pairing(state, pair)
        found = _PAIRINGS[key] = (frozenset(offers), tuple(sorted_rules(rules)))
    return found


def _work_out_pairing(
    state: State, pair: tuple[int, int]
) -> tuple[set[tuple[int, ...]], list[str]]:
    """Return what one pairing offers and its rules, from the engine's analysis.

    What each sum does and where it lands is :func:`~cantstop.analysis.decide_sum`'s,
    what the pairing offers :func:`~cantstop.analysis.decide_offer`'s, whose rule
    (:data:`~cantstop.analysis.OFFER_RULES`) is named with the rules that could
    turn the answer: a drop, a column's height, the step a double forfeits.
    """
    a, b = pair
    markers = state.markers
    first = decide_sum(state, markers, a)
    if a == b:
        rules = _sum_rules(state, markers, a, 2)
        again = decide_sum(state, _after(markers, first), a) if first.plays else None
        offer, moves = decide_offer(a, a, first.plays, first.plays, bool(again and again.plays))
        rules.append(OFFER_RULES[offer])
        if offer is Offer.DOUBLE and first.play is Play.PLACE:
            rules.append("R7.2")  # the second step advances the marker the first placed
        if offer is Offer.FIRST_STEP:
            rules.append("R8.1")  # the second step is forfeit on the top space
        if (
            state.rules.variant is Variant.A
            and offer is not Offer.NO_STEP
            and _skip_decides(state, a, offer is Offer.DOUBLE)
        ):
            rules.append("R14.1")
        return set(moves), rules
    other = decide_sum(state, markers, b)
    rules = _sum_rules(state, markers, a, 1) + _sum_rules(state, markers, b, 1)
    both = first.plays and other.plays
    together = decide_sum(state, _after(markers, first), b) if both else None
    offer, moves = decide_offer(a, b, first.plays, other.plays, bool(together and together.plays))
    rules.append(OFFER_RULES[offer])
    if offer is Offer.EITHER and together is not None:
        rules.append(DROP_RULES[together.play])  # why the two cannot be played together
    return set(moves), rules


def _after(markers: Mapping[int, int], played: SumPlay) -> dict[int, int]:
    """Return the markers after the sum ``played``, which plays, has moved its marker."""
    assert played.landing is not None
    return {**markers, played.column: played.landing}


def _pair_offers(state: State, pair: tuple[int, int]) -> frozenset[tuple[int, ...]]:
    """Return the moves one pairing offers (R6.6)."""
    return _pairing(state, pair)[0]


def pairing_rules(state: State, pair: tuple[int, int]) -> list[str]:
    """Return the rules that decide what the pairing ``pair`` offers in ``state`` (R6, R7).

    Only the markers and squares of ``state`` count: it may be about to roll,
    or choosing a move for dice that give ``pair``.

    >>> from cantstop import parse_state
    >>> state = parse_state('-/- 5:1,6:1 0c3366')   # 6+12, or 9+9
    >>> pairing_rules(state, (6, 12)), pairing_rules(state, (9, 9))   # 12 and 9 place
    (['R5.2', 'R6.1'], ['R5.2', 'R7.1', 'R7.2'])
    >>> pairing_rules(parse_state('-/- 5:1,6:1 0c3456'), (7, 11))   # one marker left
    ['R5.2', 'R5.3', 'R6.3']
    >>> pairing_rules(parse_state('-/- 5:1,6:1,8:1 0c2345'), (5, 9))   # no marker free
    ['R5.1', 'R5.3', 'R6.2']
    """
    return list(_pairing(state, pair)[1])


def _skip_decides(state: State, column: int, both: bool) -> bool:
    """Under Variant A, whether skipping squares decides between ``a+a`` and ``a`` (R14.1).

    Without skipping, two steps from the marker's start fit below the top
    exactly when the start is at least two spaces below it.
    """
    return (state.rules.heights[column] - _start(state, state.markers, column) >= 2) != both


def roll_rules(state: State, dice: Dice) -> list[str]:
    """Return the rules that decide the legal moves of ``dice`` in ``state`` (R6.6).

    ``state`` is about to roll, or choosing a move for these dice.  Besides
    the rules of each pairing: R4.2 when the pairings differ, R6.6 when the
    order of the list or the merging of a move offered twice matters, R10.1
    when the roll busts.

    >>> from cantstop import parse_state
    >>> roll_rules(parse_state('-/- 2:1,3:1,12:1 0d'), (1, 3, 3, 5))   # 4+8 or 6+6: a bust
    ['R4.2', 'R5.3', 'R6.5', 'R10.1']
    """
    pairs = pairings(sorted_dice(dice))
    found = [_pairing(state, pair) for pair in pairs]
    rules = [r for offers, pair_rules in dict.fromkeys(found) for r in pair_rules]
    if len(set(pairs)) > 1:
        rules.append("R4.2")
    # Pairings that coincide (dice repeat) offer their move once each; R6.6 lists it once.
    offered = sum(len(offers) for offers, _ in found)
    if offered == 0:
        rules.append("R10.1")
    elif offered > 1:
        rules.append("R6.6")
    return sorted_rules(rules)


def legal_move_rules(state: State, columns: tuple[int, ...]) -> list[str]:
    """Return the rules that make the move ``columns`` legal for the dice of ``state``.

    They are the rules of the pairings that offer it, and R4.2, which makes
    those pairings.  ``state`` is choosing a move.
    """
    assert state.dice is not None
    rules = ["R4.2"]
    for offers, pair_rules in dict.fromkeys(_pairing(state, p) for p in pairings(state.dice)):
        if columns in offers:
            rules += pair_rules
    return sorted_rules(rules)


def illegal_move_rule(state: State, columns: tuple[int, ...]) -> str:
    """Return the rule under which the engine refuses the move ``columns`` in ``state``.

    >>> from cantstop import parse_state
    >>> illegal_move_rule(parse_state('-/- - 0c3455'), (7,))   # 7 without 10
    'R6.1'
    """
    return _illegal_move_rule(state, columns)


@lru_cache(maxsize=4096)
def _illegal_move_rule(state: State, columns: tuple[int, ...]) -> str:
    try:
        state.apply(Move(columns))  # type: ignore[arg-type]
    except IllegalAction as exc:
        return exc.rule
    raise ValueError(f"{columns} is legal in {state!r}")


def state_rules(state: State, reach: int = 0) -> list[str]:
    """Return the rules that decide how a state reads, beyond its grammar.

    A square on a column's top space means a won column (R9.1), enough of them
    a winner (R12.1), and whether a piece lies on the board at all depends on
    the column's height (R1.1, or R15.3 on a custom board).  With ``reach``
    1, a piece one space below the top also counts: a board one space shorter
    would read it as a won column.

    >>> from cantstop import parse_state
    >>> state_rules(parse_state('2:3/7:12 - 0r')), state_rules(parse_state('7:12/- - 0r'), 1)
    (['R1.1', 'R9.1'], ['R1.1'])
    """
    rules = []
    if state.won:
        rules.append("R9.1")
    if state.winner is not None:
        rules.append("R12.1")
    heights = state.rules.heights
    pieces = [*state.markers.items(), *(cell for s in state.squares for cell in s.items())]
    if any(heights[c] - space <= reach for c, space in pieces):
        rules.append(board_rule(state.rules))
    return sorted_rules(rules)


def action_aspects(state: State, action: Action) -> list[Aspect]:
    """Return the aspects of the answer to the legal ``action`` in ``state``.

    Every field of the result that can differ belongs to some aspect, so a
    wrong answer always points at the rules of at least one.

    >>> from cantstop import Stop, parse_state
    >>> [(a.what, a.rules) for a in action_aspects(parse_state('7:3/- 7:5 0d'), Stop())]
    [('the square in column 7', ('R11.2',)), ('the next player', ('R2.3', 'R11.4'))]
    >>> [a.what for a in action_aspects(parse_state('5:2,7:3/8:4 7:5 0d'), Stop())][1:3]
    ['the squares in columns without a marker', "the other players' squares that stay"]
    """
    if isinstance(action, Roll):
        return _roll_aspects(state, action)
    if isinstance(action, Move):
        return _move_aspects(state, action)
    assert isinstance(action, Stop)
    return _stop_aspects(state)


def _aspect(
    what: str,
    fields: Iterable[Field],
    rules: Iterable[str],
    without: Iterable[tuple[Field, int]] = (),
) -> Aspect:
    return Aspect(what, frozenset(fields), tuple(sorted_rules(rules)), tuple(without))


_TURN_FIELDS = (Part.PLAYER, Part.PHASE, Part.DICE, Part.EVENT)


def _marker_fields(state: State) -> list[Field]:
    return [Marker(c) for c in state.rules.heights]


def _roll_aspects(state: State, roll: Roll) -> list[Aspect]:
    step = state.step(roll)
    dice = sorted_dice(roll.dice)
    pairs = dict.fromkeys(pairings(dice))
    if step.event is Event.BUSTED:
        rules = ["R10.1", "R4.2"] if len(pairs) > 1 else ["R10.1"]
        for a, b in pairs:
            rules += _sum_rules(state, state.markers, a, 2 if a == b else 1)
            rules += _sum_rules(state, state.markers, b, 1) if a != b else []
        return [
            _aspect(
                "whether the roll busts", [Part.EVENT, Part.PHASE, Part.DICE, Part.REFUSED], rules
            ),
            _aspect("the markers after a bust", _marker_fields(state), ["R10.2"]),
            _aspect("the next player", [Part.PLAYER], ["R2.3", "R10.2"]),
        ]
    choosing = step.state
    empty = [pair for pair in pairs if not _pair_offers(choosing, pair)]
    rules = ["R3.3"]
    if empty:
        # Some pairing plays nothing: the bust test must look at all three (R10.1).
        rules += ["R10.1", *(r for pair in empty for r in pairing_rules(choosing, pair))]
    fields = [Part.EVENT, Part.PHASE, Part.PLAYER, Part.REFUSED, *_marker_fields(state)]
    aspects = [_aspect("whether the roll busts", fields, rules)]
    if dice != roll.dice:
        aspects.append(_aspect("the dice of the state, sorted", [Part.DICE], ["R4.1"]))
    else:
        aspects[0] = _aspect("whether the roll busts", [*fields, Part.DICE], rules)
    return aspects


def _move_aspects(state: State, move: Move) -> list[Aspect]:
    after = state.apply(move)
    legal = legal_move_rules(state, move.columns)
    aspects = [_aspect("whether the move is legal", [Part.REFUSED], legal)]
    for column in dict.fromkeys(move.columns):
        steps = move.columns.count(column)
        first = decide_sum(state, state.markers, column).play
        rules = ["R5.2" if first is Play.PLACE else "R5.1"]
        start = _start(state, state.markers, column)
        landed = after.markers[column]
        if landed != start + steps:
            rules.append("R14.1")
        elif state.rules.variant is not Variant.A and _on_square(state, column, start, landed):
            rules.append("R13.1")
        if _near_top(state, state.markers, column, steps):
            rules.append(board_rule(state.rules))
        field = Marker(column)
        aspects.append(_aspect(f"the marker in column {column}", [field], rules))
        if steps == 2:
            # The second step of equal sums (R7.1), advancing the marker the
            # first step placed (R7.2); without it the marker stays where the
            # first step left it, the highest open space below where it ends.
            taken = _others_squares(state, column) if state.rules.variant is Variant.A else set()
            once = max(s for s in range(start + 1, landed) if s not in taken)
            second = ["R7.1", "R7.2"] if first is Play.PLACE else ["R7.1"]
            what = f"the second step in column {column}"
            aspects.append(_aspect(what, [field], second, [(field, once)]))
    aspects.append(_aspect("the turn after a move", _TURN_FIELDS, ["R3.4"]))
    return aspects


def _others_squares(state: State, column: int) -> set[int]:
    """Return the spaces of the other players' squares in ``column``."""
    return {s[column] for p, s in enumerate(state.squares) if p != state.player and column in s}


def _on_square(state: State, column: int, start: int, landed: int) -> bool:
    """Whether a marker climbing from ``start`` to ``landed`` stops on another player's square."""
    theirs = _others_squares(state, column)
    return any(space in theirs for space in range(start + 1, landed + 1))


def _stop_aspects(state: State) -> list[Aspect]:
    found = decide_stop(state)
    me = state.player
    others = [p for p in range(state.rules.players) if p != me]
    heights = state.rules.heights
    aspects = []
    for column, space in state.markers.items():
        aspects.append(_aspect(f"the square in column {column}", [Square(me, column)], ["R11.2"]))
        theirs = [Square(p, column) for p in others]
        if heights[column] - space <= 1:
            # On the top space the stop wins the column; one below, a board one
            # space shorter would make it won.
            rules = ["R9.1", "R11.3", board_rule(state.rules)]
            aspects.append(_aspect(f"whether column {column} is won", theirs, rules))
        if any(lost == column for lost, _, _ in found.lost):
            aspects.append(_aspect(f"the squares leaving column {column}", theirs, ["R9.3"]))
    # The squares no marker replaces stay: the stopper's own (R11.2), and the other
    # players' outside the columns the stop wins, which R9.3 alone takes off.
    kept = [Square(me, c) for c in state.squares[me] if c not in state.markers]
    if kept:
        aspects.append(_aspect("the squares in columns without a marker", kept, ["R11.2"]))
    lost_cells = {(p, c) for c, p, _ in found.lost}
    stay = [Square(p, c) for p in others for c in state.squares[p] if (p, c) not in lost_cells]
    if stay:
        aspects.append(_aspect("the other players' squares that stay", stay, ["R9.3"]))
    held = found.held
    target = state.rules.columns_to_win
    event_rules = ["R12.1"]
    if target != Rules().columns_to_win:
        event_rules.append("R15.2")
    if found.wins:
        before = sum(owner == me for owner in state.won.values())
        if held > target or held - before > 1:
            event_rules.append("R12.2")
        aspects.append(_aspect("the game won", _TURN_FIELDS, event_rules))
    else:
        if held >= 1 and held >= target - 1:
            aspects.append(_aspect("the game not yet won", [Part.EVENT, Part.PHASE], event_rules))
        aspects.append(_aspect("the next player", [Part.PLAYER, Part.PHASE], ["R2.3", "R11.4"]))
    shared = any(
        state.squares[p].get(c) == space for c, space in state.markers.items() for p in others
    )
    if state.rules.variant is Variant.B:
        aspects.append(_aspect("whether the stop is allowed", [Part.REFUSED], ["R14.2"]))
    elif shared:
        aspects.append(_aspect("whether the stop is allowed", [Part.REFUSED], ["R13.1"]))
    return aspects


def action_rules(state: State, action: Action) -> list[str]:
    """Return every rule that decides the answer to the legal ``action`` in ``state``."""
    return sorted_rules(r for a in action_aspects(state, action) for r in a.rules)


def game_rules(steps: Sequence[tuple[State, Action]]) -> list[str]:
    """Return every rule that decides some step of a game, given as (state, action) pairs."""
    return sorted_rules(r for state, action in steps for r in action_rules(state, action))
