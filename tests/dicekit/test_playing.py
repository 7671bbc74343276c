"""Seeded play of any game (``dicekit/seeded.py``): exact odds, bots, chance, whole games."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction
from typing import Any

import pytest

import finishline
import tower
from cantstop import Stop
from cantstop.layer import GAME as CANTSTOP
from dicekit.errors import GameError
from dicekit.perft import weighted_outcomes
from dicekit.protocol import CHANCE, Game
from dicekit.seeded import NoAction, next_action, pick, play_out, player_count, throw


class _Counting(random.Random):
    """A generator whose ``randrange`` returns 0, 1, 2, ... in turn."""

    def __init__(self) -> None:
        super().__init__(0)
        self.next = 0

    def randrange(self, stop: int, *args: Any, **kwargs: Any) -> int:  # type: ignore[override]
        value = self.next % stop
        self.next += 1
        return value


@pytest.mark.parametrize(
    "outcomes",
    [finishline.ROLL_OUTCOMES, CANTSTOP.chance_outcomes(CANTSTOP.parse_state("-/- - 0r"))],
    ids=["two dice", "four dice"],
)
def test_each_outcome_is_picked_by_exactly_its_weight(outcomes: Any) -> None:
    """Over every value of the one draw, each outcome comes up its weight's number of times."""
    weighted = weighted_outcomes(outcomes)
    total = sum(weight for _, weight in weighted)
    rng = _Counting()
    seen = Counter(pick(outcomes, rng) for _ in range(total))
    assert seen == Counter({action: weight for action, weight in weighted})
    for action, probability in outcomes:
        assert Fraction(seen[action], total) == probability


def test_a_bot_that_lets_chance_act_is_answered_by_a_throw() -> None:
    """In Can't Stop's DECIDE, a bot's CHANCE is a roll from the dice; its stop is played."""
    deciding = CANTSTOP.parse_state("-/- 7:1 0d")

    class Rolling:
        name = "rolling"

        def act(self, state: Any, rng: random.Random) -> Any:
            return CHANCE

    class Stopping:
        name = "stopping"

        def act(self, state: Any, rng: random.Random) -> Any:
            return Stop()

    action, by_chance = next_action(CANTSTOP, deciding, Rolling(), random.Random(1))
    assert by_chance
    assert action in [a for a, _ in CANTSTOP.chance_outcomes(deciding)]
    assert next_action(CANTSTOP, deciding, Stopping(), random.Random(1)) == (Stop(), False)


def test_only_chance_acts_when_the_dice_are_due() -> None:
    """Where the player has no legal action, chance throws whatever the bot would say."""
    state = tower.GAME.new_game(tower.GAME.config(2))
    action, by_chance = next_action(tower.GAME, state, None, random.Random(1))
    assert by_chance
    assert action in [a for a, _ in tower.GAME.chance_outcomes(state)]


def test_a_state_where_nobody_can_act_is_an_error_of_the_game_object() -> None:
    """Chance cannot act in a finished game: throwing there raises NoAction, a GameError."""
    over = tower.GAME.parse_state("Rg,g/B0,0 - 0x @ours")
    with pytest.raises(NoAction, match="chance cannot act") as info:
        throw(tower.GAME, over, random.Random(1))
    assert isinstance(info.value, GameError)


@pytest.mark.parametrize(
    ("game", "players"),
    [(CANTSTOP, 1), (CANTSTOP, 4), (finishline.GAME, 3), (tower.GAME, 2), (tower.GAME, 4)],
)
def test_the_player_count_of_a_configuration(game: Game[Any, Any, Any], players: int) -> None:
    """A configuration's player count is read back through the opening."""
    assert player_count(game, game.config(players)) == players


def test_play_out_plays_a_whole_game_with_the_seats_in_turn() -> None:
    """Each step is the player's to act, chance's throws included, and the seed fixes the game."""
    game = finishline.GAME
    bots = [game.bots()["racer"](), game.bots()["random"]()]

    def steps(seed: int) -> list[str]:
        played = play_out(game, game.new_game(game.config(2)), bots, random.Random(seed))
        return [game.format_action(step.action) for step in played]

    first = steps(5)
    assert first == steps(5)
    state = game.new_game(game.config(2))
    for step in play_out(game, state, bots, random.Random(5)):
        assert step.player == game.player(step.before)
        assert step.by_chance == (not game.legal_actions(step.before))
        state = step.after
    assert game.is_over(state)
    assert len(first) > 20
