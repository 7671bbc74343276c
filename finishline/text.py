"""Terminal pictures: a state of the finish-line race in a few lines of plain text.

The picture has the finish line on top, the six rows under it (row 1 first,
as the board is drawn, R1.2) with their numbers on the left and the cell
letters A to D above, each counter as its player's number and each empty
cell as a dot, as in the notation (N1.2).  Under the board, one line per
player gives the counters in hand and across, with ``>`` before the player
whose turn it is, and a last line says what happens next.  Only ASCII is
used, so that any terminal shows it.

>>> from finishline.notation import parse_state
>>> print(state_text(parse_state('..../..0./..../..../01../...1 0/0 0c24')))
     A B C D
   ---------  finish line
 1   . . . .
 2   . . 0 .
 3   . . . .
 4   . . . .
 5   0 1 . .
 6   . . . 1
 > player 0 (red)   in hand 4  across 0
   player 1 (blue)  in hand 4  across 0
 player 0 (red) to play a 2 and a 4
"""

from __future__ import annotations

from finishline.board import LETTERS, ROWS, cell_at
from finishline.state import Phase, State
from finishline.svg import PLAYER_NAMES

__all__ = ["legend", "state_text"]


def _name(player: int) -> str:
    return f"player {player} ({PLAYER_NAMES[player % len(PLAYER_NAMES)]})"


def _caption(state: State) -> str:
    """Say what happens next: a roll, a choice for the dice on the table, or the end."""
    who = _name(state.player)
    if state.phase is Phase.OVER:
        return f"{who} has won: every counter is across"
    if state.phase is Phase.CHOOSE:
        assert state.dice is not None
        low, high = state.dice
        return f"{who} to play a {low} and a {high}"
    return f"{who} to roll"


def state_text(state: State) -> str:
    """Return the picture of ``state``: the board, the players' counters and what happens next.

    >>> from finishline.state import new_game
    >>> print(state_text(new_game()).splitlines()[-1])
    player 0 (red) to roll
    """
    lines = ["     " + " ".join(LETTERS), "   ---------  finish line"]
    for row in ROWS:
        marks = [state.board[cell_at(row, letter)] for letter in LETTERS]
        lines.append(f" {row}   " + " ".join("." if m is None else str(m) for m in marks))
    names = [_name(p) for p in range(state.config.players)]
    width = max(map(len, names))
    for p, name in enumerate(names):
        mark = ">" if p == state.player else " "
        lines.append(f" {mark} {name:<{width}}  in hand {state.hand[p]}  across {state.across[p]}")
    lines.append(f" {_caption(state)}")
    return "\n".join(lines)


def legend(state: State) -> str:
    """Return the key to the marks of :func:`state_text`, printed under the picture.

    >>> from finishline.state import new_game
    >>> print(legend(new_game()))
    legend: 0 1 counters of player 0 (red) and player 1 (blue), . empty cell, > the player to act
    """
    counters = " ".join(str(p) for p in range(state.config.players))
    names = [_name(p) for p in range(state.config.players)]
    whose = " and ".join([", ".join(names[:-1]), names[-1]]) if len(names) > 1 else names[0]
    return f"legend: {counters} counters of {whose}, . empty cell, > the player to act"
