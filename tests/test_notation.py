"""State and action notation (N1, N2) and the JSON form (N3)."""

from __future__ import annotations

import json

import pytest

from cantstop import (
    Move,
    NotationError,
    Roll,
    Rules,
    Stop,
    Variant,
    action_from_json,
    action_to_json,
    format_action,
    format_state,
    new_game,
    parse_action,
    parse_state,
    rules_from_json,
    rules_to_json,
    state_from_json,
    state_to_json,
)
from tests.games import CONFIGS, random_game


@pytest.mark.parametrize("config", CONFIGS)
def test_states_round_trip_through_text_and_json(config: str) -> None:
    """Every state of random games survives text and JSON round trips unchanged."""
    for seed in range(10):
        for state in random_game(CONFIGS[config], seed):
            text = format_state(state)
            assert parse_state(text) == state
            assert format_state(parse_state(text)) == text
            data = json.loads(json.dumps(state_to_json(state)))
            assert state_from_json(data) == state


@pytest.mark.parametrize(
    "action",
    [Roll((3, 4, 5, 5)), Roll((6, 1, 6, 1)), Move((7,)), Move((7, 7)), Move((2, 12)), Stop()],
)
def test_actions_round_trip(action: Roll | Move | Stop) -> None:
    """Actions survive text and JSON round trips; rolls keep their thrown order."""
    assert parse_action(format_action(action)) == action
    assert action_from_json(json.loads(json.dumps(action_to_json(action)))) == action


def test_action_texts() -> None:
    """The canonical action texts: r + dice, sums joined by +, stop (N2)."""
    assert [format_action(a) for a in (Roll((5, 3, 4, 5)), Move((10, 7)), Move((5,)), Stop())] == [
        "r5345",
        "7+10",
        "5",
        "stop",
    ]


def test_options_are_written_only_when_not_default() -> None:
    """Heights, target and variant appear in the order h, w, A/B, and only when set (N1.5)."""
    rules = Rules(players=3, columns_to_win=2, heights={6: 2, 7: 3, 8: 2, 9: 1}, variant=Variant.A)
    assert format_state(new_game(rules)) == "-/-/- - 0r h6:2,7:3,8:2,9:1 w2 A"
    assert format_state(new_game()) == "-/- - 0r"


def test_rules_json_round_trip() -> None:
    """Rules survive the JSON form, and missing fields take defaults."""
    rules = Rules(players=3, columns_to_win=4, variant=Variant.B)
    assert rules_from_json(json.loads(json.dumps(rules_to_json(rules)))) == rules
    assert rules_from_json({}) == Rules()


@pytest.mark.parametrize(
    ("text", "position", "rule"),
    [
        ("", 0, "N1.2"),
        ("-/- - 0", 7, "N1.4"),
        ("-/- - 0q", 7, "N1.4"),
        ("-/- - 2r", 6, "N1.4"),
        ("-/- - 0c3454", 8, "N1.4"),
        ("-/- - 0c345", 11, "N1.4"),
        ("-/-  - 0r", 4, "N1.3"),
        ("10:1,7:2/- - 0r", 5, "N1.2"),
        ("07:2/- - 0r", 0, "N1.2"),
        ("13:1/- - 0r", 0, "N1.2"),
        ("7:2/- - 0r w3", 11, "N1.5"),
        ("7:2/- - 0r B w4", 13, "N1.5"),
        ("7:2/- - 0r A B", 13, "N1.5"),
        ("7:2/- - 0r x", 11, "N1.5"),
        ("7:2/- - 0r ", 11, "N1.5"),
        ("7:2/- - 0r\n", 10, "N1.1"),
        ("-/-/-/-/- - 0r", 0, "R15.1"),
        ("7:14/- - 0r", 2, "R16.2"),  # the space 14, which column 7 lacks
        ("-/- 7:1,8:1,9:1,10:1 0d", 4, "R16.1"),
        ("7:3/- 7:3 0d", 6, "R16.3"),
        ("-/- - 0c1111 h7:2 w1", 6, "R10.1"),
    ],
)
def test_parse_errors_point_at_the_offending_character(text: str, position: int, rule: str) -> None:
    """Malformed or invalid state text raises NotationError with a position and rule id."""
    with pytest.raises(NotationError) as info:
        parse_state(text)
    assert (info.value.position, info.value.rule) == (position, rule)
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        ("", "N2.1"),
        ("Stop", "N2.1"),
        ("r123", "N2.2"),
        ("r12345", "N2.2"),
        ("r1237", "N2.2"),
        ("10+7", "N2.3"),
        ("13", "N2.3"),
        ("1", "N2.3"),
        ("7+", "N2.3"),
        ("7+8+9", "N2.1"),
        ("07", "N2.3"),
        (" stop", "N2.1"),
    ],
)
def test_bad_action_text(text: str, rule: str) -> None:
    """Malformed action text raises NotationError naming the rule."""
    with pytest.raises(NotationError) as info:
        parse_action(text)
    assert info.value.rule == rule


