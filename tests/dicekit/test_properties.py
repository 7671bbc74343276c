"""The layer's Hypothesis strategies (``dicekit/strategies.py``) on all three games.

Each property is one every game on the layer must have, whatever its rules:
reachable states pass the game's own check, texts and JSON forms read back
exactly, what a state accepts applies and what it does not is refused with
a rule of the game's spec, chance's probabilities are exact and sum to 1,
and a finished game offers nothing.
"""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import finishline
import tower
from cantstop.layer import GAME as CANTSTOP
from dicekit.errors import IllegalAction
from dicekit.protocol import Capability, Game, capable
from dicekit.spec import load_game_spec, load_spec
from dicekit.strategies import configs, illegal_actions, legal_actions, reachable_states

GAMES: dict[str, Game[Any, Any, Any]] = {
    "cantstop": CANTSTOP,
    "finishline": finishline.GAME,
    "tower": tower.GAME,
}
#: The keys of Off to the Tower's examples beyond the layer's (its board changes, its perft).
TOWER_KEYS = ("perft", "board", "board-change")
RULES = {
    "cantstop": set(load_game_spec(CANTSTOP).rules),
    "finishline": set(load_game_spec(finishline.GAME).rules),
    "tower": set(load_spec(tower.GAME.info.spec_dir, TOWER_KEYS).rules),
}
NAMES = sorted(GAMES)

#: Enough examples to meet every phase of every game, few enough for a fast suite.
SOME = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _states(name: str) -> st.SearchStrategy[Any]:
    return reachable_states(GAMES[name], max_actions=80)


@pytest.mark.parametrize("name", NAMES)
def test_every_reachable_state_passes_the_games_check(name: str) -> None:
    """``check`` accepts every state legal play reaches (the game's invariants)."""
    game = GAMES[name]

    @SOME
    @given(_states(name))
    def check(state: Any) -> None:
        game.check(state)

    check()


@pytest.mark.parametrize("name", NAMES)
def test_texts_and_json_forms_round_trip_exactly(name: str) -> None:
    """A state's text and JSON form, and those of every action it accepts, read back equal."""
    game = GAMES[name]

    @SOME
    @given(_states(name))
    def round_trip(state: Any) -> None:
        text = game.format_state(state)
        assert game.parse_state(text) == state
        assert game.format_state(game.parse_state(text)) == text
        form = json.loads(json.dumps(game.state_to_json(state)))
        assert game.state_from_json(form) == state
        offered = [*game.legal_actions(state), *(a for a, _ in game.chance_outcomes(state))]
        for action in offered:
            assert game.parse_action(game.format_action(action)) == action
            assert game.action_from_json(json.loads(json.dumps(game.action_to_json(action)))) == (
                action
            )

    round_trip()


@pytest.mark.parametrize("name", NAMES)
def test_configurations_round_trip_through_json(name: str) -> None:
    """A configuration's JSON form reads back as the same configuration."""
    game = GAMES[name]

    @SOME
    @given(configs(game))
    def round_trip(config: Any) -> None:
        assert game.config_from_json(json.loads(json.dumps(game.config_to_json(config)))) == config

    round_trip()


@pytest.mark.parametrize("name", NAMES)
def test_applying_an_accepted_action_never_raises(name: str) -> None:
    """Every legal action and every outcome of chance applies, to a state that passes ``check``."""
    game = GAMES[name]

    @SOME
    @given(st.data())
    def apply(data: st.DataObject) -> None:
        state = data.draw(_states(name))
        if game.is_over(state):
            return
        action = data.draw(legal_actions(game, state))
        before = game.format_state(state)
        after = game.apply(state, action)
        game.check(after)
        assert game.format_state(state) == before  # states are values
        stepper = capable(game, Capability.STEPPING)
        if stepper is not None:
            step = stepper.step(state, action)
            assert step.state == after
            assert step.event in stepper.events

    apply()


