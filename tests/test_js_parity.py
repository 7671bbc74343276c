"""The JavaScript port against the engine: explanations and board pictures, byte for byte.

The "Try it" page runs the JavaScript port in the reader's browser, so what
it shows must be what the site and ``cantstop explain`` show. One Node
process answers a whole batch (to keep the run short), working while the
engine computes its side: for each state, the canonical JSON of its
explanation, alone and with chosen actions, and its SVG board. Each is
compared with ``cantstop.explain(...).to_json_text()`` and
``cantstop.svg.state_svg`` through its SHA-256; a difference is shown by
asking the port again for the whole text.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
import shutil
import subprocess
import tempfile
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

import pytest

from cantstop import Phase, State, explain, format_state, parse_action, parse_state
from cantstop.dice import pairings
from cantstop.explanation import TEMPLATES
from cantstop.spec import load_spec
from cantstop.svg import dice_svg, state_svg
from tests.extras import NODE_REASON
from tests.games import CONFIGS, random_game

ROOT = Path(__file__).resolve().parent.parent
PORT = ROOT / "examples" / "ports" / "javascript"
NODE = shutil.which("node")

pytestmark = pytest.mark.skipif(NODE is None, reason=NODE_REASON)

#: Reads one JSON request a line ({"state", "actions", "svg"} or {"dice"}) as the
#: lines come, and answers one JSON line each: the SHA-256 of every text it
#: makes, or with ``FULL`` set the texts themselves (to show a difference).
#: Its first line is the port's TEMPLATES.
SCRIPT = """
import { parseState, parseAction } from '%(port)s/notation.js';
import { explain, TEMPLATES } from '%(port)s/explain.js';
import { stateSvg, diceSvg } from '%(port)s/board.js';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import readline from 'node:readline';
const FULL = %(full)s;
const digest = (text) => (FULL ? text : createHash('sha256').update(text).digest('hex'));
const out = [JSON.stringify(TEMPLATES)];
function answer(q) {
  if (q.dice) return { svg: digest(diceSvg(q.dice)) };
  const state = parseState(q.state);
  const found = { explain: [digest(explain(state).json())] };
  for (const text of q.actions) {
    found.explain.push(digest(explain(state, parseAction(text)).json()));
  }
  if (q.svg) found.svg = digest(stateSvg(state));
  return found;
}
for await (const line of readline.createInterface({ input: process.stdin })) {
  try {
    out.push(JSON.stringify(answer(JSON.parse(line))));
  } catch (error) {
    out.push(JSON.stringify({ error: String(error && error.stack) }));
  }
}
fs.writeSync(1, out.join('\\n') + '\\n');
"""


class Batch:
    """One Node process running the JavaScript port over requests sent one at a time."""

    def __init__(self, sink: IO[str], *, full: bool) -> None:
        assert NODE is not None
        script = SCRIPT % {"port": PORT.as_uri(), "full": "true" if full else "false"}
        self.sink = sink
        self.process = subprocess.Popen(
            [NODE, "--input-type=module", "-e", script],
            stdin=subprocess.PIPE,
            stdout=sink,
            stderr=subprocess.PIPE,
            text=True,
        )

    def send(self, request: dict[str, object]) -> None:
        """Send one request; the port starts on it at once."""
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps(request) + "\n")

    def answers(self) -> tuple[object, list[dict[str, Any]]]:
        """Close the requests, wait for the port, and return its TEMPLATES and answers."""
        _, stderr = self.process.communicate(timeout=300)
        assert self.process.returncode == 0, stderr[-2000:]
        self.sink.seek(0)
        first, *rest = self.sink.read().splitlines()
        return json.loads(first), [json.loads(line) for line in rest]


@contextmanager
def batch(*, full: bool = False) -> Iterator[Batch]:
    """Start a :class:`Batch`, and stop its process if the caller fails."""
    with tempfile.TemporaryFile("w+", encoding="utf-8") as sink:
        running = Batch(sink, full=full)
        try:
            yield running
        finally:
            if running.process.poll() is None:
                running.process.kill()
                running.process.communicate()


def sha256(text: str) -> str:
    """Return the hexadecimal SHA-256 of ``text`` in UTF-8, as the port's batch writes it."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def first_difference(got: str, expected: str) -> str:
    """Describe where ``got`` first differs from ``expected``, with some context."""
    pairs = zip(got, expected, strict=False)
    at = next((i for i, (a, b) in enumerate(pairs) if a != b), min(len(got), len(expected)))
    return (
        f"first difference at character {at}:\n"
        f"  got:      {got[max(0, at - 80) : at + 80]!r}\n"
        f"  expected: {expected[max(0, at - 80) : at + 80]!r}"
    )


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
    """Every ``every``-th state of ``games`` random games, and the end of every fourth game.

    The games are spread over the test configurations; the offset of the
    states taken moves with the seed, so that every stage of a game is drawn.
    """
    names = sorted(CONFIGS)
    for seed in range(games):
        state = None
        for index, state in enumerate(random_game(CONFIGS[names[seed % len(names)]], seed)):
            if index % every == seed % every:
                yield state
        if seed % 4 == 0 and state is not None:
            yield state


def question_positions() -> list[tuple[str, str | None]]:
    """Return the positions of the questions page, with their actions."""
    text = (ROOT / "docs" / "questions.md").read_text(encoding="utf-8")
    found = []
    for block in re.findall(r"```\{cantstop-explain\} ([^\n]+)\n(.*?)```", text, re.DOTALL):
        state, options = block
        action = re.search(r"^:action: (\S+)", options, re.MULTILINE)
        found.append((state.strip(), action.group(1) if action else None))
    return found


