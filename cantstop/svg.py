"""Board pictures: a state or a roll as a standalone SVG document.

The picture of a state shows the mountain of columns (space 1 at the bottom,
the top space at the top of each column), every player's squares in that
player's colour, the neutral markers as white discs with a dark rim, won
columns filled in the owner's colour, and the dice of a state that is choosing
a move.  A caption says whose turn it is and the state's notation (N1) is
written under the caption and in the ``<title>``.

Every drawn piece carries ``data-`` attributes (``data-column``,
``data-space``, ``data-player``, ``data-value``) and a ``class`` (``space``,
``square``, ``marker``, ``die``), so that a program can find it again; the
root element has the class ``cantstop-board`` or ``cantstop-dice``.  The
module needs nothing outside the standard library.

>>> from cantstop import parse_state
>>> picture = state_svg(parse_state('7:2/- 7:3,10:1 0c2346'))
>>> picture.startswith('<svg xmlns="http://www.w3.org/2000/svg" class="cantstop-board"')
True
>>> picture.count('class="marker"'), picture.count('class="die"')
(2, 4)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from xml.sax.saxutils import escape, quoteattr

from cantstop.actions import InvalidActionValue
from cantstop.notation import format_state
from cantstop.state import Phase, State
from dicekit import svgparts
from dicekit.svgparts import FONT as _FONT
from dicekit.svgparts import INK as _INK
from dicekit.svgparts import MONO as _MONO
from dicekit.svgparts import MUTED as _MUTED
from dicekit.svgparts import PAPER as _PAPER
from dicekit.svgparts import SPACE_EDGE as _SPACE_EDGE
from dicekit.svgparts import SPACE_FILL as _SPACE_FILL
from dicekit.svgparts import num as _num

__all__ = ["PLAYER_COLOURS", "PLAYER_NAMES", "dice_svg", "state_svg"]

#: The colour of each player's squares, player 0 first (red, blue, green, amber).
PLAYER_COLOURS: tuple[str, ...] = svgparts.PLAYER_COLOURS
#: The name of each player's colour, as the captions and legends write it.
PLAYER_NAMES: tuple[str, ...] = svgparts.PLAYER_NAMES

_TOP_EDGE = "#7d6b4a"

_CELL_W = 28  # width of a space
_PITCH = 32  # horizontal distance between two columns
_MAX_CELL_H = 22  # height of a space on a board whose tallest column fits
_BOARD_H = 300  # the most height the spaces of one column may take
_MIN_WIDTH = 340  # the least width of the drawing area, so that the caption fits
_MARGIN = 12
_DIE = 26
_DIE_GAP = 6

# Text sizes, in user units.  A page shows a board at 300 CSS pixels wide or
# more, about 0.8 of the drawing's width on the standard board, so the
# smallest text (14) is still 11 pixels or more on the page.
_CAPTION_SIZE = 17
_NOTATION_SIZE = 14
_LABEL_SIZE = 16
_LEGEND_SIZE = 14
_MONO_ADVANCE = 0.6  # the width of a monospace character, as a fraction of its size
_NOTATION_LINE = 18  # distance between the baselines of two notation lines
_LEGEND_ROW = 22
_PLAYER_ENTRY = 92  # width of one player's entry in the legend
_MARKER_ENTRY = 76  # width of the marker's entry in the legend


def _tint(colour: str, amount: float) -> str:
    """Mix ``colour`` (``#rrggbb``) with white; ``amount`` 0 is white, 1 the colour."""
    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    mixed = (round(255 - (255 - c) * amount) for c in (r, g, b))
    return "#" + "".join(f"{c:02x}" for c in mixed)


def _colour(player: int) -> str:
    return PLAYER_COLOURS[player % len(PLAYER_COLOURS)]


def _check_dice(dice: Sequence[int]) -> None:
    for die in dice:
        if not isinstance(die, int) or isinstance(die, bool) or not 1 <= die <= 6:
            raise InvalidActionValue(f"a die shows 1 to 6, not {die!r}", "R4.1")


def _die(x: float, y: float, value: int, size: float = _DIE) -> list[str]:
    """Return the elements of one die whose top left corner is at (x, y)."""
    return svgparts.die(x, y, value, size, _INK, size * 0.2, "pip")


def _document(kind: str, width: float, height: float, title: str, body: list[str]) -> str:
    label = quoteattr(title)
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="cantstop-{kind}" width="{_num(width)}" '
        f'height="{_num(height)}" viewBox="0 0 {_num(width)} {_num(height)}" '
        f'role="img" aria-label={label}>'
    )
    return "\n".join([head, f"<title>{escape(title)}</title>", *body, "</svg>"]) + "\n"


