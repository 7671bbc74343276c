"""Seeded bugs in what a roll offers or where a move lands, switched into the engine's decisions.

A port with such a bug answers ``moves``, ``rolls``, ``perft`` and the
``apply`` of a roll or a move itself (:func:`roll_bug`); every other request
goes to the reference port.  What each sum does, where it lands and what a
pairing offers are the engine's analysis (:mod:`cantstop.analysis`); the
:class:`Flaw` changes one of those answers.  The states it
writes may break an invariant (four markers, a marker above the top space),
as a buggy port's would.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from dataclasses import replace
from functools import lru_cache
from typing import Any

from cantstop.actions import Move, Roll
from cantstop.analysis import Offer, decide_offer, decide_sum, landing
from cantstop.board import MARKERS
from cantstop.config import Variant
from cantstop.conformance.positions import Position
from cantstop.dice import ORDERED_ROLLS, pairings, sorted_dice
from cantstop.errors import NotationError
from cantstop.notation import format_action, format_state, parse_action, parse_state
from cantstop.state import Phase, Play, State

__all__ = ["ROLL_OPS", "Flaw", "Handler", "Message", "Respond", "position_of", "roll_bug"]

#: A request or an answer of the protocol, as JSON.
Message = dict[str, Any]
#: Answers one request object: the reference port.
Handler = Callable[[Message], Message]
#: A bug's answer to a request, given the request and the reference port.
Respond = Callable[[Message, Handler], Message]


class Flaw(enum.Enum):
    """Where a bug in what a roll offers is switched in.

    :func:`~cantstop.conformance.mutant_rolls.roll_bug` takes one.
    """

    TWO_PAIRINGS = "only two pairings"
    PLACED_ON_SPACE_ONE = "a placed marker on space 1"
    FOUR_MARKERS = "a fourth marker"
    FORCED_PLAY = "either sum alone"
    TWO_NEW_COLUMNS = "only the first of two new columns"
    LISTED_TWICE = "a move listed once per pairing"
    DOUBLE_ON_NEW_COLUMN = "equal sums only place"
    DOUBLE_PAST_TOP = "both steps past the top"
    TOP_ADVANCES = "a marker on the top advances"
    WON_COLUMN_OPEN = "a won column open to the others"
    BUST_ON_FIRST_PAIRING = "a bust on the first pairing"
    ADVANCE_DOES_NOT_SKIP = "an advance does not skip under Variant A"
    ALWAYS_SKIPS = "a marker skips the others' squares without Variant A"


#: The flaws that change where a marker lands.
_LANDING_FLAWS = frozenset(
    {Flaw.PLACED_ON_SPACE_ONE, Flaw.ALWAYS_SKIPS, Flaw.ADVANCE_DOES_NOT_SKIP}
)

#: The ops a bug in what a roll offers answers itself.
ROLL_OPS = frozenset({"moves", "rolls", "perft", "apply"})


def roll_bug(flaw: Flaw | None) -> Respond:
    """Return a port's answer to ``moves``, ``rolls``, ``perft`` and ``apply`` with ``flaw``.

    With no flaw the answers are the reference port's: the tests hold the
    rules of this module to that.
    """

    def respond(request: Message, reference: Handler) -> Message:
        return _respond(flaw, request, reference)

    return respond


def _respond(flaw: Flaw | None, request: Message, reference: Handler) -> Message:
    op = request.get("op")
    if op not in ROLL_OPS:
        return reference(request)
    try:
        text = request.get("state")
        state = _parsed(text) if isinstance(text, str) else parse_state(text)  # type: ignore[arg-type]
        action = parse_action(request["action"]) if op == "apply" else None
    except (NotationError, KeyError):
        return reference(request)  # the reference refuses it with its rule
    rules = _RollRules(state, flaw)
    seq = request.get("seq")
    if op == "moves":
        listed = rules.moves(state.dice) if state.dice is not None else []
        return {"seq": seq, "ok": True, "moves": [_text(m) for m in listed]}
    rolling = state.phase in (Phase.ROLL, Phase.DECIDE)
    if op == "rolls" and rolling:
        table = [[_text(m) for m in rules.roll(r.dice)] for r in ORDERED_ROLLS]
        return {"seq": seq, "ok": True, "moves": table}
    if op == "perft" and rolling:
        counts = [len(rules.roll(r.dice)) for r in ORDERED_ROLLS]
        choices, busts = sum(counts), counts.count(0)
        return {"seq": seq, "ok": True, "choices": choices, "busts": busts}
    if isinstance(action, Roll) and rolling:
        return {"seq": seq, "ok": True, **rules.after_roll(action)}
    if isinstance(action, Move) and state.dice is not None:
        if action.columns not in rules.moves(state.dice):
            if action not in state.legal_moves():
                return reference(request)  # the reference refuses it with its rule
            why = f"{format_action(action)} is not a legal move"
            return {"seq": seq, "ok": False, "error": {"rule": "R4.3", "message": why}}
        return {"seq": seq, "ok": True, **rules.after_move(action.columns)}
    return reference(request)


class _RollRules:
    """What the sums and pairings of a roll do in one state, with one flaw switched in.

    The decisions are the engine's analysis (:mod:`cantstop.analysis`): what
    each sum does and where it lands (:func:`~cantstop.analysis.decide_sum`,
    :func:`~cantstop.analysis.landing`) and what a pairing offers
    (:func:`~cantstop.analysis.decide_offer`); the flaw changes one answer.
    """

    def __init__(self, state: State, flaw: Flaw | None) -> None:
        self.state = state
        self.flaw = flaw
        self.memo: dict[tuple[int, ...], list[tuple[int, ...]]] = {}

    def play(self, markers: Mapping[int, int], column: int) -> tuple[Play, int]:
        """Return what a sum for ``column`` does with ``markers``, and where its marker lands."""
        state, flaw = self.state, self.flaw
        found = decide_sum(state, markers, column)
        play = found.play
        reopened = flaw is Flaw.WON_COLUMN_OPEN and play is Play.WON and found.owner != state.player
        if (
            reopened
            or (flaw is Flaw.TOP_ADVANCES and play is Play.TOP)
            or (flaw is Flaw.FOUR_MARKERS and play is Play.NO_MARKER)
        ):
            play = Play.ADVANCE if column in markers else Play.PLACE
            if reopened and play is Play.PLACE and len(markers) >= MARKERS:
                play = Play.NO_MARKER
        if not play.plays:
            return play, 0
        if play is found.play and flaw not in _LANDING_FLAWS:
            assert found.landing is not None
            return play, found.landing
        rules = state.rules
        if flaw is Flaw.ALWAYS_SKIPS:
            rules = replace(rules, variant=Variant.A)
        elif flaw is Flaw.ADVANCE_DOES_NOT_SKIP and play is Play.ADVANCE:
            rules = replace(rules, variant=None)
        if play is Play.ADVANCE:
            start = markers[column]
        elif flaw is Flaw.PLACED_ON_SPACE_ONE:
            start = 0
        else:
            start = state.squares[state.player].get(column, 0)
        return play, landing(rules, state.squares, state.player, column, start)[0]

    def offers(self, a: int, b: int) -> list[tuple[int, ...]]:
        """Return the moves the pairing ``a``, ``b`` offers (R6, R7), with the flaw's change."""
        markers = dict(self.state.markers)
        first, at = self.play(markers, a)
        second = first if a == b else self.play(markers, b)[0]
        together = first.plays and second.plays and self.play({**markers, a: at}, b)[0].plays
        offer, moves = decide_offer(a, b, first.plays, second.plays, together)
        if self.flaw is Flaw.FORCED_PLAY and offer is Offer.BOTH:
            return [*moves, (a,), (b,)]
        if self.flaw is Flaw.TWO_NEW_COLUMNS and offer is Offer.EITHER:
            return list(moves[:1])
        if self.flaw is Flaw.DOUBLE_PAST_TOP and offer is Offer.FIRST_STEP:
            return [(a, a)]
        return list(moves)

    def moves(self, dice: tuple[int, ...]) -> list[tuple[int, ...]]:
        """Return the moves the port lists for ``dice`` (sorted)."""
        key = tuple(sorted(dice))
        if key not in self.memo:
            found = pairings(sorted_dice(key))  # type: ignore[arg-type]
            if self.flaw is Flaw.TWO_PAIRINGS:
                found = found[:2]
            offered = [m for a, b in found for m in self.offers(a, b)]
            listed = sorted(offered) if self.flaw is Flaw.LISTED_TWICE else sorted(set(offered))
            self.memo[key] = listed
        return self.memo[key]

    def roll(self, dice: tuple[int, int, int, int]) -> list[tuple[int, ...]]:
        """Return the moves of an ordered roll, or nothing if the port calls it a bust."""
        if self.flaw is Flaw.BUST_ON_FIRST_PAIRING and not self.offers(*pairings(dice)[0]):
            return []
        return self.moves(dice)

    def after_roll(self, roll: Roll) -> Message:
        """Return the state and event after ``roll``, a bust when no move is left."""
        state = self.state
        position = position_of(state)
        if self.roll(roll.dice):
            dice = "".join(map(str, sorted_dice(roll.dice)))
            return {"state": position.with_turn(state.player, "c", dice).text(), "event": "rolled"}
        bust = position.with_turn((state.player + 1) % state.rules.players, "r")
        return {"state": replace(bust, markers=()).text(), "event": "busted"}

    def after_move(self, columns: tuple[int, ...]) -> Message:
        """Return the state after the move ``columns``: each sum's marker where it lands."""
        markers = dict(self.state.markers)
        placed: set[int] = set()
        for column in columns:
            play, at = self.play(markers, column)
            if self.flaw is Flaw.DOUBLE_ON_NEW_COLUMN and column in placed:
                continue
            if play is Play.PLACE:
                placed.add(column)
            markers[column] = at
        position = position_of(self.state).with_turn(self.state.player, "d")
        moved = replace(position, markers=tuple(sorted(markers.items())))
        return {"state": moved.text(), "event": "moved"}


@lru_cache(maxsize=4096)
def _parsed(text: str) -> State:
    """Return the state ``text`` denotes; the same text is read once (states are values)."""
    return parse_state(text)


def position_of(state: State) -> Position:
    """Return the parts of ``state``'s text."""
    found = Position.read(format_state(state))
    assert found is not None  # the engine writes the shape of a state
    return found


def _text(columns: tuple[int, ...]) -> str:
    return "+".join(map(str, columns))
