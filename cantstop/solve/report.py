"""The solitaire table's page parts: the Markdown table and the plot of the gap, from the rows.

The rows are the JSON lines that ``python -m cantstop solve table`` writes
(:func:`cantstop.commands.solve.table_row`); :func:`markdown_table` and
:func:`gap_svg` turn them into the table and the picture of the
documentation page "Solving solitaire", and :func:`plan` extrapolates the
cost of the standard board from the largest row, :func:`cluster_plan` the
run of its waves on a named cluster.  ``python -m cantstop solve report
ROWS --table FILE --svg FILE --plan FILE`` writes the files, and ``--nodes N
--cores C`` prints the cluster's plan; a test checks that the committed
files are what the committed rows give.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from cantstop import MARKERS, STANDARD_HEIGHTS

__all__ = [
    "cluster_markdown",
    "cluster_plan",
    "full_board",
    "full_waves",
    "gap_svg",
    "kernel_cost",
    "laid_out_positions",
    "markdown_table",
    "plan",
    "plan_markdown",
]

Row = dict[str, Any]

#: The rows' file of the documentation page.
ROWS = "benchmarks/solitaire.jsonl"
#: The cluster the documentation page plans for: nodes, and cores per node.
NODES, CORES = 64, 32


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


def laid_out_positions(heights: Sequence[int]) -> tuple[int, int]:
    """Return a board's in-turn positions of games going on, and those whose rolls are laid out.

    The solver lays out the rolls of a turn's start and of every position
    whose stop does not win (``cantstop.solve._policy.BARE``): the columns
    won, with those a marker tops, fewer than three.  Its cost grows with
    these; the others cost next to nothing.

    >>> laid_out_positions([1, 1, 2, 2, 3, 3, 3, 2, 2, 1, 1])  # scaled board 3
    (5181822, 859320)
    >>> going, laid = laid_out_positions(list(STANDARD_HEIGHTS.values()))
    >>> going == full_board()[2], round(laid / going, 3)
    (True, 0.799)
    """
    # Per (won columns, won or topped columns, both capped at 3; markers): positions.
    table: dict[tuple[int, int, int], int] = {(0, 0, 0): 1}
    for h in heights:
        nxt: dict[tuple[int, int, int], int] = {}
        for (won, closed, markers), count in table.items():
            for square in range(h + 1):
                options = []
                if square == h:
                    options.append(((min(won + 1, 3), min(closed + 1, 3), markers), 1))
                else:
                    options.append(((won, closed, markers), 1))
                    if markers < MARKERS:
                        room = h - square
                        options.append(((won, closed, markers + 1), room - 1))
                        options.append(((won, min(closed + 1, 3), markers + 1), 1))
                for key, ways in options:
                    if ways:
                        nxt[key] = nxt.get(key, 0) + count * ways
        table = nxt
    going = sum(count for (won, _, _), count in table.items() if won < 3)
    laid = sum(
        count
        for (won, closed, markers), count in table.items()
        if won < 3 and (markers == 0 or closed < 3)
    )
    return going, laid


def kernel_cost(row: Row) -> tuple[float, float]:
    """Return the kernel's seconds per laid-out position of ``row``, and per standard position.

    The first is the row's CPU seconds less the engine's (the engine's
    answers fill a table of bounded size once: they do not grow with the
    board) over its laid-out positions (:func:`laid_out_positions`); the
    second spreads that cost over the standard board's in-turn positions,
    of which a larger share is laid out than of any scaled board's.
    """
    _, laid = laid_out_positions(row["heights"])
    per_laid = (row["seconds"] - row.get("engine_seconds", 0.0)) / laid
    going, standard = laid_out_positions(list(STANDARD_HEIGHTS.values()))
    return per_laid, per_laid * standard / going


def full_waves(heights: Sequence[int] | None = None) -> list[tuple[int, int, int]]:
    """Return a board's waves: (squares in all, anchors, in-turn positions), the most squares first.

    A wave is the anchors of games still going on (fewer than three won
    columns) with the same squares in all (:func:`cantstop.solve.waves.waves`);
    ``heights`` are the columns' (by default the standard board's), and the
    sums over the standard board's waves are :func:`full_board`'s.

    >>> waves = full_waves()
    >>> len(waves), waves[0][0], waves[-1]  # the empty board: one anchor, 70,224 positions
    (75, 74, (0, 1, 70224))
    >>> sum(a for _, a, _ in waves) == full_board()[1]
    True
    """
    # Per (won columns capped at 3, squares in all): anchors and the
    # elementary symmetric sums of the open columns' rooms, up to three markers.
    table: dict[tuple[int, int], tuple[int, list[int]]] = {(0, 0): (1, [1] + [0] * MARKERS)}
    for h in STANDARD_HEIGHTS.values() if heights is None else heights:
        nxt: dict[tuple[int, int], tuple[int, list[int]]] = {}
        for (won, total), (count, sums) in table.items():
            for square in range(h + 1):
                key = (min(won + (square == h), 3), total + square)
                old_count, old = nxt.get(key, (0, [0] * (MARKERS + 1)))
                room = h - square
                new = [
                    old[j] + sums[j] + (room * sums[j - 1] if j and room else 0)
                    for j in range(MARKERS + 1)
                ]
                nxt[key] = (old_count + count, new)
        table = nxt
    by_total: dict[int, tuple[int, int]] = {}
    for (won, total), (count, sums) in table.items():
        if won < 3:
            anchors, positions = by_total.get(total, (0, 0))
            by_total[total] = (anchors + count, positions + sum(sums))
    return [(t, *by_total[t]) for t in sorted(by_total, reverse=True)]


def cluster_plan(row: Row, nodes: int, cores: int, task_anchors: int = 4096) -> dict[str, float]:
    """Return the run plan of the standard board's waves on ``nodes`` nodes of ``cores`` cores.

    The run is the one :func:`cantstop.solve.distributed.solve_waves_on_ray`
    makes: every anchor of a game still going on (no mirror symmetry), in
    waves by squares in all, tasks of at most ``task_anchors`` anchors, the
    kernel's cost per position that of ``row`` (as :func:`plan` takes it).
    A wave's wall time is its rounds of tasks (tasks over cores) times its
    mean task.  Memory: the values array, 8 bytes for every anchor number,
    held once per node in the object store; each running task copies it
    (``solve_part`` works on its own copy) and holds the move table, whose
    size is taken from ``row`` (its arrays less its values).  The driver
    holds the values, the wave's copy and the copy it puts in the store.
    The checkpoint keeps 8 bytes per anchor solved.
    """
    every, going, positions = full_board()
    per_position = kernel_cost(row)[1]
    slots = nodes * cores
    values = 8 * every
    small = 1
    for h in row["heights"]:
        small *= h + 1
    table = max(0, row["array_bytes"] - 8 * small)
    tasks = 0
    wall = 0.0
    largest = 0
    waves = full_waves()
    for _, anchors, wave_positions in waves:
        count = math.ceil(anchors / task_anchors)
        tasks += count
        largest = max(largest, count)
        wall += math.ceil(count / slots) * wave_positions / count * per_position
    return {
        "nodes": nodes,
        "cores": cores,
        "task_anchors": task_anchors,
        "us_per_position": 1e6 * per_position,
        "core_hours": positions * per_position / 3600,
        "waves": len(waves),
        "tasks": tasks,
        "largest_wave_tasks": largest,
        "wall_hours": wall / 3600,
        "values_gib": values / 2**30,
        "node_gib": (values * (1 + cores) + table * cores) / 2**30,
        "node_gib_without_copy": (values + table * cores) / 2**30,
        "driver_gib": 3 * values / 2**30,
        "checkpoint_gib": 8 * going / 2**30,
        "broadcast_tib": len(waves) * nodes * values / 2**40,
    }


def cluster_markdown(row: Row, nodes: int, cores: int, task_anchors: int = 4096) -> str:
    """Return :func:`cluster_plan`'s figures as a Markdown table."""
    f = cluster_plan(row, nodes, cores, task_anchors)
    return (
        f"| the standard board on {nodes} nodes of {cores} cores, tasks of at most "
        f"{task_anchors:,} anchors | figure |\n| --- | ---: |\n"
        f"| kernel per in-turn position, from its cost per laid-out position on board "
        f"{row['k']} | {f['us_per_position']:.2f} µs |\n"
        f"| CPU core-hours, every anchor (no mirror symmetry) | {f['core_hours']:,.0f} |\n"
        f"| waves (squares in all, {f['waves'] - 1} down to 0) | {f['waves']:,} |\n"
        f"| tasks in all; in the largest wave | {f['tasks']:,}; {f['largest_wave_tasks']:,} |\n"
        f"| wall-clock hours, waves one after another | {f['wall_hours']:,.1f} |\n"
        f"| the values array (8 bytes per anchor number) | {f['values_gib']:,.1f} GiB |\n"
        f"| memory per node: the shared values and one copy per running task "
        f"| {f['node_gib']:,.0f} GiB |\n"
        f"| memory per node if a task did not copy the values "
        f"| {f['node_gib_without_copy']:,.1f} GiB |\n"
        f"| memory of the driver: values, the wave's copy, the store's copy "
        f"| {f['driver_gib']:,.1f} GiB |\n"
        f"| checkpoint volume (8 bytes per anchor solved) | {f['checkpoint_gib']:,.1f} GiB |\n"
        f"| values sent to the nodes, one array per node per wave "
        f"| {f['broadcast_tib']:,.1f} TiB |\n"
    )


