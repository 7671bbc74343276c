"""Any game as an OpenSpiel game (dicekit.openspiel), checked with OpenSpiel's own tools.

* ``pyspiel.random_sim_test`` with serialization for the finish-line race,
  Off to the Tower (also on a board named by the configuration) and the toy
  game, whose player may hand the turn to chance (the ``throw`` action);
* the numbering is the game's ``action_space``, chance's outcomes are the
  game's with their exact probabilities, the decision limit ends a game in a
  draw, the game's built-in players play through :class:`BotAdapter`;
* bad parameters and bad actions are refused with a message;
* pyspiel is imported by the adapter modules alone.
"""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from tests.extras import require

pyspiel = require("pyspiel")

import finishline.openspiel  # noqa: E402 - after the skip: the module imports pyspiel
import tower.openspiel  # noqa: E402
from dicekit.errors import IllegalAction  # noqa: E402
from dicekit.openspiel import BotAdapter, register  # noqa: E402
from dicekit.protocol import Capability  # noqa: E402
from finishline.layer import GAME as RACE  # noqa: E402
from tests.dicekit.toy import TOY  # noqa: E402
from tower.actions import Throw  # noqa: E402
from tower.layer import GAME as TOWER  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
TOY_NAME = "python_dicekit_toy"
register(TOY, TOY_NAME)


def _load(name: str, **params: Any) -> Any:
    return pyspiel.load_game(name, params)


@pytest.mark.parametrize(
    ("name", "params"),
    [
        (finishline.openspiel.GAME_NAME, {"players": 2}),
        (finishline.openspiel.GAME_NAME, {"players": 4}),
        (tower.openspiel.GAME_NAME, {"players": 2}),
        (tower.openspiel.GAME_NAME, {"players": 3, "config": '{"board":"small";"players":3}'}),
        (TOY_NAME, {"players": 2}),
        (TOY_NAME, {"players": 3, "config": '{"players":3;"target":30}'}),
    ],
)
def test_random_sim_test_with_serialization(name: str, params: dict[str, Any]) -> None:
    """OpenSpiel's own check of a game passes, serialization included."""
    pyspiel.random_sim_test(_load(name, **params), num_sims=3, serialize=True, verbose=False)


def test_the_race_is_numbered_by_its_action_space_and_never_lets_chance_act() -> None:
    """Action k is the game's k-th action; the one number more is never legal in the race."""
    game = _load(finishline.openspiel.GAME_NAME, players=3)
    space = RACE.action_space(RACE.config(3))
    assert game.num_distinct_actions() == len(space) + 1
    state = game.new_initial_state()
    names = [state.action_to_string(0, k) for k in range(len(space))]
    assert names == [RACE.format_action(action) for action in space]
    rng = random.Random(3)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
            continue
        legal = state.legal_actions()
        assert len(space) not in legal
        expected = sorted(RACE.format_action(a) for a in RACE.legal_actions(state.engine_state))
        assert sorted(state.action_to_string(a) for a in legal) == expected
        state.apply_action(rng.choice(legal))
    assert sorted(state.returns()) == [-0.5, -0.5, 1.0]


def test_chance_offers_the_21_throws_of_two_dice_with_their_chances() -> None:
    """Two dice fall in 21 sorted ways: a double 1 in 36, any other 2 in 36."""
    for name in (finishline.openspiel.GAME_NAME, tower.openspiel.GAME_NAME):
        game = _load(name)
        state = game.new_initial_state()
        assert state.is_chance_node()
        assert game.max_chance_outcomes() == 21
        outcomes = state.chance_outcomes()
        assert [a for a, _ in outcomes] == list(range(21))
        names = [state.action_to_string(pyspiel.PlayerId.CHANCE, a) for a, _ in outcomes]
        doubles = [n for n in names if n[1] == n[2]]
        assert len(doubles) == 6
        for text, (_, chance) in zip(names, outcomes, strict=True):
            assert chance == pytest.approx(1 / 36 if text in doubles else 2 / 36)


def test_the_toy_numbers_hold_and_throw_after_it() -> None:
    """The toy numbers its one action, hold (0); at a decision both it and throw (1) are legal."""
    game = _load(TOY_NAME)
    assert game.num_distinct_actions() == 2
    assert game.max_chance_outcomes() == 6
    state = game.new_initial_state()
    assert state.is_chance_node()
    assert state.chance_outcomes() == [(face - 1, pytest.approx(1 / 6)) for face in range(1, 7)]
    state.apply_action(3)  # the die shows 4
    assert str(state) == "0,0/4/0d"
    assert state.current_player() == 0
    assert state.legal_actions() == [0, 1]
    assert [state.action_to_string(a) for a in (0, 1)] == ["hold", "throw"]
    thrown = state.clone()
    thrown.apply_action(1)
    assert thrown.is_chance_node()
    assert str(thrown) == "0,0/4/0d throw"
    thrown.apply_action(4)  # a 5 adds to the turn
    assert str(thrown) == "0,0/9/0d"
    state.apply_action(0)
    assert str(state) == "4,0/0/1r"


