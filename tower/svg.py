"""Board pictures: any board, drawn from its data, with a state's stones, tower and dice.

The drawing reads everything from the board (R2, N4): each field at its
``at`` point, in its colour's paint or plain, with a star where it bears one
and a ring round the crossing; the track as a line through its fields in
order, and each way in from the start; the goals behind their gates.  A board
without ``at`` points is laid out on a circle.  The stones stand on their
fields in their players' paint, the start shows the stones waiting there and
the tower with the stone in it, and a state choosing a move shows its dice.
The state's notation (N1) is the ``<title>``, and a caption says whose turn
it is.

Every piece carries a ``class`` (``field``, ``stone``, ``tower``, ``die``)
and ``data-`` attributes (``data-field``, ``data-player``, ``data-step``,
``data-value``), so that a program can find it again; the root element has
the class ``tower-board``.  The module needs nothing outside the standard
library.

>>> from tower import parse_state
>>> picture = state_svg(parse_state('R0,12/B5 B 1c35 @ours'))
>>> picture.startswith('<svg xmlns="http://www.w3.org/2000/svg" class="tower-board"')
True
>>> picture.count('class="field"'), picture.count('class="stone"'), picture.count('class="die"')
(35, 4, 2)
"""

from __future__ import annotations

import math
from xml.sax.saxutils import escape, quoteattr

from tower.board import Board
from tower.notation import format_state
from tower.state import Phase, State

__all__ = ["board_points", "state_svg"]

_INK = "#2d2a26"
_PAPER = "#fbf8f1"
_PLAIN = "#efe6d2"
_EDGE = "#9c8c6c"
_STAR = "#fff6c8"
_FONT = "font-family:system-ui,-apple-system,'Segoe UI',Helvetica,Arial,sans-serif"
_MONO = "font-family:ui-monospace,'DejaVu Sans Mono',Menlo,Consolas,monospace"

_SCALE = 0.44  # drawing units per board unit: neighbouring fields about 44 apart
_R = 18  # the radius of a field
_STONE = 9  # the radius of a stone
_MARGIN = 30
_TOP = _MARGIN + 10  # above the top fields, room for their numbers
_CAPTION = 100  # room under the board for the stones at the start, the caption and the notation
_DIE = 26
# The size of the smallest text, field numbers and notation: the drawing of a
# large board may be shown at 85% of its size and still read at 11 pixels.
_SMALL_TEXT = 13


def board_points(board: Board) -> dict[int | str, tuple[float, float]]:
    """Return where each field (by number) and the start (``"start"``) are drawn, in board units.

    The board's own ``at`` points are used when it has them; otherwise the
    track goes round a circle, the ways in run from the start towards their
    entries and the goals sit beyond their gates.

    >>> from tower.board import load_board
    >>> board_points(load_board('small'))[4]
    (400.0, 300.0)
    """
    fields = board.fields
    if all(f.at is not None for f in fields.values()):
        points: dict[int | str, tuple[float, float]] = {
            n: (float(f.at[0]), float(f.at[1]))  # type: ignore[index]
            for n, f in fields.items()
        }
        first = points[board.track[0]]
        points["start"] = (
            (float(board.start[0]), float(board.start[1]))
            if board.start is not None
            else (first[0] - 100.0, first[1] + 60.0)
        )
        return points
    order = list(dict.fromkeys(board.track))
    radius = max(150.0, 100.0 * len(order) / (2 * math.pi))
    centre = radius + 250.0
    points = {}
    for i, number in enumerate(order):
        angle = math.pi / 2 + 2 * math.pi * i / len(order)
        points[number] = (centre + radius * math.cos(angle), centre + radius * math.sin(angle))
    points["start"] = (centre, centre)
    for index, colour in enumerate(board.colours):
        entry = points[board.track[colour.entry - 1]]
        for k, number in enumerate(colour.way_in, start=1):
            share = k / (len(colour.way_in) + 1)
            points.setdefault(number, _between((centre, centre), entry, share))
        gate = points[board.track[colour.gate - 1]]
        points[colour.goal] = _between((centre, centre), gate, 1.3 + 0.25 * index)
    return points


