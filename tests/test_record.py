"""Game records (``cantstop.record``, ``spec/record.md``): writing, reading, replaying, claims."""

from __future__ import annotations

import io
import json
import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from cantstop import Action, Move, Phase, Roll, Rules, State, Stop, new_game, parse_state, record
from cantstop.record import (
    RecordError,
    RecordWriter,
    legal_alternatives,
    read_record,
    replay_record,
    write_record,
)
from tests.games import CONFIGS, random_roll


def random_actions(rules: Rules, seed: int) -> tuple[int, list[Action], State]:
    """Play one random game; return its first player, its actions and its final state."""
    rng = random.Random(seed)
    first = rng.randrange(rules.players)
    state = new_game(rules, first)
    actions: list[Action] = []
    while state.phase is not Phase.OVER:
        action: Action
        if state.phase is Phase.CHOOSE:
            action = rng.choice(state.legal_moves())
        elif state.phase is Phase.DECIDE and rng.random() < 0.3:
            action = Stop()
            try:
                state.apply(action)
            except ValueError:  # Variant B may forbid the stop
                action = random_roll(rng)
        else:
            action = random_roll(rng)
        state = state.apply(action)
        actions.append(action)
    return first, actions, state


def lines_of(rules: Rules, actions: list[Action], claims: bool = True) -> list[str]:
    out = io.StringIO()
    write_record(out, rules, actions, claims=claims)
    return out.getvalue().splitlines()


def write_lines(tmp_path: Path, lines: list[str]) -> Path:
    path = tmp_path / "game.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


OPENING: list[Action] = [Roll((3, 4, 5, 5)), Move((7, 10)), Stop()]


@pytest.mark.parametrize("name", sorted(CONFIGS))
@pytest.mark.parametrize("claims", [True, False])
def test_records_round_trip(name: str, claims: bool, tmp_path: Path) -> None:
    """A written game reads back as the same actions and replays to the same final state."""
    rules = CONFIGS[name]
    first, actions, final = random_actions(rules, seed=len(name))
    path = tmp_path / "game.jsonl"
    with path.open("w", encoding="utf-8") as file:
        assert write_record(file, rules, actions, first_player=first, claims=claims) == final
    with path.open(encoding="utf-8") as file:
        got_rules, got_first, pairs = read_record(file)
        got = list(pairs)
    assert (got_rules, got_first) == (rules, first)
    assert [a for _, a in got] == actions
    assert [n for n, _ in got] == list(range(2, len(actions) + 2))
    assert replay_record(path) == final
    assert final.phase is Phase.OVER


def test_claims_follow_the_spec_example_of_a_first_roll() -> None:
    """Roll 3455 on the empty board plays 7+10 or 8+9 (E008); the line claims exactly that."""
    line = json.loads(lines_of(Rules(), OPENING)[1])
    assert line == {
        "action": {"type": "roll", "dice": [3, 4, 5, 5]},
        "state": "-/- - 0c3455",
        "bust": False,
        "moves": ["7+10", "8+9"],
    }
    assert json.loads(lines_of(Rules(), OPENING)[3]) == {
        "action": {"type": "stop"},
        "state": "7:1,10:1/- - 1r",
    }


def test_a_bust_is_claimed() -> None:
    """With markers on 2, 3 and 12, the roll 4444 (sums 8 and 8) plays nothing (R10.1)."""
    actions: list[Action] = [Roll((1, 1, 1, 2)), Move((2, 3)), Roll((6, 6, 6, 6)), Move((12, 12))]
    actions += [Roll((4, 4, 4, 4))]  # sums 8 and 8: all three markers are on 2, 3 and 12
    lines = [json.loads(t) for t in lines_of(Rules(), actions)]
    assert lines[5]["bust"] is True
    assert lines[5]["moves"] == []
    assert lines[5]["state"] == "-/- - 1r"


def test_writer_without_claims_writes_only_actions() -> None:
    """``claims=False`` leaves every line with its action alone."""
    for text in lines_of(Rules(), OPENING, claims=False)[1:]:
        assert list(json.loads(text)) == ["action"]


def test_reading_streams() -> None:
    """The header is read at once; each further line only when its action is asked for."""
    text = lines_of(Rules(), OPENING)
    consumed: list[int] = []

    def source() -> Iterator[str]:
        for number, line in enumerate(text, start=1):
            consumed.append(number)
            yield line + "\n"

    _, _, pairs = read_record(source())
    assert consumed == [1]
    assert next(pairs)[0] == 2
    assert consumed == [1, 2]


