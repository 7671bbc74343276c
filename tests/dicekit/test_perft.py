"""The layer's whole-chance counts (``dicekit/perft.py``) against each game's own perft.

Can't Stop counts over its move table, the race games over their own loops;
the layer counts through the protocol alone.  On every chance state of seeded
games in several configurations the three must agree, and a game object
that misreports one legal action is caught.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import pytest

import cantstop
import finishline
import tower
from cantstop.layer import GAME as CANTSTOP
from dicekit.perft import NoChance, Perft, perft, weighted_outcomes
from dicekit.protocol import Game
from dicekit.seeded import play_out
from tests.games import CONFIGS


def _chance_states(game: Game[Any, Any, Any], config: Any, seeds: range) -> Iterator[Any]:
    """Yield the states of seeded games between random bots where chance acts."""
    for seed in seeds:
        rng = random.Random(seed)
        bots = [game.bots()["random"]() for _ in range(4)]
        for step in play_out(game, game.new_game(config), bots, rng, limit=400):
            if game.chance_outcomes(step.before):
                yield step.before


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_cant_stops_perft_is_the_layers(name: str) -> None:
    """``cantstop.perft``'s choices and busts are the layer's counts, over 1296 rolls."""
    states = list(_chance_states(CANTSTOP, CONFIGS[name], range(8)))
    assert len(states) > 20
    for state in states:
        own = cantstop.perft(state)
        assert perft(CANTSTOP, state) == Perft(own.choices, own.busts, 1296), state


@pytest.mark.parametrize(
    "config", [finishline.Config(2), finishline.Config(3, 2), finishline.Config(4)], ids=repr
)
def test_the_finish_line_races_perft_is_the_layers(config: finishline.Config) -> None:
    """``finishline.perft``'s choices and forfeits are the layer's counts, over 36 rolls."""
    states = list(_chance_states(finishline.GAME, config, range(3)))
    assert len(states) > 20
    for state in states:
        own = finishline.perft(state)
        assert perft(finishline.GAME, state) == Perft(own.choices, own.forfeits, 36), state


@pytest.mark.parametrize(
    "config",
    [tower.make_config("ours", 2), tower.make_config("small", 3), tower.make_config("ours", 4)],
    ids=repr,
)
def test_off_to_the_towers_perft_is_the_layers(config: tower.Config) -> None:
    """``tower.perft``'s choices and forfeits are the layer's counts, over 36 throws."""
    states = list(_chance_states(tower.GAME, config, range(3)))
    assert len(states) > 20
    for state in states:
        own = tower.perft(state)
        assert perft(tower.GAME, state) == Perft(own.choices, own.forfeits, 36), state


def test_the_counts_of_the_opening_worked_by_hand() -> None:
    """Known counts: Can't Stop's opening (spec/perft.md), and a position where only 2, 3, 12 bust.

    With markers on 2, 3 and 12 and none free, a roll busts exactly when no
    pairing makes 2, 3 or 12: 728 of the 1296 rolls (``cantstop.Perft``'s example).
    """
    assert perft(CANTSTOP, CANTSTOP.parse_state("-/- - 0r")) == Perft(2826, 0, 1296)
    assert perft(CANTSTOP, CANTSTOP.parse_state("-/- 2:1,3:1,12:1 0d")).no_decision == 728


def test_weights_are_the_ordered_throws() -> None:
    """Two dice: 21 sorted throws weigh 1 (doubles) or 2; four dice: 126 rolls weighing 1296."""
    two = weighted_outcomes(finishline.ROLL_OUTCOMES)
    assert sorted({w for _, w in two}) == [1, 2]
    assert sum(w for _, w in two) == 36
    assert sum(w for _, w in weighted_outcomes(cantstop.roll_outcomes())) == 1296
    assert weighted_outcomes([("x", Fraction(1))]) == (("x", 1),)


class _Misreporting:
    """A game that drops the last legal action of every state with more than one."""

    def __init__(self, game: Game[Any, Any, Any]) -> None:
        self.game = game

    def __getattr__(self, name: str) -> Any:
        return getattr(self.game, name)

    def legal_actions(self, state: Any) -> Any:
        legal = self.game.legal_actions(state)
        return legal[:-1] if len(legal) > 1 else legal


def test_a_game_that_drops_a_legal_action_counts_otherwise() -> None:
    """The counts see one legal action fewer: they are not blind to the legal actions."""
    opening = CANTSTOP.parse_state("-/- - 0r")
    assert perft(_Misreporting(CANTSTOP), opening).choices < 2826


@pytest.mark.parametrize(
    ("game", "text", "rule"),
    [
        (CANTSTOP, "-/- - 0c3455", "R3.3"),
        (CANTSTOP, "2:3,3:5,4:7/- - 0x", "R12.3"),
        (finishline.GAME, "..../..../..../..../..../.... 0/0/0 0c34", "R3.3"),
        (tower.GAME, "R0,0/B0,0 - 0c35 @ours", "R3.4"),
    ],
)
def test_counts_of_a_state_without_chance_quote_the_games_refusal(
    game: Game[Any, Any, Any], text: str, rule: str
) -> None:
    """Asked of a state where chance does not act, the error names the game's rule and state."""
    with pytest.raises(NoChance) as info:
        perft(game, game.parse_state(text))
    assert f"(rule {rule}) in state {text!r}" in str(info.value)
    assert getattr(info.value.__cause__, "rule", None) == rule
