"""Which rules a wrong answer of a Can't Stop port blames: moves, a step, a roll table.

Each function compares a port's answer with the reference's part by part and
shares one unit of blame among the rules of the parts that differ, read from
the engine's decision table (:mod:`~cantstop.tags`): a move the
port lists that the rules refuse blames the rule that refuses it; a legal
move it misses blames the rules that make it legal; a marker on the wrong
space blames the rules of that marker's move; a table of the moves of every
roll is divided roll by roll (perft "divide").
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from cantstop.actions import Action, Move, Roll
from cantstop.conformance.positions import Field, Part, Position
from cantstop.dice import ORDERED_ROLLS, sorted_dice
from cantstop.errors import NotationError
from cantstop.notation import format_action, parse_action, parse_state
from cantstop.state import DROP_RULES, Event, Phase, State
from cantstop.tags import (
    Aspect,
    action_aspects,
    illegal_move_rule,
    legal_move_rules,
    roll_rules,
    state_rules,
)
from dicekit.conformance.compare import same_json
from dicekit.conformance.ranking import add_blame, normal, uniform
from dicekit.conformance.suite import Blame, Message

__all__ = [
    "RollGroup",
    "differing_rolls",
    "divide_lines",
    "fields_of",
    "is_internal_error",
    "moves_blame",
    "notation_rule",
    "reading_blame",
    "reference_table",
    "refusal_blame",
    "step_blame",
]

Dice = tuple[int, int, int, int]

#: Rules whose breach a port can only report by refusing the state it was given.
_READING = re.compile(r"^(R16\.\d|R9\.[13]|R12\.1|R10\.1|R4\.1|R1\.\d|R15\.\d|R14\.[13]|N\d\.\d)$")


def moves_blame(state: State, dice: Dice, got: object, want: Sequence[str]) -> tuple[Blame, str]:
    """Return the blame for a wrong list of legal moves of ``dice``, and what differs.

    A legal move that is missing blames the rules that make it legal; a move
    listed that the rules refuse blames the rule the engine refuses it under;
    the right moves in the wrong order, or listed twice, blame R6.6.
    """
    if not isinstance(got, list) or not all(isinstance(m, str) for m in got):
        return {"R6.6": 1.0}, "the answer is not a list of moves"
    choosing = _choosing(state, dice)
    missing = [m for m in want if m not in got]
    extra = list(dict.fromkeys(m for m in got if m not in want))
    if not missing and not extra:
        return {"R6.6": 1.0}, "the moves are right, but in another order or listed twice"
    blame: dict[str, float] = defaultdict(float)
    for text in missing:
        columns = _columns(text)
        if choosing is not None and columns is not None:
            add_blame(blame, legal_move_rules(choosing, columns))
    for text in extra:
        columns = _columns(text)
        if columns is None:
            add_blame(blame, ["N2.3"])
        elif choosing is None:
            # The roll busts: each sum of the move is dropped, for the reason R5.3 gives.
            dropped = [state.play_of(c) for c in columns]
            add_blame(
                blame, [DROP_RULES[p] for p in dropped if not p.plays] or roll_rules(state, dice)
            )
        else:
            add_blame(blame, [illegal_move_rule(choosing, columns)])
    parts = []
    if missing:
        parts.append("missing " + " ".join(missing))
    if extra:
        parts.append("not legal " + " ".join(extra))
    return normal(blame), ", ".join(parts)


def _columns(text: str) -> tuple[int, ...] | None:
    try:
        action = parse_action(text)
    except NotationError:
        return None
    return action.columns if isinstance(action, Move) else None


def _choosing(state: State, dice: Dice) -> State | None:
    if state.phase is Phase.CHOOSE:
        return state
    step = state.step(Roll(dice))
    return step.state if step.event is Event.ROLLED else None


def refusal_blame(state: State | None, answer: Message, tags: Sequence[str]) -> Blame:
    """Return the blame for a port that refused a request the rules accept.

    A refusal under a rule about reading states blames that rule together with
    the rules that decide how this state reads; any other refusal blames the
    case's tags.  A state choosing a move refused as a bust (R10.1) when its
    dice have legal moves is a port that finds none of them: each blames the
    rules that make it legal, as a list of moves missing them would.
    """
    error = answer.get("error")
    rule = error.get("rule") if isinstance(error, dict) else None
    if rule == "R10.1" and state is not None and state.dice is not None:
        want = [format_action(m) for m in state.legal_moves()]
        if want:
            return moves_blame(state, state.dice, [], want)[0]
    if isinstance(rule, str) and _READING.match(rule):
        reading = state_rules(state) if state is not None else []
        blame: dict[str, float] = defaultdict(float)
        add_blame(blame, [rule, *reading])
        return normal(blame)
    return uniform(tags)


def step_blame(
    state: State, action: Action, answer: Message, want_state: str, want_event: str
) -> tuple[Blame, str] | None:
    """Return the blame for a wrong answer to a legal action, and what differs.

    The answer is compared with the expected state part by part (each marker,
    each square, the player, the phase, the dice, the event); the blame goes
    to the rules of the aspects (:func:`~cantstop.tags.action_aspects`)
    that decide the parts that differ.  Right content in a text the notation
    does not allow blames the notation rule of that part of the text.
    """
    aspects = action_aspects(state, action)
    if is_internal_error(answer):
        # A defect of the port (spec/protocol.md) refuses nothing under the rules: the
        # whole answer is missing, as when it has no state.
        blame = uniform(r for a in aspects for r in a.rules)
        return blame, f"the port failed on the legal action {format_action(action)}"
    if answer.get("ok") is not True:
        reading = refusal_blame(state, answer, [])
        if reading:
            return reading, "the port refused the state"
        hit = [a for a in aspects if Part.REFUSED in a.fields] or aspects
        return _aspect_blame(hit), f"the port refused the legal action {format_action(action)}"
    got_state, got_event = answer.get("state"), answer.get("event")
    if same_json([got_state, got_event], [want_state, want_event]):
        return None
    if not isinstance(got_state, str):
        return uniform(r for a in aspects for r in a.rules), "the answer has no state"
    want_fields = fields_of(want_state)
    got_fields = fields_of(got_state)
    if got_fields is None:
        return {"N1.1": 1.0}, f"the state {got_state!r} cannot be read"
    assert want_fields is not None
    differ: set[Field] = {
        k for k in want_fields.keys() | got_fields.keys() if want_fields.get(k) != got_fields.get(k)
    }
    if got_event != want_event:
        # Another event (a bust for a roll that plays, a win for a stop that
        # does not) changes the rest of the state with it: the event is the difference.
        differ = {Part.EVENT}
    if not differ:
        return {notation_rule(want_state, got_state): 1.0}, "the state is written out of form"
    hit = [a for a in aspects if a.fields & differ] or aspects
    # A part whose absence gives exactly the port's values explains them alone.
    missed = [a for a in hit if a.without and all(got_fields.get(f) == v for f, v in a.without)]
    if missed:
        return _aspect_blame(missed), "missing: " + ", ".join(a.what for a in missed)
    return _aspect_blame(hit), "wrong: " + ", ".join(a.what for a in hit)


def _aspect_blame(aspects: Sequence[Aspect]) -> Blame:
    blame: dict[str, float] = defaultdict(float)
    for aspect in aspects:
        if aspect.rules:
            add_blame(blame, aspect.rules)
    return normal(blame)


def is_internal_error(answer: Message) -> bool:
    """Tell whether ``answer`` is an internal error: no rule, a message saying so."""
    error = answer.get("error")
    if answer.get("ok") is not False or not isinstance(error, dict):
        return False
    said = error.get("message")
    return error.get("rule") is None and isinstance(said, str) and said.startswith("internal error")


def reading_blame(state: State) -> Blame:
    """Return the blame for a port that fails with an internal error on reading ``state`` alone.

    The defect lies in what reading the state decides: the rules by which it
    reads (:func:`~cantstop.tags.state_rules`) and, for a state choosing a
    move, the rules that give its dice their legal moves, since a state
    choosing a move must have one (R10.1): :func:`~cantstop.tags.roll_rules`.
    """
    rules = state_rules(state)
    if state.dice is not None:
        rules += roll_rules(state, state.dice)
    return uniform(rules)


def fields_of(text: str) -> dict[Field, object] | None:
    """Return the parts of a state's text by name (:class:`~.positions.Position`), or ``None``."""
    position = Position.read(text)
    return None if position is None else position.fields()


