"""The engine against the oracle (``oracle.py``), written separately from the spec.

From states of random games of every test configuration, each of the 21
rolls is thrown, and for every CHOOSE state met the legal actions (as a set
and in the order of N2.6) and the state each leaves are compared.
"""

from __future__ import annotations

import pytest

from finishline import Phase, Roll, State, format_action, format_state
from tests.finishline import oracle
from tests.finishline.games import CONFIGS, random_game

ROLLS = [(a, b) for a in range(1, 7) for b in range(a, 7)]


def _compare_choice(state: State) -> None:
    text = format_state(state)
    pos = oracle.read_state(text)
    assert oracle.write_state(pos) == text
    expected = oracle.legal(pos)
    got = [format_action(a) for a in state.legal_actions()]
    assert sorted(got) == sorted(expected), text
    assert got == oracle.ordered(list(expected)), text
    for action in state.legal_actions():
        board, across = expected[format_action(action)]
        assert format_state(state.apply(action)) == oracle.after(pos, board, across), (
            text,
            format_action(action),
        )


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_every_roll_and_action_agree_on_random_games(name: str) -> None:
    """Every roll from every ROLL state, and every action of every CHOOSE state, agree."""
    rolls_compared = choices = 0
    for seed in range(2):
        for state in random_game(CONFIGS[name], seed):
            if state.phase is Phase.ROLL:
                pos = oracle.read_state(format_state(state))
                for dice in ROLLS:
                    expected, forfeited = oracle.roll(pos, dice)
                    step = state.step(Roll(dice))
                    assert format_state(step.state) == expected
                    assert (step.event.value == "forfeited") == forfeited
                    rolls_compared += 1
                    if not forfeited and dice[1] == 6:  # a sample of the CHOOSE states
                        _compare_choice(step.state)
                        choices += 1
            elif state.phase is Phase.CHOOSE:
                _compare_choice(state)
                choices += 1
    assert rolls_compared > 300
    assert choices > 100
