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

The picture fits a phone: a board much wider than tall is turned a quarter
anticlockwise, and the board is scaled so that the drawing is at most
:data:`WIDTH` units wide, which a page shows at 11 pixels a field number
within 320 pixels.  Each field's number is put beside its field where it
touches nothing else drawn: no other field, goal, line, the start or another
number (:func:`board_layout`).

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

import functools
import itertools
import math
from dataclasses import dataclass
from xml.sax.saxutils import escape, quoteattr

from dicekit.svgparts import FONT as _FONT
from dicekit.svgparts import INK as _INK
from dicekit.svgparts import MONO as _MONO
from dicekit.svgparts import PAPER as _PAPER
from dicekit.svgparts import SPACE_FILL as _PLAIN
from tower.board import Board
from tower.notation import format_state
from tower.state import Phase, State

__all__ = ["WIDTH", "BoardLayout", "board_layout", "board_points", "state_svg"]

_EDGE = "#9c8c6c"
_STAR = "#fff6c8"

#: The most width of a drawing, in its own units: at 11 pixels a field number (the
#: smallest text, 13 units) a page shows it 315 pixels wide, which a phone 390 pixels
#: wide leaves inside an example's frame.
WIDTH = 372
_MIN_WIDTH = 300  # the least width, so that the caption and the dice fit side by side
_MAX_SCALE = 0.44  # drawing units per board unit at most: a small board is not blown up
_R = 10  # the radius of a field
_GOAL = 12  # half the side of a goal's square
_RING = 4  # how far the crossing's ring stands off its field
_STONE = 6.5  # the radius of a stone, inside a white ring
_STONE_RING = 2
_PITCH = 19  # between two stones waiting at the start, three to a row
_TRACK = 5  # the width of the track's line
_MARGIN = 10
_GAP = 3  # between a field and its number
_DIE = 26
_CAPTION = 64  # room under the board for the caption and the notation
# The size of the smallest text, field numbers and notation.
_SMALL_TEXT = 13
# A digit's width and height, as fractions of the text size, a little over those of
# the usual sans-serif faces, so that a number never comes closer than planned.
_DIGIT_WIDTH, _DIGIT_HEIGHT = 0.64, 0.74

Point = tuple[float, float]
_Box = tuple[float, float, float, float]  # left, top, right, bottom


@dataclass(frozen=True)
class BoardLayout:
    """Where a board's parts are drawn, in the drawing's units: the same for every state."""

    #: The drawing's width, and the height of the board above the caption.
    width: float
    height: float
    #: The centre of each field, by number, and the start (``"start"``).
    points: dict[int | str, Point]
    #: For each field, the point where its number is written: the middle of its baseline.
    labels: dict[int, Point]
    #: Whether the board was turned a quarter anticlockwise to fit.
    turned: bool


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


@functools.lru_cache(maxsize=64)
def board_layout(board: Board) -> BoardLayout:
    """Return where ``board``'s fields, start and field numbers are drawn.

    The points of :func:`board_points` are turned a quarter anticlockwise
    when the board is over 1.2 times as wide as it is tall, and scaled so that
    the drawing, numbers and start included, is at most :data:`WIDTH` wide.
    Each number goes on the side of its field that leaves it clearest of
    everything else drawn.

    >>> from tower.board import load_board
    >>> layout = board_layout(load_board('ours'))
    >>> layout.turned, layout.width <= WIDTH
    (True, True)
    """
    raw = board_points(board)
    xs, ys = [p[0] for p in raw.values()], [p[1] for p in raw.values()]
    turned = max(xs) - min(xs) > 1.2 * (max(ys) - min(ys))
    if turned:  # x becomes y, and y the reverse of x: the right-hand side goes up
        raw = {key: (y, -x) for key, (x, y) in raw.items()}
    left, top = min(p[0] for p in raw.values()), min(p[1] for p in raw.values())
    span = max(max(p[0] for p in raw.values()) - left, 1.0)
    scale = min(_MAX_SCALE, (WIDTH - 2 * _MARGIN - 2 * (_R + 20)) / span)
    for _ in range(4):
        points = {k: ((x - left) * scale, (y - top) * scale) for k, (x, y) in raw.items()}
        points["start"] = _clear_start(board, points)
        labels = _place_labels(board, points)
        boxes = [*_part_boxes(board, points), *(_label_box(board, n, labels[n]) for n in labels)]
        low_x, low_y = min(b[0] for b in boxes), min(b[1] for b in boxes)
        high_x, high_y = max(b[2] for b in boxes), max(b[3] for b in boxes)
        if high_x - low_x <= WIDTH - 2 * _MARGIN + 0.01:
            break
        extra = high_x - low_x - span * scale
        scale = max(scale * 0.5, (WIDTH - 2 * _MARGIN - extra) / span)
    width = max(_MIN_WIDTH, high_x - low_x + 2 * _MARGIN)
    dx = (width - (high_x - low_x)) / 2 - low_x
    dy = _MARGIN - low_y

    def moved(p: Point) -> Point:
        return (p[0] + dx, p[1] + dy)

    return BoardLayout(
        width,
        high_y - low_y + 2 * _MARGIN,
        {k: moved(p) for k, p in points.items()},
        {k: moved(p) for k, p in labels.items()},
        turned,
    )


