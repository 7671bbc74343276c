"""The record header's optional ``play`` field (spec/record.md): seats and seed."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from cantstop import Action, Move, Roll, Rules, Stop, Variant
from cantstop.conformance.verify import verify_record
from cantstop.record import (
    MAX_SEED,
    PlaySetup,
    RecordError,
    RecordWriter,
    iter_record,
    read_header,
    write_record,
)

HEADER = {"record": "cantstop", "version": 1, "rules": {"players": 3}}


def test_the_play_field_round_trips() -> None:
    """What the writer puts in the header, the reader gives back; the old reader still works."""
    out = io.StringIO()
    rules = Rules(players=3, variant=Variant.B)
    setup = PlaySetup(("human", "greedy", "rule28"), MAX_SEED)
    RecordWriter(out, rules, first_player=2, play=setup)
    header, lines = read_header(io.StringIO(out.getvalue()))
    assert (header.rules, header.first_player, header.play) == (rules, 2, setup)
    assert list(lines) == []
    assert iter_record(io.StringIO(out.getvalue()))[:2] == (rules, 2)
    assert json.loads(out.getvalue())["play"] == {
        "seats": ["human", "greedy", "rule28"],
        "seed": 2**64 - 1,
    }


def test_a_header_without_play_reads_as_before() -> None:
    header, _ = read_header(io.StringIO(json.dumps(HEADER)))
    assert header.play is None
    assert header.rules.players == 3


def test_verify_accepts_records_with_and_without_play(tmp_path: Path) -> None:
    actions: list[Action] = [Roll((3, 4, 5, 5)), Move((7, 10)), Stop()]
    old = tmp_path / "old.jsonl"
    with old.open("w", encoding="utf-8") as file:
        write_record(file, Rules(), actions)
    new = tmp_path / "new.jsonl"
    new.write_text(
        old.read_text().replace(
            '"first_player":0}', '"first_player":0,"play":{"seats":["human","rule28"],"seed":1}}'
        )
    )
    assert '"play"' in new.read_text()
    for path in (old, new):
        out = io.StringIO()
        assert verify_record(path, out) == 0, out.getvalue()


@pytest.mark.parametrize(
    ("play", "complaint"),
    [
        ([], "an object with 'seats' and 'seed'"),
        ({"seats": ["human", "human", "human"]}, "an object with 'seats' and 'seed'"),
        ({"seats": ["a", "b", "c"], "seed": 1, "x": 0}, "an object with 'seats' and 'seed'"),
        ({"seats": ["human", "human"], "seed": 1}, "a list of 3 names"),
        ({"seats": "human,human,human", "seed": 1}, "a list of 3 names"),
        ({"seats": ["human", "", "human"], "seed": 1}, "a list of 3 names"),
        ({"seats": ["human", 1, "human"], "seed": 1}, "a list of 3 names"),
        ({"seats": ["a", "b", "c"], "seed": -1}, "from 0 to 2**64 - 1"),
        ({"seats": ["a", "b", "c"], "seed": 2**64}, "from 0 to 2**64 - 1"),
        ({"seats": ["a", "b", "c"], "seed": 1.5}, "from 0 to 2**64 - 1"),
        ({"seats": ["a", "b", "c"], "seed": True}, "from 0 to 2**64 - 1"),
        ({"seats": ["a", "b", "c"], "seed": "1"}, "from 0 to 2**64 - 1"),
    ],
)
def test_a_malformed_play_field_is_an_error_on_line_1(
    play: object, complaint: str, tmp_path: Path
) -> None:
    """Each way of breaking the field is named, on the header's line, by reader and verifier."""
    text = json.dumps({**HEADER, "play": play}) + "\n"
    with pytest.raises(RecordError) as caught:
        read_header(io.StringIO(text))
    assert caught.value.line == 1
    assert complaint in caught.value.reason
    path = tmp_path / "GAME.jsonl"
    path.write_text(text)
    out = io.StringIO()
    assert verify_record(path, out) == 1
    assert out.getvalue().startswith("GAME.jsonl:1: the header's 'play' ")


def test_the_writer_refuses_a_play_field_it_could_not_read_back() -> None:
    with pytest.raises(RecordError, match="a list of 2 names"):
        RecordWriter(io.StringIO(), Rules(), play=PlaySetup(("human",), 1))
