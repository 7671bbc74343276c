"""Write the conformance vectors under ``spec/conformance/v1/`` from the spec and the engine.

``python -m cantstop.conformance.generate`` (or ``cantstop conform --regenerate``)
rewrites every file; the output depends only on this module, the spec and the
engine, never on the clock or on hash seeds, so a second run gives the same
bytes.  The case kinds and their fields are described in ``spec/protocol.md``
and in ``schema.json``.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from cantstop.actions import Action, Move, Roll, Stop
from cantstop.conformance.tags import action_rules, roll_rules, rule_key, state_rules
from cantstop.dice import ORDERED_ROLLS, pairings, roll_outcomes
from cantstop.errors import IllegalAction, NotationError, RuleError
from cantstop.explanation import TEMPLATES, explain
from cantstop.game import Event, Phase, State, new_game, perft
from cantstop.jsonform import (
    action_from_json,
    action_to_json,
    rules_from_json,
    rules_to_json,
    state_from_json,
    state_to_json,
)
from cantstop.notation import format_action, format_state, parse_action, parse_state
from cantstop.rules import COLUMNS, STANDARD_HEIGHTS, Rules, Variant
from cantstop.spec import Example, load_spec, parse_setup, spec_dir

__all__ = [
    "CONFIGS",
    "SUITE",
    "SUITE_VERSION",
    "explanation_features",
    "generate",
    "main",
    "vectors_dir",
    "write",
]

#: The name every vector file carries.
SUITE = "cantstop-conformance"
#: The version of the vector format; it is also the directory name (``v1``).
SUITE_VERSION = 1

Case = dict[str, Any]

#: The configurations whose games supply the generated states.
CONFIGS: Mapping[str, Rules] = {
    "2p": Rules(),
    "1p": Rules(players=1),
    "3p-w4": Rules(players=3, columns_to_win=4),
    "4p": Rules(players=4),
    "2p-A": Rules(variant=Variant.A),
    "2p-B": Rules(variant=Variant.B),
    "3p-B": Rules(players=3, variant=Variant.B),
    "4p-A": Rules(players=4, variant=Variant.A),
    "tiny": Rules(players=2, columns_to_win=2, heights={5: 2, 6: 1, 7: 3, 8: 2, 9: 1}),
    "tiny-4p-A": Rules(
        players=4, columns_to_win=1, heights={c: 2 for c in COLUMNS}, variant=Variant.A
    ),
    "mid-3p-B": Rules(
        players=3, columns_to_win=2, heights={c: 3 for c in range(4, 11)}, variant=Variant.B
    ),
}


def vectors_dir() -> Path:
    """Return the directory of the current vector files (``spec/conformance/v1``)."""
    return spec_dir() / "conformance" / f"v{SUITE_VERSION}"


# -- helpers -------------------------------------------------------------------


def needs(rules: Rules) -> list[str]:
    """Return what a port must support for a case under ``rules`` (empty for the standard game).

    >>> needs(Rules(players=3, variant=Variant.B))
    ['players=3', 'variant=B']
    """
    out = []
    if rules.players != 2:
        out.append(f"players={rules.players}")
    if rules.variant is not None:
        out.append(f"variant={rules.variant.value}")
    if rules.heights != STANDARD_HEIGHTS:
        out.append("heights")
    return out


def _case(
    case_id: str, rules: Sequence[str], kind: str, source: State | None, **fields: Any
) -> Case:
    case: Case = {"id": case_id, "rules": sorted(set(rules), key=rule_key), "kind": kind}
    if source is not None:
        wanted = needs(source.rules)
        if wanted:
            case["needs"] = wanted
    case.update(fields)
    return case


def _random_roll(rng: random.Random) -> Roll:
    return Roll((rng.randint(1, 6), rng.randint(1, 6), rng.randint(1, 6), rng.randint(1, 6)))


def play_game(rules: Rules, rng: random.Random) -> Iterator[tuple[State, Action, State, Event]]:
    """Yield (state, action, next state, event) for one random legal game."""
    state = new_game(rules, rng.randrange(rules.players))
    stop_chance = rng.choice((0.15, 0.3, 0.5))
    while state.phase is not Phase.OVER:
        action: Action
        if state.phase is Phase.CHOOSE:
            action = rng.choice(state.legal_moves())
        elif state.phase is Phase.DECIDE and rng.random() < stop_chance:
            action = Stop()
            try:
                state.apply(action)
            except IllegalAction:  # Variant B may forbid the stop (R14.2)
                action = _random_roll(rng)
        else:
            action = _random_roll(rng)
        step = state.step(action)
        yield state, action, step.state, step.event
        state = step.state


def state_pool(games_per_config: int = 6) -> list[State]:
    """Return the distinct states of a fixed set of random games, in the order first reached."""
    seen: dict[State, None] = {}
    for name, rules in CONFIGS.items():
        for index in range(games_per_config):
            rng = random.Random(f"pool-{name}-{index}")
            for before, _, after, _ in play_game(rules, rng):
                seen.setdefault(before)
                seen.setdefault(after)
    return list(seen)


def _reading_rules(state: State) -> list[str]:
    """Return the rules needed to read ``state``: a piece on a top space needs the height."""
    return [r for r in state_rules(state) if r in ("R1.1", "R15.3")]


def _sorted_rolls() -> list[str]:
    return ["".join(map(str, roll.dice)) for roll, _ in roll_outcomes()]


# -- the files -----------------------------------------------------------------


def spec_examples() -> list[Case]:
    """One case for every example of the spec, with the example's own expectations."""
    cases = []
    for ex in load_spec().examples:
        cases.append(_example_case(ex))
    return cases