def test_writer_flushes_each_line() -> None:
    """Every append is visible in the file at once, so a crash loses no action."""
    out = io.StringIO()
    writer = RecordWriter(out, Rules())
    state = new_game().apply(Roll((3, 4, 5, 5)))
    writer.append(Roll((3, 4, 5, 5)), state)
    assert len(out.getvalue().splitlines()) == 2


def test_an_illegal_action_is_reported_at_its_line(tmp_path: Path) -> None:
    """Tampered dice make the recorded move illegal; the error names its line, rule and state."""
    lines = lines_of(Rules(), OPENING, claims=False)
    lines[1] = json.dumps({"action": {"type": "roll", "dice": [1, 1, 1, 1]}})
    with pytest.raises(RecordError) as info:
        replay_record(write_lines(tmp_path, lines))
    err = info.value
    assert err.line == 3
    # 1111 only pairs as 2+2, so 7+10 does not come from the dice (R4.3).
    assert err.rule == "R4.3"
    assert err.state == parse_state("-/- - 0c1111")
    assert err.alternatives == ("2+2",)
    assert "line 3" in str(err)
    assert "-/- - 0c1111" in str(err)


@pytest.mark.parametrize(
    ("field", "value", "rule"),
    [
        ("bust", True, "R10.1"),
        ("moves", ["7+10"], "R6.6"),
        ("state", "-/- - 0c3456", None),
    ],
)
def test_false_claims_are_rejected(
    field: str, value: object, rule: str | None, tmp_path: Path
) -> None:
    """A claim that the action does not bear out is reported at its line."""
    lines = lines_of(Rules(), OPENING)
    obj = json.loads(lines[1])
    obj[field] = value
    lines[1] = json.dumps(obj)
    with pytest.raises(RecordError) as info:
        replay_record(write_lines(tmp_path, lines))
    assert (info.value.line, info.value.rule) == (2, rule)


@pytest.mark.parametrize(
    ("line", "fragment"),
    [
        ("{not json", "not valid JSON"),
        ("[1, 2]", "JSON object"),
        ('{"action": {"type": "jump"}}', "bad action"),
        ('{"action": {"type": "roll", "dice": [1, 2, 3]}}', "bad action"),
        ('{"action": {"type": "stop"}, "colour": "red"}', "the unknown field 'colour'$"),
        ('{"state": "-/- - 0r"}', "needs an 'action'"),
        ('{"action": {"type": "stop"}, "bust": "no"}', "true or false"),
        ('{"action": {"type": "stop"}, "moves": "7+10"}', "list of moves"),
    ],
)
def test_malformed_lines_name_their_line(line: str, fragment: str, tmp_path: Path) -> None:
    """A line that is not a well-formed action line is a clear error with its number."""
    lines = [*lines_of(Rules(), OPENING[:1]), line]
    with pytest.raises(RecordError, match=fragment) as info:
        replay_record(write_lines(tmp_path, lines))
    assert info.value.line == 3


@pytest.mark.parametrize(
    ("header", "fragment"),
    [
        ('{"action": {"type": "stop"}}', "header"),
        ('{"record": "cantstop", "version": 2, "rules": {}}', "version"),
        ('{"record": "cantstop", "version": 1, "rules": {"players": 5}}', "R15.1"),
        ('{"record": "cantstop", "version": 1, "rules": {}, "first_player": 2}', "first_player"),
        ('{"record": "cantstop", "version": 1, "rules": {}, "x": 0}', "the unknown field 'x'$"),
    ],
)
def test_bad_headers_are_rejected(header: str, fragment: str, tmp_path: Path) -> None:
    """The first line must be a header with supported version, valid rules and first player."""
    with pytest.raises(RecordError, match=fragment) as info:
        replay_record(write_lines(tmp_path, [header]))
    assert info.value.line == 1


def test_empty_record_is_rejected(tmp_path: Path) -> None:
    """A record needs at least its header."""
    path = tmp_path / "empty.jsonl"
    path.write_text("", encoding="utf-8")
    with pytest.raises(RecordError, match="empty"):
        replay_record(path)


def test_a_header_alone_is_the_opening(tmp_path: Path) -> None:
    """A record without actions replays to the opening state (R2)."""
    header = '{"record": "cantstop", "version": 1, "rules": {"players": 3}, "first_player": 2}'
    assert replay_record(write_lines(tmp_path, [header])) == parse_state("-/-/- - 2r")


def test_legal_alternatives_per_phase() -> None:
    """Any roll at the start of a turn (R3.2); the legal moves when choosing (R6.6)."""
    state = new_game().apply(Roll((3, 4, 5, 5)))
    assert legal_alternatives(state) == ("7+10", "8+9")
    assert legal_alternatives(state.apply(Move((7, 10)))) == ("r....", "stop")
    assert legal_alternatives(parse_state("2:3,3:5,4:7/7:3 - 0x")) == ()


