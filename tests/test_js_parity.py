"""The JavaScript port against the engine: explanations and board pictures, byte for byte.

The "Try it" page runs the JavaScript port in the reader's browser, so what
it shows must be what the site and ``cantstop explain`` show. One Node
process answers a whole batch (to keep the run short): for each state, the
canonical JSON of its explanation, alone and with chosen actions, and its
SVG board; each is compared with ``cantstop.explain(...).to_json_text()``
and ``cantstop.svg.state_svg`` as strings.
"""

from __future__ import annotations

import json
import random
import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from cantstop import Phase, State, explain, format_action, format_state, parse_action, parse_state
from cantstop.dice import pairings
from cantstop.explain import TEMPLATES
from cantstop.spec import load_spec
from cantstop.svg import dice_svg, state_svg
from tests.games import CONFIGS, random_game

ROOT = Path(__file__).resolve().parent.parent
PORT = ROOT / "examples" / "ports" / "javascript"
NODE = shutil.which("node")

pytestmark = pytest.mark.skipif(NODE is None, reason="the JavaScript port needs Node.js")

#: Reads one JSON request a line ({"state", "actions", "svg"}), answers one JSON line each.
BATCH = """
import { parseState, parseAction } from '%(port)s/notation.js';
import { explain, TEMPLATES } from '%(port)s/explain.js';
import { stateSvg, diceSvg } from '%(port)s/board.js';
import fs from 'node:fs';
const lines = fs.readFileSync(0, 'utf8').split('\\n').filter(Boolean);
const out = [JSON.stringify(TEMPLATES)];
for (const line of lines) {
  const q = JSON.parse(line);
  if (q.dice) { out.push(JSON.stringify({ svg: diceSvg(q.dice) })); continue; }
  const state = parseState(q.state);
  const answer = { explain: [explain(state).json()] };
  for (const text of q.actions) answer.explain.push(explain(state, parseAction(text)).json());
  if (q.svg) answer.svg = stateSvg(state);
  out.push(JSON.stringify(answer));
}
process.stdout.write(out.join('\\n') + '\\n');
"""