def spec_states() -> list[str]:
    """Return every state of the spec's examples, before and after each of their legal actions."""
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


def expected_texts(request: dict[str, object], state: State | None = None) -> list[str]:
    """Return the engine's texts for one request, in the order of the port's answer.

    ``state`` is the request's state when the caller has it already.
    """
    if "dice" in request:
        return [dice_svg(request["dice"])]  # type: ignore[arg-type]
    if state is None:
        state = parse_state(str(request["state"]))
    actions = [None, *(parse_action(str(a)) for a in request["actions"])]  # type: ignore[attr-defined]
    texts = [explain(state, action).to_json_text() for action in actions]
    if request.get("svg"):
        texts.append(state_svg(state))
    return texts


def answer_texts(answer: dict[str, Any]) -> list[str]:
    """Return the port's texts (or their digests) of one answer, in the order of expected_texts."""
    return [*answer.get("explain", []), *([answer["svg"]] if "svg" in answer else [])]


def show_difference(request: dict[str, object], index: int) -> str:
    """Ask the port again for one request, in full, and say how its ``index``-th text differs."""
    with batch(full=True) as again:
        again.send(request)
        _, (answer,) = again.answers()
    expected = expected_texts(request)
    if "dice" in request:
        what = "dice_svg"
    elif request.get("svg") and index == len(expected) - 1:
        what = "state_svg"
    else:
        what = f"explain with action {[None, *request['actions']][index]}"  # type: ignore[misc]
    return f"{what} of {request}: {first_difference(answer_texts(answer)[index], expected[index])}"


def compare(
    requests: Iterable[dict[str, object]], states: Iterable[State | None] = ()
) -> tuple[int, int]:
    """Compare the port's answers to ``requests`` with the engine's.

    The requests go to the port as they are made (the port works meanwhile);
    ``states`` may give the state of each request, which saves reading it
    again. Return how many explanations and how many pictures were compared.
    """
    with batch() as running:
        sent = []
        for request in requests:
            running.send(request)
            sent.append(request)
        known = list(states) or [None] * len(sent)
        expected = [
            [sha256(text) for text in expected_texts(request, state)]
            for request, state in zip(sent, known, strict=True)
        ]
        templates, answers = running.answers()
    assert templates == {key: [text, list(rules)] for key, (text, rules) in TEMPLATES.items()}
    explanations = pictures = 0
    for request, answer, digests in zip(sent, answers, expected, strict=True):
        assert "error" not in answer, f"{request}: {answer['error']}"
        got = answer_texts(answer)
        assert len(got) == len(digests), request
        for index, (mine, theirs) in enumerate(zip(got, digests, strict=True)):
            if mine != theirs:
                pytest.fail(show_difference(request, index))
        explanations += len(answer.get("explain", []))
        pictures += "svg" in answer
    return explanations, pictures


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
    rolls = [(3, 4, 5, 5), (6, 1, 2, 5), (1, 1, 1, 1)]
    requests += [{"dice": list(roll)} for roll in rolls]
    assert len(question_positions()) >= 30
    explanations, pictures = compare(requests)
    assert explanations > 1000
    assert pictures == len(requests)


def test_random_states_of_random_games_explain_and_draw_alike() -> None:
    """Over 3,000 states of 800 random games in every test configuration (1-4 players, A, B, ...).

    Each state is explained alone and with three of its actions, and drawn.
    Every 50th state of a game is taken (at an offset moving with the seed),
    so as many states are compared as from every 200th of four times the
    games, at a quarter of the cost of playing them.
    """
    rng = random.Random(1414)
    states: list[State] = []

    def requests() -> Iterator[dict[str, object]]:
        for state in states_of_games(800, 50):
            states.append(state)
            actions = actions_for(state, rng)
            chosen = rng.sample(actions, min(3, len(actions)))
            yield {"state": format_state(state), "actions": chosen, "svg": True}

    explanations, pictures = compare(requests(), states)
    assert {state.phase for state in states} == set(Phase)
    assert pictures > 3000
    assert explanations > 4 * pictures - pictures // 10


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
    assert compare(requests) == (len(texts), len(texts))


#: The modules a browser page loads: the rules, the notation, the explanations, the board.
BROWSER_MODULES = ("rules.js", "notation.js", "explain.js", "board.js")


@pytest.mark.parametrize("name", BROWSER_MODULES)
def test_the_browser_modules_use_nothing_of_node(name: str) -> None:
    """A page's modules import only each other, one statement a line, and use no Node global.

    The site's build bundles these modules for ``file://`` by reading exactly
    these import and export forms.
    """
    text = (PORT / name).read_text(encoding="utf-8")
    imports = re.findall(r"^import .*$", text, re.MULTILINE)
    assert imports or name == "rules.js"
    for line in imports:
        found = re.fullmatch(r"import (\{[^}]*\}|\* as \w+) from '\./([a-z]+\.js)';", line)
        assert found, line
        assert found.group(2) in BROWSER_MODULES, line
    assert re.findall(r"^export .*$", text, re.MULTILINE) != []
    code = re.sub(r"//[^\n]*", "", text)
    for name_used in ("process", "Buffer", "require", "__dirname", "__filename", "global"):
        assert not re.search(rf"\b{name_used}\b", code), name_used
    assert "node:" not in code
