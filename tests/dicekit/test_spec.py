"""The game-neutral spec reader and example runner (``dicekit/spec.py``).

Besides the reader's own checks, every example of Can't Stop's spec runs
through the neutral runner, on Can't Stop wrapped in the layer's protocol by
a thin adapter written here (errors translated to the layer's classes, the
events of ``State.step``, and ``perft`` as the game's own example key): the
neutral runner can stand in for ``cantstop/spec.py``.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace
from fractions import Fraction
from typing import Any

import pytest

import cantstop
import cantstop.spec
from dicekit import errors as layer
from dicekit.protocol import JSON, GameInfo, Step, Stepping
from dicekit.spec import (
    EXAMPLE_KEYS,
    ExampleFailure,
    ExampleKey,
    Played,
    iter_failures,
    load_game_spec,
    parse_setup,
    run_example,
    spec_from_texts,
)
from finishline import GAME


@contextlib.contextmanager
def _translated() -> Iterator[None]:
    """Raise Can't Stop's refusals as the layer's classes, keeping rule, text and position."""
    try:
        yield
    except cantstop.IllegalAction as exc:
        raise layer.IllegalAction(
            exc.reason, exc.rule, cantstop.format_state(exc.state), exc.action
        ) from None
    except cantstop.NotationError as exc:
        raise layer.NotationError(exc.reason, exc.text, exc.position, exc.rule) from None
    except cantstop.InvalidRules as exc:
        raise layer.InvalidConfig(exc.reason, exc.rule) from None
    except cantstop.InvalidState as exc:
        raise layer.InvalidState(exc.reason, exc.rule) from None
    except cantstop.RuleError as exc:
        raise layer.RuleError(exc.reason, exc.rule) from None


class CantStopOnTheLayer:
    """Can't Stop through the layer's protocol: every method hands over to :mod:`cantstop`."""

    info = GameInfo("cantstop", "Can't Stop", 1, 4, cantstop.spec.spec_dir())
    events = tuple(event.value for event in cantstop.Event)

    def config(self, players: int) -> cantstop.Rules:
        """Hand ``config`` over to Can't Stop."""
        with _translated():
            return cantstop.Rules(players=players)

    def config_from_json(self, data: JSON) -> cantstop.Rules:
        """Hand ``config_from_json`` over to Can't Stop."""
        with _translated():
            return cantstop.rules_from_json(data)

    def config_to_json(self, config: cantstop.Rules) -> JSON:
        """Hand ``config_to_json`` over to Can't Stop."""
        return cantstop.rules_to_json(config)

    def new_game(self, config: cantstop.Rules, first_player: int = 0) -> cantstop.State:
        """Hand ``new_game`` over to Can't Stop."""
        with _translated():
            return cantstop.new_game(config, first_player)

    def player(self, state: cantstop.State) -> int:
        """Hand ``player`` over to Can't Stop."""
        return state.player

    def is_over(self, state: cantstop.State) -> bool:
        """Hand ``is_over`` over to Can't Stop."""
        return state.phase is cantstop.Phase.OVER

    def winner(self, state: cantstop.State) -> int | None:
        """Hand ``winner`` over to Can't Stop."""
        return state.winner

    def chance_outcomes(self, state: cantstop.State) -> Sequence[tuple[Any, Fraction]]:
        """Hand ``chance_outcomes`` over to Can't Stop."""
        return cantstop.roll_outcomes() if state.phase is cantstop.Phase.ROLL else ()

    def legal_actions(self, state: cantstop.State) -> Sequence[Any]:
        """Hand ``legal_actions`` over to Can't Stop."""
        return state.legal_moves()

    def apply(self, state: cantstop.State, action: Any) -> cantstop.State:
        """Hand ``apply`` over to Can't Stop."""
        with _translated():
            return state.apply(action)

    def step(self, state: cantstop.State, action: Any) -> Step[cantstop.State]:
        """Hand ``step`` over to Can't Stop."""
        with _translated():
            after, event = state.step(action)
        return Step(after, event.value)

    def check(self, state: cantstop.State) -> None:
        """Hand ``check`` over to Can't Stop."""
        with _translated():
            cantstop.parse_state(cantstop.format_state(state))

    def format_state(self, state: cantstop.State) -> str:
        """Hand ``format_state`` over to Can't Stop."""
        return cantstop.format_state(state)

    def parse_state(self, text: str) -> cantstop.State:
        """Hand ``parse_state`` over to Can't Stop."""
        with _translated():
            return cantstop.parse_state(text)

    def format_action(self, action: Any) -> str:
        """Hand ``format_action`` over to Can't Stop."""
        return cantstop.format_action(action)

    def parse_action(self, text: str) -> Any:
        """Hand ``parse_action`` over to Can't Stop."""
        with _translated():
            return cantstop.parse_action(text)

    def state_to_json(self, state: cantstop.State) -> JSON:
        """Hand ``state_to_json`` over to Can't Stop."""
        return cantstop.state_to_json(state)

    def state_from_json(self, data: JSON) -> cantstop.State:
        """Hand ``state_from_json`` over to Can't Stop."""
        with _translated():
            return cantstop.state_from_json(data)

    def action_to_json(self, action: Any) -> JSON:
        """Hand ``action_to_json`` over to Can't Stop."""
        return cantstop.action_to_json(action)

    def action_from_json(self, data: JSON) -> Any:
        """Hand ``action_from_json`` over to Can't Stop."""
        with _translated():
            return cantstop.action_from_json(data)

    def state_svg(self, state: cantstop.State) -> str:
        """Hand ``state_svg`` over to Can't Stop."""
        from cantstop.svg import state_svg

        return state_svg(state)

    def bots(self) -> Mapping[str, Any]:
        """Hand ``bots`` over to Can't Stop."""
        return {}

    def example_keys(self) -> Mapping[str, ExampleKey]:
        """Hand ``example_keys`` over to Can't Stop."""
        return {"perft": ExampleKey("whole-roll counts: 'choices=N busts=M'", _check_perft)}


def _check_perft(played: Played, expected: str) -> None:
    counts = cantstop.perft(played.state)
    got = f"choices={counts.choices} busts={counts.busts}"
    if got != expected:
        raise ExampleFailure(f"expected {expected}, got {got}")


CANTSTOP = CantStopOnTheLayer()
CANTSTOP_SPEC = load_game_spec(CANTSTOP)


def test_the_adapter_reports_events() -> None:
    """The adapter is a stepping game, as the event keys of Can't Stop's examples need."""
    assert isinstance(CANTSTOP, Stepping)


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
        def __getattr__(self, name: str) -> Any:
            if name in ("step", "events"):
                raise AttributeError(name)
            return getattr(GAME, name)

    example = next(e for e in load_game_spec(GAME).examples if e.get("event"))
    with pytest.raises(ExampleFailure, match="reports no events"):
        run_example(Silent(), example)
