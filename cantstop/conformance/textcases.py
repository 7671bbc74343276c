"""The generated cases about notation: valid and invalid state and action texts, JSON and setups.

Valid states and actions are read in text and JSON and written back; invalid
ones break one thing each (a single-character edit, one invariant, one
spoiled JSON field, one refused setup), so that one rule is to blame.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from cantstop import jsonform
from cantstop.actions import Action, Move, Roll, Stop
from cantstop.conformance.pool import (
    ACTION_CHARS,
    ALL_MOVES,
    CONFIGS,
    STATE_CHARS,
    edit,
    make_case,
    setup_rules,
)
from cantstop.dice import ORDERED_ROLLS
from cantstop.errors import NotationError, RuleError
from cantstop.notation import format_action, format_state, parse_action, parse_state
from cantstop.state import Phase, State, new_game
from cantstop.tags import state_rules
from dicekit.conformance.ranking import rule_key
from dicekit.conformance.suite import Case

__all__ = ["invalid_cases", "notation_cases"]


def notation_cases(pool: list[State], count: int) -> list[Case]:
    """Return valid states and actions in text and JSON, with canonical text and JSON form."""
    rng = random.Random("notation")
    cases: list[Case] = []

    def add(
        kind: str,
        source: State | None,
        rules: list[str],
        forms: Sequence[tuple[str, Any]],
        expect: dict[str, Any],
    ) -> None:
        """Add one case for each (key, value) of ``forms``: the thing read in that form."""
        for key, value in forms:
            case_id = f"notation-{len(cases) + 1:05d}"
            cases.append(make_case(case_id, rules, kind, source, **{key: value}, expect=expect))

    states = rng.sample(sorted(set(pool), key=format_state), count)
    for state in states:
        text = format_state(state)
        # Reading and writing the text and the JSON form: the grammar, the
        # options when there are any, and what the squares decide (won columns).
        rules = ["N1.1", "N1.2", "N1.3", "N1.4", "N3.1", *state_rules(state, 1)]
        if len(text.split(" ")) > 3:
            rules.append("N1.5")
        as_json = jsonform.state_to_json(state)
        if state.dice is not None:
            dice = list(state.dice)
            rng.shuffle(dice)
            as_json["dice"] = dice  # a reader sorts the dice (N3.1)
        if rng.random() < 0.5:
            del as_json["won"], as_json["winner"]
        expect = {"state": text, "json": jsonform.state_to_json(state)}
        add("state", state, rules, (("text", text), ("json", as_json)), expect)
    actions: list[Action] = [Stop(), *ALL_MOVES]
    actions += [rng.choice(ORDERED_ROLLS) for _ in range(40)]
    for action in dict.fromkeys(actions):
        text = format_action(action)
        expect = {"action": text, "json": jsonform.action_to_json(action)}
        # Both forms are read and both are written back.
        rules = ["N2.1", "N3.2"]
        if isinstance(action, Roll):
            rules.append("N2.2")
        elif isinstance(action, Move):
            rules.append("N2.3")
        add("action", None, rules, (("text", text), ("json", expect["json"])), expect)
    # JSON states choosing a move with the dice in another order than sorted:
    # read as the state with its dice sorted, tagged with the rules the reader
    # names when it refuses what the dice may become.
    choosing = [s for s in states if s.dice is not None and len(set(s.dice)) > 1]
    for state in choosing[:REORDERED]:
        as_json = jsonform.state_to_json(state)
        as_json["dice"] = as_json["dice"][::-1]
        expect = {"state": format_state(state), "json": jsonform.state_to_json(state)}
        add(
            "state", state, _dice_rules(jsonform.state_to_json(state)), (("json", as_json),), expect
        )
    return cases


#: How many JSON states with their dice in another order :func:`notation_cases` holds, at most.
REORDERED = 40


def _dice_rules(data: dict[str, Any]) -> list[str]:
    """Return the rules the reader names when it refuses what the dice of ``data`` may become.

    >>> data = jsonform.state_to_json(parse_state("-/- - 0c2345"))
    >>> _dice_rules(data)
    ['R4.1', 'N3.1']
    """
    dice = data["dice"]
    rules: set[str] = set()
    changes: list[object] = [None, [], [*dice, dice[0]], dice[:3], [*dice[:3], 7], {}, "1234"]
    for becomes in changes:
        spoiled = {**data, "dice": becomes}
        try:
            jsonform.state_from_json(spoiled)
        except NotationError as exc:
            rules.add(exc.rule)
    spoiled = {k: v for k, v in data.items() if k != "dice"}
    try:
        jsonform.state_from_json(spoiled)
    except NotationError as exc:
        rules.add(exc.rule)
    return sorted(rules, key=rule_key)


def _setup(rules: dict[str, Any], first_player: Any) -> dict[str, Any]:
    return {"rules": rules, "first_player": first_player}


def _cells(values: Mapping[int, int]) -> str:
    return ",".join(f"{c}:{v}" for c, v in sorted(values.items())) or "-"


def _raw_text(
    state: State, squares: list[dict[int, int]], markers: dict[int, int], turn: str
) -> str:
    options = format_state(state).split(" ")[3:]
    return " ".join(["/".join(_cells(s) for s in squares), _cells(markers), turn, *options])


def _invariant_mutants(state: State, rng: random.Random) -> Iterator[tuple[str, str]]:
    """Yield (text, intended rule) for states that break one invariant each."""
    squares = [dict(s) for s in state.squares]
    markers = dict(state.markers)
    heights = state.rules.heights
    me = state.player
    letter = {Phase.ROLL: "r", Phase.CHOOSE: "c", Phase.DECIDE: "d", Phase.OVER: "x"}
    turn = f"{me}{letter[state.phase]}" + ("".join(map(str, state.dice)) if state.dice else "")
    if markers:
        column = rng.choice(sorted(markers))
        own = squares[me].get(column)
        if own is not None:
            yield _raw_text(state, squares, {**markers, column: own}, turn), "R16.3"
        yield _raw_text(state, squares, {**markers, column: heights[column] + 1}, turn), "R16.2"
        free = [
            c
            for c in heights
            if c not in markers and c not in state.won and squares[me].get(c, 0) < heights[c]
        ]
        if len(markers) == 3 and free:
            extra = rng.choice(free)
            four = {**markers, extra: squares[me].get(extra, 0) + 1}
            yield _raw_text(state, squares, four, turn), "R16.1"
        if state.phase is Phase.DECIDE:
            yield _raw_text(state, squares, markers, f"{me}r"), "R16.5"
    if state.phase is Phase.DECIDE and len(markers) < 3:
        won_by_other = [c for c, p in state.won.items() if p != me]
        if won_by_other:
            yield (
                _raw_text(state, squares, {**markers, rng.choice(won_by_other): 1}, turn),
                "R9.2",
            )
    if state.phase is Phase.ROLL:
        yield _raw_text(state, squares, markers, f"{me}d"), "R16.5"
        mine = squares[me]
        if mine:
            column = rng.choice(sorted(mine))
            yield (
                _raw_text(
                    state,
                    [*squares[:me], {**mine, column: heights[column] + 1}, *squares[me + 1 :]],
                    markers,
                    turn,
                ),
                "R16.2",
            )
    if state.phase is Phase.OVER and state.rules.players > 1:
        other = (me + 1) % state.rules.players
        yield _raw_text(state, squares, markers, f"{other}x"), "R16.5"
        yield _raw_text(state, squares, markers, f"{me}r"), "R12.1"
    for column, owner in state.won.items():
        if state.rules.players > 1:
            other = (owner + 1) % state.rules.players
            spoiled = [dict(s) for s in squares]
            spoiled[other][column] = 1 if heights[column] > 1 else heights[column]
            yield (
                _raw_text(state, spoiled, markers, turn),
                ("R9.3" if heights[column] > 1 else "R9.1"),
            )
        break


def invalid_cases(pool: list[State], count: int) -> list[Case]:
    """State text, action text, JSON and setups that must be rejected, with the rule broken."""
    rng = random.Random("invalid")
    cases: list[Case] = []
    seen: set[str] = set()
    ordered = sorted(set(pool), key=format_state)

    def add(
        kind: str,
        rules: list[str],
        source: State | None,
        expect: dict[str, Any],
        /,
        **fields: Any,
    ) -> None:
        key = json.dumps([kind, fields], sort_keys=True)
        if key in seen:
            return
        seen.add(key)
        case = make_case(f"invalid-{len(cases) + 1:05d}", rules, kind, source)
        case.update(fields)
        case["expect"] = expect
        cases.append(case)

    # States that break one invariant each (R16, R9, R12): at most 60 per rule.
    per_rule: Counter[str] = Counter()
    for state in rng.sample(ordered, len(ordered) // 4):
        for text, rule in _invariant_mutants(state, rng):
            if per_rule[rule] >= 60:
                continue
            try:
                parse_state(text)
            except NotationError as exc:
                if exc.rule == rule:
                    per_rule[rule] += 1
                    add("state", [rule], state, {"error": rule, "at": exc.position}, text=text)
    # Single-character edits of valid texts that break the grammar (N1, N2).
    target = len(cases) + count // 2
    while len(cases) < target:
        state = rng.choice(ordered)
        text = edit(format_state(state), rng, STATE_CHARS)
        try:
            parse_state(text)
        except NotationError as exc:
            if exc.rule.startswith("N"):
                add("state", [exc.rule], state, {"error": exc.rule, "at": exc.position}, text=text)
    target = len(cases) + count // 4
    while len(cases) < target:
        text = edit(
            format_action(rng.choice([Stop(), *ALL_MOVES, *ORDERED_ROLLS[:200]])),  # type: ignore[arg-type]
            rng,
            ACTION_CHARS,
        )
        try:
            parse_action(text)
        except NotationError as exc:
            add("action", [exc.rule], None, {"error": exc.rule, "at": exc.position}, text=text)
    # JSON states with one field spoiled (N3.1 and the rules behind it).
    spoilers: list[tuple[str, Callable[[dict[str, Any]], None]]] = [
        ("drop player", lambda d: d.pop("player")),
        ("drop squares", lambda d: d.pop("squares")),
        ("unknown field", lambda d: d.update(colour="red")),
        ("bad phase", lambda d: d.update(phase="jump")),
        ("bad winner", lambda d: d.update(winner=0 if d["winner"] is None else None)),
        ("bad won", lambda d: d.update(won={"7": 1})),
        ("string position", lambda d: d.update(markers={"7": "1"})),
        ("column key", lambda d: d.update(markers={"07": 1})),
        ("variant C", lambda d: d["rules"].update(variant="C")),
        ("five players", lambda d: d["rules"].update(players=5)),
        ("squares count", lambda d: d.update(squares=d["squares"][:-1] or [{}, {}])),
    ]
    for state in rng.sample(ordered, count // 4 // len(spoilers) + 1):
        for name, spoil in spoilers:
            data = jsonform.state_to_json(state)
            spoil(data)
            try:
                jsonform.state_from_json(data)
            except NotationError as exc:
                add("state", [exc.rule], state, {"error": exc.rule}, json=data, note=name)
    # Bad action JSON.
    bad_actions: list[Any] = [
        {"type": "roll", "dice": [1, 2, 3]},
        {"type": "roll", "dice": [1, 2, 3, 7]},
        {"type": "roll", "dice": "1234"},
        {"type": "move", "columns": [10, 7]},
        {"type": "move", "columns": [13]},
        {"type": "move", "columns": []},
        {"type": "move", "columns": [2, 3, 4]},
        {"type": "stop", "why": "tired"},
        {"type": "pass"},
        {"dice": [1, 2, 3, 4]},
        [1, 2, 3, 4],
    ]
    for data in bad_actions:
        try:
            jsonform.action_from_json(data)
        except NotationError as exc:
            add("action", [exc.rule], None, {"error": exc.rule}, json=data)
    # Setups the rules refuse (R15, R14.3, R2.2).
    setups: list[tuple[dict[str, Any], Any]] = [
        ({"players": 0}, 0),
        ({"players": 5}, 0),
        ({"players": "2"}, 0),
        ({"columns_to_win": 0}, 0),
        ({"columns_to_win": 12}, 0),
        ({"players": 4, "columns_to_win": 4}, 0),
        ({"players": 3, "columns_to_win": 5}, 0),
        ({"heights": {"2": 3, "13": 3}}, 0),
        ({"heights": {"7": 0}}, 0),
        ({"heights": {"7": 1000}}, 0),
        ({"heights": {}}, 0),
        ({"variant": "C"}, 0),
        ({"variant": "AB"}, 0),
        ({}, 2),
        ({"players": 3}, -1),
        ({"players": 1}, 1),
        ({"players": 4}, 4),
        ({"heights": {"5": 2, "9": 2}, "columns_to_win": 2}, 0),
        ({"players": 1, "heights": {"7": 1}, "columns_to_win": 2}, 0),
        ({"players": 2, "heights": {"6": 3, "7": 3, "8": 3}, "columns_to_win": 2}, 0),
    ]
    for rules_json, first in setups:
        try:
            new_game(jsonform.rules_from_json(rules_json), first)
        except NotationError as exc:
            add("new", [exc.rule], None, {"error": exc.rule}, new=_setup(rules_json, first))
        except RuleError as exc:
            add("new", [exc.rule], None, {"error": exc.rule}, new=_setup(rules_json, first))
    # And valid setups, so that a port which rejects everything fails too.
    for name, rules in CONFIGS.items():
        for first in range(rules.players):
            state = new_game(rules, first)
            add(
                "new",
                setup_rules(state),
                state,
                {"state": format_state(state)},
                new=_setup(jsonform.rules_to_json(rules), first),
                note=name,
            )
    # JSON states not choosing a move that hold dice: about to roll, deciding
    # after a move, or over.  The rule is the one the reader names.
    thrown = random.Random("invalid-dice")
    for phase in (Phase.ROLL, Phase.DECIDE, Phase.OVER):
        in_phase = [s for s in ordered if s.phase is phase]
        for state in thrown.sample(in_phase, min(4, len(in_phase))):
            data = jsonform.state_to_json(state)
            data["dice"] = list(thrown.choice(ORDERED_ROLLS).dice)
            try:
                jsonform.state_from_json(data)
            except NotationError as exc:
                note = f"dice in phase {phase.value}"
                add("state", [exc.rule], state, {"error": exc.rule}, json=data, note=note)
    return cases