def plan(row: Row, cores_per_node: int = 64) -> dict[str, float]:
    """Return the standard board's cost extrapolated from a table row's cost per position.

    The kernel's cost per laid-out position (:func:`kernel_cost`: its CPU
    seconds, Newton's passes included, less the engine's table answers, a
    bounded one-off cost) is taken to hold on the standard board; the
    mirror symmetry (column ``c`` and ``14 - c`` have the same height) halves
    anchors and positions.  Memory is the values of every anchor, 8 bytes
    each, which every node holds for the stages that read them.
    """
    _, going, positions = full_board()
    per_laid, per_position = kernel_cost(row)
    core_hours = positions / 2 * per_position / 3600
    return {
        "anchors": going,
        "anchors_mirrored": going / 2,
        "positions": positions,
        "positions_mirrored": positions / 2,
        "us_per_position": 1e6 * per_position,
        "us_per_laid_out_position": 1e6 * per_laid,
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
    _, laid = laid_out_positions(row["heights"])
    going, standard = laid_out_positions(list(STANDARD_HEIGHTS.values()))
    return (
        f"Measured on board {row['k']}, the largest solved: {row['seconds']:,.1f} CPU seconds "
        f"for {row['anchors']:,} anchors and {row['positions']:,} in-turn positions, that is "
        f"{per_anchor:,.0f} microseconds per anchor (the engine's table answers included). "
        f"The kernel lays out the rolls of {laid:,} of those positions "
        f"({100 * laid / row['positions']:.0f}%; the others' stop wins), at "
        f"{figures['us_per_laid_out_position']:.2f} microseconds each (Newton's passes "
        f"included); on the standard board it would lay out {100 * standard / going:.0f}% "
        f"of the positions, {figures['us_per_position']:.2f} microseconds per position.\n\n"
        f"| the standard board | figure |\n| --- | ---: |\n"
        f"| anchors of a game still going on | {figures['anchors']:,} |\n"
        f"| the same under the mirror symmetry | {figures['anchors_mirrored']:,.0f} |\n"
        f"| in-turn positions, under the symmetry | {figures['positions_mirrored']:,.0f} |\n"
        f"| CPU core-hours at the measured cost | {figures['core_hours']:,.0f} |\n"
        f"| cores for a one-day run | {figures['cores_for_one_day']:,.0f} |\n"
        f"| 64-core nodes for a one-day run | {figures['nodes_for_one_day']:,} |\n"
        f"| the values, 8 bytes per anchor, under the symmetry | "
        f"{figures['values_gib_mirrored']:,.1f} GiB |\n\n"
        f"The run as coded (`cantstop.solve.distributed.solve_waves_on_ray`), "
        f"from `python -m cantstop solve report {ROWS} --nodes {NODES} --cores {CORES}`:\n\n"
        + cluster_markdown(row, NODES, CORES)
    )