def _example_case(ex: Example) -> Case:
    f = ex.fields
    expect: dict[str, Any] = {}
    fields: dict[str, Any] = {"title": f["title"]}
    state: State | None = None
    if "setup" in f:
        fields["setup"] = f["setup"]
        rules_json, first = _setup_json(f["setup"])
        fields["new"] = {"rules": rules_json, "first_player": first}
    elif "notation" in f:
        fields["text"] = f["notation"]
    elif "action-text" in f:
        fields["action_text"] = f["action-text"]
    else:
        state = parse_state(f["state"])
        fields["state"] = f["state"]
        actions = (f.get("actions") or f.get("action") or "").split()
        if actions:
            fields["actions"] = actions
    if "error" in f:
        expect["error"] = f["error"]
        if "at" in f:
            expect["at"] = int(f["at"])
    if "events" in f:
        expect["events"] = f["events"].split()
    elif "event" in f:
        expect["event"] = f["event"]
    if "result" in f:
        expect["state"] = f["result"]
    if "moves" in f:
        moves = [] if f["moves"] == "none" else f["moves"].split()
        expect["moves"] = sorted(moves, key=lambda m: tuple(int(c) for c in m.split("+")))
    if "perft" in f:
        choices, busts = (int(part.split("=")[1]) for part in f["perft"].split())
        expect["perft"] = {"choices": choices, "busts": busts}
    if "json" in f:
        expect["json"] = json.loads(f["json"])
    if "action-json" in f:
        expect["action_json"] = json.loads(f["action-json"])
    return _case(f"spec-{ex.id}", ex.rules, "example", state, **fields, expect=expect)


def _setup_json(setup: str) -> tuple[dict[str, Any], Any]:
    """Turn an example's ``key=value`` setup into the JSON rules object and first player."""
    values, first = parse_setup(setup)
    heights = values.get("heights")
    if isinstance(heights, dict):
        values["heights"] = {str(c): h for c, h in heights.items()}
    return values, first


