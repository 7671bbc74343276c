"""Notation and JSON forms of the finish-line race: canonical texts, errors and positions (N)."""

from __future__ import annotations

import json

import pytest

from finishline import (
    Cell,
    Config,
    Double,
    Move,
    NotationError,
    Play,
    Roll,
    Sideways,
    action_from_json,
    action_to_json,
    config_from_json,
    config_to_json,
    format_action,
    format_state,
    parse_action,
    parse_state,
    state_from_json,
    state_to_json,
)

EMPTY = "..../..../..../..../..../...."


@pytest.mark.parametrize(
    "text",
    [
        f"{EMPTY} 0/0 0r",
        f"{EMPTY} 0/0/0/0 3c66",
        "..0./..../..../.0../01../...1 0/0 1c34",
        "..../..../..../..../..../.1.. 6/0 0x",
        f"{EMPTY} 0/0 1r n1",
        f"{EMPTY} 0/0/0 0r n6",
        "3210/..../..../..../..../...3 0/0/0/2 2c12",
    ],
)
def test_state_texts_round_trip(text: str) -> None:
    """A canonical text reads and writes back unchanged (N1)."""
    assert format_state(parse_state(text)) == text


#: State texts that are refused, with the rule and the position (N1.6).
STATE_TEXT_ERRORS: list[tuple[object, str, int]] = [
    ("", "N1.2", 0),
    (f"{EMPTY}", "N1.1", 29),
    (f"{EMPTY}  0/0 0r", "N1.3", 30),
    (f" {EMPTY} 0/0 0r", "N1.2", 0),
    (f"{EMPTY} 0/0 0r ", "N1.5", 37),
    (f"{EMPTY} 0/0 0r\t", "N1.1", 36),
    ("..../..../..../..../..../..... 0/0 0r", "N1.2", 29),
    ("..../..../..../..../..../... 0/0 0r", "N1.2", 28),
    ("..../..../..../..../.../.... 0/0 0r", "N1.2", 23),
    ("..../..../..../..../..../....  0/0 0r", "N1.3", 30),
    (f"{EMPTY} 0/0/0/0/0 0r", "R11.1", 30),
    (f"{EMPTY} 0 0r", "R11.1", 30),
    (f"{EMPTY} 00 0r", "N1.3", 31),
    (f"{EMPTY} 0/ 0r", "N1.3", 32),
    (f"{EMPTY} 0/0 r", "N1.4", 34),
    (f"{EMPTY} 0/0 0", "N1.4", 35),
    (f"{EMPTY} 0/0 0c1", "N1.4", 37),
    (f"{EMPTY} 0/0 0c17", "N1.4", 37),
    (f"{EMPTY} 0/0 0c21", "N1.4", 36),
    (f"{EMPTY} 0/0 0r3", "N1.1", 36),
    (f"{EMPTY} 0/0 0r w3", "N1.5", 37),
    (f"{EMPTY} 0/0 0r n", "N1.5", 38),
    (f"{EMPTY} 0/0 0r n0", "R11.2", 38),
    (f"{EMPTY} 0/0 0r n3 n4", "N1.5", 40),
    (f"{EMPTY} 0/0 0r n33", "N1.1", 39),
    (f"{EMPTY} 0/0/0/0 0r n4", "N1.5", 41),
    ("..../..../..../..../..../..3. 0/0/0 0r", "N1.2", 27),
    ("0000/0000/..../..../..../.... 0/0 1r n6", "N1.5", 37),
    ("0000/0000/..../..../..../.... 0/0 1r n7", "R11.2", 38),
    ("0000/00../..../..../..../.... 1/0 1r", "R12.3", 30),
    (f"{EMPTY} 6/6 0x", "R10.1", 34),
    (f"{EMPTY} 0/0 0x", "R10.1", 34),
    ("..../1.../0.../..../..../.... 0/0 0c35 n1", "R9.1", 34),
    (7, "N1.1", 0),
]


