"""The notation (N1, N2) and the JSON forms (N3): round trips, canonical text, errors, fuzzing."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from typing import Any, TypeVar

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dicekit.errors import GameError
from tower import (
    Move,
    NotationError,
    RuleError,
    Throw,
    action_from_json,
    action_to_json,
    config_from_json,
    config_to_json,
    format_action,
    format_state,
    load_board,
    make_config,
    parse_action,
    parse_state,
    state_from_json,
    state_to_json,
)
from tower.strategies import moves, reachable_states, throws

T = TypeVar("T")

#: Texts that must be refused: the rule and the index of the character at fault (N1.6).
BAD_STATES = [
    ("", "N1.2", 0),
    ("R0,0/B0,0", "N1.1", 9),
    ("R0,0/B0,0 -", "N1.1", 11),
    ("R0,0/B0,0 - 0t ", "N1.5", 15),
    (" R0,0/B0,0 - 0t @ours", "N1.2", 0),
    ("R0,0/B0,0 - 0t @ours ", "N1.5", 20),
    ("R0,0/B0,0\t- 0t @ours", "N1.2", 9),
    ("R,0/B0,0 - 0t @ours", "N1.2", 1),
    ("R0,/B0,0 - 0t @ours", "N1.2", 3),
    ("R0,0//B0,0 - 0t @ours", "N1.2", 5),
    ("R1000/B0,0 - 0t @ours", "N1.2", 1),
    ("R0,0/B0,0 RB 0t @ours", "N1.1", 11),
    ("R0,0/B0,0 - 0c3 @ours", "N1.4", 15),
    ("R0,0/B0,0 - 0c37 @ours", "N1.4", 15),
    ("R0,0/B0,0 - 0 @ours", "N1.4", 13),
    ("R0,0/B0,0 - x0 @ours", "N1.4", 12),
    ("R0,0/B0,0 - 10t @ours", "N1.4", 13),
    ("R0,0/B0,0 - 0t ours", "N1.5", 15),
    ("R0,0/B0,0 - 0t @", "N1.5", 16),
    ("R0,0/B0,0 - 0t @our s", "N1.5", 19),
    ("R0,0/B0,0 - 0t {", "N1.5", 15),
    ("R0,0/B0,0 - 0t {}", "N4.1", 15),
    ("R0/B0/G0 - 0t @ours", "R13.1", 0),
    ("R0,0 - 0t @ours", "R12.1", 0),
    ("R0,0/B0,0/G0,0/Y0,0/Q0 - 0t @ours", "R12.1", 0),
    ("R0,0/Q0,0 - 0t @ours", "R12.2", 5),
    ("R0,0/B0,0 Y 0t @ours", "R13.3", 10),
    ("R0,0/B0,0 - 0x @ours", "R11.1", 12),
    ("Rg,g/Bg,g - 1x @ours", "R11.3", 12),
    ("R31,32/B0,0 - 0c55 @ours", "R4.4", 14),
    ("Rg,g/B0,0 - 1c11 @ours", "R11.1", 12),
    ("R0,12/B0,0 R 0t @ours", "R13.1", 0),
]


@pytest.mark.parametrize(("text", "rule", "at"), BAD_STATES, ids=[t for t, _, _ in BAD_STATES])
def test_bad_state_texts(text: str, rule: str, at: int) -> None:
    """Each malformed or illegal text is refused with its rule, pointing at the right character."""
    with pytest.raises(NotationError) as caught:
        parse_state(text)
    assert (caught.value.rule, caught.value.position) == (rule, at), caught.value


BAD_ACTIONS = [
    ("", "N2.1", 0),
    ("T12", "N2.1", 0),
    ("t", "N2.2", 1),
    ("t0", "N2.2", 1),
    ("t12 ", "N2.2", 3),
    ("+3", "N2.1", 0),
    ("12", "N2.3", 2),
    ("12+", "N2.3", 3),
    ("1234+1", "N2.3", 0),
    ("12+3 ", "N2.1", 4),
    ("00+1", "N2.3", 0),
]


@pytest.mark.parametrize(("text", "rule", "at"), BAD_ACTIONS, ids=[t for t, _, _ in BAD_ACTIONS])
def test_bad_action_texts(text: str, rule: str, at: int) -> None:
    """Each malformed action is refused with its rule and position (N2)."""
    with pytest.raises(NotationError) as caught:
        parse_action(text)
    assert (caught.value.rule, caught.value.position) == (rule, at), caught.value


def test_non_text_is_refused() -> None:
    """Values that are not text are refused, not crashed on."""
    with pytest.raises(NotationError):
        parse_state(None)  # type: ignore[arg-type]
    with pytest.raises(NotationError):
        parse_action(3)  # type: ignore[arg-type]


@given(reachable_states())
def test_states_round_trip_through_text_and_json(state: Any) -> None:
    """Every reachable state has one text and one JSON form, both read back equal (N1, N3.2)."""
    text = format_state(state)
    assert parse_state(text) == state
    assert format_state(parse_state(text)) == text
    data = state_to_json(state)
    assert state_from_json(json.loads(json.dumps(data))) == state
    assert config_from_json(config_to_json(state.config, full=False)) == state.config


@given(st.one_of(throws(), moves()))
def test_actions_round_trip(action: Throw | Move) -> None:
    """Every action reads back from its text and its JSON form (N2, N3.3)."""
    assert parse_action(format_action(action)) == action
    assert action_from_json(json.loads(json.dumps(action_to_json(action)))) == action


def attempt(reader: Callable[[Any], T], value: object) -> T | GameError:
    """Return what ``reader`` reads from ``value``, or the game error it raises."""
    try:
        return reader(value)
    except GameError as error:
        return error


@settings(max_examples=300)
@given(st.text(alphabet="RBGY0123456789g,/- tcx@ours{}", max_size=30))
def test_any_text_is_read_or_refused_with_a_rule(text: str) -> None:
    """Any text is either read canonically or refused with a NotationError; nothing else."""
    state = attempt(parse_state, text)
    if isinstance(state, GameError):
        assert isinstance(state, NotationError)
        assert 0 <= state.position <= len(text)
    else:
        assert format_state(state) == text
    action = attempt(parse_action, text)
    if isinstance(action, GameError):
        assert isinstance(action, NotationError)
        assert 0 <= action.position <= len(text)
    else:
        assert format_action(action) == text


#: Values that are awkward to quote or compare: huge integers, NaN, a lone surrogate.
HOSTILE = st.one_of(
    st.integers(4400, 4500).map(lambda digits: 10**digits),  # past int()'s and repr()'s reach
    st.sampled_from([-(10**20), float("nan"), float("inf"), "\ud800", "1" * 5000]),
)

JSON_VALUE = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5) | HOSTILE,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=8,
)


@settings(max_examples=300)
@given(JSON_VALUE)
def test_any_json_is_read_or_refused_with_a_rule(value: object) -> None:
    """Any JSON value given to the readers is read or refused with a rule error; nothing else."""
    for reader in (state_from_json, action_from_json, config_from_json):
        result = attempt(reader, value)
        if isinstance(result, GameError):
            assert isinstance(result, RuleError)
            assert len(str(result)) < 1000


STATE_JSON = state_to_json(parse_state("R12/B0,5 R 1c35 @ours"))


@pytest.mark.parametrize(
    ("change", "rule"),
    [
        ({"extra": 1}, "N3.2"),
        ({"player": True}, "N3.2"),
        ({"player": 1.0}, "N3.2"),
        ({"phase": "THROW"}, "N3.2"),
        ({"dice": [3]}, "N3.2"),
        ({"dice": [3, 7]}, "R13.5"),
        ({"dice": [5, 3]}, None),
        ({"dice": None}, "R13.5"),
        ({"tower": 1}, "R13.1"),
        ({"tower": "R"}, "N3.2"),
        ({"winner": 0}, "R11.1"),
        ({"winner": "none"}, "N3.2"),
        ({"stones": [{"start": 0, "track": [12], "goal": 0}]}, "N3.2"),
        ({"stones": [{"start": 0, "track": [33], "goal": 0}, STATE_JSON["stones"][1]]}, "R13.2"),
        ({"stones": [{"start": 10**30, "track": [], "goal": 0}, STATE_JSON["stones"][1]]}, "R13.1"),
        ({"stones": [{"start": 0, "track": [12]}, STATE_JSON["stones"][1]]}, "N3.2"),
        ({"config": {"players": 5}}, "R12.1"),
        ({"config": {"board": 3}}, "N3.1"),
        ({"config": {"board": "hexagon"}}, "R12.3"),
        ({"config": {"colours": "RB"}}, "N3.1"),
        ({"config": {"colours": ["R", "R"]}}, "R12.2"),
        ({"config": {"rules": {}}}, "N3.1"),
        ({"config": {"board": {"format": "tower-board/1"}}}, "N4.1"),
    ],
)
def test_state_json_errors(change: dict[str, Any], rule: str | None) -> None:
    """Each fault of a state's JSON form is refused under its rule (N3.2, N3.1, R13)."""
    data = {**STATE_JSON, **change}
    if rule is None:
        assert state_from_json(data) == parse_state("R12/B0,5 R 1c35 @ours")
        return
    with pytest.raises(RuleError) as caught:
        state_from_json(data)
    assert caught.value.rule == rule, caught.value


