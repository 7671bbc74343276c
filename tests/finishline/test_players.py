"""The built-in players and ``python -m finishline.simulate``: choices worked out by hand."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

from dicekit.protocol import Bot
from dicekit.simulate import play_game, simulate
from finishline import GAME, Action, State, format_action, parse_state
from finishline.players import HAND_COST, RacerPlayer, RandomPlayer, distance, score
from finishline.simulate import main

ROOT = Path(__file__).resolve().parents[2]


def test_distance_counts_die_uses_left() -> None:
    """A counter in row r needs r die uses, one across none, one in hand 4.5 (placed, then rows)."""
    state = parse_state("..0./..../..../.0../01../...1 1/0 0r")
    # player 0: C1 (1), B4 (4), A5 (5), one across, two in hand
    assert distance(state.board, 1, 6, 0) == 1 + 4 + 5 + 2 * HAND_COST
    assert distance(state.board, 0, 6, 1) == 5 + 6 + 4 * HAND_COST


def test_racer_scores_of_the_figure_2_roll() -> None:
    """With a 2 and a 4, placing in rows 2 and 4 saves most; B4 also blocks player 1's B5."""
    state = parse_state("..../..0./..../..../01../...1 0/0 0c24")
    scores = {format_action(a): score(state, a) for a in state.legal_actions()}
    # +A2,+B4: two placements save (4.5 - 2) + (4.5 - 4) = 3, and B4 blocks player 1's B5.
    assert scores["+A2,+B4"] > scores["+A2,+A4"]  # A4 would block the racer's own A5
    assert scores["+A2,+B4"] > scores["C2^,+B4"]  # moving C2 saves 1, placing in row 2 saves 2.5
    assert format_action(RacerPlayer().act(state, random.Random(0))) == "+A2,+B4"


def test_racer_scores_by_hand() -> None:
    """Scores worked out from the distance, blocking and free rows of the board each play leaves."""
    state = parse_state("0.../..../..../..../..../.... 0/0 0c16")
    plays = {format_action(a): a for a in state.legal_actions()}
    # Before: A1 (1) and five in hand (5 x 4.5) = 23.5.
    # A1^,+A6 leaves A6 and four in hand: 6 + 18 = 24, so -0.5; one free row (6): +0.3.
    assert score(state, plays["A1^,+A6"]) == pytest.approx(-0.5 + 0.3)
    # +D1,+D6 leaves A1, D1, D6 and three in hand: 1 + 1 + 6 + 13.5 = 21.5, so +2; rows 1 and 6.
    assert score(state, plays["+D1,+D6"]) == pytest.approx(2 + 0.6)
    # +A6^... is no play here; +B1,+A6 leaves A6 under nothing and B1: the same as +D1,+D6.
    assert score(state, plays["+B1,+A6"]) == pytest.approx(2 + 0.6)


def test_racer_draws_nothing_and_random_stays_legal() -> None:
    """The racer is deterministic; the random player only picks legal actions."""
    state = parse_state("..0./..../..../.0../01../...1 0/0 1c16")
    rng = random.Random(5)
    before = rng.getstate()
    RacerPlayer().act(state, rng)
    assert rng.getstate() == before
    for seed in range(20):
        assert RandomPlayer().act(state, random.Random(seed)) in state.legal_actions()


def test_games_are_determined_by_their_seed() -> None:
    """The same seed plays the same game; a game always ends with a winner."""
    bots: list[Bot[State, Action]] = [RacerPlayer(), RandomPlayer()]
    config = GAME.config(2)
    first = play_game(GAME, config, bots, random.Random("1/0"), 0)
    assert first == play_game(GAME, config, bots, random.Random("1/0"), 0)
    assert first[1].winner in (0, 1)
    result = simulate(GAME, ["racer", "random", "random"], games=12, seed=3, processes=1)
    assert result == simulate(GAME, ["racer", "random", "random"], games=12, seed=3, processes=2)
    assert sum(result.wins) == 12


def test_command(capsys: pytest.CaptureFixture[str]) -> None:
    """The command prints the game, the games, the seed and each seat's wins with an interval."""
    assert main(["--players", "racer,random", "--games", "20", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("finishline: 20 games, 2 players, seed 2,")
    assert "\n0     racer " in out
    assert "95% interval" in out


@pytest.mark.parametrize("module", ["finishline", "tower"])
def test_the_module_and_the_command_line_give_one_result_for_one_seed(module: str) -> None:
    """``python -m GAME.simulate`` and ``cantstop simulate --game GAME`` agree for one seed."""
    args = ["--games", "30", "--seed", "11", "--processes", "1"]
    runs = [
        subprocess.run(command, capture_output=True, text=True, cwd=ROOT, check=False)
        for command in (
            [sys.executable, "-m", f"{module}.simulate", *args],
            [sys.executable, "-m", "cantstop", "simulate", "--game", module, *args],
        )
    ]
    assert [run.returncode for run in runs] == [0, 0], [run.stderr for run in runs]
    assert runs[0].stdout == runs[1].stdout
    assert runs[0].stdout.startswith(f"{module}: 30 games, 2 players, seed 11,")
    other = subprocess.run(
        [sys.executable, "-m", f"{module}.simulate", "--games", "30", "--seed", "12"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert other.stdout != runs[0].stdout  # the seed decides the games


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--players", "racer,nobody"], "no player 'nobody'"),
        (["--players", "racer"], "not 1 (rule R11.1)"),
        (["--games", "0"], "--games takes 1 to 1,000,000, not 0"),
        (["--games", "x"], "invalid int value"),
        (["--processes", "0"], "--processes takes 1 to 256, not 0"),
        (["--bogus"], "unrecognized arguments: --bogus"),
    ],
)
def test_command_errors(args: list[str], message: str) -> None:
    """A usage error is one line on stderr and exit status 2, with no traceback."""
    done = subprocess.run(
        [sys.executable, "-m", "finishline.simulate", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert done.returncode == 2
    lines = done.stderr.splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("python -m finishline.simulate: error: ")
    assert message in lines[0]
