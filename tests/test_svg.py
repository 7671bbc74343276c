"""Board pictures (cantstop.svg): the XML structure, what is drawn, and where."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from cantstop import InvalidActionValue, parse_state
from cantstop.spec import load_spec
from cantstop.svg import dice_svg, state_svg

NS = {"s": "http://www.w3.org/2000/svg"}


def parse(text: str) -> ET.Element:
    root = ET.fromstring(text)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    return root


def with_class(root: ET.Element, name: str) -> list[ET.Element]:
    return [e for e in root.iter() if name in (e.get("class") or "").split()]


def at(root: ET.Element, kind: str, column: int, space: int) -> list[ET.Element]:
    return [
        e
        for e in with_class(root, kind)
        if e.get("data-column") == str(column) and e.get("data-space") == str(space)
    ]


def centre(element: ET.Element) -> tuple[float, float]:
    if element.tag.endswith("circle"):
        return float(element.get("cx", "0")), float(element.get("cy", "0"))
    x, y = float(element.get("x", "0")), float(element.get("y", "0"))
    return x + float(element.get("width", "0")) / 2, y + float(element.get("height", "0")) / 2


def box(element: ET.Element) -> tuple[float, float, float, float]:
    """Return left, top, right, bottom of a rect or circle."""
    if element.tag.endswith("circle"):
        cx, cy = centre(element)
        r = float(element.get("r", "0"))
        return cx - r, cy - r, cx + r, cy + r
    x, y = float(element.get("x", "0")), float(element.get("y", "0"))
    return x, y, x + float(element.get("width", "0")), y + float(element.get("height", "0"))


def inside(inner: ET.Element, outer: ET.Element) -> bool:
    a, b = box(inner), box(outer)
    return b[0] <= a[0] and b[1] <= a[1] and a[2] <= b[2] and a[3] <= b[3]


def test_empty_board_draws_every_space_of_r1_1_and_nothing_else() -> None:
    root = parse(state_svg(parse_state("-/- - 0r")))
    # R1.1: columns 2..12 with 3, 5, 7, 9, 11, 13, 11, 9, 7, 5, 3 spaces.
    heights = [3, 5, 7, 9, 11, 13, 11, 9, 7, 5, 3]
    columns = with_class(root, "column")
    assert [int(c.get("data-column", "0")) for c in columns] == list(range(2, 13))
    for column, height in zip(range(2, 13), heights, strict=True):
        spaces = [s for s in with_class(root, "space") if s.get("data-column") == str(column)]
        assert sorted(int(s.get("data-space", "0")) for s in spaces) == list(range(1, height + 1))
    assert len(with_class(root, "space")) == sum(heights) == 83
    assert with_class(root, "square") == []
    assert with_class(root, "marker") == []
    assert with_class(root, "die") == []


def test_squares_markers_and_dice_are_counted_and_placed() -> None:
    state = parse_state("7:2/- 7:3,10:1 0c2346")
    root = parse(state_svg(state))
    squares = with_class(root, "square")
    assert [(s.get("data-player"), s.get("data-column"), s.get("data-space")) for s in squares] == [
        ("0", "7", "2")
    ]
    assert len(with_class(root, "marker")) == 2
    dice = with_class(root, "die")
    assert [d.get("data-value") for d in dice] == ["2", "3", "4", "6"]
    assert len(with_class(root, "pip")) == 2 + 3 + 4 + 6
    # Each piece sits inside the space it stands on.
    (square,) = squares
    (space_2,) = at(root, "space", 7, 2)
    assert inside(square, space_2)
    (marker_7,) = at(root, "marker", 7, 3)
    (space_3,) = at(root, "space", 7, 3)
    assert inside(marker_7, space_3)
    (marker_10,) = at(root, "marker", 10, 1)
    assert inside(marker_10, at(root, "space", 10, 1)[0])


def test_space_3_is_drawn_above_space_2_and_columns_go_left_to_right() -> None:
    root = parse(state_svg(parse_state("7:2/- 7:3 0d")))
    (marker,) = with_class(root, "marker")
    (square,) = with_class(root, "square")
    assert centre(marker)[1] < centre(square)[1]  # SVG y grows downwards
    assert centre(marker)[0] == pytest.approx(centre(square)[0])
    for space in range(1, 13):
        below, above = at(root, "space", 7, space)[0], at(root, "space", 7, space + 1)[0]
        assert box(above)[3] <= box(below)[1]
    lefts = [box(at(root, "space", c, 1)[0])[0] for c in range(2, 13)]
    assert lefts == sorted(lefts)
    assert len(set(lefts)) == 11
    bottoms = {box(at(root, "space", c, 1)[0])[3] for c in range(2, 13)}
    assert len(bottoms) == 1  # every column starts on the same line


def test_pieces_on_a_shared_space_stand_side_by_side() -> None:
    # R13.1: the marker shares space 3 of column 7 with player 1's square.
    root = parse(state_svg(parse_state("-/7:3 7:3 0d")))
    (square,) = at(root, "square", 7, 3)
    (marker,) = at(root, "marker", 7, 3)
    (space,) = at(root, "space", 7, 3)
    assert inside(square, space)
    assert inside(marker, space)
    assert box(square)[2] <= box(marker)[0] or box(marker)[2] <= box(square)[0]


def test_players_have_different_colours() -> None:
    root = parse(state_svg(parse_state("7:1/7:2/7:3/7:4 - 0r")))
    fills = [
        next(s.get("fill") for s in with_class(root, "square") if s.get("data-player") == str(p))
        for p in range(4)
    ]
    assert len(set(fills)) == 4
    assert len(with_class(root, "swatch")) == 4


def test_won_columns_are_drawn_in_the_owners_colour() -> None:
    # R9.1: a square on the top space means its owner won the column.
    root = parse(state_svg(parse_state("2:3,3:5,4:7/7:3 - 0x")))
    won = with_class(root, "won")
    assert [(c.get("data-column"), c.get("data-owner")) for c in won] == [
        ("2", "0"),
        ("3", "0"),
        ("4", "0"),
    ]
    owner_fill = next(
        s.get("fill") for s in with_class(root, "square") if s.get("data-player") == "0"
    )
    open_fill = at(root, "space", 5, 1)[0].get("fill")
    for column in won:
        spaces = with_class(column, "space")
        assert {s.get("fill") for s in spaces} != {open_fill}
        label = next(e for e in column if e.tag.endswith("circle"))
        assert label.get("fill") == owner_fill
    title = root.find("s:title", NS)
    assert title is not None
    assert "2:3,3:5,4:7/7:3 - 0x" in (title.text or "")
    assert "has won" in (title.text or "")


def test_dice_are_drawn_only_when_asked_and_on_the_table() -> None:
    choosing = parse_state("-/- - 0c3455")
    assert len(with_class(parse(state_svg(choosing)), "die")) == 4
    assert with_class(parse(state_svg(choosing, dice=False)), "die") == []
    assert with_class(parse(state_svg(parse_state("-/- 7:1 0d"))), "die") == []


def test_custom_boards_draw_their_own_columns_and_stay_a_sensible_size() -> None:
    root = parse(state_svg(parse_state("-/- 7:500 0d h2:3,7:999 w1")))
    assert [c.get("data-column") for c in with_class(root, "column")] == ["2", "7"]
    assert len(with_class(root, "space")) == 3 + 999
    assert float(root.get("height", "0")) < 600
    (marker,) = with_class(root, "marker")
    _, top, _, bottom = box(at(root, "space", 7, 500)[0])
    assert top <= centre(marker)[1] <= bottom


@pytest.mark.parametrize(
    "example", [e for e in load_spec().examples if e.get("state")], ids=lambda e: e.id
)
def test_every_spec_state_draws_its_pieces(example: object) -> None:
    from cantstop.spec import Example

    assert isinstance(example, Example)
    state = parse_state(example.get("state") or "")
    root = parse(state_svg(state))
    assert len(with_class(root, "square")) == sum(len(s) for s in state.squares)
    assert len(with_class(root, "marker")) == len(state.markers)
    assert len(with_class(root, "won")) == len(state.won)
    assert len(with_class(root, "die")) == (4 if state.dice else 0)


def test_dice_svg_draws_the_dice_in_order() -> None:
    root = parse(dice_svg((6, 1, 5, 2)))
    dice = with_class(root, "die")
    assert [d.get("data-value") for d in dice] == ["6", "1", "5", "2"]
    assert [len(with_class(d, "pip")) for d in dice] == [6, 1, 5, 2]
    lefts = [box(next(e for e in d if e.tag.endswith("rect")))[0] for d in dice]
    assert lefts == sorted(lefts)


def test_dice_svg_rejects_a_die_that_does_not_exist() -> None:
    with pytest.raises(InvalidActionValue) as info:
        dice_svg((3, 4, 5, 0))
    assert info.value.rule == "R4.1"
    assert "not 0" in str(info.value)


def test_a_state_draws_itself_in_a_notebook() -> None:
    state = parse_state("7:2/- 7:3,10:1 0c2346")
    assert state._repr_svg_() == state_svg(state)


def font_sizes(root: ET.Element) -> list[float]:
    return [float(t.get("font-size", "0")) for t in root.iter("{http://www.w3.org/2000/svg}text")]


@pytest.mark.parametrize(
    "text",
    [
        "7:2/- 7:3,10:1 0c2346",
        "7:1/7:2/7:3/7:4 8:1 3d",
        "-/- - 0c3455 h2:3,3:5,4:7,5:9,6:11,7:13,8:11,9:9,11:5,12:3",
        "2:3,3:5,4:7/7:3 - 0x",
        "- 7:1 0d h7:2 w1",
    ],
)
def test_text_stays_legible_at_300_pixels(text: str) -> None:
    """Shown 300 CSS pixels wide, the narrowest a page draws a board, no text is under 11 px."""
    root = parse(state_svg(parse_state(text)))
    width = float(root.get("width", "0"))
    assert root.get("viewBox") == f"0 0 {root.get('width')} {root.get('height')}"
    sizes = font_sizes(root)
    assert len(sizes) >= 4  # caption, notation, a column label and the legend
    assert min(sizes) * 300 / width >= 11, (min(sizes), width)
    # The column numbers are the labels read most: 12 px or more at 300 pixels.
    labels = [float(t.get("font-size", "0")) for t in with_class(root, "label")]
    assert min(labels) * 300 / width >= 12


@pytest.mark.parametrize(
    "text",
    [
        "-/- - 0c3455 h2:3,3:5,4:7,5:9,6:11,7:13,8:11,9:9,11:5,12:3",
        "2:2,3:4,4:6,5:8,6:10/7:12,8:10/9:8,10:6/11:4,12:2 7:13,8:11 1d",
        "7:2,10:7/7:4,8:3 7:5,8:2,11:1 0c2346",
    ],
)
def test_the_notation_is_written_in_full_on_lines_that_fit(text: str) -> None:
    """A long notation breaks into lines at spaces, commas or slashes; nothing is lost."""
    root = parse(state_svg(parse_state(text)))
    lines = [t for t in with_class(root, "notation")]
    written = [t.text or "" for t in lines]
    assert "".join(written).replace(" ", "") == text.replace(" ", "")
    for line in written:
        assert line == line.strip()
    # Each line fits the drawing: a monospace character is about 0.6 of the font size.
    inner = float(root.get("width", "0")) - 2 * float(lines[0].get("x", "0"))
    for element, line in zip(lines, written, strict=True):
        assert len(line) * 0.6 * float(element.get("font-size", "0")) <= inner, line
    baselines = [float(t.get("y", "0")) for t in lines]
    assert baselines == sorted(set(baselines))  # one below the other


def test_the_legend_wraps_for_four_players_and_stays_inside_the_picture() -> None:
    root = parse(state_svg(parse_state("7:1/7:2/7:3/7:4 - 0r")))
    width = float(root.get("width", "0"))
    swatches = with_class(root, "swatch")
    assert len(swatches) == 4
    rows = {float(s.get("y", "0")) for s in swatches}
    assert len(rows) == 2  # four entries and the marker do not fit on one line
    legends = with_class(root, "legend")
    assert [t.text for t in legends] == ["player 0", "player 1", "player 2", "player 3", "marker"]
    for text in legends:
        # An entry is at most 92 units wide: its text starts 19 units in.
        assert float(text.get("x", "0")) + 92 - 19 <= width
