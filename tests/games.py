"""Reachable states for tests: random legal play from new games, with fixed seeds."""

from __future__ import annotations

import random
from collections.abc import Iterator

from cantstop import Phase, Roll, Rules, State, Stop, Variant, new_game

#: Configurations the engine tests play under: every player count, both
#: variants, a longer game and two small custom boards.
CONFIGS: dict[str, Rules] = {
    "solitaire": Rules(players=1),
    "2p": Rules(),
    "3p-w4": Rules(players=3, columns_to_win=4),
    "4p": Rules(players=4),
    "2p-A": Rules(variant=Variant.A),
    "3p-B": Rules(players=3, variant=Variant.B),
    "tiny": Rules(players=2, columns_to_win=2, heights={5: 2, 6: 1, 7: 3, 8: 2, 9: 1}),
    "tiny-4p-A": Rules(
        players=4, columns_to_win=1, heights={c: 2 for c in range(2, 13)}, variant=Variant.A
    ),
}


def random_roll(rng: random.Random) -> Roll:
    """Return a uniformly random ordered roll."""
    return Roll((rng.randint(1, 6), rng.randint(1, 6), rng.randint(1, 6), rng.randint(1, 6)))


def random_game(rules: Rules, seed: int, stop_chance: float = 0.3) -> Iterator[State]:
    """Yield every state of one random game, from the opening to the end."""
    rng = random.Random(seed)
    state = new_game(rules, first_player=rng.randrange(rules.players))
    yield state
    while state.phase is not Phase.OVER:
        if state.phase is Phase.CHOOSE:
            state = state.apply(rng.choice(state.legal_moves()))
        elif state.phase is Phase.DECIDE and rng.random() < stop_chance:
            try:
                state = state.apply(Stop())
            except ValueError:  # Variant B may forbid the stop
                state = state.apply(random_roll(rng))
        else:
            state = state.apply(random_roll(rng))
        yield state
