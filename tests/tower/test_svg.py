"""Board pictures (tower.svg): the SVG parsed as XML, its parts placed, its size, clear numbers."""

from __future__ import annotations

import itertools
import xml.etree.ElementTree as ET

import pytest
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


#: The widest a board may be drawn on a phone 390 pixels wide, inside an example's frame.
PHONE_PX = 320
#: The smallest text a page may show, in pixels.
LEGIBLE_PX = 11

Box = tuple[float, float, float, float]


def _text_box(text: ET.Element) -> Box:
    """Return a generous box round a text's ink: 0.62 em a character, 0.75 em above the baseline."""
    size = float(text.get("font-size", "0"))
    width = len(text.text or "") * 0.62 * size
    x, y = float(text.get("x", "0")), float(text.get("y", "0"))
    left = x - width / 2 if text.get("text-anchor") == "middle" else x
    return (left, y - 0.75 * size, left + width, y + 0.05 * size)


def _apart(box: Box, other: Box) -> bool:
    return box[2] <= other[0] or other[2] <= box[0] or box[3] <= other[1] or other[3] <= box[1]


def _to_segment(box: Box, a: tuple[float, float], b: tuple[float, float]) -> float:
    """Return the least distance from the segment a-b to the box, sampled along the segment."""
    best = float("inf")
    for k in range(201):
        x, y = a[0] + (b[0] - a[0]) * k / 200, a[1] + (b[1] - a[1]) * k / 200
        dx = max(box[0] - x, 0.0, x - box[2])
        dy = max(box[1] - y, 0.0, y - box[3])
        best = min(best, (dx * dx + dy * dy) ** 0.5)
    return best


def touching(root: ET.Element) -> list[str]:
    """Return each field number of the drawing that touches another drawn part or text."""
    parents = {child: parent for parent in root.iter() for child in parent}
    texts = list(root.iter(f"{{{NS['svg']}}}text"))
    found = []
    for label in (t for t in texts if parents[t].get("class") == "field"):
        box, own = _text_box(label), parents[label]
        name = f"number {label.text}"
        for other in texts:
            if other is not label and not _apart(box, _text_box(other)):
                found.append(f"{name} touches the text {other.text}")
        for shape in root.iter():
            if parents.get(shape) is own or shape is own:
                continue
            tag = shape.tag.split("}")[-1]
            half = float(shape.get("stroke-width", "1")) / 2
            if tag == "circle":
                cx, cy = float(shape.get("cx", "0")), float(shape.get("cy", "0"))
                reach = float(shape.get("r", "0")) + half
                if _to_segment(box, (cx, cy), (cx, cy)) < reach:
                    found.append(f"{name} touches a circle at {cx:.0f},{cy:.0f}")
            elif tag == "rect" and shape.get("width") != "100%":
                x, y = float(shape.get("x", "0")), float(shape.get("y", "0"))
                w, h = float(shape.get("width", "0")), float(shape.get("height", "0"))
                if not _apart(box, (x - half, y - half, x + w + half, y + h + half)):
                    found.append(f"{name} touches a square at {x:.0f},{y:.0f}")
            elif tag in ("polyline", "polygon", "line"):
                if tag == "line":
                    ends = [shape.get(k, "0") for k in ("x1", "y1", "x2", "y2")]
                    points = [(float(ends[0]), float(ends[1])), (float(ends[2]), float(ends[3]))]
                else:
                    pairs = (shape.get("points") or "").split()
                    points = [(float(p.split(",")[0]), float(p.split(",")[1])) for p in pairs]
                    if tag == "polygon":
                        points.append(points[0])
                for a, b in itertools.pairwise(points):
                    if _to_segment(box, a, b) < half:
                        found.append(f"{name} touches a {tag}")
                        break
    return found


PHONE_STATES = [
    "R0,0/B0,0/G0,0 - 0t @ours",  # six stones waiting at the start
    "R3,12/B20/G0,g B 2c36 @ours",  # the home page's position: the tower, a goal, dice
    "R31,g/B30,g - 0c11 @ours",  # two stones in goals, stones at the gate
    "R-/B5/G0/Y0 R 0t @ours",
    "G0,0/Y0,0 - 0t @small",
    "R3,9/B0,4 - 0c15 @small",
]


@pytest.mark.parametrize("text", PHONE_STATES)
def test_the_board_fits_a_phone_and_no_number_touches_another_part(text: str) -> None:
    """At 11 pixels a field number, the drawing is 320 pixels wide or less; its numbers are clear.

    Each field's number is clear of every other field, goal, line, star, stone,
    the start and every other text, measured on the SVG with generous text boxes.
    """
    root = parts(parse_state(text))
    width = float((root.get("viewBox") or "").split()[2])
    smallest = min(float(t.get("font-size", "0")) for t in root.iter(f"{{{NS['svg']}}}text"))
    assert width * LEGIBLE_PX / smallest <= PHONE_PX
    assert touching(root) == []


def test_a_board_without_points_fits_and_its_numbers_are_clear() -> None:
    """The circle a board without at points is laid out on fits too, its numbers clear."""
    from tests.tower.test_engine import TINY_STATE

    root = parts(parse_state(TINY_STATE))
    width = float((root.get("viewBox") or "").split()[2])
    assert width * LEGIBLE_PX / 13 <= PHONE_PX
    assert touching(root) == []


def test_the_check_sees_a_number_on_another_field() -> None:
    """The check is not vacuous: a number moved onto the next field is caught."""
    root = parts(parse_state(PHONE_STATES[0]))
    fields = {f.get("data-field"): f for f in by_class(root, "field")}
    label = fields["13"].find("svg:text", NS)
    circle = fields["14"].find("svg:circle", NS)
    assert label is not None
    assert circle is not None
    label.set("x", circle.get("cx", "0"))
    label.set("y", circle.get("cy", "0"))
    assert "number 13 touches a circle" in " ".join(touching(root))