def run_batch(requests: list[dict[str, object]]) -> tuple[object, list[dict[str, object]]]:
    """Run the JavaScript port over ``requests`` in one Node process; return its answers."""
    assert NODE is not None
    run = subprocess.run(
        [NODE, "--input-type=module", "-e", BATCH % {"port": PORT.as_uri()}],
        input="".join(json.dumps(q) + "\n" for q in requests),
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    first, *rest = run.stdout.splitlines()
    return json.loads(first), [json.loads(line) for line in rest]


def actions_for(state: State, rng: random.Random) -> list[str]:
    """Actions worth explaining in ``state``: every move the pairings suggest, and others."""
    if state.phase is Phase.CHOOSE:
        assert state.dice is not None
        found = {"stop", "r" + "".join(str(d) for d in state.dice)}
        for x, y in pairings(state.dice):
            found.update({f"{x}+{y}", str(x), str(y), f"{x}+{x}"})
        low, high = sorted((rng.randint(2, 12), rng.randint(2, 12)))
        found.add(f"{low}+{high}")
        return sorted(found)
    roll = "r" + "".join(str(rng.randint(1, 6)) for _ in range(4))
    return [roll, "stop", "7"]


def states_of_games(games: int, every: int) -> Iterator[State]:
    """Every ``every``-th state of ``games`` random games, spread over the test configurations."""
    names = sorted(CONFIGS)
    for seed in range(games):
        for index, state in enumerate(random_game(CONFIGS[names[seed % len(names)]], seed)):
            if index % every == seed % every:
                yield state


def question_positions() -> list[tuple[str, str | None]]:
    """The positions of the questions page, with their actions."""
    text = (ROOT / "docs" / "questions.md").read_text(encoding="utf-8")
    found = []
    for block in re.findall(r"```\{cantstop-explain\} ([^\n]+)\n(.*?)```", text, re.DOTALL):
        state, options = block
        action = re.search(r"^:action: (\S+)", options, re.MULTILINE)
        found.append((state.strip(), action.group(1) if action else None))
    return found


def spec_states() -> list[str]:
    """Every state of the spec's examples, before and after each of their legal actions."""
    found: list[str] = []
    for example in load_spec().examples:
        text = example.get("state")
        if text is None:
            continue
        state = parse_state(text)
        found.append(format_state(state))
        for action in (example.get("actions") or example.get("action") or "").split():
            try:
                state = state.apply(parse_action(action))
            except ValueError:
                break
            found.append(format_state(state))
    return list(dict.fromkeys(found))


def compare(requests: list[dict[str, object]]) -> int:
    """Compare the port's answers to ``requests`` with the engine's; return the count compared."""
    templates, answers = run_batch(requests)
    assert templates == {key: [text, list(rules)] for key, (text, rules) in TEMPLATES.items()}
    compared = 0
    for request, answer in zip(requests, answers, strict=True):
        if "dice" in request:
            assert answer["svg"] == dice_svg(request["dice"]), request  # type: ignore[arg-type]
            compared += 1
            continue
        state = parse_state(str(request["state"]))
        actions = [None, *(parse_action(a) for a in request["actions"])]  # type: ignore[attr-defined]
        for action, got in zip(actions, answer["explain"], strict=True):  # type: ignore[call-overload]
            expected = explain(state, action).to_json_text()
            shown = format_action(action) if action is not None else "(none)"
            assert got == expected, f"explain {request['state']!r} {shown}"
            compared += 1
        if request.get("svg"):
            assert answer["svg"] == state_svg(state), f"state_svg {request['state']!r}"
            compared += 1
    return compared


def test_spec_examples_and_questions_explain_and_draw_alike() -> None:
    """Every spec example state and every questions-page position, with actions."""
    rng = random.Random(14)
    requests: list[dict[str, object]] = []
    for text in spec_states():
        state = parse_state(text)
        requests.append({"state": text, "actions": actions_for(state, rng), "svg": True})
    for text, action in question_positions():
        state = parse_state(text)
        actions = actions_for(state, rng) + ([action] if action else [])
        requests.append({"state": text, "actions": sorted(set(actions)), "svg": True})
    requests += [
        {"dice": [a, b, c, d]} for a, b, c, d in [(3, 4, 5, 5), (6, 1, 2, 5), (1, 1, 1, 1)]
    ]
    assert len(question_positions()) >= 30
    assert compare(requests) > 1000


def test_random_states_of_several_thousand_games_explain_and_draw_alike() -> None:
    """States from 3,200 random games of every test configuration (1-4 players, A, B, custom)."""
    rng = random.Random(1414)
    requests: list[dict[str, object]] = []
    for state in states_of_games(3200, 40):
        requests.append(
            {"state": format_state(state), "actions": actions_for(state, rng), "svg": True}
        )
    assert len(requests) > 3000
    compare(requests)


def test_boards_whose_coordinates_round_at_an_exact_half() -> None:
    """Custom boards whose spaces are 18.75 or 9.375 high put coordinates on exact halves.

    Python writes 6.375 as 6.38 and 2.625 as 2.62 (round half to even on the
    exact value); JavaScript's toFixed would write 2.63.
    """
    texts = [
        "2:1/- 7:3 0d h2:16,7:3 w1",
        "2:3/7:1 2:5 1d h2:16,7:32 w1",
        "2:5/2:3 - 0r h2:8,7:40 w1",
        "3:2/- 3:7 0d h3:24 w1",
    ]
    pictures = [state_svg(parse_state(text)) for text in texts]
    assert any(re.search(r'="\d+\.(12|62)"', picture) for picture in pictures)
    requests: list[dict[str, object]] = [{"state": t, "actions": [], "svg": True} for t in texts]
    assert compare(requests) == 2 * len(texts)
