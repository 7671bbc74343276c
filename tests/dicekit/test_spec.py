"""The game-neutral spec reader and example runner (``dicekit/spec.py``).

Besides the reader's own checks, every example of Can't Stop's spec runs
through the neutral runner, on Can't Stop's game object
(:data:`cantstop.layer.GAME`: the events of ``State.step``, and ``perft`` as
the game's own example key): the neutral runner can stand in for
``cantstop/spec.py``.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

import cantstop
import cantstop.spec
from cantstop.layer import GAME as GAME_CANTSTOP
from dicekit.protocol import Capability
from dicekit.spec import (
    EXAMPLE_KEYS,
    ExampleFailure,
    iter_failures,
    load_game_spec,
    parse_setup,
    run_example,
    spec_from_texts,
)
from finishline import GAME

CANTSTOP = GAME_CANTSTOP
CANTSTOP_SPEC = load_game_spec(CANTSTOP)


def test_the_adapter_reports_events() -> None:
    """The adapter is a stepping game, as the event keys of Can't Stop's examples need."""
    assert CANTSTOP.info.provides(Capability.STEPPING)


def test_the_neutral_reader_reads_cant_stops_spec_as_its_own_reader_does() -> None:
    """Same rules, same texts, same examples with the same fields and sections."""
    own = cantstop.spec.load_spec()
    assert list(CANTSTOP_SPEC.rules) == list(own.rules)
    assert [r.text for r in CANTSTOP_SPEC.rules.values()] == [r.text for r in own.rules.values()]
    assert [(e.id, dict(e.fields), e.section) for e in CANTSTOP_SPEC.examples] == [
        (e.id, dict(e.fields), e.section) for e in own.examples
    ]


def test_every_cant_stop_example_runs_through_the_neutral_runner() -> None:
    """All of Can't Stop's examples pass on the neutral runner, through the protocol."""
    failures = list(iter_failures(CANTSTOP, CANTSTOP_SPEC))
    assert failures == []
    assert len(CANTSTOP_SPEC.examples) == len(cantstop.spec.load_spec().examples) > 150


@pytest.mark.parametrize(
    ("example_id", "key", "value"),
    [
        ("E008", "moves", "7+10"),
        ("E008", "event", "busted"),
        ("E004", "result", "7:2/- - 0r"),
        ("E009", "error", "R15.1"),
        ("E221", "at", "5"),
    ],
)
def test_wrong_cant_stop_expectations_fail(example_id: str, key: str, value: str) -> None:
    """The neutral runner catches a wrong expectation of any kind in Can't Stop's examples."""
    example = next(e for e in CANTSTOP_SPEC.examples if e.id == example_id)
    with pytest.raises(ExampleFailure, match=example_id):
        run_example(CANTSTOP, replace(example, fields={**example.fields, key: value}))


def test_perft_is_a_game_key() -> None:
    """A game's own key is checked by the game's hook; the layer's keys stay the layer's."""
    example = next(e for e in CANTSTOP_SPEC.examples if e.get("perft"))
    wrong = replace(example, fields={**example.fields, "perft": "choices=1 busts=1"})
    with pytest.raises(ExampleFailure, match="choices=1 busts=1"):
        run_example(CANTSTOP, wrong)
    assert "perft" not in EXAMPLE_KEYS


_RULE = "## R1 Counting\n### R1.1 Ones\nText.\n"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (_RULE + "```example\nid: E001\nrules: R1.1\nweird: x\n```\n", "known key"),
        (_RULE + "```example\nid: E001\nrules: R1.1\nid: E002\n```\n", "given twice"),
        (_RULE + "```example\nid: 1\nrules: R1.1\n```\n", "needs an id"),
        (_RULE + "```example\nid: E001\n```\n", "names no rule"),
        (_RULE + "```example\nid: E001\nrules: R2.1\n```\n", "unknown rule R2.1"),
        (_RULE + "```example\nid: E001\nrules: R1.1\nerror: R9.9\n```\n", "unknown rule R9.9"),
        (_RULE + "```example\nid: E001\nrules: R1.1\n", "not closed"),
        (_RULE + "### R1.1 Again\n", "defined twice"),
        (
            _RULE
            + "```example\nid: E001\nrules: R1.1\n```\n```example\nid: E001\nrules: R1.1\n```\n",
            "used twice",
        ),
    ],
)
def test_malformed_specs_are_refused_with_file_and_line(text: str, message: str) -> None:
    """A spec file that breaks the format is refused, naming the problem and where it is."""
    with pytest.raises(ValueError, match=message) as info:
        spec_from_texts({"rules/01.md": text})
    assert "rules/01.md:" in str(info.value)


def test_other_headings_end_a_rule() -> None:
    """A heading that is not a rule ends the rule's text; examples under it belong to no rule."""
    spec = spec_from_texts(
        {
            "rules/01.md": _RULE + "More text.\n",
            "questions.md": "# Questions\n### May I?\nYes (R1.1).\n\n"
            "```example\nid: E002\nrules: R1.1\nnotation: x\nerror: R1.1\n```\n",
        }
    )
    assert spec.rules["R1.1"].text == "Text.\nMore text."
    assert spec.examples[0].section is None
    assert [e.id for e in spec.examples_for("R1")] == ["E002"]


def test_game_keys_extend_the_format() -> None:
    """A key is refused unless the layer or the game declares it."""
    text = _RULE + "```example\nid: E001\nrules: R1.1\nperft: 1\n```\n"
    with pytest.raises(ValueError, match="known key"):
        spec_from_texts({"rules/01.md": text})
    assert spec_from_texts({"rules/01.md": text}, keys=["perft"]).examples[0].get("perft") == "1"


def test_setup_words() -> None:
    """Setup words become a JSON configuration: integers, mappings, and text kept as it is."""
    assert parse_setup("players=3 counters=0 first_player=2") == ({"players": 3, "counters": 0}, 2)
    assert parse_setup("heights=7:3,8:x variant=B") == (
        {"heights": {"7": 3, "8": "x"}, "variant": "B"},
        0,
    )
    assert parse_setup("first_player=x") == ({}, "x")


def test_moves_compare_as_a_set_and_must_be_canonical() -> None:
    """Legal actions may be listed in any order, but each once and in canonical notation."""
    spec = load_game_spec(GAME)
    example = next(e for e in spec.examples if e.id == "E042")
    moves = example.get("moves") or ""
    reordered = replace(example, fields={**example.fields, "moves": " ".join(moves.split()[::-1])})
    run_example(GAME, reordered)
    doubled = replace(example, fields={**example.fields, "moves": moves + " C2^,+A4"})
    with pytest.raises(ExampleFailure, match="twice"):
        run_example(GAME, doubled)
    unsorted = replace(
        example, fields={**example.fields, "moves": moves.replace("C2^,+A4", "+A4,C2^")}
    )
    with pytest.raises(ExampleFailure, match="does not read"):
        run_example(GAME, unsorted)


def test_a_game_without_events_cannot_name_one() -> None:
    """An example naming an event fails on a game that reports none."""

    class Silent:
        info = replace(GAME.info, capabilities=GAME.info.capabilities - {Capability.STEPPING})

        def __getattr__(self, name: str) -> Any:
            if name in ("step", "events"):
                raise AttributeError(name)
            return getattr(GAME, name)

    example = next(e for e in load_game_spec(GAME).examples if e.get("event"))
    with pytest.raises(ExampleFailure, match="reports no events"):
        run_example(Silent(), example)
