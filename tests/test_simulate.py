"""Simulations (cantstop.simulate): deterministic for a seed, on any number of processes."""

from __future__ import annotations

import contextlib
import io
import os
import random
import signal
import subprocess
import sys
import time

import pytest

from cantstop import Rules, Stop, new_game
from cantstop.cli import main
from cantstop.players import RandomPlayer, Rule28Player
from cantstop.simulate import play_game, simulate, wilson_interval
from tests.streams import read_until


def test_results_do_not_depend_on_the_number_of_processes() -> None:
    one = simulate(["rule28", "random"], games=60, seed=3, processes=1)
    two = simulate(["rule28", "random"], games=60, seed=3, processes=2)
    assert one.results == two.results
    assert one.games == 60
    assert sum(one.wins) == 60
    other = simulate(["rule28", "random"], games=60, seed=4, processes=1)
    assert other.results != one.results


def test_seats_take_turns_to_begin() -> None:
    # Two identical players: game i is begun by seat i % 2, so a game played
    # again with the same generator and the seats swapped mirrors the winner.
    result = simulate(["random", "random"], games=10, seed=1, processes=1)
    for game, outcome in enumerate(result.results):
        _final, again = play_game(
            Rules(), [RandomPlayer(), RandomPlayer()], random.Random(f"1/{game}"), game % 2
        )
        assert again == outcome


def test_play_game_record_replays_to_the_final_state() -> None:
    actions: list[object] = []
    final, result = play_game(
        Rules(players=3),
        [Rule28Player(), RandomPlayer(), Rule28Player()],
        random.Random(9),
        first_player=1,
        record=actions,  # type: ignore[arg-type]
    )
    state = new_game(Rules(players=3), 1)
    for action in actions:
        state = state.apply(action)  # type: ignore[arg-type]
    assert state == final
    assert result.actions == len(actions)
    assert result.winner == final.winner
    stops = sum(1 for a in actions if a == Stop())
    assert result.turns >= stops  # every stop ends a turn; busts end the others


def test_solitaire_reports_turns_to_win() -> None:
    result = simulate(["rule28"], games=20, seed=2, processes=1)
    assert result.wins == (20,)
    text = result.table()
    assert "rule28 wins in" in text
    assert "turns on average" in text
    mean, half = result.mean_turns()
    turns = [r.turns for r in result.results]
    assert mean == sum(turns) / 20
    assert min(turns) > 1  # three columns cannot be climbed in one rule-28 turn
    assert half > 0


def test_wilson_interval_known_values() -> None:
    # Textbook values: 50 of 100 gives 0.4038 to 0.5962; 0 of 10 gives 0 to 0.2775.
    low, high = wilson_interval(50, 100)
    assert (round(low, 4), round(high, 4)) == (0.4038, 0.5962)
    low, high = wilson_interval(0, 10)
    assert (low, round(high, 4)) == (0.0, 0.2775)
    low, high = wilson_interval(10, 10)
    assert (round(low, 4), round(high, 12)) == (0.7225, 1.0)


def test_progress_bar_is_drawn_on_the_stream() -> None:
    stream = io.StringIO()
    simulate(["random", "random"], games=10, seed=1, processes=1, progress=stream)
    text = stream.getvalue()
    assert "\r[" in text
    assert "10/10 games" in text
    assert text.endswith("\n")


def test_simulate_command(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(
        [
            "simulate",
            "--players",
            "rule28,random",
            "--games",
            "30",
            "--seed",
            "1",
            "--processes",
            "2",
        ]
    )
    out = capsys.readouterr().out
    assert status == 0
    assert "30 games" in out
    assert "rule28" in out
    assert "random" in out
    assert "95% interval" in out
    again = main(["simulate", "--players", "rule28,random", "--games", "30", "--processes", "1"])
    assert again == 0
    assert capsys.readouterr().out == out


@pytest.mark.parametrize("players", ["rule28,nobody", "random,random,random,random,random", ""])
def test_simulate_rejects_bad_players(players: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--players", players, "--games", "5"]) == 2
    err = capsys.readouterr().err
    assert "--players takes 1 to 4 of random, greedy, rule28, cautious, bold, optimal" in err


@pytest.mark.parametrize("games", ["0", "-1", "1000001", "ten"])
def test_simulate_rejects_a_bad_game_count(games: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--games", games]) == 2
    err = capsys.readouterr().err
    assert err == (
        "cantstop simulate: error: argument --games: takes a whole number from 1 to "
        f"1,000,000, not {games!r} (see cantstop simulate --help)\n"
    )


@pytest.mark.parametrize("method", ["fork", "spawn"])
def test_results_are_the_same_under_every_start_method(method: str) -> None:
    """Workers started by fork or by spawn (the default on macOS and Windows) agree."""
    one = simulate(["rule28", "random"], games=12, seed=3, processes=1)
    two = simulate(["rule28", "random"], games=12, seed=3, processes=2, start_method=method)
    assert two.results == one.results


def _group_ends(group: int, within: float) -> bool:
    """Wait until no process of ``group`` is left; return whether that happened in time."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            os.killpg(group, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.05)
    return False


def _default_sigint() -> None:
    """In the child, before it runs Python: SIGINT does what it does at a terminal."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.parametrize("method", ["fork", "spawn"])
def test_ctrl_c_ends_the_run_with_130_and_no_traceback(method: str) -> None:
    """Ctrl-C (SIGINT to the whole process group, as a terminal sends it) stops every process."""
    code = (
        f"import multiprocessing, sys; multiprocessing.set_start_method({method!r}); "
        "from cantstop.cli import main; "
        "sys.exit(main(['simulate', '--games', '2000', '--processes', '2', '--progress']))"
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", code],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
        # A terminal's program receives SIGINT; a test run started in the background
        # of a shell would pass it on ignored, and Python would then not raise
        # KeyboardInterrupt at all.
        preexec_fn=_default_sigint,
    )
    assert proc.stderr is not None
    try:
        err = read_until(proc.stderr.fileno(), b" games", timeout=60)  # the workers are playing
        os.killpg(proc.pid, signal.SIGINT)
        out, rest = proc.communicate(timeout=30)
        gone = _group_ends(proc.pid, within=10)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)  # whatever a failed run left behind
        proc.communicate()
    err += rest
    assert proc.returncode == 130, err
    assert b"Traceback" not in err
    assert b"KeyboardInterrupt" not in err
    assert err.endswith(b"\ncantstop simulate: interrupted\n"), err[-200:]
    assert out == b""
    assert gone, "worker processes outlived the interrupted run"


def test_solitaire_mean_is_written_to_the_digit_its_interval_supports() -> None:
    """The mean and its interval end at the half-width's first significant digit."""
    result = simulate(["rule28"], games=200, seed=1, processes=1)
    mean, half = result.mean_turns()
    assert 0.1 <= half < 1  # 200 games pin the mean to tenths of a turn, not hundredths
    line = result.table().splitlines()[1]
    assert f"in {mean:.1f} turns on average" in line
    assert f"interval {mean - half:.1f} to {mean + half:.1f})" in line
