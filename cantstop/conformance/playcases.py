"""The generated cases about play: spec examples, legal moves, actions, counts and whole games.

Each function returns the cases of one vector file (``spec/protocol.md``,
"The vectors"), drawn from the state pool of :mod:`~cantstop.conformance.pool`
and tagged with the rules that decide each answer (:mod:`~cantstop.tags`).
"""

from __future__ import annotations

import json
import random
from typing import Any

from cantstop.actions import Action, Move, Roll, Stop
from cantstop.config import Variant
from cantstop.conformance.pool import (
    ALL_MOVES,
    CONFIGS,
    make_case,
    play_game,
    random_roll,
    reading_rules,
    setup_rules,
    sorted_rolls,
)
from cantstop.dice import pairings
from cantstop.errors import IllegalAction
from cantstop.jsonform import rules_to_json
from cantstop.notation import format_action, format_state, parse_state
from cantstop.spec import Example, load_spec, parse_setup
from cantstop.state import Phase, State, perft
from cantstop.tags import action_rules, roll_rules
from dicekit.conformance.families import example_outcome
from dicekit.conformance.suite import Case

__all__ = [
    "apply_cases",
    "game_cases",
    "illegal_cases",
    "moves_cases",
    "perft_cases",
    "rolls_cases",
    "spec_examples",
]


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
    expect.update(example_outcome(f))
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
    return make_case(f"spec-{ex.id}", ex.rules, "example", state, **fields, expect=expect)


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
        state = base.apply(random_roll(rng))
        if state.phase is not Phase.CHOOSE or state in seen:
            continue
        seen.add(state)
        assert state.dice is not None
        cases.append(
            make_case(
                f"moves-{len(cases) + 1:05d}",
                roll_rules(state, state.dice) + reading_rules(state),
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
            action = random_roll(rng)
        if (state, action) in seen:
            continue
        try:
            step = state.step(action)
        except IllegalAction:
            continue
        seen.add((state, action))
        cases.append(
            make_case(
                f"apply-{len(cases) + 1:05d}",
                action_rules(state, action) + reading_rules(state),
                "apply",
                state,
                state=format_state(state),
                action=format_action(action),
                expect={"state": format_state(step.state), "event": step.event.value},
            )
        )
    return cases


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
            action = rng.choice(ALL_MOVES)
            if action in state.legal_moves() or not _unambiguous(state, action):
                continue
        elif pick < 0.8:
            state = rng.choice(choose)
            action = rng.choice((Stop(), random_roll(rng)))
        else:
            state = rng.choice(others)
            action = rng.choice((Stop(), random_roll(rng), rng.choice(ALL_MOVES)))
        if (state, action) in seen:
            continue
        try:
            state.apply(action)
        except IllegalAction as exc:
            seen.add((state, action))
            cases.append(
                make_case(
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
            make_case(
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
    rules = reading_rules(state)
    for key in sorted_rolls():
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
    keys = sorted_rolls()
    cases = []
    for index, state in enumerate(chosen, start=1):
        table = {}
        for key in keys:
            after = state.apply(Roll(tuple(int(d) for d in key)))  # type: ignore[arg-type]
            table[key] = [format_action(m) for m in after.legal_moves()]
        cases.append(
            make_case(
                f"rolls-{index:05d}",
                _table_rules(state),
                "rolls",
                state,
                state=format_state(state),
                expect={"table": table},
            )
        )
    return cases


def game_cases(per_config: int) -> list[Case]:
    """Whole games: every action, with the state and event after it."""
    cases = []
    for name, rules in CONFIGS.items():
        for index in range(per_config):
            rng = random.Random(f"game-{name}-{index}")
            steps = list(play_game(rules, rng))
            first = steps[0][0]
            cases.append(
                make_case(
                    f"game-{name}-{index + 1:02d}",
                    setup_rules(first)
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
