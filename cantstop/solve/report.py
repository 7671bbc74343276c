"""The solitaire table's page parts: the Markdown table and the plot of the gap, from the rows.

The rows are the JSON lines that ``python -m cantstop solve table`` writes
(:func:`cantstop.commands.solve.table_row`); :func:`markdown_table` and
:func:`gap_svg` turn them into the table and the picture of the
documentation page "Solving solitaire", and :func:`plan` extrapolates the
cost of the standard board from the largest row.  ``python -m
cantstop solve report ROWS --table FILE --svg FILE --plan FILE`` writes the
files; a test checks that the committed files are what the committed rows give.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from cantstop import MARKERS, STANDARD_HEIGHTS

__all__ = ["full_board", "gap_svg", "markdown_table", "plan", "plan_markdown"]

Row = dict[str, Any]


def markdown_table(rows: Sequence[Row]) -> str:
    """Return the rows as a Markdown table, one board per line, then the commands of each row."""
    lines = [
        "| board | anchors | in-turn positions | solve, CPU s | memory, MiB | optimal "
        "| Rule of 28 | gap |",
        "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for row in rows:
        lines.append(
            f"| {row['k']} | {row['anchors']:,} | {row['positions']:,} | {row['seconds']:,.1f} "
            f"| {row['array_bytes'] / 2**20:,.0f} / {row['peak_bytes'] / 2**20:,.0f} "
            f"| {row['optimal']:.6f} | {row['rule28']:.6f} "
            f"| {row['gap']:.6f} ({100 * row['gap'] / row['optimal']:.1f}%) |"
        )
    lines.append("")
    for row in rows:
        heights = " ".join(str(h) for h in row["heights"])
        lines.append(
            f"- Board {row['k']} (heights {heights}): "
            f"`python -m cantstop solve board --scaled {row['k']}` and "
            f"`python -m cantstop solve evaluate --scaled {row['k']} --player rule28`"
        )
    return "\n".join(lines) + "\n"


def gap_svg(rows: Sequence[Row], width: int = 560, height: int = 300) -> str:
    """Return an SVG plot of the Rule of 28's gap to the optimum, in percent, by board."""
    left, right, top, bottom = 56, 16, 16, 44
    xs = [row["k"] for row in rows]
    ys = [100 * row["gap"] / row["optimal"] for row in rows]
    x_max = max([*xs, 2])
    y_max = max(5.0, math.ceil(max(ys, default=0.0) / 5) * 5)

    def px(k: float) -> float:
        return float(left + (k - 1) / max(1, x_max - 1) * (width - left - right))

    def py(v: float) -> float:
        return height - bottom - v / y_max * (height - top - bottom)

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
    ]
    for tick in range(0, int(y_max) + 1, 5):
        y = py(tick)
        parts.append(
            f'<line x1="{left}" y1="{y:.1f}" x2="{width - right}" y2="{y:.1f}" stroke="#ddd"/>'
        )
        parts.append(f'<text x="{left - 6}" y="{y + 4:.1f}" text-anchor="end">{tick}%</text>')
    for k in xs:
        parts.append(
            f'<text x="{px(k):.1f}" y="{height - bottom + 16}" text-anchor="middle">{k}</text>'
        )
    parts.append(
        f'<text x="{(left + width - right) / 2:.1f}" y="{height - 6}" text-anchor="middle">'
        "scaled board k (13 is the standard board)</text>"
    )
    parts.append(
        f'<text x="14" y="{(top + height - bottom) / 2:.1f}" text-anchor="middle" '
        f'transform="rotate(-90 14 {(top + height - bottom) / 2:.1f})">'
        "Rule of 28 above the optimum</text>"
    )
    points = " ".join(f"{px(k):.1f},{py(v):.1f}" for k, v in zip(xs, ys, strict=True))
    parts.append(f'<polyline points="{points}" fill="none" stroke="#b22" stroke-width="2"/>')
    for k, v in zip(xs, ys, strict=True):
        parts.append(f'<circle cx="{px(k):.1f}" cy="{py(v):.1f}" r="4" fill="#b22"/>')
        parts.append(
            f'<text x="{px(k):.1f}" y="{py(v) - 8:.1f}" text-anchor="middle">{v:.1f}%</text>'
        )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def full_board() -> tuple[int, int, int]:
    """Return the standard board's anchors, those of games still going on, and in-turn positions.

    >>> full_board()
    (7431782400, 6066786123, 61615574229069)
    """
    heights = list(STANDARD_HEIGHTS.values())
    # Per number of won columns (capped at 3): anchors and the elementary
    # symmetric sums of the open columns' rooms, up to three markers.
    table: dict[int, tuple[int, list[int]]] = {0: (1, [1] + [0] * MARKERS)}
    for h in heights:
        nxt: dict[int, tuple[int, list[int]]] = {}
        for won, (count, sums) in table.items():
            for square in range(h + 1):
                key = min(won + (square == h), 3)
                old_count, old = nxt.get(key, (0, [0] * (MARKERS + 1)))
                if square == h:
                    new = [a + b for a, b in zip(old, sums, strict=True)]
                else:
                    room = h - square
                    new = [
                        old[j] + sums[j] + (room * sums[j - 1] if j else 0)
                        for j in range(MARKERS + 1)
                    ]
                nxt[key] = (old_count + count, new)
        table = nxt
    every = sum(count for count, _ in table.values())
    going = sum(count for won, (count, _) in table.items() if won < 3)
    positions = sum(sum(sums) for won, (_, sums) in table.items() if won < 3)
    return every, going, positions