@pytest.mark.parametrize("name", NAMES)
def test_a_refused_action_names_a_rule_of_the_spec_and_leaves_the_state(name: str) -> None:
    """Actions a state neither lists nor leaves to chance raise IllegalAction with a spec rule."""
    game = GAMES[name]

    @settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
    @given(st.data())
    def refuse(data: st.DataObject) -> None:
        state = data.draw(reachable_states(game, max_actions=40))
        action = data.draw(illegal_actions(game, state))
        before = game.format_state(state)
        with pytest.raises(IllegalAction) as info:
            game.apply(state, action)
        assert info.value.rule in RULES[name], info.value
        assert info.value.state_text == before
        assert game.format_state(state) == before

    refuse()


@pytest.mark.parametrize("name", NAMES)
def test_chance_outcomes_are_exact_and_sum_to_one(name: str) -> None:
    """Chance's outcomes are distinct, each with a positive exact probability, summing to 1."""
    game = GAMES[name]

    @SOME
    @given(_states(name))
    def exact(state: Any) -> None:
        outcomes = game.chance_outcomes(state)
        if not outcomes:
            return
        assert all(isinstance(p, Fraction) and p > 0 for _, p in outcomes)
        assert sum(p for _, p in outcomes) == 1
        texts = [game.format_action(a) for a, _ in outcomes]
        assert len(set(texts)) == len(texts)

    exact()


@pytest.mark.parametrize("name", NAMES)
def test_someone_can_act_exactly_until_the_game_is_over(name: str) -> None:
    """A game goes on while a player or chance can act; once over it has a winner and no action."""
    game = GAMES[name]

    @SOME
    @given(_states(name))
    def acting(state: Any) -> None:
        legal = game.legal_actions(state)
        assert len(set(map(game.format_action, legal))) == len(legal)
        if game.is_over(state):
            assert not legal
            assert not game.chance_outcomes(state)
            assert game.winner(state) is not None
        else:
            assert legal or game.chance_outcomes(state)
            assert game.winner(state) is None

    acting()


@pytest.mark.parametrize("name", NAMES)
def test_every_game_draws_its_state_as_text(name: str) -> None:
    """Each game offers a terminal picture (TextPicture) with the player to act in it."""
    game = GAMES[name]
    drawn = capable(game, Capability.TEXT_PICTURE)
    assert drawn is not None

    @settings(max_examples=20, deadline=None)
    @given(_states(name))
    def picture(state: Any) -> None:
        text = drawn.state_text(state)
        assert text.strip()
        assert str(game.player(state)) in text

    picture()


def _kinds(game: Game[Any, Any, Any], examples: int) -> set[str]:
    """Return the kinds of state (who may act) that ``examples`` draws of the strategy meet."""
    found: set[str] = set()

    @settings(max_examples=examples, deadline=None, database=None)
    @given(reachable_states(game, max_actions=80))
    def kind(state: Any) -> None:
        legal, chance = bool(game.legal_actions(state)), bool(game.chance_outcomes(state))
        found.add("over" if game.is_over(state) else f"legal={legal} chance={chance}")

    kind()
    return found


@pytest.mark.parametrize("name", NAMES)
def test_the_strategies_reach_every_kind_of_state(name: str) -> None:
    """Each game's strategy reaches states where the player acts and where chance acts.

    In Can't Stop both may (stop, or roll again), and a drawn game may be over.
    """
    kinds = _kinds(GAMES[name], 150)
    assert {"legal=True chance=False", "legal=False chance=True"} <= kinds
    if name == "cantstop":
        assert "legal=True chance=True" in kinds


def test_the_strategies_without_hypothesis_say_how_to_install_it() -> None:
    """Importing dicekit.strategies without Hypothesis names the install command of a clone."""
    code = (
        "import sys; sys.modules['hypothesis'] = None\n"
        "try:\n    import dicekit.strategies\n"
        "except ImportError as e:\n    print(e)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "python3 -m pip install -e '.[test]'" in out.stdout