def _part_boxes(board: Board, points: dict[int | str, Point]) -> list[_Box]:
    """Return the boxes of every field, goal and the start, stones and tower included."""
    goals = {c.goal for c in board.colours}
    boxes = []
    for number in board.fields:
        x, y = points[number]
        reach = _reach(board, number, goals)
        boxes.append((x - reach, y - reach, x + reach, y + reach))
    return [*boxes, *_start_boxes(points["start"])]


def _reach(board: Board, number: int, goals: set[int]) -> float:
    """Return how far from its centre a field, and what stands on it, may be drawn."""
    if number in goals:
        return _GOAL + 2  # two stones side by side reach a little past the square
    return _R + _RING + 1 if number == board.crossing else _R + 1


def _start_boxes(start: Point) -> list[_Box]:
    """Return the boxes of the tower and of the stones that may wait at the start (two rows)."""
    x, y = start
    ring = _STONE + _STONE_RING
    return [
        (x - 11, y - 36, x + 11, y),
        (x - ring, y + 13 - ring, x + 2 * _PITCH + ring, y + 13 + _PITCH + ring),
    ]


def _clear_start(board: Board, points: dict[int | str, Point]) -> Point:
    """Return where the start is drawn: at its point, or the nearest place clear of the board.

    The tower and the stones waiting at the start take room that a board's
    ``start`` point need not leave, so the start moves as little as it must,
    clear of every field and line but the ways in, which are drawn from it.
    """
    goals = {c.goal for c in board.colours}
    discs = [(points[n], _reach(board, n, goals)) for n in board.fields]
    lines = [line for line in _lines(board, points) if line[0] != points["start"]]
    x, y = points["start"]
    for radius in range(0, 200, 3):
        for k in range(16 if radius else 1):
            angle = math.pi / 2 + k * math.pi / 8
            at = (x + radius * math.cos(angle), y + radius * math.sin(angle))
            boxes = _start_boxes(at)
            clear = min(
                [_to_point(box, c) - r for c, r in discs for box in boxes]
                + [_to_segment(box, a, b) - half for a, b, half in lines for box in boxes]
            )
            if clear >= _GAP:
                return at
    return (x, y)


def _label_size(number: int) -> Point:
    return (len(str(number)) * _DIGIT_WIDTH * _SMALL_TEXT, _DIGIT_HEIGHT * _SMALL_TEXT)


def _label_box(board: Board, number: int, at: Point) -> _Box:
    """Return the box of a field's number written with its baseline's middle at ``at``."""
    w, h = _label_size(number)
    return (at[0] - w / 2, at[1] - h, at[0] + w / 2, at[1])