def notation_rule(want: str, got: str) -> str:
    """Return the notation rule of the first part of ``got`` written unlike ``want``."""
    want_parts, got_parts = want.split(" "), got.split(" ")
    for index, rule in enumerate(("N1.2", "N1.3", "N1.4")):
        if index >= len(got_parts) or want_parts[index] != got_parts[index]:
            return rule
    return "N1.5" if want_parts[3:] != got_parts[3:] else "N1.1"


def reference_table(state: State) -> list[list[str]]:
    """Return the legal moves of every ordered roll of ``state``, from the reference engine."""
    cache: dict[Dice, list[str]] = {}
    table = []
    for roll in ORDERED_ROLLS:
        key = sorted_dice(roll.dice)
        if key not in cache:
            after = state.apply(roll)
            cache[key] = [format_action(m) for m in after.legal_moves()]
        table.append(cache[key])
    return table


@dataclass
class RollGroup:
    """The ordered rolls of one sorted roll whose moves differ, and what the rules say."""

    dice: Dice
    rolls: list[str]
    want: list[str]
    got: Any
    blame: Blame
    what: str

    def text(self) -> str:
        """Return the group as one line of a divide: the rolls, what differs and the rules."""
        shown = " ".join(self.rolls[:4])
        if len(self.rolls) > 4:
            shown += f" +{len(self.rolls) - 4} more"
        expected = " ".join(self.want) or "bust"
        rules = " ".join(r for r, _ in sorted(self.blame.items(), key=lambda kv: -kv[1])[:3])
        return f"{shown}: {self.what} (expected {expected}; rule {rules})"