def moves_cases(pool: list[State], count: int) -> list[Case]:
    """Legal moves of reachable states in the CHOOSE phase, and of fresh rolls on others."""
    rng = random.Random("moves")
    rolling = [s for s in pool if s.phase in (Phase.ROLL, Phase.DECIDE)]
    cases: list[Case] = []
    seen: set[State] = set()
    while len(cases) < count:
        base = rng.choice(rolling)
        state = base.apply(_random_roll(rng))
        if state.phase is not Phase.CHOOSE or state in seen:
            continue
        seen.add(state)
        assert state.dice is not None
        cases.append(
            _case(
                f"moves-{len(cases) + 1:05d}",
                roll_rules(state, state.dice) + _reading_rules(state),
                "moves",
                state,
                state=format_state(state),
                expect={"moves": [format_action(m) for m in state.legal_moves()]},
            )
        )
    return cases


def apply_cases(pool: list[State], count: int) -> list[Case]:
    """Legal actions from reachable states: rolls (some of them busts), moves and stops."""
    rng = random.Random("apply")
    cases: list[Case] = []
    live = [s for s in pool if s.phase is not Phase.OVER]
    seen: set[tuple[State, Action]] = set()
    while len(cases) < count:
        state = rng.choice(live)
        action: Action
        if state.phase is Phase.CHOOSE:
            action = rng.choice(state.legal_moves())
        elif state.phase is Phase.DECIDE and rng.random() < 0.4:
            action = Stop()
        else:
            action = _random_roll(rng)
        if (state, action) in seen:
            continue
        try:
            step = state.step(action)
        except IllegalAction:
            continue
        seen.add((state, action))
        cases.append(
            _case(
                f"apply-{len(cases) + 1:05d}",
                action_rules(state, action) + _reading_rules(state),
                "apply",
                state,
                state=format_state(state),
                action=format_action(action),
                expect={"state": format_state(step.state), "event": step.event.value},
            )
        )
    return cases


_ALL_MOVES = [Move((a,)) for a in COLUMNS] + [
    Move((a, b)) for a in COLUMNS for b in COLUMNS if a <= b
]


def _unambiguous(state: State, move: Move) -> bool:
    """Whether only one reason can reject ``move``: at most one pairing of the dice names it."""
    assert state.dice is not None
    cols = move.columns
    matching = {
        pair
        for pair in pairings(state.dice)
        if (len(cols) == 2 and pair == cols) or (len(cols) == 1 and cols[0] in pair)
    }
    if len(matching) > 1:
        return False
    if len(cols) == 2 and matching:
        plays = [state.play_of(c) for c in cols]
        if not plays[0].plays and not plays[1].plays and plays[0] != plays[1]:
            return False
    return True


def illegal_cases(pool: list[State], count: int) -> list[Case]:
    """Actions the rules forbid, each with the rule that forbids it."""
    rng = random.Random("illegal")
    cases: list[Case] = []
    seen: set[tuple[State, Action]] = set()
    b_decide = [
        s
        for s in pool
        if s.phase is Phase.DECIDE
        and s.rules.variant is Variant.B
        and any(
            theirs.get(c) == pos
            for c, pos in s.markers.items()
            for p, theirs in enumerate(s.squares)
            if p != s.player
        )
    ]
    choose = [s for s in pool if s.phase is Phase.CHOOSE]
    others = [s for s in pool if s.phase is not Phase.CHOOSE]
    while len(cases) < count:
        pick = rng.random()
        action: Action
        if pick < 0.1 and b_decide:
            state, action = rng.choice(b_decide), Stop()
        elif pick < 0.7:
            state = rng.choice(choose)
            action = rng.choice(_ALL_MOVES)
            if action in state.legal_moves() or not _unambiguous(state, action):
                continue
        elif pick < 0.8:
            state = rng.choice(choose)
            action = rng.choice((Stop(), _random_roll(rng)))
        else:
            state = rng.choice(others)
            action = rng.choice((Stop(), _random_roll(rng), rng.choice(_ALL_MOVES)))
        if (state, action) in seen:
            continue
        try:
            state.apply(action)
        except IllegalAction as exc:
            seen.add((state, action))
            cases.append(
                _case(
                    f"illegal-{len(cases) + 1:05d}",
                    [exc.rule],
                    "apply",
                    state,
                    state=format_state(state),
                    action=format_action(action),
                    expect={"error": exc.rule},
                )
            )
    return cases


