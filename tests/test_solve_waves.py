"""The waves of the solve and the cluster plan built on them, without Ray.

The standard board's waves are counted by a formula over its columns
(:func:`cantstop.solve.report.full_waves`); on the scaled boards the same
formula must give the waves :func:`cantstop.solve.waves.waves` lists, and
the anchors and in-turn positions the committed solves counted.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from tests.extras import require

require("numba")

from cantstop.commands import main  # noqa: E402
from cantstop.solve.family import scaled_rules  # noqa: E402
from cantstop.solve.report import cluster_plan, full_board, full_waves, plan  # noqa: E402
from cantstop.solve.waves import tasks, waves  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
ROWS = [
    json.loads(line)
    for line in (ROOT / "benchmarks/solitaire.jsonl").read_text(encoding="utf-8").splitlines()
]


@pytest.mark.parametrize("k", [1, 2, 3, 4])
def test_the_counted_waves_are_the_listed_ones(k: int) -> None:
    rules = scaled_rules(k)
    counted = full_waves(list(rules.heights.values()))
    assert [len(wave) for wave in waves(rules)] == [anchors for _, anchors, _ in counted]


@pytest.mark.parametrize("row", ROWS, ids=[f"board {row['k']}" for row in ROWS])
def test_the_counted_waves_hold_the_anchors_and_positions_each_solve_counted(row: dict) -> None:  # type: ignore[type-arg]
    counted = full_waves(row["heights"])
    assert sum(anchors for _, anchors, _ in counted) == row["anchors"]
    assert sum(positions for _, _, positions in counted) == row["positions"]


def test_a_wave_depends_only_on_waves_with_more_squares() -> None:
    """Each wave holds one total of squares, and every anchor of a game going on is in one."""
    rules = scaled_rules(2)
    heights = list(rules.heights.values())
    listed = waves(rules)
    totals = [
        {sum(n // math.prod(h + 1 for h in heights[i + 1 :]) % (heights[i] + 1)
             for i in range(len(heights))) for n in wave.tolist()}
        for wave in listed
    ]  # fmt: skip
    assert all(len(total) == 1 for total in totals)
    assert [total.pop() for total in totals] == sorted(
        {t for t, _, _ in full_waves(heights)}, reverse=True
    )
    assert (
        sorted(tasks(listed[2], 50)[-1].tolist(), reverse=True) == listed[2][-(139 % 50) :].tolist()
    )


def test_the_standard_board_plan_adds_up() -> None:
    row = max(ROWS, key=lambda r: r["positions"])
    every, going, positions = full_board()
    figures = cluster_plan(row, nodes=64, cores=32, task_anchors=4096)
    assert sum(a for _, a, _ in full_waves()) == going
    assert sum(p for _, _, p in full_waves()) == positions
    # Every anchor solved: twice the mirror-halved core-hours of the first plan.
    assert figures["core_hours"] == pytest.approx(2 * plan(row)["core_hours"])
    # The waves run one after another: no faster than the cores share the work.
    assert figures["wall_hours"] >= figures["core_hours"] / (64 * 32)
    assert figures["values_gib"] == 8 * every / 2**30
    assert figures["checkpoint_gib"] == 8 * going / 2**30
    assert figures["tasks"] >= going / 4096


def test_the_report_command_prints_a_named_clusters_plan(
    capsys: pytest.CaptureFixture[str],
) -> None:
    rows = str(ROOT / "benchmarks/solitaire.jsonl")
    assert main(["solve", "report", rows, "--nodes", "8", "--cores", "16"]) == 0
    out = capsys.readouterr().out
    assert "on 8 nodes of 16 cores, tasks of at most 4,096 anchors" in out
    assert "| checkpoint volume (8 bytes per anchor solved) | 45.2 GiB |" in out
    assert main(["solve", "report", rows]) == 2
    assert "--nodes" in capsys.readouterr().err
    assert main(["solve", "report", rows, "--nodes", "8"]) == 2
    assert "--cores" in capsys.readouterr().err
