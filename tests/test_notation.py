"""State and action notation (N1, N2) and the JSON form (N3)."""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Callable
from typing import Any

import pytest

from cantstop import (
    InvalidActionValue,
    InvalidRules,
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
        # N1.6: an invariant error points at the cell that breaks it.
        ("7:2,8:99/- - 0r", 6, "R16.2"),  # the 99, not the start of the text
        ("-/- 7:1,9:3 0d h7:2,9:2 w1", 10, "R16.2"),  # the marker space 3, off column 9
        ("- 5:1 0d h7:2 w1", 2, "R16.2"),  # the column 5, which the board lacks
        ("7:13/7:13 - 0r", 5, "R9.1"),  # the second square on the top space
        ("3:1/2:3,3:5/2:1 - 0r", 12, "R9.3"),  # column 2 is checked before column 3
        ("9:3/- 7:2,9:1 0d", 10, "R16.3"),  # the second marker, under player 0's square
        ("-/8:3,9:1 7:2,8:3,9:1 0d A", 14, "R14.1"),  # the marker sharing 8:3
        ("-/- - 0r h7:2,8:0", 16, "R15.3"),  # the height 0
        ("-/- - 0r h7:2,8:3 w5", 18, "R15.2"),  # the w, more than the two columns
        ("-/- - 0r h7:2 A", 9, "R15.2"),  # no w: the first option, the board of one column
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


# -- messages and hostile input --------------------------------------------------------

#: An integer of 4,400 ones: more digits than int() reads from text or repr() writes.
HUGE = (10**4400 - 1) // 9


def test_the_position_starts_the_message() -> None:
    """'at position N' leads the message, so it cannot read as part of the reason (N1.6)."""
    with pytest.raises(NotationError) as info:
        parse_state("7:5/- - 0x")
    first, text, caret = str(info.value).split("\n")
    assert first.startswith("at position 8: ")
    assert first.endswith(" (rule R12.1)")
    assert text == "  7:5/- - 0x"
    assert caret == "  " + " " * 8 + "^"


def test_the_caret_stands_under_the_offending_space() -> None:
    """In '7:2,8:99/- - 0r' the caret is under the 99, the space column 8 lacks (R16.2)."""
    with pytest.raises(NotationError) as info:
        parse_state("7:2,8:99/- - 0r")
    _, text, caret = str(info.value).split("\n")
    assert text[caret.index("^") :] == "99/- - 0r"


def test_every_invariant_error_points_at_a_cell_its_message_names() -> None:
    """For a cell rule, the caret is on a cell of the column the reason names (N1.6)."""
    rng = random.Random(11)
    texts = [
        format_state(s)
        for name in ("3p-B", "tiny-4p-A", "tiny")
        for s in random_game(CONFIGS[name], 1)
    ]
    alphabet = "0123456789:,"
    seen: set[str] = set()
    for _ in range(6000):
        chars = list(rng.choice(texts))
        for _ in range(rng.randint(1, 2)):
            i = rng.randrange(len(chars))
            chars[i] = rng.choice(alphabet)
        text = "".join(chars)
        try:
            parse_state(text)
        except NotationError as exc:
            error = exc
        else:
            continue
        if error.rule not in ("R16.2", "R16.3", "R9.1", "R9.2", "R9.3", "R14.1"):
            continue
        seen.add(error.rule)
        # The cell around the caret: back to its column, forward to its end.
        start = error.position
        while start > 0 and text[start - 1] not in " /,":
            start -= 1
        column = text[start:].split(":", 1)[0]
        assert f"column {column}" in error.reason, (text, error.position, error.reason)
    assert seen >= {"R16.2", "R16.3", "R9.2", "R9.3"}  # R9.1 and R14.1 are in the table above


def test_long_numbers_are_refused_and_quoted_short() -> None:
    """A number of thousands of digits is a form error whose message does not spell it out."""
    for parse, text, rule in [
        (parse_state, "7" * 5000 + ":1/- - 0r", "N1.2"),
        (parse_state, "-/- - " + "1" * 4301 + "r", "N1.4"),
        (parse_action, "9" * 6000, "N2.3"),
        (parse_action, "7+" + "1" * 5000, "N2.3"),
    ]:
        with pytest.raises(NotationError) as info:
            parse(text)
        assert info.value.rule == rule
        assert "digits) is too large" in info.value.reason
        assert len(str(info.value)) < 300


def test_a_long_text_is_cut_around_the_caret_and_unprintables_are_escaped() -> None:
    """The message shows a window of a long text; a newline or NUL is shown escaped."""
    group = ",".join(f"{column}:1" for column in range(2, 13))
    text = "/".join([group] * 4) + " - 0r!"  # 192 characters, the last one wrong
    with pytest.raises(NotationError) as info:
        parse_state(text)
    _, shown, caret = str(info.value).split("\n")
    assert len(shown) < 90
    assert shown.startswith("  …")
    assert shown.endswith(" - 0r!")
    assert shown[caret.index("^")] == "!"
    with pytest.raises(NotationError) as info:
        parse_state("7:2/- -\x00 0r\n")
    _, shown, caret = str(info.value).split("\n")
    assert shown == "  7:2/- -\\x00 0r\\n"
    assert shown[caret.index("^") :].startswith("\\x00")


def test_non_text_of_any_size_is_a_notation_error() -> None:
    """A huge integer or a deep list given as notation is refused, and quoted briefly."""
    deep: list[object] = []
    for _ in range(5000):
        deep = [deep]
    for value in (HUGE, deep):
        for parse in (parse_state, parse_action):
            with pytest.raises(NotationError) as info:
                parse(value)  # type: ignore[arg-type]
            assert len(str(info.value)) < 200


def test_json_errors_quote_the_value_without_a_position() -> None:
    """A JSON form has no character to point at: no 'at position', no caret (N3)."""
    with pytest.raises(NotationError) as info:
        rules_from_json({"players": 9})
    assert not info.value.pointed
    assert str(info.value) == "players must be from 1 to 4, not 9 (rule R15.1) in {'players': 9}"


@pytest.mark.parametrize(
    ("reader", "data", "rule"),
    [
        (rules_from_json, {"heights": {"1" * 4301: 3}}, "R15.3"),
        (rules_from_json, {"heights": {"7": HUGE}}, "R15.3"),
        (rules_from_json, {"players": HUGE}, "R15.1"),
        (rules_from_json, {"columns_to_win": -HUGE}, "R15.2"),
        (rules_from_json, {"variant": HUGE}, "R14.3"),
        (action_from_json, {"type": "roll", "dice": [1, 2, 3, HUGE]}, "R4.1"),
        (action_from_json, {"type": "move", "columns": [HUGE]}, "R4.3"),
    ],
)
def test_huge_integers_in_json_are_rule_errors(reader: Any, data: object, rule: str) -> None:
    """An integer of 4,400 digits is refused under its rule, quoted as a few digits and a count."""
    with pytest.raises(NotationError) as info:
        reader(data)
    assert info.value.rule == rule
    assert "4,400 digits" in info.value.reason or "4,301 digits" in info.value.reason


def _deep(depth: int) -> object:
    value: object = 1
    for _ in range(depth):
        value = [value]
    return value


@pytest.mark.parametrize(
    ("change", "rule"),
    [
        ({"player": HUGE}, "R16.5"),
        ({"player": _deep(3000)}, "R16.5"),
        ({"player": "p" * 100_000}, "R16.5"),
        ({"phase": _deep(3000)}, "N3.1"),
        ({"phase": "choose", "dice": [1, 2, 3, HUGE]}, "R4.1"),
        ({"phase": "choose", "dice": [1, 2, 3, _deep(3000)]}, "R4.1"),
        ({"phase": "choose", "dice": list(range(100_000))}, "R4.1"),
        ({"markers": {"7": HUGE}}, "R16.2"),
        ({"squares": [{"1" * 4301: 1}, {}]}, "R16.2"),
        ({"won": {"1" * 4301: 0}}, "R9.1"),
        ({"winner": HUGE}, "R12.1"),
        ({"winner": _deep(3000)}, "N3.1"),
        ({"markers": {"7": _deep(3000)}}, "N3.1"),
        ({"squares": [{}, {"7": float("nan")}]}, "N3.1"),
        ({"player": float("inf")}, "R16.5"),
    ],
)
def test_hostile_state_fields_are_refused_cleanly(change: dict[str, object], rule: str) -> None:
    """Huge, deep, long or non-finite values in a JSON state get their rule and a short message."""
    data = state_to_json(new_game())
    data.update(change)
    with pytest.raises(NotationError) as info:
        state_from_json(data)
    assert info.value.rule == rule
    assert len(str(info.value)) < 400


def test_booleans_and_floats_are_not_the_winner() -> None:
    """Python has true == 1 and 1.0 == 1, but a JSON winner is null or an integer (N3.1)."""
    data = state_to_json(parse_state("-/2:3,3:5,4:7 - 1x"))
    assert data["winner"] == 1
    assert state_from_json(data).winner == 1
    for fake, quoted in ((True, "true"), (1.0, "1.0")):
        with pytest.raises(NotationError) as info:
            state_from_json({**data, "winner": fake})
        assert info.value.rule == "N3.1"
        # The value is quoted as the JSON text has it: true, not Python's True.
        assert f"winner must be null or a player, not {quoted}" in str(info.value)


def test_booleans_are_not_numbers_in_the_json_form() -> None:
    """A boolean is refused wherever the JSON form has a number (N3.1, R15, R16, R4)."""
    base = state_to_json(parse_state("-/- 7:1 1d"))
    for change in (
        {"player": True},
        {"markers": {"7": True}},
        {"squares": [{"7": True}, {}]},
        {"won": {"7": True}},
        {"rules": {"players": True}},
        {"rules": {"columns_to_win": True}},
        {"rules": {"heights": {"7": True}}},
    ):
        with pytest.raises(NotationError):
            state_from_json({**base, **change})
    for action in ({"type": "roll", "dice": [True, 1, 1, 1]}, {"type": "move", "columns": [True]}):
        with pytest.raises(NotationError):
            action_from_json(action)


def test_unknown_fields_of_any_kind_are_named_in_agreement() -> None:
    """Keys that are not text, or too long, are listed briefly; 'field' agrees with the count."""
    with pytest.raises(NotationError) as info:
        rules_from_json({1: 2, "b" * 1000: 3})
    assert info.value.reason.startswith("rules has the unknown fields 'bbbbbbbb")
    assert info.value.reason.endswith("…' (1,000 characters), 1")
    assert len(info.value.reason) < 120
    with pytest.raises(NotationError) as info:
        rules_from_json({"extra": 1})
    assert info.value.reason == "rules has the unknown field 'extra'"
    with pytest.raises(NotationError) as info:
        state_from_json(
            {**state_to_json(new_game(Rules(players=1, columns_to_win=1))), "squares": []}
        )
    assert info.value.reason == "squares must be a list of 1 object, one for each player"


@pytest.mark.parametrize(
    ("make", "rule"),
    [
        (lambda: Roll((1, 2, 3, HUGE)), "R4.1"),
        (lambda: Roll(itertools.count()), "R4.1"),  # type: ignore[arg-type]
        (lambda: Roll(range(10**20)), "R4.1"),  # type: ignore[arg-type]
        (lambda: Move((HUGE,)), "R4.3"),
        (lambda: Move(itertools.repeat(7)), "R4.3"),  # type: ignore[arg-type]
        (lambda: Move(_deep(3000)), "R4.3"),  # type: ignore[arg-type]
        (lambda: Rules(players=HUGE), "R15.1"),
        (lambda: Rules(columns_to_win=HUGE), "R15.2"),
        (lambda: Rules(heights={HUGE: 3}), "R15.3"),
        (lambda: Rules(heights={7: HUGE}), "R15.3"),
        (lambda: Rules(heights=HUGE), "R15.3"),  # type: ignore[arg-type]
        (lambda: Rules(variant=_deep(3000)), "R14.3"),  # type: ignore[arg-type]
    ],
)
def test_values_refuse_hostile_arguments(make: Callable[[], object], rule: str) -> None:
    """Roll, Move and Rules refuse huge, endless and deep arguments with their rule."""
    with pytest.raises((InvalidActionValue, InvalidRules)) as info:
        make()
    assert info.value.rule == rule
    assert len(str(info.value)) < 200


def test_a_missing_player_is_named_in_agreement_with_the_count() -> None:
    """With one group the only player is 0; with more, the range is given (N1.4)."""
    with pytest.raises(NotationError) as info:
        parse_state("- - 1r")
    assert info.value.reason == "player 1 does not exist; the only player is 0"
    with pytest.raises(NotationError) as info:
        parse_state("-/-/- - 3r")
    assert info.value.reason == "player 3 does not exist; players are 0 to 2"


def test_writing_a_non_action_names_it_briefly() -> None:
    """format_action and action_to_json refuse a non-action with a TypeError, quoted short."""
    for write in (format_action, action_to_json):
        with pytest.raises(TypeError, match=r"not an action: 11111…11111 \(4,400 digits\)"):
            write(HUGE)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("7:99/- - 0r", "player 0's square in column 7 is on space 99"),
        ("-/7:99 - 0r", "player 1's square in column 7 is on space 99"),
        ("-/- 7:20 0d", "a marker in column 7 is on space 20"),
    ],
)
def test_a_piece_off_its_column_is_named_with_the_right_article(text: str, named: str) -> None:
    """A square is "player 0's square", never "a player 0's square"; a marker is "a marker"."""
    with pytest.raises(NotationError) as caught:
        parse_state(text)
    assert named in str(caught.value)
    assert "a player" not in str(caught.value)
