"""The benchmark commands: what they write and where, and that they run (nothing here is timed).

* ``python -m benchmarks`` prints its table and writes the figures only
  when asked: ``--json FILE``, or ``--write`` for the committed
  ``benchmarks/results.json``; ``--quick`` figures are never the record;
* the adapters' figures come from games whose recorded engine actions the
  engine replays (a wrong record would raise), for every adapter;
* ``benchmarks.lengths`` and ``benchmarks.mcts`` play, replay alike for a
  seed, refuse bad arguments, and print the Wilson interval.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import benchmarks.run
from tests.extras import require


@pytest.fixture
def canned(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """Stand-in figures and table, and a stand-in for the committed file; return that file."""
    monkeypatch.setattr(benchmarks.run, "run_all", lambda quick=False: {"quick": quick})
    monkeypatch.setattr(benchmarks.run, "table", lambda figures: "THE TABLE")
    record = tmp_path / "results.json"
    monkeypatch.setattr(benchmarks.run, "RESULTS", record)
    monkeypatch.chdir(tmp_path)
    return record


def test_the_benchmarks_print_and_write_nothing_unless_asked(
    canned: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert benchmarks.run.main([]) == 0
    assert capsys.readouterr().out == "THE TABLE\n"
    assert list(tmp_path.iterdir()) == []


def test_json_writes_the_figures_where_asked(canned: Path, tmp_path: Path) -> None:
    target = tmp_path / "elsewhere.json"
    assert benchmarks.run.main(["--quick", "--json", str(target)]) == 0
    assert json.loads(target.read_text(encoding="utf-8")) == {"quick": True}
    assert not canned.exists()


def test_write_replaces_the_committed_figures_but_not_with_quick_ones(
    canned: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert benchmarks.run.main(["--write"]) == 0
    assert json.loads(canned.read_text(encoding="utf-8")) == {"quick": False}
    canned.unlink()
    with pytest.raises(SystemExit) as exit_:
        benchmarks.run.main(["--write", "--quick"])
    assert exit_.value.code == 2
    assert "drop --write or --quick" in capsys.readouterr().err
    assert not canned.exists()


def test_the_adapter_figures_replay_their_games_on_the_engine() -> None:
    require("pyspiel")
    require("gymnasium")
    require("pettingzoo")
    from benchmarks.adapters import bench_adapters, rows

    figures = bench_adapters(games=2, rounds=1)
    names = [figure["adapter"] for figure in figures]
    assert names == [
        "OpenSpiel python_cant_stop",
        "OpenSpiel clone() and engine State pickle round trip",
        "Gymnasium Solitaire-v0",
        "Gymnasium Solitaire-v0 through gymnasium.make",
        "PettingZoo AEC, 2 players",
    ]
    for figure in figures:
        if "clone_us" in figure:
            assert figure["states"] > 0
            continue
        # Each step of an environment plays one decision and the rolls due; a
        # game of OpenSpiel has one step for each engine action and each roll again.
        assert figure["engine_actions"] > 0
        assert figure["adapter_steps"] > 0
        if figure["adapter"].startswith("OpenSpiel"):
            assert figure["adapter_steps"] >= figure["engine_actions"]
    assert len(rows(figures)) == len(figures) + 1


def test_lengths_plays_games_to_their_end() -> None:
    require("numpy")
    from benchmarks.lengths import lengths, main

    table = lengths(games=5, seed=2)
    assert [(players, again) for players, again, _ in table] == [
        (p, again) for p in (1, 2, 3, 4) for again in (0.5, 0.9)
    ]
    for _, _, turns in table:
        assert len(turns) == 5
        assert turns == sorted(turns)
        assert turns[0] >= 1
    assert lengths(games=5, seed=2) == table
    with pytest.raises(SystemExit):
        main(["--games", "0"])


def test_mcts_match_replays_for_a_seed_and_prints_wilson_intervals(
    capsys: pytest.CaptureFixture[str],
) -> None:
    require("pyspiel")
    from benchmarks.mcts import main, play, table

    board = "5:3;6:3;7:4;8:3;9:3"
    result = play(games=2, simulations=4, rollouts=1, seed=3, heights=board)
    assert result == play(games=2, simulations=4, rollouts=1, seed=3, heights=board)
    assert result[1] == 2
    assert 0 <= result[0] <= 2
    # 50 of 100: the Wilson interval is 0.5 +- 1.96 * sqrt(0.0025 + 1.96**2 / 40000) / 1.0384.
    assert "50.0%   40.4% to 59.6%" in table([(25, 50, 100, 3.0)])
    for bad in (["--simulations", "0"], ["--simulations", "5,x"], ["--games", "0"]):
        with pytest.raises(SystemExit) as exit_:
            main(bad)
        assert exit_.value.code == 2
    assert main(["--games", "1", "--simulations", "2,3", "--heights", board]) == 0
    out: Any = capsys.readouterr().out
    assert out.count("\n") == 4  # the title, the header and one row per budget