def perft_cases(pool: list[State], count: int) -> list[Case]:
    """Whole-roll counts of reachable states about to roll."""
    rng = random.Random("perft")
    rolling = sorted({s for s in pool if s.phase in (Phase.ROLL, Phase.DECIDE)}, key=format_state)
    chosen = rng.sample(rolling, min(count, len(rolling)))
    cases = []
    for index, state in enumerate(chosen, start=1):
        counts = perft(state)
        cases.append(
            _case(
                f"perft-{index:05d}",
                _table_rules(state),
                "perft",
                state,
                state=format_state(state),
                expect={"choices": counts.choices, "busts": counts.busts},
            )
        )
    return cases


def _table_rules(state: State) -> list[str]:
    """Return the rules that decide the legal moves of some roll of ``state``."""
    rules = _reading_rules(state)
    for key in _sorted_rolls():
        rules += roll_rules(state, tuple(int(d) for d in key))  # type: ignore[arg-type]
    return rules


def rolls_cases(pool: list[State], count: int) -> list[Case]:
    """For reachable states about to roll: the legal moves of every roll.

    The table is keyed by the sorted dice of the 126 distinct rolls; an ordered
    roll has the moves of its sorted dice (R4.2 does not depend on the order).
    """
    rng = random.Random("rolls")
    rolling = sorted(
        {s for s in pool if s.phase in (Phase.ROLL, Phase.DECIDE) and s.markers},
        key=format_state,
    )
    chosen = rng.sample(rolling, min(count, len(rolling)))
    keys = _sorted_rolls()
    cases = []
    for index, state in enumerate(chosen, start=1):
        table = {}
        for key in keys:
            after = state.apply(Roll(tuple(int(d) for d in key)))  # type: ignore[arg-type]
            table[key] = [format_action(m) for m in after.legal_moves()]
        cases.append(
            _case(
                f"rolls-{index:05d}",
                _table_rules(state),
                "rolls",
                state,
                state=format_state(state),
                expect={"table": table},
            )
        )
    return cases


def _setup_rules(opening: State) -> list[str]:
    """Return the rules that decide the opening state ``opening`` of a game."""
    rules = ["R2.1", "N3.1"]
    if opening.player != 0:
        rules.append("R2.2")
    default = Rules()
    if opening.rules.players != default.players:
        rules.append("R15.1")
    if opening.rules.columns_to_win != default.columns_to_win:
        rules.append("R15.2")
    if opening.rules.heights != default.heights:
        rules.append("R15.3")
    if len(format_state(opening).split(" ")) > 3:
        rules.append("N1.5")
    return rules


def game_cases(per_config: int) -> list[Case]:
    """Whole games: every action, with the state and event after it."""
    cases = []
    for name, rules in CONFIGS.items():
        for index in range(per_config):
            rng = random.Random(f"game-{name}-{index}")
            steps = list(play_game(rules, rng))
            first = steps[0][0]
            cases.append(
                _case(
                    f"game-{name}-{index + 1:02d}",
                    _setup_rules(first)
                    + [r for before, action, _, _ in steps for r in action_rules(before, action)],
                    "game",
                    first,
                    new={"rules": rules_to_json(rules), "first_player": first.player},
                    actions=[format_action(a) for _, a, _, _ in steps],
                    expect={
                        "start": format_state(first),
                        "states": [format_state(after) for _, _, after, _ in steps],
                        "events": [e.value for _, _, _, e in steps],
                    },
                )
            )
    return cases


# -- notation and JSON ---------------------------------------------------------


def _expect_state(parse: Callable[[], State]) -> dict[str, Any] | None:
    try:
        state = parse()
    except NotationError as exc:
        return {"error": exc.rule}
    return {"state": format_state(state), "json": state_to_json(state)}