def dice_svg(dice: Sequence[int]) -> str:
    """Return a standalone SVG document showing ``dice`` in a row, in the given order.

    A die outside 1 to 6 raises :class:`~cantstop.InvalidActionValue` (R4.1).

    >>> picture = dice_svg((3, 4, 5, 5))
    >>> picture.count('class="die"'), picture.count('class="pip"')
    (4, 17)
    >>> dice_svg((3, 7))
    Traceback (most recent call last):
    ...
    cantstop.actions.InvalidActionValue: a die shows 1 to 6, not 7 (rule R4.1)
    """
    _check_dice(dice)
    pad = 4
    width = pad * 2 + len(dice) * _DIE + max(len(dice) - 1, 0) * _DIE_GAP
    height = pad * 2 + _DIE
    body: list[str] = []
    for index, value in enumerate(dice):
        body.extend(_die(pad + index * (_DIE + _DIE_GAP), pad, value))
    return _document("dice", width, height, "dice " + "-".join(map(str, dice)), body)


def _caption(state: State) -> str:
    player = state.player
    who = f"Player {player} ({PLAYER_NAMES[player % len(PLAYER_NAMES)]})"
    if state.phase is Phase.ROLL:
        return f"{who} to roll"
    if state.phase is Phase.CHOOSE:
        return f"{who} to choose a move"
    if state.phase is Phase.DECIDE:
        return f"{who} to roll again or stop"
    return f"{who} has won"


