"""The JavaScript port of Off to the Tower against the engine, through the port protocol.

Random games from many seeds and configurations, on both shipped boards and
on embedded ones, are played by the engine; every state they pass through is
sent to one Node process running ``tower/ports/javascript/port.js``, which
reads it (``state``), lists its legal moves (``moves``), and applies the
action the game took and an illegal one (``apply``).  Texts with one
character changed test the errors: the port must refuse exactly what the
engine refuses, under the same rule and pointing at the same character.
"""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from dicekit.boarddata import change
from tests.tower.test_engine import TINY_STATE
from tower import (
    GameError,
    IllegalAction,
    Move,
    NotationError,
    Phase,
    State,
    Throw,
    action_to_json,
    board_from_json,
    board_to_json,
    format_action,
    format_state,
    load_board,
    make_config,
    parse_state,
    perft,
    state_to_json,
)
from tower.config import Config
from tower.strategies import random_game

PORT = Path(__file__).resolve().parents[2] / "tower" / "ports" / "javascript" / "port.js"
NODE = shutil.which("node")

pytestmark = pytest.mark.skipif(NODE is None, reason="the JavaScript port needs Node.js")


def configurations() -> list[Config]:
    """Return the configurations the games are played in: both boards, every player count."""
    renamed = board_from_json(change(board_to_json(load_board("small")), 'title="Renamed"'))
    tiny = parse_state(TINY_STATE).config.board
    return [
        make_config("ours", 2),
        make_config("ours", 3),
        make_config("ours", 4),
        make_config("ours", 2, ("Y", "G")),
        make_config("small", 2),
        make_config("small", 3, ("G", "R", "Y")),
        make_config("small", 4, ("Y", "B", "G", "R")),
        make_config(renamed, 3),
        make_config(tiny, 2),
    ]


class Requests:
    """The requests for the port, each with the answer the engine expects."""

    def __init__(self) -> None:
        self.lines: list[dict[str, Any]] = []
        self.expected: list[dict[str, Any]] = []

    def add(self, request: dict[str, Any], expected: dict[str, Any]) -> None:
        """Queue ``request``; ``expected`` is the answer without its seq."""
        self.lines.append({"seq": len(self.lines), **request})
        self.expected.append(expected)


def _refusal(error: GameError) -> dict[str, Any]:
    found: dict[str, Any] = {"ok": False, "rule": getattr(error, "rule", None)}
    if isinstance(error, NotationError):
        found["at"] = error.position
    return found


def _apply_answer(state: State, action: Throw | Move) -> dict[str, Any]:
    try:
        step = state.step(action)
    except IllegalAction as error:
        return _refusal(error)
    return {"ok": True, "state": format_state(step.state), "event": step.event.value}


def _state_answer(text: str) -> dict[str, Any]:
    try:
        state = parse_state(text)
    except NotationError as error:
        return _refusal(error)
    return {"ok": True, "state": format_state(state), "json": state_to_json(state)}


def _mutations(text: str, rng: random.Random, count: int) -> list[str]:
    """Return texts with one character of ``text`` changed, dropped or doubled."""
    alphabet = "RBGYQ0123456789g,/-t cx@"
    out = []
    for _ in range(count):
        i = rng.randrange(len(text))
        kind = rng.randrange(3)
        if kind == 0:
            out.append(text[:i] + rng.choice(alphabet) + text[i + 1 :])
        elif kind == 1:
            out.append(text[:i] + text[i + 1 :])
        else:
            out.append(text[:i] + text[i] + text[i:])
    return out


def build(seeds: range) -> tuple[Requests, dict[str, int]]:
    """Return the requests of every game, and counts of what they cover."""
    requests = Requests()
    counts = {"games": 0, "states": 0, "mutated texts": 0}
    rng = random.Random(1)
    for config in configurations():
        for seed in seeds:
            states = random_game(config, seed, 400, seed)
            counts["games"] += 1
            for state, after in zip(states, [*states[1:], None], strict=True):
                counts["states"] += 1
                text = format_state(state)
                requests.add({"op": "state", "text": text}, _state_answer(text))
                moves = [format_action(m) for m in state.legal_moves()]
                requests.add({"op": "moves", "state": text}, {"ok": True, "moves": moves})
                taken = _taken(state, after)
                if taken is not None:
                    requests.add(
                        {"op": "apply", "state": text, "action": format_action(taken)},
                        _apply_answer(state, taken),
                    )
                wrong: Throw | Move = (
                    Move(rng.randrange(0, 12), rng.randint(1, 6))
                    if rng.random() < 0.8
                    else Throw((rng.randint(1, 6), rng.randint(1, 6)))
                )
                requests.add(
                    {"op": "apply", "state": text, "action": format_action(wrong)},
                    _apply_answer(state, wrong),
                )
                if state.phase is Phase.THROW and rng.random() < 0.1:
                    counts_ = perft(state)
                    requests.add(
                        {"op": "perft", "state": text},
                        {"ok": True, "choices": counts_.choices, "forfeits": counts_.forfeits},
                    )
                if rng.random() < 0.2:
                    for mutated in _mutations(text, rng, 3):
                        counts["mutated texts"] += 1
                        requests.add({"op": "state", "text": mutated}, _state_answer(mutated))
    return requests, counts


