"""The built-in players and seeded simulation: choices worked by hand, legality, repeatability."""

from __future__ import annotations

import random

import pytest
from hypothesis import given

from dicekit.simulate import play_game, simulate, wilson_interval
from tower import Move, Phase, State, make_config, parse_state
from tower.layer import GAME
from tower.players import PLAYERS, RandomPlayer, RunnerPlayer, score
from tower.strategies import reachable_states


@pytest.mark.parametrize(
    ("text", "move"),
    [
        ("R4,9/B7,20 - 0c35 @ours", Move(4, 3)),  # captures on red field 7 and throws again
        ("R31,g/B0,0 - 0c26 @ours", Move(31, 2)),  # wins
        ("R12,30/B0,0 - 0c36 @ours", Move(30, 3)),  # home, and a throw again
        ("R3,9/B0,0 - 0c34 @ours", Move(3, 4)),  # red field 7: a throw again
    ],
)
def test_runner_choices_worked_by_hand(text: str, move: Move) -> None:
    """The runner wins, captures, goes home and takes throws again when it can."""
    assert RunnerPlayer().act(parse_state(text), random.Random(0)) == move


def test_score_counts_progress_home_and_threats() -> None:
    """A stone home beats one at the gate; a stone a blue stone can reach is worth less."""
    assert score(parse_state("R12,g/B0,0 - 1t @ours"), 0) > score(
        parse_state("R12,32/B0,0 - 1t @ours"), 0
    )
    safe = score(parse_state("R0,20/B0,5 - 1t @ours"), 0)
    threatened = score(parse_state("R0,20/B0,15 - 1t @ours"), 0)
    assert safe - threatened == pytest.approx(10 + 20 * 11 / 36)
    assert score(parse_state("Rg,g/B0,0 - 0x @ours"), 0) == 1000.0
    assert score(parse_state("Rg,g/B0,0 - 0x @ours"), 1) == -1000.0


@given(reachable_states())
def test_players_choose_legal_moves(state: State) -> None:
    """Both players return one of the legal moves, and refuse a state without one."""
    for player in (RandomPlayer(), RunnerPlayer()):
        if state.phase is Phase.CHOOSE:
            assert player.act(state, random.Random(1)) in state.legal_moves()
        else:
            with pytest.raises(ValueError, match="no move to choose"):
                player.act(state, random.Random(1))


def test_games_repeat_from_their_seed() -> None:
    """A game is a function of its seed and its players."""
    config = make_config()
    first = play_game(GAME, config, [RunnerPlayer(), RandomPlayer()], random.Random("7"))
    again = play_game(GAME, config, [RunnerPlayer(), RandomPlayer()], random.Random("7"))
    assert first == again
    assert set(PLAYERS) == {"random", "runner"}


def test_the_runner_beats_random_play() -> None:
    """Over 300 seeded games on our board, alternating who begins, the runner wins most."""
    run = simulate(GAME, ["runner", "random"], 300, seed=5, config=make_config(), processes=1)
    assert run.wins[0] + run.wins[1] == 300
    assert run.firsts == (150, 150)
    low, _ = wilson_interval(run.wins[0], 300)
    assert low > 0.75, run.wins


def test_wilson_interval() -> None:
    """The Wilson interval of 0 and of all wins stays within 0 and 1."""
    low, high = wilson_interval(0, 10)
    assert low == pytest.approx(0.0, abs=1e-12)
    assert 0 < high < 0.35
    low, high = wilson_interval(10, 10)
    assert 0.65 < low < 1
    assert high == pytest.approx(1.0)