def differing_rolls(state: State, got: object, want: Sequence[list[str]]) -> list[RollGroup] | None:
    """Group the ordered rolls whose moves differ by their sorted dice; ``None`` if none differ."""
    if not isinstance(got, list) or len(got) != len(ORDERED_ROLLS):
        return None
    groups: dict[tuple[Dice, str], RollGroup] = {}
    for roll, theirs, ours in zip(ORDERED_ROLLS, got, want, strict=True):
        if theirs == ours:
            continue
        dice = sorted_dice(roll.dice)
        key = (dice, json.dumps(theirs))
        if key not in groups:
            blame, what = moves_blame(state, dice, theirs, ours)
            groups[key] = RollGroup(dice, [], ours, theirs, blame, what)
        groups[key].rolls.append(format_action(roll))
    return sorted(groups.values(), key=lambda g: g.rolls[0]) or None


def divide_lines(
    state_text: str, got: object, want: Sequence[list[str]], limit: int = 8
) -> list[str]:
    """Name the rolls whose moves differ, like perft "divide", grouped by sorted dice.

    Each line holds the orderings of one sorted roll that give the same wrong
    answer, what differs, and the rule the decision table applies to that roll.
    """
    if not isinstance(got, list) or len(got) != len(ORDERED_ROLLS):
        return [f"rolls: the port did not send {len(ORDERED_ROLLS)} lists of moves"]
    groups = differing_rolls(parse_state(state_text), got, want) or []
    lines = [f"roll {g.text()}" for g in groups[:limit]]
    if len(groups) > limit:
        rolls = sum(len(g.rolls) for g in groups)
        lines.append(f"... {len(groups) - limit} more sorted rolls differ ({rolls} of 1296)")
    return lines