@pytest.mark.parametrize(("text", "rule", "at"), STATE_TEXT_ERRORS)
def test_state_errors_name_rule_and_position(text: str, rule: str, at: int) -> None:
    """Each malformed or impossible state text is refused at its character (N1.6)."""
    with pytest.raises(NotationError) as info:
        parse_state(text)
    assert (info.value.rule, info.value.position) == (rule, at), str(info.value)


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("r52", Roll((5, 2))),
        ("+C5", Play((Move(Cell.C5, enter=True),))),
        ("+A1^", Play((Move(Cell.A1, enter=True, rows=1),))),
        ("C6^^", Play((Move(Cell.C6, rows=2),))),
        ("A5^,+A5", Play((Move(Cell.A5), Move(Cell.A5, enter=True)))),
        ("A5^,B6^", Play((Move(Cell.B6), Move(Cell.A5)))),
        ("+D1,+A2", Play((Move(Cell.A2, enter=True), Move(Cell.D1, enter=True)))),
        ("D6-C6", Sideways(Cell.D6, Cell.C6)),
        ("double:A1", Double(Cell.A1)),
    ],
)
def test_action_texts(text: str, action: Roll | Play | Sideways | Double) -> None:
    """Each action has one text, which reads back as the same value (N2)."""
    assert parse_action(text) == action
    assert format_action(action) == text
    assert action_from_json(json.loads(json.dumps(action_to_json(action)))) == action


#: Action texts that are refused, with the rule and the position (N2).
ACTION_TEXT_ERRORS: list[tuple[object, str, int]] = [
    ("", "N2.1", 0),
    ("stop", "N2.1", 0),
    ("r5", "N2.2", 2),
    ("r0", "N2.2", 1),
    ("r527", "N2.2", 3),
    ("C5", "N2.1", 2),
    ("C5^^^", "N2.3", 4),
    ("+C5^^", "N2.3", 4),
    ("+", "N2.3", 1),
    ("+C", "N2.3", 2),
    ("+C0", "N2.3", 2),
    ("C5^,", "N2.3", 4),
    ("C5^,+A1,+B1", "N2.3", 7),
    ("+A2,+A1", "N2.3", 4),
    ("+A2,+A2", "N2.3", 4),
    ("C5^,C5^", "N2.3", 4),
    ("+C5^,+A1", "N2.3", 5),
    ("C5^ ", "N2.1", 3),
    ("C5-", "N2.4", 3),
    ("A5-B5x", "N2.1", 5),
    ("D5-E5", "N2.4", 3),
    ("double:", "N2.5", 7),
    ("double:A9", "N2.5", 8),
    ("double:A1 ", "N2.1", 9),
    ("Double:A1", "N2.3", 1),
    (None, "N2.1", 0),
]


@pytest.mark.parametrize(("text", "rule", "at"), ACTION_TEXT_ERRORS)
def test_action_errors_name_rule_and_position(text: str, rule: str, at: int) -> None:
    """Each malformed action text is refused at its character (N2)."""
    with pytest.raises(NotationError) as info:
        parse_action(text)
    assert (info.value.rule, info.value.position) == (rule, at), str(info.value)


def test_state_json_form() -> None:
    """The JSON form writes every field and the derived ones, cells in order (N3.1)."""
    state = parse_state("..0./..../..../.0../01../...1 0/0 1c34")
    assert state_to_json(state) == {
        "config": {"players": 2, "counters": 6},
        "player": 1,
        "phase": "choose",
        "dice": [3, 4],
        "board": {"C1": 0, "B4": 0, "A5": 0, "B5": 1, "D6": 1},
        "hand": [3, 4],
        "across": [0, 0],
        "winner": None,
    }
    assert list(state_to_json(state)["board"]) == ["C1", "B4", "A5", "B5", "D6"]
    minimal = {
        "config": {},
        "player": 1,
        "phase": "choose",
        "dice": [4, 3],
        "board": {"D6": 1, "C1": 0, "B4": 0, "A5": 0, "B5": 1},
        "across": [0, 0],
    }
    assert state_from_json(minimal) == state


BASE = {"config": {}, "player": 0, "phase": "roll", "board": {}, "across": [0, 0]}


