"""The board as data: file form (N4), the rules of a playable board (R2), routes, canonical text."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema  # type: ignore[import-untyped]
import pytest
from hypothesis import given

from dicekit.boarddata import canonical_text, change
from tower import Board, InvalidBoard, board_from_json, board_to_json, load_board
from tower.board import BOARD_FILES
from tower.strategies import board_data

BOARDS = Path(__file__).resolve().parents[2] / "tower" / "boards"
SCHEMA = json.loads((BOARDS / "schema.json").read_text())
SMALL = board_to_json(load_board("small"))

#: One fault each, with the rule that refuses it: form faults (N4) first, then R2.
FAULTS: list[tuple[str, str]] = [
    ("format=~", "N4.1"),
    ("shape=1", "N4.1"),
    ('format="tower-board/2"', "N4.1"),
    ("start=[1]", "N4.1"),
    ('name="Small"', "N4.2"),
    ('name="1small"', "N4.2"),
    ('title=""', "N4.2"),
    ('note="caf\\u00e9"', "N4.2"),
    ("fields.5.star=1", "N4.3"),
    ('fields.5.colour="r"', "N4.3"),
    ("fields.5.at=[1,2,3]", "N4.3"),
    ("fields.5.at=[1,-2]", "N4.3"),
    ("fields.5.at=~", "N4.3"),
    ("fields.5.size=2", "N4.3"),
    ('fields.5="plain"', "N4.3"),
    ("track=[1,2,3,4,5,6,7,4,8,99]", "N4.4"),
    ("track=[1,2,3,4,5,6,7,4,8,true]", "N4.4"),
    ('track="1,2"', "N4.4"),
    ('colours.R.paint="red"', "N4.5"),
    ('colours.R.name="Red"', "N4.5"),
    ("colours.R.entry=1.5", "N4.5"),
    ("colours.R.gate=true", "N4.5"),
    ("colours.R.goal=99", "N4.5"),
    ("colours.R.way_in=[99]", "N4.5"),
    ("colours.R.extra=1", "N4.5"),
    ("colours.R.goal=~", "N4.5"),
    ("colours.B=~ colours.G=~ colours.Y=~", "R2.3"),
    ('colours.Q={"name":"q","paint":"#000000","way_in":[],"entry":1,"gate":10,"goal":21}', "R2.3"),
    ('fields.5.colour="Q"', "R2.1"),
    ('fields.6.colour="R"', "R2.1"),
    ("track=[1,2,3,4,5,6,7,8,9]", "R2.2"),
    ("track=[1,2,3,4,5,4,6,7,8,9]", "R2.2"),
    ("track=[1,2,3,4,5,6,7,4,8,4,9]", "R2.2"),
    ("track=[1,2,3,4,5,6,7,4,8,1,9]", "R2.2"),
    ("fields.4.star=false", "R2.2"),
    ("colours.B.way_in=[3]", "R2.4"),
    ("colours.R.way_in=[22]", "R2.4"),
    ("colours.R.entry=0", "R2.4"),
    ("colours.R.entry=11", "R2.4"),
    ("colours.G.gate=2", "R2.5"),
    ("colours.R.gate=11", "R2.5"),
    ("colours.R.goal=22", "R2.5"),
    ("colours.R.goal=11", "R2.5"),
    ("colours.R.goal=1", "R2.5"),
    ("fields.6.star=false", "R2.6"),
    ("colours.R.entry=5", "R2.6"),
    ("colours.B.way_in=[11,11]", "R2.6"),
    ("colours.B.gate=5", "R2.6"),
]


def test_shipped_boards_meet_the_schema_and_the_rules() -> None:
    """Both shipped boards are valid under the schema and read without error; names match files."""
    assert BOARD_FILES.names() == ("ours", "small")
    for name in BOARD_FILES.names():
        data = json.loads((BOARDS / f"{name}.json").read_text())
        jsonschema.validate(data, SCHEMA)
        assert load_board(name).name == name


@pytest.mark.parametrize(("words", "rule"), FAULTS, ids=[w for w, _ in FAULTS])
def test_each_fault_is_refused_under_its_rule(words: str, rule: str) -> None:
    """A board with one fault is refused, naming the rule it breaks."""
    with pytest.raises(InvalidBoard) as caught:
        board_from_json(change(SMALL, words))
    assert caught.value.rule == rule, caught.value


@pytest.mark.parametrize(("words", "rule"), FAULTS, ids=[w for w, _ in FAULTS])
def test_the_schema_checks_the_form_and_only_the_form(words: str, rule: str) -> None:
    """The schema refuses exactly the faults of form (N4), and accepts those of R2."""
    validator = jsonschema.Draft202012Validator(SCHEMA)
    errors = list(validator.iter_errors(change(SMALL, words)))
    form_faults_the_schema_cannot_see = {"fields.5.at=~", "track=[1,2,3,4,5,6,7,4,8,99]"}
    form_faults_the_schema_cannot_see |= {"colours.R.goal=99", "colours.R.way_in=[99]"}
    if rule.startswith("N4") and words not in form_faults_the_schema_cannot_see:
        assert errors, words
    elif rule.startswith("R2"):
        assert errors == [], words


def test_the_board_is_read_before_its_rules() -> None:
    """Not a JSON object: refused under N4.1 whatever else is wrong."""
    values: list[object] = [[], "ours", None, 3]
    for value in values:
        with pytest.raises(InvalidBoard) as caught:
            board_from_json(value)
        assert caught.value.rule == "N4.1"


def test_routes_of_the_small_board_worked_by_hand() -> None:
    """Each colour's route on the small board (R2.6), as R2.7 describes it."""
    small = load_board("small")
    assert small.route("R") == (0, 1, 2, 3, 4, 5, 6, 7, 4, 8, 9, 21)
    assert small.route("B") == (0, 11, 2, 3, 4, 5, 6, 7, 4, 8, 9, 22)
    assert small.route("G") == (0, 12, 13, 3, 4, 5, 6, 7, 4, 8, 23)
    assert small.route("Y") == (0, 14, 2, 3, 4, 5, 6, 7, 4, 8, 24)
    assert [small.length(c) for c in "RBGY"] == [11, 11, 10, 10]