def plan(row: Row, cores_per_node: int = 64) -> dict[str, float]:
    """Return the standard board's cost extrapolated from a table row's cost per position.

    The kernel's cost per in-turn position (its CPU seconds over positions,
    Newton's passes included; the engine's table answers, a bounded one-off
    cost, left out) is taken to hold on the standard board; the
    mirror symmetry (column ``c`` and ``14 - c`` have the same height) halves
    anchors and positions.  Memory is the values of every anchor, 8 bytes
    each, which every node holds for the stages that read them.
    """
    _, going, positions = full_board()
    # The engine's answers fill a table of bounded size once: they do not grow with the board.
    per_position = (row["seconds"] - row.get("engine_seconds", 0.0)) / row["positions"]
    core_hours = positions / 2 * per_position / 3600
    return {
        "anchors": going,
        "anchors_mirrored": going / 2,
        "positions": positions,
        "positions_mirrored": positions / 2,
        "us_per_position": 1e6 * per_position,
        "core_hours": core_hours,
        "cores_for_one_day": core_hours / 24,
        "nodes_for_one_day": math.ceil(core_hours / 24 / cores_per_node),
        "values_gib": 8 * going / 2**30,
        "values_gib_mirrored": 4 * going / 2**30,
    }


def plan_markdown(rows: Sequence[Row]) -> str:
    """Return the plan's figures for the standard board, from the largest board of ``rows``."""
    row = max(rows, key=lambda r: r["positions"])
    figures = plan(row)
    per_anchor = 1e6 * row["seconds"] / row["anchors"]
    return (
        f"Measured on board {row['k']}, the largest solved: {row['seconds']:,.1f} CPU seconds "
        f"for {row['anchors']:,} anchors and {row['positions']:,} in-turn positions, that is "
        f"{per_anchor:,.0f} microseconds per anchor (the engine's table answers included) and "
        f"{figures['us_per_position']:.2f} microseconds of the kernel per in-turn position "
        f"(Newton's passes included).\n\n"
        f"| the standard board | figure |\n| --- | ---: |\n"
        f"| anchors of a game still going on | {figures['anchors']:,} |\n"
        f"| the same under the mirror symmetry | {figures['anchors_mirrored']:,.0f} |\n"
        f"| in-turn positions, under the symmetry | {figures['positions_mirrored']:,.0f} |\n"
        f"| CPU core-hours at the measured cost | {figures['core_hours']:,.0f} |\n"
        f"| cores for a one-day run | {figures['cores_for_one_day']:,.0f} |\n"
        f"| 64-core nodes for a one-day run | {figures['nodes_for_one_day']:,} |\n"
        f"| the values, 8 bytes per anchor, under the symmetry | "
        f"{figures['values_gib_mirrored']:,.1f} GiB |\n"
    )
