"""The finish-line race's spec: every example runs on the engine, and the spec is complete."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest

import finishline
from dicekit.spec import (
    EXAMPLE_KEYS,
    Example,
    ExampleFailure,
    game_keys,
    load_game_spec,
    run_example,
)
from finishline import GAME

SPEC = load_game_spec(GAME)
SPEC_DIR = GAME.info.spec_dir


@pytest.mark.parametrize("example", SPEC.examples, ids=[ex.id for ex in SPEC.examples])
def test_example(example: Example) -> None:
    """Each spec example holds for the engine (a failure names the example's id)."""
    run_example(GAME, example)


def test_at_least_sixty_examples_with_unique_ids() -> None:
    """The spec carries at least 60 examples, each id once and in E-three-digit form."""
    ids = [ex.id for ex in SPEC.examples]
    assert len(ids) >= 60
    assert len(set(ids)) == len(ids)
    assert all(re.fullmatch(r"E\d{3}", i) for i in ids)


def test_every_rule_has_an_example() -> None:
    """Every rule (not chapter) is illustrated by at least one example."""
    missing = [
        rule.id
        for rule in SPEC.rules.values()
        if not rule.is_chapter and not SPEC.examples_for(rule.id)
    ]
    assert missing == []


def test_chapters_and_rules() -> None:
    """Rules R1 to R12 and notation N1 to N3 are there, each rule with text."""
    chapters = [r.id for r in SPEC.rules.values() if r.is_chapter]
    assert chapters == [f"R{i}" for i in range(1, 13)] + ["N1", "N2", "N3"]
    unfinished = [r.id for r in SPEC.rules.values() if not r.is_chapter and len(r.text) < 80]
    assert unfinished == []


def test_rule_ids_cited_by_the_engine_exist() -> None:
    """Every rule id quoted in the package's source is defined in the spec."""
    cited: set[str] = set()
    for path in Path(finishline.__file__).parent.glob("*.py"):
        cited.update(re.findall(r'"((?:R|N)\d+\.\d+)"', path.read_text()))
    assert len(cited) > 20
    assert sorted(cited - SPEC.rules.keys()) == []


def test_failing_example_names_its_id() -> None:
    """A wrong expectation is reported with the example's id."""
    example = next(ex for ex in SPEC.examples if ex.id == "E042")
    bad = replace(example, fields={**example.fields, "moves": "C2^,+A4"})
    with pytest.raises(ExampleFailure, match="E042"):
        run_example(GAME, bad)


@pytest.mark.parametrize(
    ("example_id", "key", "value"),
    [
        ("E013", "result", "..../..../..../..../..../.... 0/0 1r"),
        ("E010", "perft", "choices=541 forfeits=0"),
        ("E039", "event", "played"),
        ("E046", "at", "4"),
        ("E044", "error", "R7.2"),
        ("E104", "json", "{}"),
        ("E100", "action-json", '{"type": "roll", "dice": [2, 4]}'),
        ("E011", "error", "R11.1"),
    ],
)
def test_each_key_catches_a_wrong_expectation(example_id: str, key: str, value: str) -> None:
    """Changing any expectation of an example makes it fail: no key is ignored."""
    example = next(ex for ex in SPEC.examples if ex.id == example_id)
    with pytest.raises(ExampleFailure, match=example_id):
        run_example(GAME, replace(example, fields={**example.fields, key: value}))


def test_spec_readme_lists_every_example_key() -> None:
    """finishline/spec/README.md documents exactly the keys the examples may use."""
    text = (SPEC_DIR / "README.md").read_text()
    documented = set(re.findall(r"^\| `([a-z-]+)`(?: / `([a-z-]+)`)? \|", text, re.M))
    keys = {k for pair in documented for k in pair if k}
    assert keys == set(EXAMPLE_KEYS) | set(game_keys(GAME))


def test_events_named_by_examples_are_the_games() -> None:
    """The events of the README's table are the game's, and examples use every one of them."""
    used = {
        name
        for ex in SPEC.examples
        for key in ("event", "events")
        for name in (ex.get(key) or "").split()
    }
    assert used == set(GAME.events)


def test_questions_page() -> None:
    """questions.md has at least 15 questions, each answered with rules and one example."""
    text = (SPEC_DIR / "questions.md").read_text()
    sections = re.split(r"^### ", text, flags=re.M)[1:]
    assert len(sections) >= 15
    for section in sections:
        title = section.splitlines()[0]
        assert title.endswith("?"), title
        answer = section.split("```example")[0]
        assert re.search(r"\(R\d+\.\d+", answer), title
        assert section.count("```example") == 1, title
    in_questions = [ex for ex in SPEC.examples if ex.path == "questions.md"]
    assert len(in_questions) == len(sections)
    assert all(ex.section is None for ex in in_questions)


def test_a_note_that_names_whose_counter_is_where_agrees_with_the_state() -> None:
    """A note such as "B3 holds player 1's counter" names a cell the state gives that player."""
    from finishline.board import Cell

    said = 0
    for example in SPEC.examples:
        note, text = example.get("note") or "", example.get("state")
        for cell, player in re.findall(r"\b([A-D][1-6]) holds player (\d)'s counter", note):
            assert text is not None, example.id
            state = GAME.parse_state(text)
            assert state.board[Cell[cell]] == int(player), (example.id, cell, text)
            said += 1
    assert said >= 1
