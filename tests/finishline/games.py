"""Reachable states of the finish-line race for tests: random legal play with fixed seeds."""

from __future__ import annotations

import random
from collections.abc import Iterator

from finishline import Config, Phase, Roll, State, new_game

#: Configurations the tests play under: every player count, the default counters and
#: short games of one to three counters each.
CONFIGS: dict[str, Config] = {
    "2p": Config(players=2),
    "3p": Config(players=3),
    "4p": Config(players=4),
    "2p-n1": Config(players=2, counters=1),
    "3p-n2": Config(players=3, counters=2),
    "4p-n6": Config(players=4, counters=6),
}


def random_roll(rng: random.Random) -> Roll:
    """Return a uniformly random roll of two dice, in thrown order."""
    return Roll((rng.randint(1, 6), rng.randint(1, 6)))


def random_game(config: Config, seed: int) -> Iterator[State]:
    """Yield every state of one game of uniformly random legal play, from the opening."""
    rng = random.Random(seed)
    state = new_game(config, first_player=rng.randrange(config.players))
    yield state
    while state.phase is not Phase.OVER:
        if state.phase is Phase.ROLL:
            state = state.apply(random_roll(rng))
        else:
            state = state.apply(rng.choice(state.legal_actions()))
        yield state