def state_svg(state: State, *, dice: bool = True) -> str:
    """Return a standalone SVG document picturing ``state``.

    ``dice`` draws the dice of a state that is choosing a move (phase
    ``CHOOSE``); other phases have no dice on the table.  The ``<title>`` holds
    the caption and the state's notation.

    >>> from cantstop import parse_state
    >>> picture = state_svg(parse_state('7:13,8:11,9:9/6:2 - 0x'))
    >>> picture.count('class="square"'), picture.count('class="column won"')
    (4, 3)
    >>> 'Player 0 (red) has won' in picture
    True
    """
    heights = state.rules.heights
    columns = list(heights)
    tallest = max(heights.values())
    cell_h = min(float(_MAX_CELL_H), _BOARD_H / tallest)
    mountain_h = cell_h * tallest
    shown_dice = state.dice if dice and state.dice is not None else None
    players = state.rules.players

    board_w = len(columns) * _PITCH - (_PITCH - _CELL_W)
    inner = max(board_w, _MIN_WIDTH)
    width = inner + 2 * _MARGIN
    left = (width - board_w) / 2
    notation = format_state(state)
    lines = _wrap(notation, int(inner // (_NOTATION_SIZE * _MONO_ADVANCE)))
    top = _MARGIN + 30 + _NOTATION_LINE * len(lines)  # the top edge of the mountain
    base = top + mountain_h  # the bottom edge of space 1
    legend = _legend_rows(players, inner)
    legend_y = base + 38
    # Room for the dice is kept in every phase, so that the pictures of one
    # game before and after a roll have the same size and scale.
    dice_y = legend_y + _LEGEND_ROW * len(legend) + 4
    height = dice_y + _DIE + _MARGIN

    caption = _caption(state)
    body: list[str] = [
        f'<rect class="background" x="0" y="0" width="{_num(width)}" height="{_num(height)}" '
        f'rx="10" fill="{_PAPER}" stroke="#ddd3bf"/>',
        f'<text class="caption" x="{_MARGIN}" y="{_MARGIN + _CAPTION_SIZE}" '
        f'font-size="{_CAPTION_SIZE}" font-weight="600" fill="{_INK}" '
        f'style="{_FONT}">{escape(caption)}</text>',
    ]
    for index, line in enumerate(lines):
        body.append(
            f'<text class="notation" x="{_MARGIN}" '
            f'y="{_MARGIN + _CAPTION_SIZE + 22 + index * _NOTATION_LINE}" '
            f'font-size="{_NOTATION_SIZE}" fill="{_MUTED}" style="{_MONO}">{escape(line)}</text>'
        )

    def space_y(space: int) -> float:
        """Return the top edge of ``space``."""
        return base - space * cell_h

    for index, column in enumerate(columns):
        x = left + index * _PITCH
        height_c = heights[column]
        owner = state.won.get(column)
        fill = _SPACE_FILL if owner is None else _tint(_colour(owner), 0.35)
        edge = _SPACE_EDGE if owner is None else _colour(owner)
        won = "" if owner is None else f' data-owner="{owner}"'
        body.append(
            f'<g class="column{"" if owner is None else " won"}" data-column="{column}"'
            f' data-height="{height_c}"{won}>'
        )
        inset = min(1.5, cell_h * 0.1)
        for space in range(1, height_c + 1):
            top_space = space == height_c
            body.append(
                f'<rect class="space" data-column="{column}" data-space="{space}" '
                f'x="{_num(x)}" y="{_num(space_y(space) + inset)}" width="{_CELL_W}" '
                f'height="{_num(cell_h - 2 * inset)}" rx="{_num(min(4, cell_h / 4))}" '
                f'fill="{fill}" stroke="{_TOP_EDGE if top_space and owner is None else edge}" '
                f'stroke-width="{1.4 if top_space else 0.8}"/>'
            )
        body.extend(_pieces(state, column, x, space_y, cell_h))
        label_y = base + 17
        circle_fill = "#ffffff" if owner is None else _colour(owner)
        text_fill = _INK if owner is None else "#ffffff"
        body.append(
            f'<circle cx="{_num(x + _CELL_W / 2)}" cy="{_num(label_y)}" r="13.5" '
            f'fill="{circle_fill}" stroke="{edge if owner is not None else _INK}" '
            f'stroke-width="1.2"/>'
        )
        body.append(
            f'<text class="label" x="{_num(x + _CELL_W / 2)}" y="{_num(label_y + 5.5)}" '
            f'font-size="{_LABEL_SIZE}" font-weight="700" text-anchor="middle" '
            f'fill="{text_fill}" style="{_FONT}">{column}</text>'
        )
        body.append("</g>")

    # The legend: one swatch per player, then the marker, in rows; the dice below, on the right.
    for row, entries in enumerate(legend):
        y = legend_y + row * _LEGEND_ROW
        x = float(_MARGIN)
        for player in entries:
            if player is None:
                body.append(
                    f'<circle cx="{_num(x + 6.5)}" cy="{_num(y + 6.5)}" r="6.5" fill="#ffffff" '
                    f'stroke="{_INK}" stroke-width="2"/>'
                )
                body.append(
                    f'<text class="legend" x="{_num(x + 19)}" y="{_num(y + 11.5)}" '
                    f'font-size="{_LEGEND_SIZE}" fill="{_INK}" style="{_FONT}">marker</text>'
                )
                x += _MARKER_ENTRY
                continue
            bold = ' font-weight="700"' if player == state.player else ""
            body.append(
                f'<rect class="swatch" x="{_num(x)}" y="{_num(y)}" width="13" height="13" '
                f'rx="2" fill="{_colour(player)}"/>'
            )
            body.append(
                f'<text class="legend" x="{_num(x + 19)}" y="{_num(y + 11.5)}" '
                f'font-size="{_LEGEND_SIZE}"{bold} fill="{_INK}" style="{_FONT}">'
                f"player {player}</text>"
            )
            x += _PLAYER_ENTRY
    if shown_dice is not None:
        dx = width - _MARGIN - (4 * _DIE + 3 * _DIE_GAP)
        for index, value in enumerate(shown_dice):
            body.extend(_die(dx + index * (_DIE + _DIE_GAP), dice_y, value))

    return _document("board", width, height, f"{caption}: {notation}", body)


def _wrap(text: str, limit: int) -> list[str]:
    """Split ``text`` into lines of at most ``limit`` characters.

    Lines break at spaces (which are dropped); a word longer than ``limit``
    also breaks after a comma or a slash, and a piece longer than ``limit``
    without either gets a line of its own.
    """
    lines: list[str] = []
    for word in text.split(" "):
        pieces = [word]
        if len(word) > limit:
            pieces = []
            for char in word:
                if not pieces or pieces[-1][-1:] in (",", "/"):
                    pieces.append("")
                pieces[-1] += char
        for index, piece in enumerate(pieces):
            joiner = " " if index == 0 else ""
            if lines and len(lines[-1]) + len(joiner) + len(piece) <= limit:
                lines[-1] += joiner + piece
            else:
                lines.append(piece)
    return lines


def _legend_rows(players: int, inner: float) -> list[list[int | None]]:
    """Lay out the legend's entries (players, then ``None`` for the marker) in rows."""
    rows: list[list[int | None]] = [[]]
    used = 0.0
    entries: list[int | None] = [*range(players), None]
    for entry in entries:
        size = _MARKER_ENTRY if entry is None else _PLAYER_ENTRY
        if rows[-1] and used + size > inner:
            rows.append([])
            used = 0.0
        rows[-1].append(entry)
        used += size
    return rows


def _pieces(
    state: State, column: int, x: float, space_y: Callable[[int], float], cell_h: float
) -> list[str]:
    """Return the squares and the marker in ``column``, side by side on a shared space."""
    by_space: dict[int, list[tuple[str, int]]] = {}
    for player, squares in enumerate(state.squares):
        if column in squares:
            by_space.setdefault(squares[column], []).append(("square", player))
    if column in state.markers:
        by_space.setdefault(state.markers[column], []).append(("marker", -1))
    parts: list[str] = []
    for space, pieces in sorted(by_space.items()):
        slot = _CELL_W / len(pieces)
        size = max(min(slot - 3, cell_h - 6, 15), 2.0)
        cy = space_y(space) + cell_h / 2
        for index, (kind, player) in enumerate(pieces):
            cx = x + slot * (index + 0.5)
            where = f'data-column="{column}" data-space="{space}"'
            if kind == "square":
                parts.append(
                    f'<rect class="square" data-player="{player}" {where} '
                    f'x="{_num(cx - size / 2)}" y="{_num(cy - size / 2)}" width="{_num(size)}" '
                    f'height="{_num(size)}" rx="{_num(size * 0.15)}" fill="{_colour(player)}" '
                    f'stroke="#ffffff" stroke-width="1"/>'
                )
            else:
                parts.append(
                    f'<circle class="marker" {where} cx="{_num(cx)}" cy="{_num(cy)}" '
                    f'r="{_num(size / 2)}" fill="#ffffff" stroke="{_INK}" '
                    f'stroke-width="{_num(min(2.5, size / 5))}"/>'
                )
    return parts