def notation_cases(pool: list[State], count: int) -> list[Case]:
    """Return valid states and actions in text and JSON, with canonical text and JSON form."""
    rng = random.Random("notation")
    cases: list[Case] = []
    states = rng.sample(sorted(set(pool), key=format_state), count)
    for state in states:
        text = format_state(state)
        # Reading and writing the text and the JSON form: the grammar, the
        # options when there are any, and what the squares decide (won columns).
        rules = ["N1.1", "N1.2", "N1.3", "N1.4", "N3.1", *state_rules(state, 1)]
        if len(text.split(" ")) > 3:
            rules.append("N1.5")
        cases.append(
            _case(
                f"notation-{len(cases) + 1:05d}",
                rules,
                "state",
                state,
                text=text,
                expect={"state": text, "json": state_to_json(state)},
            )
        )
        as_json = state_to_json(state)
        if state.dice is not None:
            dice = list(state.dice)
            rng.shuffle(dice)
            as_json["dice"] = dice  # a reader sorts the dice (N3.1)
        if rng.random() < 0.5:
            del as_json["won"], as_json["winner"]
        cases.append(
            _case(
                f"notation-{len(cases) + 1:05d}",
                rules,
                "state",
                state,
                json=as_json,
                expect={"state": text, "json": state_to_json(state)},
            )
        )
    actions: list[Action] = [Stop(), *_ALL_MOVES]
    actions += [rng.choice(ORDERED_ROLLS) for _ in range(40)]
    for action in dict.fromkeys(actions):
        text = format_action(action)
        expect = {"action": text, "json": action_to_json(action)}
        # Both forms are read and both are written back.
        rules = ["N2.1", "N3.2"]
        if isinstance(action, Roll):
            rules.append("N2.2")
        elif isinstance(action, Move):
            rules.append("N2.3")
        for key, value in (("text", text), ("json", action_to_json(action))):
            cases.append(
                _case(
                    f"notation-{len(cases) + 1:05d}",
                    rules,
                    "action",
                    None,
                    **{key: value},
                    expect=expect,
                )
            )
    return cases


_STATE_CHARS = "0123456789:,/- rcdxhwABq"
_ACTION_CHARS = "0123456789r+stopS "


def _edit(text: str, rng: random.Random, alphabet: str) -> str:
    pos = rng.randrange(len(text) + 1)
    what = rng.random()
    if what < 0.35 and pos < len(text):
        return text[:pos] + text[pos + 1 :]
    if what < 0.7:
        return text[:pos] + rng.choice(alphabet) + text[pos:]
    if pos < len(text):
        return text[:pos] + rng.choice(alphabet) + text[pos + 1 :]
    return text + rng.choice(alphabet)


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
        case = _case(f"invalid-{len(cases) + 1:05d}", rules, kind, source)
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
        text = _edit(format_state(state), rng, _STATE_CHARS)
        try:
            parse_state(text)
        except NotationError as exc:
            if exc.rule.startswith("N"):
                add("state", [exc.rule], state, {"error": exc.rule, "at": exc.position}, text=text)
    target = len(cases) + count // 4
    while len(cases) < target:
        text = _edit(
            format_action(rng.choice([Stop(), *_ALL_MOVES, *ORDERED_ROLLS[:200]])),  # type: ignore[arg-type]
            rng,
            _ACTION_CHARS,
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
            data = state_to_json(state)
            spoil(data)
            try:
                state_from_json(data)
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
            action_from_json(data)
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
            new_game(rules_from_json(rules_json), first)
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
                _setup_rules(state),
                state,
                {"state": format_state(state)},
                new=_setup(rules_to_json(rules), first),
                note=name,
            )
    return cases


# -- explanations --------------------------------------------------------------------

#: The rule a dropped sum's reason cites, and the reason's key (spec/explain.md).
_REASON_OF_RULE = {
    "R9.2": "reason.won",
    "R8.1": "reason.top",
    "R5.3": "reason.no-marker",
    "R15.3": "reason.no-column",
}

#: The opening words of each ``where.*`` fragment, as a sum statement's text shows them.
_WHERE_WORDS = {
    "where.top": ", the top space",
    "where.above": ", above player ",
    "where.skip-one": ", skipping space ",
    "where.skip-many": ", skipping spaces ",
}


