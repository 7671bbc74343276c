"""Pieces of the games' SVG pictures: the palette, numbers written short, and a die with its pips.

>>> num(12.0), num(3.456), num(-0.001)
('12', '3.46', '0')
>>> die(0, 0, 2, 20, "#222", 4)
['<g class="die" data-value="2">', '<rect x="0" y="0" width="20" height="20" rx="4" \
fill="#ffffff" stroke="#222" stroke-width="1.5"/>', '<circle cx="5.4" cy="5.4" r="1.8" \
fill="#222"/>', '<circle cx="14.6" cy="14.6" r="1.8" fill="#222"/>', '</g>']
"""

from __future__ import annotations

__all__ = [
    "FONT",
    "INK",
    "MONO",
    "MUTED",
    "PAPER",
    "PIPS",
    "PLAYER_COLOURS",
    "PLAYER_NAMES",
    "SPACE_EDGE",
    "SPACE_FILL",
    "die",
    "num",
]

#: The colour of each seat's pieces, seat 0 first (red, blue, green, amber).
PLAYER_COLOURS: tuple[str, ...] = ("#d1342c", "#2b6cc4", "#23934a", "#e0a100")
#: The name of each seat's colour, as captions and legends write it.
PLAYER_NAMES: tuple[str, ...] = ("red", "blue", "green", "amber")

#: The ink of lines and text.
INK = "#2d2a26"
#: The paper behind a picture.
PAPER = "#fbf8f1"
#: The fill of a plain space of a board.
SPACE_FILL = "#efe6d2"
#: The edge of a plain space of a board.
SPACE_EDGE = "#b9a988"
#: The colour of quiet text: labels and notes.
MUTED = "#6b645a"
#: The font of ordinary text.
FONT = "font-family:system-ui,-apple-system,'Segoe UI',Helvetica,Arial,sans-serif"
#: The font of text in a game's notation.
MONO = "font-family:ui-monospace,'DejaVu Sans Mono',Menlo,Consolas,monospace"

#: The pips of each face of a die, as fractions of its side from the top left corner.
PIPS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0.5, 0.5),),
    2: ((0.27, 0.27), (0.73, 0.73)),
    3: ((0.27, 0.27), (0.5, 0.5), (0.73, 0.73)),
    4: ((0.27, 0.27), (0.73, 0.27), (0.27, 0.73), (0.73, 0.73)),
    5: ((0.27, 0.27), (0.73, 0.27), (0.5, 0.5), (0.27, 0.73), (0.73, 0.73)),
    6: ((0.27, 0.25), (0.73, 0.25), (0.27, 0.5), (0.73, 0.5), (0.27, 0.75), (0.73, 0.75)),
}


def num(value: float) -> str:
    """Write a coordinate with at most two decimals and no trailing zeros."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def die(
    x: float, y: float, value: int, size: float, ink: str, corner: float, pip_class: str = ""
) -> list[str]:
    """Return the elements of a die showing ``value``, its top left corner at (x, y).

    A white square of side ``size`` with corners rounded by ``corner`` and
    pips in ``ink``; each pip carries the class ``pip_class`` when one is given.
    """
    parts = [
        f'<g class="die" data-value="{value}">',
        f'<rect x="{num(x)}" y="{num(y)}" width="{num(size)}" height="{num(size)}" '
        f'rx="{num(corner)}" fill="#ffffff" stroke="{ink}" stroke-width="1.5"/>',
    ]
    pip = f' class="{pip_class}"' if pip_class else ""
    for px, py in PIPS[value]:
        parts.append(
            f'<circle{pip} cx="{num(x + px * size)}" cy="{num(y + py * size)}" '
            f'r="{num(size * 0.09)}" fill="{ink}"/>'
        )
    parts.append("</g>")
    return parts
