"""Board pictures: a state of the finish-line race as a standalone SVG document.

The picture shows the finish line across the top, the six rows under it
(row 1 first) with their numbers on the left and the cell letters A to D
above, every counter as a disc in its player's colour with the player's
number on it, and under the board one line per player with the counters in
hand and across.  A caption says whose turn it is (with the dice of a state
that is choosing) and the state's notation (N1) is written at the bottom and
in the ``<title>``.

Every drawn piece carries ``data-`` attributes (``data-cell``,
``data-player``, ``data-value``) and a ``class`` (``cell``, ``counter``,
``die``, ``hand``, ``across``), so that a program can find it again; the root
element has the class ``finishline-board``.

>>> from finishline.notation import parse_state
>>> picture = state_svg(parse_state('..../..0./..../..../01../...1 0/0 0c24'))
>>> picture.startswith('<svg xmlns="http://www.w3.org/2000/svg" class="finishline-board"')
True
>>> picture.count('class="counter"'), picture.count('class="cell"'), picture.count('class="die"')
(4, 24, 2)
"""

from __future__ import annotations

from xml.sax.saxutils import escape, quoteattr

from dicekit import svgparts
from dicekit.svgparts import FONT as _FONT
from dicekit.svgparts import INK as _INK
from dicekit.svgparts import MONO as _MONO
from dicekit.svgparts import MUTED as _MUTED
from dicekit.svgparts import PAPER as _PAPER
from dicekit.svgparts import SPACE_EDGE as _CELL_EDGE
from dicekit.svgparts import SPACE_FILL as _CELL_FILL
from dicekit.svgparts import num as _num
from finishline.board import CELLS, LETTERS
from finishline.notation import format_state
from finishline.state import Phase, State

__all__ = ["PLAYER_COLOURS", "PLAYER_NAMES", "state_svg"]

#: The colour of each player's counters, player 0 first (red, blue, green, amber).
PLAYER_COLOURS: tuple[str, ...] = svgparts.PLAYER_COLOURS
#: The name of each player's colour, as captions write it.
PLAYER_NAMES: tuple[str, ...] = svgparts.PLAYER_NAMES

_CELL = 44  # side of a cell
_GAP = 4  # space between cells
_LEFT = 40  # room for the row numbers
_MARGIN = 14
_WIDTH = _LEFT + 4 * _CELL + 3 * _GAP + 2 * _MARGIN + 120
_DIE = 26


def _colour(player: int) -> str:
    return PLAYER_COLOURS[player % len(PLAYER_COLOURS)]


def _text(
    x: float, y: float, body: str, size: int, *, style: str = _FONT, fill: str = _INK, **attrs: str
) -> str:
    """Return a text element; ``attrs`` become attributes, ``_`` written as ``-``."""
    extra = "".join(
        f" {key.rstrip('_').replace('_', '-')}={quoteattr(value)}" for key, value in attrs.items()
    )
    return (
        f'<text x="{_num(x)}" y="{_num(y)}" font-size="{size}" style="{style}" '
        f'fill="{fill}"{extra}>{escape(body)}</text>'
    )


def _die(x: float, y: float, value: int) -> list[str]:
    return svgparts.die(x, y, value, _DIE, _INK, 5)


def _caption(state: State) -> str:
    name = PLAYER_NAMES[state.player % len(PLAYER_NAMES)]
    if state.phase is Phase.OVER:
        return f"Player {state.player} ({name}) has won"
    if state.phase is Phase.CHOOSE:
        assert state.dice is not None
        return f"Player {state.player} ({name}) plays {state.dice[0]} and {state.dice[1]}"
    return f"Player {state.player} ({name}) to roll"


def state_svg(state: State) -> str:
    """Return the picture of ``state`` as a standalone SVG document."""
    notation = format_state(state)
    players = state.config.players
    top = _MARGIN + 30  # below the caption
    line_y = top + 26  # the finish line
    board_top = line_y + 24
    board_left = _MARGIN + _LEFT
    pitch = _CELL + _GAP
    board_bottom = board_top + 6 * pitch - _GAP
    legend_top = board_bottom + 18
    height = legend_top + players * 22 + 40
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="finishline-board" '
        f'width="{_WIDTH}" height="{height}" viewBox="0 0 {_WIDTH} {height}" '
        f"data-state={quoteattr(notation)}>",
        f"<title>{escape(notation)}</title>",
        f'<rect width="{_WIDTH}" height="{height}" fill="{_PAPER}"/>',
        _text(_MARGIN, _MARGIN + 18, _caption(state), 17, class_="caption"),
    ]
    if state.dice is not None:
        for i, value in enumerate(state.dice):
            parts += _die(_WIDTH - _MARGIN - (2 - i) * (_DIE + 6), _MARGIN, value)
    right = board_left + 4 * pitch - _GAP
    parts.append(
        f'<line class="finish-line" x1="{board_left}" y1="{line_y}" x2="{right}" '
        f'y2="{line_y}" stroke="{_INK}" stroke-width="3" stroke-dasharray="8 4"/>'
    )
    parts.append(_text(right + 8, line_y + 5, "finish", 14, fill=_MUTED))
    for i, letter in enumerate(LETTERS):
        x = board_left + i * pitch + _CELL / 2
        parts.append(_text(x, board_top - 8, letter, 14, text_anchor="middle"))
    for row in range(1, 7):
        y = board_top + (row - 1) * pitch
        parts.append(
            _text(_MARGIN + _LEFT / 2, y + _CELL / 2 + 5, str(row), 16, text_anchor="middle")
        )
    for cell in CELLS:
        x = board_left + "ABCD".index(cell.letter) * pitch
        y = board_top + (cell.row - 1) * pitch
        parts.append(
            f'<rect class="cell" data-cell="{cell.name}" x="{x}" y="{y}" width="{_CELL}" '
            f'height="{_CELL}" rx="4" fill="{_CELL_FILL}" stroke="{_CELL_EDGE}"/>'
        )
        owner = state.board[cell]
        if owner is not None:
            cx, cy = x + _CELL / 2, y + _CELL / 2
            parts.append(
                f'<g class="counter" data-cell="{cell.name}" data-player="{owner}">'
                f'<circle cx="{_num(cx)}" cy="{_num(cy)}" r="{_num(_CELL * 0.38)}" '
                f'fill="{_colour(owner)}" stroke="{_INK}" stroke-width="1.5"/>'
                + _text(cx, cy + 5, str(owner), 15, text_anchor="middle", fill="#ffffff")
                + "</g>"
            )
    for p in range(players):
        y = legend_top + p * 22
        name = PLAYER_NAMES[p % len(PLAYER_NAMES)]
        parts.append(
            f'<circle cx="{_MARGIN + 8}" cy="{y + 8}" r="7" fill="{_colour(p)}" stroke="{_INK}"/>'
        )
        parts.append(_text(_MARGIN + 22, y + 13, f"player {p} ({name})", 14))
        for x, kind, words, count in (
            (_MARGIN + 170, "hand", "in hand", state.hand[p]),
            (_MARGIN + 260, "across", "across", state.across[p]),
        ):
            parts.append(
                _text(
                    x,
                    y + 13,
                    f"{words} {count}",
                    14,
                    class_=kind,
                    data_player=str(p),
                    data_value=str(count),
                )
            )
    parts.append(_text(_MARGIN, height - 14, notation, 13, style=_MONO, class_="notation"))
    parts.append("</svg>")
    return "\n".join(parts)