def test_variant_b_forbids_the_stop_in_alternatives() -> None:
    """Under Variant B no stop while a marker shares a square's space (R14.2)."""
    state = parse_state("-/7:1 7:1 0d B")
    assert legal_alternatives(state) == ("r....",)


# -- hostile records ---------------------------------------------------------------------

HEADER = '{"record": "cantstop", "version": 1, "rules": {}}'


@pytest.mark.parametrize(
    ("line", "fragment"),
    [
        ('{"action": {"type": "roll", "dice": [1, 2, 3, NaN]}}', "NaN is not a JSON number"),
        ('{"action": {"type": "roll", "dice": [Infinity, 2, 3, 4]}}', "Infinity is not a JSON"),
        ('{"action": {"type": "roll", "dice": [1, 2, 3, 1e999]}}', "not inf"),
        ('{"action": {"type": "roll", "dice": [1, 2, 3, true]}}', "not True"),
        ('{"action": {"type": "roll", "dice": [1, 2, 3, ' + "4" * 5000 + "]}}", "4,300 digits"),
        ('{"action": ' + "[" * 5000 + "]" * 5000 + "}", "nested too deeply"),
        ("1" + "0" * 30, "JSON object, not 10000…00000 (31 digits)"),
        ('{"action": {"type": "stop"}, "' + "x" * 1000 + '": 1}', "unknown field 'xxxx"),
    ],
)
def test_hostile_lines_are_errors_at_their_line(line: str, fragment: str, tmp_path: Path) -> None:
    """Non-finite numbers, huge numbers, deep nesting: a RecordError naming line 2, not a crash."""
    with pytest.raises(RecordError, match=re.escape(fragment)) as info:
        replay_record(write_lines(tmp_path, [HEADER, line]))
    assert info.value.line == 2
    assert len(str(info.value)) < 200


@pytest.mark.parametrize(
    "header",
    [
        '{"record": "cantstop", "version": true, "rules": {}}',
        '{"record": "cantstop", "version": 1.0, "rules": {}}',
        '{"record": "cantstop", "version": 1, "rules": {}, "first_player": true}',
        '{"record": "cantstop", "version": 1, "rules": {}, "first_player": '
        + "[" * 900
        + "]" * 900
        + "}",
        '{"record": "cantstop", "version": ' + "[" * 900 + "]" * 900 + ', "rules": {}}',
        '{"record": "cantstop", "version": 1, "rules": {"players": true}}',
        '{"record": "cantstop", "version": 1, "rules": {}, "' + "x" * 5000 + '": 1, "y": 2}',
    ],
)
def test_header_numbers_are_integers(header: str, tmp_path: Path) -> None:
    """True and 1.0 equal 1 in Python; a header's version and first player must be integers."""
    with pytest.raises(RecordError) as info:
        replay_record(write_lines(tmp_path, [header]))
    assert info.value.line == 1
    assert len(str(info.value)) < 200


def test_a_byte_that_is_not_utf8_is_placed_exactly(tmp_path: Path) -> None:
    """Read as bytes, a record names the line, the byte in it and the offset in the file."""
    lines = lines_of(Rules(), OPENING)
    data = "\n".join(lines).encode() + b"\n"
    offset = data.index(b'"stop"') + 3  # inside the stop of line 4
    path = tmp_path / "game.jsonl"
    path.write_bytes(data[:offset] + b"\xff" + data[offset:])
    with pytest.raises(RecordError) as info:
        replay_record(path)
    column = offset - data.index(b"\n", data.index(b"\n", data.index(b"\n") + 1) + 1)
    assert info.value.line == 4
    assert f"byte 0xff at byte {column} of the line (offset {offset} in the file)" in str(
        info.value
    )


def test_a_text_stream_says_where_decoding_failed_at_the_earliest(tmp_path: Path) -> None:
    """A text stream decodes ahead; the error names the line it was reading, 'or after'."""
    path = tmp_path / "game.jsonl"
    path.write_bytes(HEADER.encode() + b"\n\xff\n")
    with path.open(encoding="utf-8") as file, pytest.raises(RecordError) as info:
        list(read_record(file)[2])
    assert info.value.line == 1
    assert "at this line or after it" in info.value.reason


def test_an_overlong_line_is_refused_before_it_is_read_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A line over MAX_LINE_BYTES is an error at its line; the reader reads no more of it."""
    monkeypatch.setattr(record, "MAX_LINE_BYTES", 100)
    path = write_lines(tmp_path, [HEADER, '{"action": {"type": "stop"}}' + " " * 200])
    with pytest.raises(RecordError, match="longer than 100 bytes") as info:
        replay_record(path)
    assert info.value.line == 2