def test_our_board_as_the_spec_describes_it() -> None:
    """Our board (R2.7): step numbers are field numbers but for step 24, the crossing 10 again."""
    ours = load_board("ours")
    assert ours.crossing == 10
    for letter in "RBGY":
        route = ours.route(letter)
        assert len(route) == 34
        assert [s for s in range(1, 33) if route[s] != s] == [24]
        assert route[24] == 10
    assert [n for n, f in ours.fields.items() if f.star] == [6, 10, 17]
    assert [n for n, f in ours.fields.items() if f.colour is None and not f.star] == [5, 13, 22, 29]
    assert (ours.fields[31].colour, ours.fields[32].colour) == ("G", "B")
    for letter in "RBGY":
        on_track = [
            n for n in range(1, 33) if ours.fields.get(n) and ours.fields[n].colour == letter
        ]
        assert len(on_track) == 6


def test_canonical_text_round_trips() -> None:
    """A board's canonical text is compact JSON in canonical order, and reads back equal (N4.7)."""
    for name in ("ours", "small"):
        board = load_board(name)
        assert board.text == canonical_text(board_to_json(board))
        assert board.text == json.dumps(json.loads(board.text), separators=(",", ":"))
        again = board_from_json(json.loads(board.text))
        assert again == board
        assert hash(again) == hash(board)
        assert board_to_json(again) == board_to_json(board)


def test_defaults_are_left_out_of_the_canonical_text() -> None:
    """``"colour": null`` and ``"star": false`` read as plain, and are not written (N4.7)."""
    data = change(SMALL, "fields.13.colour=null fields.13.star=false")
    board = board_from_json(data)
    assert board == load_board("small")
    assert '"13":{"at":[170,360]}' in board.text


def test_a_changed_board_is_another_board() -> None:
    """Equality goes by the whole board: another title is another board."""
    other = board_from_json(change(SMALL, 'title="Another"'))
    assert other != load_board("small")
    assert other.shipped_name() is None
    assert load_board("small").shipped_name() == "small"
    assert repr(other) == "Board(<embedded 'small'>)"
    assert repr(load_board("ours")) == "Board('ours')"


def test_an_unknown_board_name() -> None:
    """load_board refuses a name that is not shipped under R12.3, naming the boards."""
    with pytest.raises(InvalidBoard, match="ours, small") as caught:
        load_board("hexagon")
    assert caught.value.rule == "R12.3"


@given(board_data())
def test_drawn_boards_round_trip(data: dict[str, Any]) -> None:
    """Every board the strategy draws is valid, and its JSON form reads back equal."""
    board = board_from_json(data)
    assert isinstance(board, Board)
    assert board_from_json(board_to_json(board)) == board
    for letter in board.letters:
        route = board.route(letter)
        assert board.fields[route[6]].star
        assert route[-1] == board.colour(letter).goal
