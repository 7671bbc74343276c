"""Board pictures (tower.svg): the SVG parsed as XML, its fields, stones, tower and dice placed."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from hypothesis import given

from tower import State, parse_state
from tower.strategies import reachable_states
from tower.svg import board_points, state_svg

NS = {"svg": "http://www.w3.org/2000/svg"}


def parts(state: State) -> ET.Element:
    """Return the root of the state's picture, parsed as XML."""
    root = ET.fromstring(state_svg(state))
    assert root.get("class") == "tower-board"
    return root


def by_class(root: ET.Element, name: str) -> list[ET.Element]:
    """Return the elements of one class."""
    return [e for e in root.iter() if e.get("class") == name]


def test_every_field_is_drawn_once_where_the_board_puts_it() -> None:
    """Each field of our board appears once, with its number, in its colour or as a star."""
    state = parse_state("R0,0/B0,0 - 0t @ours")
    root = parts(state)
    fields = by_class(root, "field")
    assert sorted(int(f.get("data-field", "0")) for f in fields) == sorted(
        state.config.board.fields
    )
    field_10 = next(f for f in fields if f.get("data-field") == "10")
    assert field_10.find("svg:text", NS) is not None
    assert (field_10.find("svg:text", NS).text or "") == "10"  # type: ignore[union-attr]
    red = next(f for f in fields if f.get("data-field") == "1")
    assert red.find("svg:circle", NS).get("fill") == "#d1342c"  # type: ignore[union-attr]
    assert len(root.findall(".//svg:polygon", NS)) == 3  # the stars 6, 10 and 17


def test_stones_tower_and_dice() -> None:
    """Stones stand on their fields, at the start and in the tower; CHOOSE shows the dice."""
    state = parse_state("R0,12/B5,g - 1c35 @ours")
    root = parts(state)
    stones = by_class(root, "stone")
    assert sorted((s.get("data-player"), s.get("data-step")) for s in stones) == [
        ("0", "0"),
        ("0", "12"),
        ("1", "33"),
        ("1", "5"),
    ]
    assert [d.get("data-value") for d in by_class(root, "die")] == ["3", "5"]
    assert root.findtext("svg:title", namespaces=NS) == "R0,12/B5,g - 1c35 @ours"
    towered = parts(parse_state("R12/B0,0 R 1t @ours"))
    red = sorted(
        s.get("data-step") or "" for s in by_class(towered, "stone") if s.get("data-player") == "0"
    )
    assert red == ["12", "tower"]
    assert by_class(towered, "die") == []


def test_a_stone_is_drawn_at_its_fields_point() -> None:
    """A stone on step 24 of our board stands on field 10, the crossing (R2.2)."""
    root = parts(parse_state("R0,24/B0,0 - 0t @ours"))
    stone = next(s for s in by_class(root, "stone") if s.get("data-step") == "24")
    field = next(f for f in by_class(root, "field") if f.get("data-field") == "10")
    circle = field.find("svg:circle", NS)
    assert circle is not None
    centre = stone.find("svg:circle", NS)
    assert centre is not None
    assert (centre.get("cx"), centre.get("cy")) == (circle.get("cx"), circle.get("cy"))


def test_a_board_without_points_is_laid_out() -> None:
    """A board without at points gets a point for every field and the start."""
    from tests.tower.test_engine import TINY_STATE

    state = parse_state(TINY_STATE)
    points = board_points(state.config.board)
    assert set(points) == {*state.config.board.fields, "start"}
    assert len(set(points.values())) == len(points)
    assert len(by_class(parts(state), "field")) == len(state.config.board.fields)


@given(reachable_states())
def test_any_reachable_state_draws(state: State) -> None:
    """Any state on any board draws as valid XML with one stone element per stone."""
    root = parts(state)
    assert len(by_class(root, "stone")) == state.config.players * state.config.stones