def _place_labels(board: Board, points: dict[int | str, Point]) -> dict[int, Point]:
    """Return where each field's number is written: beside it, clear of everything else.

    Sixteen places round each field are tried.  The fields with the fewest
    places clear of the fields, lines and start choose first; each takes the
    place clearest of those and of the numbers already placed, keeping within
    the board's width where it can.
    """
    goals = {c.goal for c in board.colours}
    discs = [(points[n], _reach(board, n, goals), n) for n in board.fields]
    lines = _lines(board, points)
    blocks = _start_boxes(points["start"])
    xs = [points[n][0] for n in board.fields]
    inside = (min(xs) - _R - 4, max(xs) + _R + 4)
    options: dict[int, list[tuple[_Box, float, float]]] = {}
    for number in board.fields:
        (cx, cy), own = points[number], _reach(board, number, goals) - 1
        w, h = _label_size(number)
        options[number] = []
        for k in range(16):
            angle = -math.pi / 2 + k * math.pi / 8
            ux, uy = math.cos(angle), math.sin(angle)
            if number in goals:  # the square's edge, along this direction
                own = _GOAL / max(abs(ux), abs(uy))
            reach = own + _GAP + (w / 2) * abs(ux) + (h / 2) * abs(uy)
            mx, my = cx + ux * reach, cy + uy * reach
            box = (mx - w / 2, my - h / 2, mx + w / 2, my + h / 2)
            clear = min(
                [_to_point(box, c) - r for c, r, n in discs if n != number]
                + [_to_segment(box, a, b) - half for a, b, half in lines]
                + [_between_boxes(box, block) for block in blocks]
            )
            outside = max(0.0, inside[0] - box[0], box[2] - inside[1])
            options[number].append((box, clear, outside))
    placed: dict[int, Point] = {}
    boxes: list[_Box] = []
    for number in sorted(board.fields, key=lambda n: (sum(o[1] >= 2 for o in options[n]), n)):
        scored = [
            (min(clear, *(_between_boxes(box, other) - 1 for other in boxes), 4.0), -out, -k)
            for k, (box, clear, out) in enumerate(options[number])
        ]
        k = -max(scored)[2]
        box = options[number][k][0]
        placed[number] = ((box[0] + box[2]) / 2, box[3])
        boxes.append(box)
    return placed


def _lines(board: Board, points: dict[int | str, Point]) -> list[tuple[Point, Point, float]]:
    """Return every straight piece of line drawn, with half its width."""
    out = [(points[a], points[b], _TRACK / 2) for a, b in itertools.pairwise(board.track)]
    for colour in board.colours:
        way: list[int | str] = ["start", *colour.way_in, board.track[colour.entry - 1]]
        out += [(points[a], points[b], 1.5) for a, b in itertools.pairwise(way)]
        out.append((points[board.track[colour.gate - 1]], points[colour.goal], 1.5))
    return out


def _to_point(box: _Box, p: Point) -> float:
    dx = max(box[0] - p[0], 0.0, p[0] - box[2])
    dy = max(box[1] - p[1], 0.0, p[1] - box[3])
    return math.hypot(dx, dy)


def _between_boxes(a: _Box, b: _Box) -> float:
    dx = max(a[0] - b[2], 0.0, b[0] - a[2])
    dy = max(a[1] - b[3], 0.0, b[1] - a[3])
    return math.hypot(dx, dy)


def _to_segment(box: _Box, a: Point, b: Point) -> float:
    """Return the distance between a box and the segment from ``a`` to ``b`` (0 if they meet).

    A segment whose bounding box is over 8 units from the box is as far as
    that at least, and that is what is returned: no caller needs more.
    """
    around = (min(a[0], b[0]), min(a[1], b[1]), max(a[0], b[0]), max(a[1], b[1]))
    near = _between_boxes(box, around)
    if near > 8:
        return near
    corners = [(box[0], box[1]), (box[2], box[1]), (box[2], box[3]), (box[0], box[3])]
    edges = list(zip(corners, corners[1:] + corners[:1], strict=True))
    if _to_point(box, a) == 0 or any(_cross(a, b, c, d) for c, d in edges):
        return 0.0
    return min(
        _to_point(box, a),
        _to_point(box, b),
        *(_point_to_segment(c, a, b) for c in corners),
    )


def _cross(a: Point, b: Point, c: Point, d: Point) -> bool:
    """Return whether the segments a-b and c-d cross."""

    def side(p: Point, q: Point, r: Point) -> float:
        return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])

    return side(a, b, c) * side(a, b, d) <= 0 and side(c, d, a) * side(c, d, b) <= 0


