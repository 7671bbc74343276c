"""The JavaScript port of the finish-line race against the engine, through the port protocol.

One Node process runs ``finishline/ports/javascript/port.js`` for the whole
test, fed every request at once.  The requests come from random games of
every test configuration (many seeds): for every state its canonical text
and JSON form (``state``), for every CHOOSE state its legal actions in order
(``moves``), for every action taken the state and event after it
(``apply``), for some ROLL states the whole-roll counts (``perft``), and
illegal actions with the rule that refuses them.  The spec's notation
examples check the error rules and positions.  Every answer is compared with
the engine's.
"""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from dicekit.errors import RuleError
from dicekit.spec import load_game_spec
from finishline import (
    GAME,
    IllegalAction,
    NotationError,
    Phase,
    State,
    format_action,
    format_state,
    parse_action,
    perft,
    state_to_json,
)
from tests.finishline.games import CONFIGS, random_roll
from tests.finishline.test_notation import (
    ACTION_JSON_ERRORS,
    ACTION_TEXT_ERRORS,
    BASE,
    STATE_JSON_ERRORS,
    STATE_TEXT_ERRORS,
)

PORT = Path(GAME.info.spec_dir).parent / "ports" / "javascript" / "port.js"
NODE = shutil.which("node")

pytestmark = pytest.mark.skipif(NODE is None, reason="the JavaScript port needs Node.js")

#: Games per configuration.
SEEDS = 25


class Session:
    """Requests for the port, each with the answer the engine gives."""

    def __init__(self) -> None:
        self.requests: list[dict[str, Any]] = []
        self.expected: list[dict[str, Any]] = []

    def ask(self, request: dict[str, Any], expected: dict[str, Any]) -> None:
        """Add a request and the answer the engine expects of it."""
        self.requests.append({"seq": len(self.requests), **request})
        self.expected.append(expected)

    def run(self) -> list[dict[str, Any]]:
        """Send every request to one port process and return its answers, one per request."""
        assert NODE is not None
        lines = "".join(json.dumps(r) + "\n" for r in self.requests)
        done = subprocess.run(
            [NODE, str(PORT)], input=lines, capture_output=True, text=True, timeout=600
        )
        assert done.returncode == 0, done.stderr[-2000:]
        answers = [json.loads(line) for line in done.stdout.splitlines()]
        assert len(answers) == len(self.requests)
        return answers


def _refusal(error: RuleError, with_at: bool) -> dict[str, Any]:
    expected: dict[str, Any] = {"ok": False, "rule": error.rule}
    if with_at and isinstance(error, NotationError):
        expected["at"] = error.position
    return expected


def _play_games(session: Session) -> dict[str, int]:
    counts = {"states": 0, "choices": 0, "applies": 0, "illegal": 0, "perft": 0}
    for name, config in sorted(CONFIGS.items()):
        for seed in range(SEEDS):
            rng = random.Random(f"{name}:{seed}")
            state = GAME.new_game(config, rng.randrange(config.players))
            session.ask(
                {"op": "new", "config": GAME.config_to_json(config), "first_player": state.player},
                {"ok": True, "state": format_state(state)},
            )
            while True:
                text = format_state(state)
                session.ask(
                    {"op": "state", "text": text},
                    {"ok": True, "state": text, "json": state_to_json(state)},
                )
                counts["states"] += 1
                if state.phase is Phase.OVER:
                    break
                if state.phase is Phase.ROLL:
                    action: Any = random_roll(rng)
                    if rng.random() < 0.05:
                        counts["perft"] += 1
                        choices, forfeits = perft(state)
                        session.ask(
                            {"op": "perft", "state": text},
                            {"ok": True, "choices": choices, "forfeits": forfeits},
                        )
                else:
                    legal = state.legal_actions()
                    session.ask(
                        {"op": "moves", "state": text},
                        {"ok": True, "moves": [format_action(a) for a in legal]},
                    )
                    counts["choices"] += 1
                    _ask_illegal(session, state, rng, counts)
                    action = rng.choice(legal)
                step = state.step(action)
                session.ask(
                    {"op": "apply", "state": text, "action": format_action(action)},
                    {"ok": True, "state": format_state(step.state), "event": step.event.value},
                )
                counts["applies"] += 1
                state = step.state
    return counts


