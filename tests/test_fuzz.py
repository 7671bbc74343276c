"""Parser fuzzing: any text or JSON value is read, or rejected with NotationError only.

Inputs are arbitrary text, text over the notation's own alphabet, valid texts
with one character changed, arbitrary JSON values (with huge integers,
non-finite floats and deep nesting among them), and valid JSON forms with one
field replaced.  Whatever is accepted must be canonical: it formats back to the
same text or the same JSON.  A short run of ``tools/fuzz_inputs.py`` checks the
readers, the value constructors and ``verify`` on hostile input.
"""

from __future__ import annotations

import importlib.util
import io
import json
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any, TypeVar

from hypothesis import given, settings
from hypothesis import strategies as st

from cantstop import (
    NotationError,
    action_from_json,
    action_to_json,
    format_action,
    format_state,
    parse_action,
    parse_state,
    rules_from_json,
    rules_to_json,
    state_from_json,
    state_to_json,
)
from cantstop.strategies import actions, valid_states

T = TypeVar("T")

#: The characters state and action notation is made of, plus a few that it is not.
ALPHABET = "0123456789/:,-+ rcdxhwABstop\tR"

notation_text = st.one_of(
    st.text(),
    st.text(alphabet=ALPHABET, max_size=40),
    st.lists(
        st.sampled_from(["-", "/", " ", "7:2", "10:1", ",", "0r", "1d", "0c3455", "x", "w4"]),
        max_size=12,
    ).map("".join),
)


def _nested(depth: int) -> object:
    value: object = 1
    for _ in range(depth):
        value = [value]
    return value


#: Values Python reads from JSON or takes from a caller that are awkward to quote or compare.
HOSTILE = st.one_of(
    st.integers(4300, 4400).map(
        lambda digits: 10**digits // 9
    ),  # beyond int()'s and repr()'s reach
    st.sampled_from([-(10**20), float("nan"), float("inf"), "1" * 4301, "\ud800"]),
    st.integers(1, 3000).map(_nested),
)


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats()
    | st.text(alphabet="0123456789rolmvestpABdcx_ ", max_size=8)
    | HOSTILE,
    lambda children: (
        st.lists(children, max_size=5)
        | st.dictionaries(
            st.sampled_from(
                [
                    "type",
                    "dice",
                    "columns",
                    "rules",
                    "player",
                    "phase",
                    "markers",
                    "squares",
                    "won",
                    "winner",
                    "players",
                    "columns_to_win",
                    "heights",
                    "variant",
                    "7",
                    "2",
                ]
            )
            | st.text(max_size=4),
            children,
            max_size=6,
        )
    ),
    max_leaves=20,
)


@st.composite
def edited(draw: st.DrawFn, text: str) -> str:
    """Delete, insert or replace one character of ``text``."""
    i = draw(st.integers(0, len(text)))
    c = draw(st.sampled_from(ALPHABET))
    how = draw(st.sampled_from(["insert", "delete", "replace"]))
    if how == "insert":
        return text[:i] + c + text[i:]
    if how == "delete":
        return text[:i] + text[i + 1 :]
    return text[:i] + c + text[i + 1 :]


def _attempt(reader: Callable[[Any], T], data: object) -> T | NotationError:
    """Return what ``reader`` makes of ``data``, or the NotationError it raises."""
    try:
        return reader(data)
    except NotationError as error:
        return error


def _read_state_text(text: str) -> None:
    result = _attempt(parse_state, text)
    if isinstance(result, NotationError):
        assert 0 <= result.position <= len(text)
        assert result.rule[0] in "NR"
    else:
        assert format_state(result) == text


def _read_action_text(text: str) -> None:
    result = _attempt(parse_action, text)
    if isinstance(result, NotationError):
        assert 0 <= result.position <= len(text)
    else:
        assert format_action(result) == text


@given(notation_text)
def test_any_text_is_a_state_or_a_notation_error(text: str) -> None:
    """parse_state raises nothing but NotationError, and what it accepts is canonical (N1)."""
    _read_state_text(text)