def _point_to_segment(p: Point, a: Point, b: Point) -> float:
    vx, vy = b[0] - a[0], b[1] - a[1]
    length = vx * vx + vy * vy
    t = (
        0.0
        if length == 0
        else max(0.0, min(1.0, ((p[0] - a[0]) * vx + (p[1] - a[1]) * vy) / length))
    )
    return math.hypot(p[0] - a[0] - t * vx, p[1] - a[1] - t * vy)


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
    layout = board_layout(board)
    points = layout.points

    def at(key: int | str) -> Point:
        return points[key]

    width = layout.width
    height = layout.height + _CAPTION
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
    out.append(
        f'<polyline points="{line}" fill="none" stroke="{_EDGE}" stroke-width="{_TRACK}" '
        f'stroke-linejoin="round"/>'
    )
    for colour in board.colours:
        path: list[int | str] = ["start", *colour.way_in, board.track[colour.entry - 1]]
        points_text = " ".join(f"{at(n)[0]:.1f},{at(n)[1]:.1f}" for n in path)
        out.append(
            f'<polyline points="{points_text}" fill="none" stroke="{colour.paint}" '
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
            f'<rect x="{x - _GOAL:.1f}" y="{y - _GOAL:.1f}" width="{2 * _GOAL}" '
            f'height="{2 * _GOAL}" rx="4" '
            if number in goals
            else f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{_R}" '
        )
        out.append(
            f'<g class="field" data-field="{number}">{shape}fill="{fill}" stroke="{_INK}" '
            f'stroke-width="{2.5 if number == board.crossing else 1.2}"/>'
        )
        if f.star:
            out.append(
                f'<polygon points="{_star(x, y, _R * 0.8)}" fill="#e8b100" stroke="{_INK}"/>'
            )
        if number == board.crossing:
            out.append(
                f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{_R + _RING}" fill="none" '
                f'stroke="{_INK}" stroke-dasharray="3 3"/>'
            )
        lx, ly = layout.labels[number]
        out.append(
            f'<text x="{lx:.1f}" y="{ly:.1f}" font-size="{_SMALL_TEXT}" text-anchor="middle" '
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
                x, y = x - 4.5 + 9 * in_goal, y
                in_goal += 1
            out.append(_stone(x, y, fill, p, place))
    base = layout.height + 24
    if state.dice is not None:
        for k, value in enumerate(state.dice):
            out.append(_die(width - _MARGIN - (2 - k) * (_DIE + 8) + 8, base - 18, value))
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
        f'<text x="{_MARGIN}" y="{base + 24:.1f}" font-size="{_SMALL_TEXT}" fill="{_INK}" '
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
        f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{_STONE + _STONE_RING}" fill="#ffffff" '
        f'stroke="{_INK}" stroke-width="1.2"/>'
        f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{_STONE}" fill="{fill}"/></g>'
    )


def _start(state: State, point: Point) -> list[str]:
    """Return the start, with the stones waiting there, and the tower with its stone."""
    config = state.config
    x, y = point
    out = [
        f'<g class="tower" data-player="{"" if state.tower is None else state.tower}">'
        f'<rect x="{x - 10:.1f}" y="{y - 30:.1f}" width="20" height="30" fill="#b8ab92" '
        f'stroke="{_INK}"/>',
        f'<path d="M{x - 10:.1f} {y - 30:.1f} v-5 h5 v5 h5 v-5 h5 v5 h5 v-5" fill="none" '
        f'stroke="{_INK}"/></g>',
    ]
    if state.tower is not None:
        paint = config.board.colour(config.colours[state.tower]).paint
        out.append(_stone(x, y - 15, paint, state.tower, "tower"))
    waiting = [p for p, places in enumerate(state.stones) for place in places if place == 0]
    for k, p in enumerate(waiting):
        paint = config.board.colour(config.colours[p]).paint
        out.append(_stone(x + _PITCH * (k % 3), y + 13 + _PITCH * (k // 3), paint, p, 0))
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