def test_state_json_needs_its_fields_and_may_leave_out_the_rest() -> None:
    """config, player, phase and stones are required; dice, tower and winner may be left out."""
    for key in ("config", "player", "phase", "stones"):
        with pytest.raises(NotationError) as caught:
            state_from_json({k: v for k, v in STATE_JSON.items() if k != key})
        assert caught.value.rule == "N3.2"
    throw = state_to_json(parse_state("R0,12/B0,0 - 1t @ours"))
    short = {k: v for k, v in throw.items() if k not in ("dice", "tower", "winner")}
    assert state_from_json(short) == parse_state("R0,12/B0,0 - 1t @ours")
    assert state_from_json({**short, "config": {}}) == parse_state("R0,12/B0,0 - 1t @ours")


@pytest.mark.parametrize(
    ("data", "rule"),
    [
        ([], "N3.3"),
        ({"type": "roll"}, "N3.3"),
        ({"type": "throw"}, "N3.3"),
        ({"type": "throw", "dice": [1, 2], "x": 1}, "N3.3"),
        ({"type": "throw", "dice": [1, 2, 3]}, "N2.2"),
        ({"type": "throw", "dice": [0, 2]}, "N2.2"),
        ({"type": "throw", "dice": [1.0, 2]}, "N3.3"),
        ({"type": "move", "from": 3}, "N3.3"),
        ({"type": "move", "from": 3, "points": 7}, "N2.3"),
        ({"type": "move", "from": -1, "points": 3}, "N2.3"),
        ({"type": "move", "from": True, "points": 3}, "N3.3"),
        ({"type": "move", "from": math.inf, "points": 3}, "N3.3"),
    ],
)
def test_action_json_errors(data: object, rule: str) -> None:
    """Each fault of an action's JSON form is refused under its rule (N3.3, N2)."""
    with pytest.raises(NotationError) as caught:
        action_from_json(data)
    assert caught.value.rule == rule


def test_embedded_boards_in_text_and_json() -> None:
    """A board that is not shipped is embedded by its canonical text, and read back (N1.5, N3.1)."""
    from dicekit.boarddata import change
    from tower import board_from_json, board_to_json

    other = board_from_json(change(board_to_json(load_board("small")), 'title="Renamed"'))
    config = make_config(other, 2)
    from tower import new_game

    state = new_game(config)
    text = format_state(state)
    assert text == "R0,0/B0,0 - 0t " + other.text
    assert parse_state(text) == state
    data = state_to_json(state)
    assert data["config"]["board"] == board_to_json(other)
    assert state_from_json(data) == state
    shipped = "R0,0/B0,0 - 0t " + load_board("small").text
    with pytest.raises(NotationError) as caught:
        parse_state(shipped)
    assert (caught.value.rule, caught.value.position) == ("N1.5", 15)
    assert "write @small" in caught.value.reason
