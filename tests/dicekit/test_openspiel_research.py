"""What research code needs of every game's OpenSpiel game, beyond OpenSpiel's own checks.

* the game object and its states pickle, in this process and into a worker
  process started afresh (``spawn``), for Can't Stop, the finish-line race,
  Off to the Tower and the toy game;
* the state string tells apart states whose returns differ: Can't Stop alone
  with the ``turns`` reward returns minus the turns taken, so two games that
  reach one position in different numbers of turns must not print alike;
* the registered type of a game of one player is general-sum, as its games
  are (a zero-sum game of one player would always return 0).
"""

from __future__ import annotations

import multiprocessing
import pickle
import random
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from tests.extras import require

pyspiel = require("pyspiel")

import cantstop.openspiel  # noqa: E402 - after the skip: the module imports pyspiel
import finishline.openspiel  # noqa: E402
import tower.openspiel  # noqa: E402
from cantstop.openspiel import roll_action  # noqa: E402
from dicekit.openspiel import register  # noqa: E402
from dicekit.protocol import Capability, GameInfo  # noqa: E402
from tests.dicekit.toy import TOY  # noqa: E402

TOY_NAME = "python_research_toy"
register(TOY, TOY_NAME)

#: Each registered game, with parameters that are not all the defaults.
GAMES = {
    "cantstop": (cantstop.openspiel.GAME_NAME, {"players": 3, "variant": "A"}),
    "finishline": (finishline.openspiel.GAME_NAME, {"players": 3}),
    "tower": (tower.openspiel.GAME_NAME, {"players": 2, "config": '{"board":"small"}'}),
    "toy": (TOY_NAME, {"players": 3}),
}


def _played(game: Any, seed: int, steps: int) -> Any:
    """Return the state after ``steps`` random actions (fewer if the game ends)."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def _describe(blob: bytes) -> tuple[str, str, list[int]]:
    """Unpickle a game and a state in a worker; return their strings and the state's history."""
    game, state = pickle.loads(blob)
    return str(game), str(state), list(state.history())


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_game_and_its_states_pickle(name: str) -> None:
    """pickle.loads(pickle.dumps(game)) is the same game; a state comes back with its history."""
    short_name, params = GAMES[name]
    game = pyspiel.load_game(short_name, params)
    again = pickle.loads(pickle.dumps(game))
    assert str(again) == str(game)
    assert again.num_distinct_actions() == game.num_distinct_actions()
    state = _played(game, seed=5, steps=12)
    back = pickle.loads(pickle.dumps(state))
    assert str(back) == str(state)
    assert back.history() == state.history()
    assert back.legal_actions() == state.legal_actions()


def test_games_and_states_travel_to_a_fresh_worker_process() -> None:
    """A process that imported nothing of a game loads it from the pickle, and plays on."""
    blobs = []
    for short_name, params in GAMES.values():
        game = pyspiel.load_game(short_name, params)
        state = _played(game, seed=2, steps=9)
        blobs.append((pickle.dumps((game, state)), (str(game), str(state), state.history())))
    context = multiprocessing.get_context("spawn")
    with context.Pool(1) as pool:
        got = pool.map(_describe, [blob for blob, _ in blobs])
    assert got == [expected for _, expected in blobs]


def _cantstop_solitaire(turns_reward: bool, busts: int) -> Any:
    """Win a one-column solitaire game after ``busts`` busted turns; return the final state."""
    reward = "turns" if turns_reward else "win"
    game = pyspiel.load_game(
        cantstop.openspiel.GAME_NAME,
        {"players": 1, "columns_to_win": 1, "heights": "2:1;12:1;7:1", "solitaire_reward": reward},
    )
    state = game.new_initial_state()
    for _ in range(busts):
        state.apply_action(roll_action((5, 5, 5, 5)))  # only 10: off the board, a bust
    state.apply_action(roll_action((1, 1, 3, 4)))  # 2+7 or 4+5
    state.apply_action(13 + 5)  # 2+7
    state.apply_action(0)  # stop: columns 2 and 7 won
    assert state.is_terminal()
    return state


def test_states_with_different_returns_have_different_strings() -> None:
    """Alone with the turns reward, one final position after 1 and 3 turns prints differently."""
    quick, slow = _cantstop_solitaire(True, 0), _cantstop_solitaire(True, 2)
    assert quick.engine_state == slow.engine_state
    assert (quick.returns(), slow.returns()) == ([-1.0], [-3.0])
    assert str(quick) != str(slow)
    assert str(slow).endswith(" turns 3")
    # Where the returns do not depend on the turns, the string stays the position's.
    won = _cantstop_solitaire(False, 0), _cantstop_solitaire(False, 2)
    assert str(won[0]) == str(won[1]) == cantstop.format_state(won[0].engine_state)
    assert won[0].returns() == won[1].returns() == [1.0]


@pytest.mark.parametrize("name", sorted(GAMES))
def test_no_two_states_of_a_game_share_a_string_and_differ_in_returns(name: str) -> None:
    """Over many random games, a state string always goes with the same returns."""
    short_name, params = GAMES[name]
    if name == "cantstop":  # alone on a small board: few final positions, reached in many ways
        params = {"players": 1, "columns_to_win": 1, "heights": "7:2;8:1"}
    game = pyspiel.load_game(short_name, params)
    seen: dict[str, list[float]] = {}
    for seed in range(12):
        state = _played(game, seed, 10**6)  # every game ends: a win or the limit
        assert state.is_terminal()
        assert seen.setdefault(str(state), state.returns()) == state.returns()


class _Solo:
    """A game of one player: a coin is tossed until it has come up heads twice."""

    info = GameInfo("solo", "Heads twice", 1, 1, Path("spec"), frozenset({Capability.ACTION_SPACE}))

    def config(self, players: int) -> int:
        return players

    def player_count(self, config: int) -> int:
        return config

    def new_game(self, config: int, first_player: int = 0) -> int:
        return 0

    def player(self, state: int) -> int:
        return 0

    def is_over(self, state: int) -> bool:
        return state == 2

    def winner(self, state: int) -> int | None:
        return 0 if state == 2 else None

    def returns(self, state: int) -> tuple[float, ...]:
        return (1.0 if state == 2 else 0.0,)

    def chance_outcomes(self, state: int) -> Sequence[tuple[str, Fraction]]:
        return () if state == 2 else (("heads", Fraction(1, 2)), ("tails", Fraction(1, 2)))

    def legal_actions(self, state: int) -> Sequence[str]:
        return ()

    def apply(self, state: int, action: str) -> int:
        return state + (action == "heads")

    def action_space(self, config: int) -> Sequence[str]:
        return ()

    def format_state(self, state: int) -> str:
        return f"{state} heads"

    def format_action(self, action: str) -> str:
        return action


def test_a_solitaire_game_registers_as_general_sum() -> None:
    """The registered type of a one-player game says general-sum, and so does each game."""
    register(_Solo(), "python_research_solo")  # type: ignore[arg-type]
    registered = {t.short_name: t for t in pyspiel.registered_games()}
    assert registered["python_research_solo"].utility == pyspiel.GameType.Utility.GENERAL_SUM
    game = pyspiel.load_game("python_research_solo")
    assert game.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)
    # Games that default to two players stay zero-sum.
    assert registered[cantstop.openspiel.GAME_NAME].utility == pyspiel.GameType.Utility.ZERO_SUM
    assert registered[TOY_NAME].utility == pyspiel.GameType.Utility.ZERO_SUM