def test_the_decision_limit_ends_the_game_in_a_draw() -> None:
    """After max_decisions decisions the game is over, every return 0, and the text says so."""
    game = _load(TOY_NAME, max_decisions=1)
    assert game.max_game_length() == 1
    state = game.new_initial_state()
    state.apply_action(5)  # a 6
    state.apply_action(0)  # hold: the one decision
    assert state.is_terminal()
    assert state.returns() == [0.0, 0.0]
    assert str(state) == "6,0/0/1r limit"


def test_a_win_returns_one_to_the_winner_and_takes_the_rest_from_the_others() -> None:
    """Holding 10 wins the toy game: returns 1 and -1 with two players."""
    state = _load(TOY_NAME).new_initial_state()
    for action in (5, 0, 2, 1, 3, 0):  # 6, hold; player 1: 3, throw, 4, hold
        state.apply_action(action)
    assert str(state) == "6,7/0/0r"
    for action in (3, 0):  # player 0 rolls 4 and holds: 10
        state.apply_action(action)
    assert state.is_terminal()
    assert state.returns() == [1.0, -1.0]


@pytest.mark.parametrize(("name", "layer"), [(TOY_NAME, TOY), (tower.openspiel.GAME_NAME, TOWER)])
def test_the_games_own_players_play_whole_games(name: str, layer: Any) -> None:
    """Each built-in player of the game plays through BotAdapter until somebody wins."""
    game = _load(name)
    for bot_name, make in layer.bots().items():
        bots = [BotAdapter(make(), seed=seat) for seat in range(2)]
        state = game.new_initial_state()
        rng = random.Random(bot_name)
        while not state.is_terminal():
            if state.is_chance_node():
                actions, chances = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(actions, chances)[0])
            else:
                action = bots[state.current_player()].step(state)
                assert action in state.legal_actions()
                state.apply_action(action)
        assert layer.winner(state.engine_state) is not None
        assert sorted(state.returns()) == [-1.0, 1.0]


@pytest.mark.parametrize(
    ("params", "words"),
    [
        ({"colour": 3}, "colour"),
        ({"players": 3, "config": '{"players":2}'}, "for 2 players, not the 3"),
        ({"config": "{board"}, "configuration's JSON form"),
        ({"config": '{"board":"nowhere"}'}, "nowhere"),
        ({"max_decisions": 0}, "0"),
    ],
)
def test_bad_parameters_are_refused_with_what_was_wrong(params: dict[str, Any], words: str) -> None:
    """A parameter the game lacks, a configuration for other players or none at all is refused."""
    with pytest.raises((ValueError, pyspiel.SpielError), match=words):
        _load(tower.openspiel.GAME_NAME, **params)


def test_bad_actions_are_refused_with_the_state() -> None:
    """Chance out of range is refused with the state; a throw where a move is due, by its rule."""
    state = _load(tower.openspiel.GAME_NAME).new_initial_state()
    with pytest.raises(ValueError, match=r"numbered 0 to 20, not 21, in state 'R0,0/B0,0 - 0t"):
        state.apply_action(21)
    state.apply_action(0)
    throw = _load(tower.openspiel.GAME_NAME).num_distinct_actions() - 1
    with pytest.raises(IllegalAction) as refused:
        state.apply_action(throw)
    assert refused.value.rule == TOWER.action_rules(state.engine_state, Throw((1, 1)))[0]


def test_a_game_that_does_not_number_its_actions_is_refused() -> None:
    """Without action_space there is no fixed numbering: register names what is missing."""

    class Unnumbered:
        info = replace(TOY.info, capabilities=TOY.info.capabilities - {Capability.ACTION_SPACE})

    with pytest.raises(TypeError, match="toy has no action_space"):
        register(Unnumbered(), "python_dicekit_unnumbered")  # type: ignore[arg-type]


def test_pyspiel_is_imported_by_the_adapter_modules_alone() -> None:
    """No module of the layer or the two games imports pyspiel, but their openspiel modules."""
    importers = sorted(
        path.relative_to(ROOT).as_posix()
        for package in ("dicekit", "finishline", "tower")
        for path in (ROOT / package).rglob("*.py")
        if "import pyspiel" in path.read_text(encoding="utf-8")
    )
    assert importers == [
        "dicekit/openspiel.py",
        "dicekit/openspiel_state.py",
        "finishline/openspiel.py",
        "tower/openspiel.py",
    ]


def test_the_adapters_ids_of_terminal_and_chance_are_openspiels() -> None:
    """The adapter writes OpenSpiel's player ids out (the docs build mocks pyspiel); they match."""
    import pyspiel

    from dicekit import openspiel_state

    assert int(pyspiel.PlayerId.TERMINAL) == openspiel_state._TERMINAL
    assert int(pyspiel.PlayerId.CHANCE) == openspiel_state._CHANCE