def explanation_features(explanation: Mapping[str, Any]) -> set[str]:
    """Return the template keys (spec/explain.md, X4.2) an explanation's JSON form uses.

    Statement kinds are read from ``kind``; a dropped sum's reason from the rule it
    cites; a ``where.*`` fragment from its words in a sum statement.

    >>> from cantstop import explain, parse_state
    >>> found = explanation_features(explain(parse_state('- - 0c1166 h2:1,7:1 w1')).to_json())
    >>> sorted(k for k in found if k.startswith(("where", "reason")))
    ['reason.no-column', 'reason.top', 'where.top']
    """
    found: set[str] = set()
    for statement in explanation["statements"]:
        kind = statement["kind"]
        found.add(kind)
        if kind in ("sum.dropped", "illegal.dropped"):
            found.update(_REASON_OF_RULE[r] for r in statement["rules"] if r in _REASON_OF_RULE)
        elif kind in ("sum.advance", "sum.place"):
            found.update(k for k, words in _WHERE_WORDS.items() if words in statement["text"])
    return found


def _explain_case(number: int, state: State, action: Action | None) -> Case:
    data = explain(state, action).to_json()
    rules = [r for statement in data["statements"] for r in statement["rules"]]
    fields: dict[str, Any] = {"state": format_state(state)}
    if action is not None:
        fields["action"] = format_action(action)
    case = _case(f"explain-{number:05d}", rules, "explain", state, **fields)
    case["needs"] = ["explain", *case.get("needs", [])]
    case["expect"] = {"explanation": data}
    return case


def _explain_choices(state: State, rng: random.Random) -> Iterator[Action | None]:
    """Yield the actions worth explaining in ``state``: none, a legal one and others."""
    yield None
    if state.phase is Phase.CHOOSE:
        yield rng.choice(state.legal_moves())
        yield rng.choice(_ALL_MOVES)
        yield rng.choice((Stop(), _random_roll(rng)))
    else:
        yield _random_roll(rng)
        yield Stop()
        yield rng.choice(_ALL_MOVES)


def explain_cases(pool: list[State], count: int) -> list[Case]:
    """Explanations (spec/explain.md) of the spec's example states and of reachable states.

    Every example state is explained alone and with its first action; then
    ``count`` random states of the pool, alone or with an action; then more
    actions on pool states until every sentence and fragment of the template
    table has appeared, or the pool has nothing more to show.
    """
    rng = random.Random("explain")
    chosen: dict[tuple[State, Action | None], None] = {}
    for ex in load_spec().examples:
        text = ex.fields.get("state")
        if text is None:
            continue
        state = parse_state(text)
        actions = (ex.fields.get("actions") or ex.fields.get("action") or "").split()
        chosen.setdefault((state, None))
        if actions:
            chosen.setdefault((state, parse_action(actions[0])))
    ordered = sorted(set(pool), key=format_state)
    target = len(chosen) + count
    while len(chosen) < target:
        state = rng.choice(ordered)
        choices = list(_explain_choices(state, rng))
        chosen.setdefault((state, rng.choice(choices)))
    cases = [_explain_case(n, s, a) for n, (s, a) in enumerate(chosen, start=1)]
    seen = set().union(*(explanation_features(c["expect"]["explanation"]) for c in cases))
    missing = set(TEMPLATES) - seen
    for state in rng.sample(ordered, len(ordered)):
        if not missing:
            break
        for action in [None, *(state.legal_moves() if state.dice else ()), *_ALL_MOVES, Stop()]:
            if (state, action) in chosen:
                continue
            case = _explain_case(len(cases) + 1, state, action)
            new = explanation_features(case["expect"]["explanation"]) & missing
            if new:
                chosen[(state, action)] = None
                cases.append(case)
                missing -= new
    return cases