def _between(a: tuple[float, float], b: tuple[float, float], share: float) -> tuple[float, float]:
    return (a[0] + (b[0] - a[0]) * share, a[1] + (b[1] - a[1]) * share)


def _star(x: float, y: float, r: float) -> str:
    corners = []
    for k in range(10):
        reach = r if k % 2 == 0 else r * 0.45
        angle = -math.pi / 2 + k * math.pi / 5
        corners.append(f"{x + reach * math.cos(angle):.1f},{y + reach * math.sin(angle):.1f}")
    return " ".join(corners)


def state_svg(state: State) -> str:
    """Return a drawing of ``state`` on its board as a standalone SVG document."""
    config = state.config
    board = config.board
    raw = board_points(board)
    xs = [p[0] for p in raw.values()]
    ys = [p[1] for p in raw.values()]
    left, top = min(xs), min(ys)

    def at(key: int | str) -> tuple[float, float]:
        x, y = raw[key]
        return (_MARGIN + (x - left) * _SCALE, _TOP + (y - top) * _SCALE)

    width = max(360.0, _MARGIN * 2 + (max(xs) - left) * _SCALE)
    height = _TOP + _MARGIN + (max(ys) - top) * _SCALE + _CAPTION
    paint = {c.letter: c.paint for c in board.colours}
    notation = format_state(state)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="tower-board" '
        f'viewBox="0 0 {width:.0f} {height:.0f}" width="{width:.0f}" height="{height:.0f}" '
        f'role="img" aria-label={quoteattr("Off to the Tower: " + notation)}>',
        f"<title>{escape(notation)}</title>",
        f'<rect width="100%" height="100%" fill="{_PAPER}"/>',
    ]
    line = " ".join(f"{at(n)[0]:.1f},{at(n)[1]:.1f}" for n in board.track)
    out.append(f'<polyline points="{line}" fill="none" stroke="{_EDGE}" stroke-width="6"/>')
    for colour in board.colours:
        path: list[int | str] = ["start", *colour.way_in, board.track[colour.entry - 1]]
        points = " ".join(f"{at(n)[0]:.1f},{at(n)[1]:.1f}" for n in path)
        out.append(
            f'<polyline points="{points}" fill="none" stroke="{colour.paint}" '
            f'stroke-width="3" stroke-dasharray="6 4"/>'
        )
        gate, goal = at(board.track[colour.gate - 1]), at(colour.goal)
        out.append(
            f'<line x1="{gate[0]:.1f}" y1="{gate[1]:.1f}" x2="{goal[0]:.1f}" y2="{goal[1]:.1f}" '
            f'stroke="{colour.paint}" stroke-width="3"/>'
        )
    goals = {c.goal for c in board.colours}
    for number, f in board.fields.items():
        x, y = at(number)
        fill = paint[f.colour] if f.colour is not None else (_STAR if f.star else _PLAIN)
        shape = (
            f'<rect x="{x - _R:.1f}" y="{y - _R:.1f}" width="{2 * _R}" height="{2 * _R}" rx="5" '
            if number in goals
            else f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{_R}" '
        )
        out.append(
            f'<g class="field" data-field="{number}">{shape}fill="{fill}" stroke="{_INK}" '
            f'stroke-width="{3 if number == board.crossing else 1.2}"/>'
        )
        if f.star:
            out.append(
                f'<polygon points="{_star(x, y, _R * 0.8)}" fill="#e8b100" stroke="{_INK}"/>'
            )
        if number == board.crossing:
            out.append(
                f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{_R + 5}" fill="none" stroke="{_INK}" '
                f'stroke-dasharray="3 3"/>'
            )
        out.append(
            f'<text x="{x:.1f}" y="{y - _R - 3:.1f}" font-size="{_SMALL_TEXT}" '
            f'text-anchor="middle" '
            f'fill="{_INK}" style="{_FONT}">{number}</text></g>'
        )
    out.extend(_start(state, at("start")))
    for p, places in enumerate(state.stones):
        route, length = config.routes[p], config.lengths[p]
        fill = paint[config.colours[p]]
        in_goal = 0
        for place in places:
            if place == 0:
                continue
            x, y = at(route[place])
            if place == length:
                x, y = x - 6 + 12 * in_goal, y
                in_goal += 1
            out.append(_stone(x, y, fill, p, place))
    base = height - _CAPTION + 68
    if state.dice is not None:
        for k, value in enumerate(state.dice):
            out.append(_die(width - _MARGIN - (2 - k) * (_DIE + 8) + 8, base - 14, value))
    name = board.colour(config.colours[state.player]).name
    caption = (
        f"{name} has won"
        if state.phase is Phase.OVER
        else f"{name} to {'throw' if state.phase is Phase.THROW else 'move'}"
    )
    out.append(
        f'<text x="{_MARGIN}" y="{base:.1f}" font-size="16" fill="{_INK}" '
        f'style="{_FONT}">{escape(caption)}</text>'
    )
    out.append(
        f'<text x="{_MARGIN}" y="{base + 20:.1f}" font-size="{_SMALL_TEXT}" fill="{_INK}" '
        f'style="{_MONO}">{escape(_fitted(notation, width - 2 * _MARGIN))}'
        f"</text>"
    )
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _fitted(text: str, room: float) -> str:
    """Return ``text``, cut with "..." to fit ``room`` in the monospaced small text."""
    fits = int(room / (0.62 * _SMALL_TEXT))  # a monospaced glyph is about 0.6 em wide
    return text if len(text) <= fits else text[: fits - 3] + "..."


