"""Parser fuzzing: any text or JSON value is read, or rejected with NotationError only.

Inputs are arbitrary text, text over the notation's own alphabet, valid texts
with one character changed, arbitrary JSON values, and valid JSON forms with
one field replaced.  Whatever is accepted must be canonical: it formats back
to the same text or the same JSON.
"""

from __future__ import annotations

import json
from collections.abc import Callable
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

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False)
    | st.text(alphabet="0123456789rolmvestpABdcx_ ", max_size=8),
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