@pytest.mark.parametrize(
    "data",
    [
        None,
        [],
        {"type": "roll", "dice": [1, 2, 3]},
        {"type": "roll", "dice": "1234"},
        {"type": "move", "columns": [10, 7]},
        {"type": "move", "columns": [7], "extra": 1},
        {"type": "jump"},
    ],
)
def test_bad_action_json(data: object) -> None:
    """Malformed JSON actions raise NotationError, never a bare KeyError or TypeError."""
    with pytest.raises(NotationError):
        action_from_json(data)


@pytest.mark.parametrize(
    "change",
    [
        {"phase": "dancing"},
        {"player": 5},
        {"markers": {"7": 1}},
        {"markers": {"seven": 1}},
        {"squares": {}},
        {"won": {"7": 0}},
        {"winner": 1},
        {"rules": {"players": 9}},
        {"dice": "3455"},
        {"dice": [3, 4, 5, 5]},
        {"squares": []},
        {"squares": [{}, {}, {}]},
    ],
)
def test_bad_state_json(change: dict[str, object]) -> None:
    """A JSON state with a bad or inconsistent field raises NotationError."""
    data = state_to_json(new_game())
    data.update(change)
    with pytest.raises(NotationError) as info:
        state_from_json(data)
    assert str(info.value).count("(rule ") == 1


def test_non_string_input_is_a_notation_error() -> None:
    """Passing something other than text to a parser raises NotationError."""
    with pytest.raises(NotationError):
        parse_state(42)  # type: ignore[arg-type]
    with pytest.raises(NotationError):
        parse_action(None)  # type: ignore[arg-type]


def test_every_valid_height_can_be_written() -> None:
    """The tallest allowed column (999 spaces) survives a round trip (R15.3, N1.5)."""
    state = new_game(Rules(players=1, columns_to_win=1, heights={7: 999}))
    assert parse_state(format_state(state)) == state


def test_mutated_state_text_parses_canonically_or_fails_cleanly() -> None:
    """Edited valid state texts parse to exactly that text or raise NotationError."""
    import random

    rng = random.Random(5)
    texts = [
        format_state(s) for name in ("2p", "3p-B", "tiny") for s in random_game(CONFIGS[name], 0)
    ]
    alphabet = "0123456789:,/- rcdxhwAB+"
    for _ in range(20000):
        chars = list(rng.choice(texts))
        for _ in range(rng.randint(1, 3)):
            i = rng.randrange(len(chars) + 1)
            op = rng.randrange(3)
            if op == 0:
                chars.insert(i, rng.choice(alphabet))
            elif i < len(chars):
                if op == 1:
                    del chars[i]
                else:
                    chars[i] = rng.choice(alphabet)
        text = "".join(chars)
        try:
            state = parse_state(text)
        except NotationError as exc:
            position = exc.position
            assert 0 <= position <= len(text)
        else:
            assert format_state(state) == text
