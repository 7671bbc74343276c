"""The examples of ``tower/spec/`` run against the engine, and the spec is complete.

The layer's spec reader (``dicekit/spec.py``) does not exist yet, so this
file holds the smallest reader that runs the examples: rule headings
(``### R5.3 Title``) and ``example`` blocks of ``key: value`` lines, as
``tower/spec/README.md`` describes them.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from tower import (
    GAME,
    Action,
    IllegalAction,
    InvalidConfig,
    NotationError,
    State,
    board_from_json,
    board_to_json,
    format_action,
    format_state,
    load_board,
    make_config,
    new_game,
    parse_action,
    parse_state,
    perft,
)
from tower.neutral.boarddata import change

SPEC = Path(GAME.info.spec_dir)
KEYS = {
    "id", "title", "rules", "state", "action", "actions", "event", "events", "result", "moves",
    "error", "perft", "json", "action-json", "setup", "notation", "action-text", "at", "board",
    "board-change", "note",
}  # fmt: skip
_HEADING = re.compile(r"^#{2,4} ([RN]\d+(?:\.\d+)?) (.+?)\s*$")


@dataclass(frozen=True)
class Example:
    """One example block: its fields, and the rule under whose heading it stands."""

    fields: dict[str, str]
    where: str
    section: str | None

    def get(self, key: str) -> str | None:
        """Return the value of ``key``, or ``None``."""
        return self.fields.get(key)


def read_spec() -> tuple[dict[str, str], list[Example]]:
    """Return the rules (id to text) and the examples of the spec, in file order."""
    rules: dict[str, str] = {}
    examples: list[Example] = []
    files = sorted((SPEC / "rules").glob("*.md")) + sorted(
        p for p in SPEC.glob("*.md") if p.name != "README.md"
    )
    for path in files:
        lines = path.read_text(encoding="utf-8").splitlines()
        current: str | None = None
        i = 0
        while i < len(lines):
            heading = _HEADING.match(lines[i])
            if heading:
                current = heading.group(1)
                assert current not in rules, f"{path.name}:{i + 1}: {current} twice"
                rules[current] = ""
            elif lines[i] == "```example":
                start = i + 1
                fields: dict[str, str] = {}
                i += 1
                while lines[i] != "```":
                    key, sep, value = lines[i].partition(": ")
                    assert sep, f"{path.name}:{i + 1}: not key: value"
                    assert key in KEYS, f"{path.name}:{i + 1}: unknown key {key}"
                    assert key not in fields, f"{path.name}:{i + 1}: {key} twice"
                    fields[key] = value
                    i += 1
                examples.append(Example(fields, f"{path.name}:{start}", current))
            elif current is not None:
                rules[current] += lines[i] + "\n"
            i += 1
    return rules, examples


RULES, EXAMPLES = read_spec()


def _setup(words: str) -> None:
    values = dict(word.split("=", 1) for word in words.split())
    first = values.pop("first_player", "0")
    colours = tuple(values["colours"].split(",")) if "colours" in values else None
    config = make_config(values.get("board", "ours"), int(values.get("players", "2")), colours)
    new_game(config, int(first))


def run(example: Example) -> None:
    """Check one example against the engine; an assertion names what differs."""
    error = example.get("error")
    if example.get("board-change") is not None:
        data = change(
            board_to_json(load_board(example.get("board") or "")), example.get("board-change") or ""
        )
        with pytest.raises(InvalidConfig) as caught:
            board_from_json(data)
        assert caught.value.rule == error, caught.value
        return
    if example.get("setup") is not None:
        with pytest.raises(InvalidConfig) as caught_config:
            _setup(example.get("setup") or "")
        assert caught_config.value.rule == error, caught_config.value
        return
    for key, parse in (("notation", parse_state), ("action-text", parse_action)):
        text = example.get(key)
        if text is not None:
            with pytest.raises(NotationError) as caught_text:
                parse(text)
            assert caught_text.value.rule == error, caught_text.value
            if example.get("at") is not None:
                assert caught_text.value.position == int(example.get("at") or ""), caught_text.value
            return
    text = example.get("state")
    assert text is not None, "an example needs a state, a setup, a notation or a board-change"
    state = parse_state(text)
    assert format_state(state) == text, "the state is not in canonical form"
    actions = [
        parse_action(a) for a in (example.get("actions") or example.get("action") or "").split()
    ]
    events: list[str] = []
    for index, action in enumerate(actions):
        if error is not None and index == len(actions) - 1:
            with pytest.raises(IllegalAction) as caught_action:
                state.apply(action)
            assert caught_action.value.rule == error, caught_action.value
            return
        step = state.step(action)
        state, events = step.state, [*events, step.event.value]
    assert error is None, f"expected an error under {error}"
    wanted = example.get("events") or example.get("event")
    if wanted is not None:
        got = events if example.get("events") else events[-1:]
        assert " ".join(got) == wanted
    if example.get("result") is not None:
        assert format_state(state) == example.get("result")
    if example.get("moves") is not None:
        assert (" ".join(map(format_action, state.legal_moves())) or "none") == example.get("moves")
    _check_forms(example, state, actions)


def _check_forms(example: Example, state: State, actions: list[Action]) -> None:
    if example.get("json") is not None:
        data = json.loads(example.get("json") or "")
        assert GAME.state_to_json(state) == data
        assert GAME.state_from_json(data) == state
    if example.get("action-json") is not None:
        data = json.loads(example.get("action-json") or "")
        assert len(actions) == 1
        assert GAME.action_to_json(actions[0]) == data
        assert GAME.action_from_json(data) == actions[0]
    if example.get("perft") is not None:
        counts = perft(state)
        assert f"choices={counts.choices} forfeits={counts.forfeits}" == example.get("perft")


@pytest.mark.parametrize("example", EXAMPLES, ids=[ex.fields["id"] for ex in EXAMPLES])
def test_example(example: Example) -> None:
    """Each spec example holds for the engine."""
    run(example)


def test_ids_are_unique_and_in_order() -> None:
    """Example ids are E001, E002, ... in the order of the files, each once."""
    ids = [ex.fields["id"] for ex in EXAMPLES]
    assert ids == [f"E{n:03d}" for n in range(1, len(ids) + 1)]


def test_at_least_sixty_examples() -> None:
    """The spec carries at least sixty examples."""
    assert len(EXAMPLES) >= 60


def test_every_rule_has_an_example_and_text() -> None:
    """Every rule (not chapter) has text and is illustrated by at least one example."""
    cited = {rule for ex in EXAMPLES for rule in (ex.get("rules") or "").split()}
    rules = [rule for rule in RULES if "." in rule]
    assert [r for r in rules if not RULES[r].strip()] == []
    assert [r for r in rules if r not in cited] == []


def test_examples_cite_existing_rules() -> None:
    """Every rule id an example names, or expects as its error, is defined."""
    named = {r for ex in EXAMPLES for r in (ex.get("rules") or "").split()}
    named |= {ex.get("error") or "" for ex in EXAMPLES} - {""}
    assert sorted(named - RULES.keys()) == []


def test_rule_ids_cited_by_the_engine_exist() -> None:
    """Every rule id quoted in the package's source is defined in the spec."""
    package = SPEC.parent
    cited: set[str] = set()
    for path in package.glob("*.py"):
        cited.update(re.findall(r'"((?:R|N)\d+\.\d+)"', path.read_text()))
    assert cited
    assert sorted(cited - RULES.keys()) == []


def test_readme_lists_every_example_key() -> None:
    """tower/spec/README.md documents exactly the keys the reader accepts."""
    text = (SPEC / "README.md").read_text()
    documented = set(re.findall(r"^\| `([a-z-]+)`(?: / `([a-z-]+)`)? \|", text, re.M))
    assert {k for pair in documented for k in pair if k} == KEYS


def test_a_wrong_expectation_fails() -> None:
    """The runner is not vacuous: an example with a wrong result fails."""
    good = next(ex for ex in EXAMPLES if ex.fields["id"] == "E001")
    bad = Example({**good.fields, "moves": "0+3"}, good.where, good.section)
    with pytest.raises(AssertionError):
        run(bad)