def _taken(state: State, after: State | None) -> Throw | Move | None:
    """Return an action that takes ``state`` to ``after``: a throw, or the move played."""
    if after is None or state.phase is Phase.OVER:
        return None
    if state.phase is Phase.THROW:
        for a in range(1, 7):
            for b in range(1, 7):
                if state.apply(Throw((a, b))) == after:
                    return Throw((b, a))
        raise AssertionError("no throw leads there")
    return next(m for m in state.legal_moves() if state.apply(m) == after)


def ask(requests: Requests) -> list[dict[str, Any]]:
    """Send every request to one port process and return its answers."""
    assert NODE is not None
    lines = "".join(json.dumps(r) + "\n" for r in requests.lines)
    done = subprocess.run(
        [NODE, str(PORT)], input=lines, capture_output=True, text=True, timeout=600, check=False
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return [json.loads(line) for line in done.stdout.splitlines()]


def _comparable(answer: dict[str, Any]) -> dict[str, Any]:
    if answer.get("ok"):
        return {k: v for k, v in answer.items() if k != "seq"}
    error = answer["error"]
    found = {"ok": False, "rule": error["rule"]}
    if "at" in error:
        found["at"] = error["at"]
    return found


def test_the_port_agrees_with_the_engine_on_random_games() -> None:
    """Every state, legal move list, transition and refusal of random games is the engine's."""
    requests, counts = build(range(25))
    answers = ask(requests)
    assert len(answers) == len(requests.lines)
    differences = []
    for request, expected, answer in zip(requests.lines, requests.expected, answers, strict=True):
        assert answer["seq"] == request["seq"]
        got = _comparable(answer)
        if expected.get("ok") is False and "at" not in expected:
            got.pop("at", None)
        if got != expected:
            differences.append((request, expected, got))
    assert differences == [], differences[:3]
    assert counts["states"] > 10_000
    assert counts["mutated texts"] > 1_000


def test_the_port_answers_the_protocol() -> None:
    """hello, new, state and action by JSON, quit; bad lines are answered, not crashed on."""
    lines = [
        {"seq": 1, "op": "hello"},
        {"seq": 2, "op": "new", "rules": {"board": "small", "players": 4}, "first_player": 3},
        {"seq": 3, "op": "new", "rules": {"players": 5}},
        {"seq": 4, "op": "action", "json": action_to_json(Move(12, 3))},
        {"seq": 5, "op": "action", "text": "t53"},
        {"seq": 6, "op": "state", "json": state_to_json(parse_state("R12/B0,5 R 1c35 @ours"))},
        {"seq": 7, "op": "new", "rules": {"players": 2.0}},
        {"seq": 8, "op": "jump"},
        {"seq": 9, "op": "quit"},
    ]
    text = "".join(json.dumps(line) + "\n" for line in lines)
    text = text.replace('{"seq": 8', '\n{"seq": 8')  # an empty line before the unknown op
    assert NODE is not None
    done = subprocess.run(
        [NODE, str(PORT)], input=text, capture_output=True, text=True, check=False
    )
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert done.returncode == 0
    assert answers[0]["protocol"] == 1
    assert answers[0]["supports"]["players"] == [2, 3, 4]
    assert answers[1]["state"] == "R0/B0/G0/Y0 - 3t @small"
    assert answers[2]["error"]["rule"] == "R12.1"
    assert answers[3]["action"] == "12+3"
    assert answers[4]["json"] == {"type": "throw", "dice": [5, 3]}
    assert answers[5]["state"] == "R12/B0,5 R 1c35 @ours"
    assert answers[6]["error"]["rule"] == "N3.1"
    assert answers[7]["error"]["message"].startswith("malformed request: an empty line")
    assert answers[8]["error"]["rule"] is None
    assert answers[9] == {"seq": 9, "ok": True}
