"""A picture of a state in plain text, for a terminal: each player's stones, the tower, the turn.

The board is data and has no one shape to draw in text, so each stone is
named by its place on its owner's route: at the start, on a step (with the
field it stands on), or home in the goal; stones in one place are counted.

>>> from tower import parse_state
>>> print(state_text(parse_state('R0,12/B5 B 1c35 @ours')))
board ours: routes of 33 steps to the goal
R (player 0): at the start; step 12, field 12
B (player 1): step 5, field 5; one stone in the tower
player 1 (B) to move with the dice 3 5
>>> print(state_text(parse_state('R0,0/B0,0 - 0t @ours')).splitlines()[1])
R (player 0): 2 at the start
"""

from __future__ import annotations

from collections import Counter

from tower.game import Phase, State

__all__ = ["state_text"]


def _place(state: State, player: int, step: int) -> str:
    config = state.config
    if step == 0:
        return "at the start"
    if step == config.lengths[player]:
        return "in the goal"
    return f"step {step}, field {config.routes[player][step]}"


def state_text(state: State) -> str:
    """Return ``state`` as a few lines of text: every player's stones, then whose turn it is."""
    config = state.config
    lengths = sorted(set(config.lengths))
    steps = " or ".join(map(str, lengths))
    lines = [f"board {config.board.name}: routes of {steps} steps to the goal"]
    for p, places in enumerate(state.stones):
        counted = Counter(_place(state, p, step) for step in places)
        told = [where if n == 1 else f"{n} {where}" for where, n in counted.items()]
        if state.tower == p:
            told.append("one stone in the tower")
        lines.append(f"{config.colours[p]} (player {p}): {'; '.join(told)}")
    me = f"player {state.player} ({config.colours[state.player]})"
    if state.phase is Phase.OVER:
        lines.append(f"{me} has won")
    elif state.phase is Phase.CHOOSE and state.dice is not None:
        lines.append(f"{me} to move with the dice {state.dice[0]} {state.dice[1]}")
    else:
        lines.append(f"{me} to throw")
    return "\n".join(lines)
