"""A picture of a state in plain text, for a terminal: the six rows, the line, who has what.

>>> from finishline import parse_state
>>> print(state_text(parse_state('..0./..../..../.0../01../...1 1/0 1c34')))
  finish line
    A B C D
  1 . . 0 .
  2 . . . .
  3 . . . .
  4 . 0 . .
  5 0 1 . .
  6 . . . 1
player 0: 1 across, 2 in hand
player 1: 0 across, 4 in hand
player 1 to play the dice 3 4
"""

from __future__ import annotations

from finishline.board import LETTERS, ROWS
from finishline.state import Phase, State

__all__ = ["state_text"]


def state_text(state: State) -> str:
    """Return ``state`` as a few lines of text: the board with row 1 at the line, then the players.

    A cell shows the player whose counter is on it, ``.`` an empty cell.
    """
    lines = ["  finish line", "    " + " ".join(LETTERS)]
    for row in ROWS:
        cells = state.board[(row - 1) * 4 : row * 4]
        lines.append(f"  {row} " + " ".join("." if p is None else str(p) for p in cells))
    for p, (across, hand) in enumerate(zip(state.across, state.hand, strict=True)):
        lines.append(f"player {p}: {across} across, {hand} in hand")
    if state.phase is Phase.OVER:
        lines.append(f"player {state.player} has won")
    elif state.phase is Phase.CHOOSE and state.dice is not None:
        lines.append(f"player {state.player} to play the dice {state.dice[0]} {state.dice[1]}")
    else:
        lines.append(f"player {state.player} to roll")
    return "\n".join(lines)
