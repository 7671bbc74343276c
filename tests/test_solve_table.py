"""``cantstop solve table`` writing a row from a solve and an evaluation already made."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.extras import require

require("numba")

from cantstop.commands import main  # noqa: E402

#: Board 2's counts by hand: its heights are 1 1 1 1 2 2 2 1 1 1 1 (see the table's rows).
SOLVED_2 = {
    "start": 1.25,
    "anchors": 410,
    "positions": 81439,
    "seconds": 7.5,
    "engine_seconds": 2.5,
    "array_bytes": 1000,
    "peak_bytes": 2000,
    "entries": 30,
}


def _write(tmp_path: Path, name: str, obj: object) -> str:
    path = tmp_path / name
    path.write_text(json.dumps(obj), encoding="utf-8")
    return str(path)


def test_a_row_is_made_of_the_given_figures(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The figures given are the row's, the gap their difference: nothing is solved again."""
    solved = _write(tmp_path, "solved.json", SOLVED_2)
    evaluated = _write(
        tmp_path, "rule28.json", {"player": "rule28", "expected": 1.5, "seconds": 3.25}
    )
    out = tmp_path / "rows.jsonl"
    args = ["solve", "table", "--first", "2", "--last", "2", "--out", str(out)]
    assert main([*args, "--solved", solved, "--evaluated", evaluated]) == 0
    assert "board 2: optimal 1.250000, rule of 28 1.500000" in capsys.readouterr().out
    (row,) = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert row["k"] == 2
    assert row["heights"] == [1, 1, 1, 1, 2, 2, 2, 1, 1, 1, 1]
    assert (row["optimal"], row["rule28"], row["gap"]) == (1.25, 1.5, 0.25)
    assert (row["seconds"], row["engine_seconds"], row["rule28_seconds"]) == (7.5, 2.5, 3.25)
    assert (row["anchors"], row["positions"], row["entries"]) == (410, 81439, 30)
    assert (row["array_bytes"], row["peak_bytes"]) == (1000, 2000)


@pytest.mark.parametrize(
    ("board", "solved", "evaluated", "said"),
    [
        ("1-2", SOLVED_2, None, "give --first and --last the same board (got 1 and 2)"),
        ("3", SOLVED_2, None, "but scaled board 3 has 12,888 and 5,181,822"),
        ("2", {**SOLVED_2, "positions": 81440}, None, "but scaled board 2 has 410 and 81,439"),
        ("2", {"start": 1.0}, None, "the JSON object has no anchors, positions"),
        ("2", None, {"player": "greedy", "expected": 2.0, "seconds": 1.0}, "needs 'rule28'"),
        ("2", None, {"player": "rule28"}, "the JSON object has no expected, seconds"),
        ("2", None, "not JSON", "not a readable JSON file"),
    ],
)
def test_figures_not_of_the_board_are_refused(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    board: str,
    solved: object,
    evaluated: object,
    said: str,
) -> None:
    """Figures of another board or player, or of no solve at all: a usage error, status 2."""
    first, _, last = board.partition("-")
    out = tmp_path / "rows.jsonl"
    args = ["solve", "table", "--first", first, "--last", last or first, "--out", str(out)]
    for name, obj in (("--solved", solved), ("--evaluated", evaluated)):
        if obj is not None:
            path = tmp_path / f"{name[2:]}.json"
            path.write_text(obj if isinstance(obj, str) else json.dumps(obj), encoding="utf-8")
            args += [name, str(path)]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.startswith("cantstop solve: error: "), err
    assert said in err
    assert err.count("\n") == 1
    assert not out.exists()