@given(notation_text)
def test_any_text_is_an_action_or_a_notation_error(text: str) -> None:
    """parse_action raises nothing but NotationError, and what it accepts is canonical (N2)."""
    _read_action_text(text)


@settings(max_examples=max(10, settings().max_examples // 2))
@given(valid_states().map(format_state).flatmap(edited))
def test_edited_state_texts_are_read_or_rejected(text: str) -> None:
    """A valid state text with one character changed parses canonically or is rejected."""
    _read_state_text(text)


@given(actions().map(format_action).flatmap(edited))
def test_edited_action_texts_are_read_or_rejected(text: str) -> None:
    """A valid action text with one character changed parses canonically or is rejected."""
    _read_action_text(text)


def _read_json(reader: Callable[[Any], T], writer: Callable[[T], Any], data: object) -> None:
    result = _attempt(reader, data)
    if isinstance(result, NotationError):
        assert result.rule[0] in "NR"
    else:
        assert reader(json.loads(json.dumps(writer(result)))) == result


@given(json_values)
def test_any_json_is_a_value_or_a_notation_error(data: object) -> None:
    """The JSON readers raise nothing but NotationError on any JSON value (N3)."""
    _read_json(state_from_json, state_to_json, data)
    _read_json(action_from_json, action_to_json, data)
    _read_json(rules_from_json, rules_to_json, data)


@given(st.data())
def test_edited_json_forms_are_read_or_rejected(data: st.DataObject) -> None:
    """A valid JSON form with one field replaced is read or rejected with NotationError."""
    state = data.draw(valid_states())
    form = state_to_json(state)
    path = data.draw(st.sampled_from(["", "rules", *form]))
    replacement = data.draw(json_values)
    if path == "":
        key = data.draw(st.sampled_from([*form, "extra"]))
        form[key] = replacement
    elif path == "rules":
        form["rules"][data.draw(st.sampled_from([*form["rules"], "extra"]))] = replacement
    else:
        form[path] = replacement
    _read_json(state_from_json, state_to_json, form)
    action = action_to_json(data.draw(actions()))
    action[data.draw(st.sampled_from([*action, "extra"]))] = replacement
    _read_json(action_from_json, action_to_json, action)


def _harness() -> ModuleType:
    path = Path(__file__).resolve().parent.parent / "tools" / "fuzz_inputs.py"
    spec = importlib.util.spec_from_file_location("fuzz_inputs", path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(spec.name, module)  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def test_the_fuzz_harness_finds_nothing_in_a_short_run() -> None:
    """A smoke run of tools/fuzz_inputs.py: every reader accepts or raises its documented error.

    The full run (a million inputs, thousands of records) is run by hand; see the tool.
    """
    harness = _harness()
    tallies = harness.run(count=4000, records=150, seed=20)
    assert set(tallies) == {
        "parse_state",
        "parse_action",
        "state_from_json",
        "action_from_json",
        "rules_from_json",
        "Roll",
        "Move",
        "Rules",
        "verify",
    }
    assert all(t.inputs > 0 for t in tallies.values())
    assert [(name, t.findings) for name, t in tallies.items() if t.finding_count] == []
    # The inputs reach both sides: some are accepted, most are refused under many rules.
    assert tallies["parse_state"].accepted > 0
    assert tallies["verify"].accepted > 0
    assert len(tallies["verify"].rejected) > 5


def test_the_fuzz_harness_counts_an_escaping_error() -> None:
    """The harness notices an exception outside the documented class, and a long message."""
    harness = _harness()
    fuzzer = harness.Fuzzer(0)

    def crash(data: object) -> object:
        raise RecursionError("deep")

    def chatty(data: object) -> object:
        raise NotationError("x" * 1000, "", 0, "N1.1")

    fuzzer.feed("crash", crash, "x", NotationError)
    fuzzer.feed("chatty", chatty, "x", NotationError)
    assert fuzzer.tallies["crash"].finding_count == 1
    assert fuzzer.tallies["chatty"].finding_count == 1
    assert harness.report(fuzzer.tallies, 0.0, io.StringIO()) == 2