def _stone(x: float, y: float, fill: str, player: int, step: int | str) -> str:
    """Return a stone: a disc in its player's paint inside a white ring, to show on any field."""
    return (
        f'<g class="stone" data-player="{player}" data-step="{step}">'
        f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{_STONE + 3}" fill="#ffffff" stroke="{_INK}" '
        f'stroke-width="1.5"/><circle cx="{x:.1f}" cy="{y:.1f}" r="{_STONE}" fill="{fill}"/></g>'
    )


def _start(state: State, point: tuple[float, float]) -> list[str]:
    """Return the start, with the stones waiting there, and the tower with its stone."""
    config = state.config
    x, y = point
    out = [
        f'<g class="tower" data-player="{"" if state.tower is None else state.tower}">'
        f'<rect x="{x - 14:.1f}" y="{y - 40:.1f}" width="28" height="40" fill="#b8ab92" '
        f'stroke="{_INK}"/>',
        f'<path d="M{x - 14:.1f} {y - 40:.1f} v-6 h7 v6 h7 v-6 h7 v6 h7 v-6" fill="none" '
        f'stroke="{_INK}"/></g>',
    ]
    if state.tower is not None:
        paint = config.board.colour(config.colours[state.tower]).paint
        out.append(_stone(x, y - 20, paint, state.tower, "tower"))
    waiting = [p for p, places in enumerate(state.stones) for place in places if place == 0]
    for k, p in enumerate(waiting):
        paint = config.board.colour(config.colours[p]).paint
        out.append(_stone(x - 8 + 25 * (k % 4), y + 17 + 25 * (k // 4), paint, p, 0))
    return out


def _die(x: float, y: float, value: int) -> str:
    pips = {
        1: [(0, 0)],
        2: [(-1, -1), (1, 1)],
        3: [(-1, -1), (0, 0), (1, 1)],
        4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
        5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
        6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)],
    }[value]
    cx, cy = x + _DIE / 2, y + _DIE / 2
    dots = "".join(
        f'<circle cx="{cx + 7 * dx:.1f}" cy="{cy + 7 * dy:.1f}" r="2.4" fill="{_INK}"/>'
        for dx, dy in pips
    )
    return (
        f'<g class="die" data-value="{value}"><rect x="{x:.1f}" y="{y:.1f}" width="{_DIE}" '
        f'height="{_DIE}" rx="5" fill="#ffffff" stroke="{_INK}"/>{dots}</g>'
    )