def explain_error_cases(pool: list[State], count: int) -> list[Case]:
    """Explain requests whose state or action cannot be read, with the rule each breaks."""
    rng = random.Random("explain-errors")
    ordered = sorted(set(pool), key=format_state)
    cases: list[Case] = []
    seen: set[tuple[str, str | None]] = set()
    while len(cases) < count:
        state = rng.choice(ordered)
        text, action = format_state(state), None
        if len(cases) % 2 == 0:
            text = _edit(text, rng, _STATE_CHARS)
        else:
            action = _edit(format_action(rng.choice(_ALL_MOVES)), rng, _ACTION_CHARS)
        if (text, action) in seen:
            continue
        try:
            parse_state(text)
            if action is not None:
                parse_action(action)
        except NotationError as exc:
            seen.add((text, action))
            fields: dict[str, Any] = {"state": text}
            if action is not None:
                fields["action"] = action
            case = _case(f"explain-error-{len(cases) + 1:03d}", [exc.rule], "explain", None)
            case["needs"] = ["explain"]
            case.update(fields)
            case["expect"] = {"error": exc.rule}
            cases.append(case)
    return cases


# -- output ----------------------------------------------------------------------

#: The vector files: name, description, builder from the state pool.
FILES: tuple[tuple[str, str, Callable[[list[State]], list[Case]]], ...] = (
    (
        "spec-examples",
        "every example of the spec, with its own expectations",
        lambda pool: spec_examples(),
    ),
    (
        "moves",
        "legal moves of reachable states in the CHOOSE phase",
        lambda pool: moves_cases(pool, 3000),
    ),
    (
        "apply",
        "legal actions from reachable states: the state and event after each",
        lambda pool: apply_cases(pool, 3000),
    ),
    (
        "illegal",
        "illegal actions from reachable states, with the rule each breaks",
        lambda pool: illegal_cases(pool, 1800),
    ),
    ("perft", "whole-roll counts of reachable states", lambda pool: perft_cases(pool, 300)),
    (
        "rolls",
        "legal moves for every roll of reachable states",
        lambda pool: rolls_cases(pool, 100),
    ),
    ("games", "whole games: the state and event after every action", lambda pool: game_cases(8)),
    (
        "notation",
        "valid states and actions in text and JSON",
        lambda pool: notation_cases(pool, 400),
    ),
    (
        "invalid",
        "text, JSON and setups that must be rejected, with the rule each breaks",
        lambda pool: invalid_cases(pool, 1200),
    ),
    (
        "explain",
        "explanations of states and actions (spec/explain.md), for ports that declare explain",
        lambda pool: explain_cases(pool, 500) + explain_error_cases(pool, 20),
    ),
)


def render(name: str, description: str, cases: list[Case]) -> str:
    """Return the text of one vector file: a JSON object with one case per line."""
    head = {
        "suite": SUITE,
        "version": SUITE_VERSION,
        "file": name,
        "description": description,
        "count": len(cases),
    }
    text = json.dumps(head, separators=(",", ":"))[:-1] + ',"cases":[\n'
    text += ",\n".join(json.dumps(c, separators=(",", ":"), ensure_ascii=True) for c in cases)
    return text + "\n]}\n"


def generate() -> dict[str, str]:
    """Return every vector file's name and text."""
    pool = state_pool()
    return {f"{name}.json": render(name, desc, build(pool)) for name, desc, build in FILES}


def write(directory: Path | None = None) -> dict[str, int]:
    """Write every vector file to ``directory`` (default: :func:`vectors_dir`).

    Return the number of cases in each file.
    """
    directory = vectors_dir() if directory is None else directory
    directory.mkdir(parents=True, exist_ok=True)
    counts = {}
    for name, text in generate().items():
        (directory / name).write_text(text, encoding="utf-8", newline="\n")
        counts[name] = json.loads(text)["count"]
    return counts


def main(argv: Sequence[str] | None = None) -> int:
    """Regenerate the vectors; print the number of cases per file."""
    parser = argparse.ArgumentParser(prog="python -m cantstop.conformance.generate")
    parser.add_argument("--out", type=Path, help="directory to write (default: the spec's)")
    args = parser.parse_args(argv)
    counts = write(args.out)
    for name, count in counts.items():
        print(f"{name}: {count} cases")
    print(f"{sum(counts.values())} cases in total")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
