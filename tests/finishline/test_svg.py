"""Board pictures of the finish-line race (``finishline.svg``), read back as XML."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from finishline import GAME, parse_state

NS = {"svg": "http://www.w3.org/2000/svg"}


def _parse(text: str) -> ET.Element:
    return ET.fromstring(GAME.state_svg(parse_state(text)))


def test_cells_counters_and_legend() -> None:
    """Check the 24 cells, a disc per counter, and each player's hand and counters across."""
    root = _parse("..0./..../..../.0../01../...1 1/0 1c34")
    assert root.get("class") == "finishline-board"
    cells = root.findall(".//svg:rect[@class='cell']", NS)
    assert sorted(c.get("data-cell") or "" for c in cells) == sorted(
        f"{letter}{row}" for row in range(1, 7) for letter in "ABCD"
    )
    counters = {
        (g.get("data-cell"), g.get("data-player"))
        for g in root.findall(".//svg:g[@class='counter']", NS)
    }
    assert counters == {("C1", "0"), ("B4", "0"), ("A5", "0"), ("B5", "1"), ("D6", "1")}
    hands = {
        t.get("data-player"): t.get("data-value")
        for t in root.findall(".//svg:text[@class='hand']", NS)
    }
    across = {
        t.get("data-player"): t.get("data-value")
        for t in root.findall(".//svg:text[@class='across']", NS)
    }
    assert hands == {"0": "2", "1": "4"}
    assert across == {"0": "1", "1": "0"}
    dice = [d.get("data-value") for d in root.findall(".//svg:g[@class='die']", NS)]
    assert dice == ["3", "4"]
    assert root.findtext("svg:title", namespaces=NS) == "..0./..../..../.0../01../...1 1/0 1c34"


def test_row_one_is_drawn_under_the_finish_line() -> None:
    """The finish line is above row 1, and row 1 above row 6."""
    root = _parse("0.../..../..../..../..../...1 0/0 0r")
    line = root.find(".//svg:line[@class='finish-line']", NS)
    assert line is not None
    y_line = float(line.get("y1") or 0)
    ys = {
        c.get("data-cell"): float(c.get("y") or 0)
        for c in root.findall(".//svg:rect[@class='cell']", NS)
    }
    assert y_line < ys["A1"] < ys["A6"]


def test_captions() -> None:
    """The caption says who rolls, who plays which dice, or who has won."""
    assert "Player 1 (blue) to roll" in GAME.state_svg(
        parse_state("..../..../..../..../..../.... 0/0 1r")
    )
    assert "Player 0 (red) has won" in GAME.state_svg(
        parse_state("..../..../..../..../..../.1.. 6/0 0x")
    )
    assert "plays 3 and 4" in GAME.state_svg(parse_state("..0./..../..../.0../01../...1 1/0 1c34"))