#: Changes to a JSON state that make it refused, with the rule (N3.1).
STATE_JSON_ERRORS: list[tuple[dict[str, object], str]] = [
    ({"extra": 1}, "N3.1"),
    ({"config": {"players": 5}}, "R11.1"),
    ({"config": {"players": "2"}}, "N3.1"),
    ({"config": {"counters": 9}}, "R11.2"),
    ({"config": {"counters": True}}, "N3.1"),
    ({"config": {"colour": "red"}}, "N3.1"),
    ({"config": []}, "N3.1"),
    ({"phase": "decide"}, "N3.1"),
    ({"player": 2}, "R12.4"),
    ({"player": 1.0}, "N3.1"),
    ({"player": 10**40}, "N3.1"),
    ({"across": [0]}, "N3.1"),
    ({"across": [0, "1"]}, "N3.1"),
    ({"board": {"E1": 0}}, "N3.1"),
    ({"board": {"A1": 2}}, "N3.1"),
    ({"board": {"A1": None}}, "N3.1"),
    ({"board": []}, "N3.1"),
    ({"across": [7, 0]}, "R12.3"),
    ({"across": [6, 0]}, "R10.1"),
    ({"dice": [1, 2]}, "R12.4"),
    ({"phase": "choose", "dice": [1, 9]}, "R4.1"),
    ({"phase": "choose", "dice": [1]}, "N3.1"),
    ({"hand": [6, 5]}, "R12.3"),
    ({"winner": 0}, "R10.1"),
    ({"winner": "0"}, "N3.1"),
]


@pytest.mark.parametrize(("change", "rule"), STATE_JSON_ERRORS)
def test_state_json_errors_name_the_rule(change: dict[str, object], rule: str) -> None:
    """A JSON state of the wrong form or breaking a rule is refused under that rule (N3.1)."""
    data = {**BASE, **change}
    with pytest.raises(NotationError) as info:
        state_from_json(data)
    assert info.value.rule == rule, str(info.value)
    assert info.value.position == 0


#: JSON actions that are refused, with the rule (N3.2).
ACTION_JSON_ERRORS: list[tuple[object, str]] = [
    ([], "N3.2"),
    ({"type": "stop"}, "N3.2"),
    ({"type": []}, "N3.2"),
    ({"type": "roll"}, "N3.2"),
    ({"type": "roll", "dice": [1, 2], "x": 1}, "N3.2"),
    ({"type": "roll", "dice": [1, 2, 3]}, "R4.1"),
    ({"type": "roll", "dice": [1, 7]}, "R4.1"),
    ({"type": "roll", "dice": "12"}, "N3.2"),
    ({"type": "play", "moves": []}, "N3.2"),
    ({"type": "play", "moves": [{"cell": "C5", "enter": 1, "rows": 1}]}, "N3.2"),
    ({"type": "play", "moves": [{"cell": "C5", "enter": False}]}, "N3.2"),
    ({"type": "play", "moves": [{"cell": "C5", "enter": False, "rows": 3}]}, "N2.3"),
    (
        {
            "type": "play",
            "moves": [
                {"cell": "B4", "enter": True, "rows": 0},
                {"cell": "C2", "enter": False, "rows": 1},
            ],
        },
        "N2.3",
    ),
    ({"type": "sideways", "from": "B5", "to": "D5"}, "N2.4"),
    ({"type": "sideways", "from": "B5"}, "N3.2"),
    ({"type": "double", "cell": 5}, "N3.2"),
]


@pytest.mark.parametrize(("data", "rule"), ACTION_JSON_ERRORS)
def test_action_json_errors_name_the_rule(data: object, rule: str) -> None:
    """A JSON action of the wrong form is refused under the rule it breaks (N3.2)."""
    with pytest.raises(NotationError) as info:
        action_from_json(data)
    assert info.value.rule == rule, str(info.value)


def test_config_json() -> None:
    """A configuration is written in full in states, minimally for the layer (N3.1)."""
    assert config_to_json(Config(4, 6)) == {"players": 4, "counters": 6}
    assert config_to_json(Config(4, 6), full=False) == {"players": 4, "counters": 6}
    assert config_to_json(Config(2), full=False) == {}
    assert config_from_json({"counters": 2}) == Config(2, 2)
    with pytest.raises(NotationError) as info:
        config_from_json({"players": 10**30})
    assert info.value.rule == "R11.1"
    assert "10000…" in str(info.value)