def _ask_illegal(
    session: Session, state: State, rng: random.Random, counts: dict[str, int]
) -> None:
    """Ask for a few actions the state refuses, drawn from plausible plays."""
    assert state.dice is not None
    mine = state.cells_of(state.player)
    candidates = [f"+{cell}" for cell in ("A1", "B3", "C5", "D6")]
    candidates += [f"{cell}^" for cell in mine] + [f"double:{cell}" for cell in mine]
    candidates += [f"{c}-{n}" for c in mine for n in c.neighbours]
    candidates += [f"+{letter}{die}" for die in state.dice for letter in "ABCD"]
    candidates += ["r12"]
    legal = {format_action(a) for a in state.legal_actions()}
    for text in rng.sample(candidates, min(4, len(candidates))):
        if text in legal:
            continue
        try:
            state.apply(parse_action(text))
        except IllegalAction as exc:
            session.ask(
                {"op": "apply", "state": format_state(state), "action": text},
                {"ok": False, "rule": exc.rule},
            )
            counts["illegal"] += 1


def _ask_examples(session: Session) -> int:
    """Ask the spec's notation and JSON examples: the rule and position, or the forms."""
    asked = 0
    for example in load_game_spec(GAME).examples:
        for key, op, field in (("notation", "state", "text"), ("action-text", "action", "text")):
            text = example.get(key)
            if text is None:
                continue
            parse = GAME.parse_state if op == "state" else GAME.parse_action
            with pytest.raises(NotationError) as info:
                parse(text)
            session.ask({"op": op, field: text}, _refusal(info.value, with_at=True))
            asked += 1
        json_text = example.get("json")
        if json_text is not None:
            data = json.loads(json_text)
            state = GAME.state_from_json(data)
            session.ask(
                {"op": "state", "json": data},
                {"ok": True, "state": format_state(state), "json": data},
            )
            asked += 1
        action_json = example.get("action-json")
        if action_json is not None:
            data = json.loads(action_json)
            action = GAME.action_from_json(data)
            session.ask(
                {"op": "action", "json": data},
                {"ok": True, "action": format_action(action), "json": data},
            )
            asked += 1
    return asked


def _ask_refusals(session: Session) -> int:
    """Ask the refusals written out in ``test_notation.py``: the rule, and for text the position."""
    asked = 0
    for text, rule, at in STATE_TEXT_ERRORS:
        if isinstance(text, str):
            session.ask({"op": "state", "text": text}, {"ok": False, "rule": rule, "at": at})
            asked += 1
    for text, rule, at in ACTION_TEXT_ERRORS:
        if isinstance(text, str):
            session.ask({"op": "action", "text": text}, {"ok": False, "rule": rule, "at": at})
            asked += 1
    for change, rule in STATE_JSON_ERRORS:
        data = {**BASE, **change}
        if "player" in change and change["player"] == 10**40:
            continue  # beyond I-JSON's numbers: the port refuses the line itself
        session.ask({"op": "state", "json": data}, {"ok": False, "rule": rule})
        asked += 1
    for action_data, rule in ACTION_JSON_ERRORS:
        session.ask({"op": "action", "json": action_data}, {"ok": False, "rule": rule})
        asked += 1
    return asked


def _compare(expected: dict[str, Any], answer: dict[str, Any]) -> bool:
    if expected["ok"]:
        return answer == {"seq": answer.get("seq"), **expected}
    error = answer.get("error") or {}
    got = {"ok": answer.get("ok"), "rule": error.get("rule")}
    if "at" in expected:
        got["at"] = error.get("at")
    return got == expected


def test_port_agrees_with_the_engine_on_random_games() -> None:
    """Every state, legal action list, transition, refusal and count agrees with the engine."""
    session = Session()
    counts = _play_games(session)
    counts["examples"] = _ask_examples(session)
    counts["refusals"] = _ask_refusals(session)
    answers = session.run()
    wrong = [
        (request, expected, answer)
        for request, expected, answer in zip(
            session.requests, session.expected, answers, strict=True
        )
        if not _compare(expected, answer) or answer.get("seq") != request["seq"]
    ]
    assert wrong == [], wrong[:3]
    assert counts["states"] > 10_000
    assert counts["choices"] > 4_000
    assert counts["illegal"] > 4_000
    assert counts["perft"] > 100
    assert counts["examples"] > 30
    assert counts["refusals"] > 90
