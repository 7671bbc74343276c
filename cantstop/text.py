"""Plain-text pictures of a state: the mountain of columns, as a terminal shows it."""

from __future__ import annotations

from cantstop.game import Phase, State
from cantstop.notation import format_state

__all__ = ["render_board"]

_CELL = 4


def render_board(state: State) -> str:
    """Return a text picture of ``state``: one line per space, top space first.

    A cell shows the digit of each player with a square there and ``^`` for a
    neutral marker; ``.`` is an empty space.  Below each column is its number,
    and a won column shows its owner as ``*N``.

    >>> from cantstop import parse_state
    >>> print(render_board(parse_state('2:3/3:1 4:1 1d h2:3,3:2,4:2 w2')))
         2   3   4
      3  0
      2  .   .   .
      1  .   1   ^
         *0
    player 1 to roll again or stop
    """
    rules = state.rules
    heights = rules.heights
    tallest = max(heights.values())
    lines = ["   " + "".join(f"  {c:<{_CELL - 2}}" for c in heights).rstrip()]
    for row in range(tallest, 0, -1):
        cells = []
        for column, height in heights.items():
            if row > height:
                cells.append(" " * _CELL)
                continue
            text = "".join(
                str(p) for p, squares in enumerate(state.squares) if squares.get(column) == row
            )
            if state.markers.get(column) == row:
                text += "^"
            cells.append(f"  {text or '.':<{_CELL - 2}}")
        lines.append(f"{row:>3}" + "".join(cells).rstrip())
    owners = "".join(
        f"  {'*' + str(state.won[c]) if c in state.won else '':<{_CELL - 2}}" for c in heights
    )
    if owners.strip():
        lines.append("   " + owners.rstrip())
    lines.append(_caption(state))
    return "\n".join(lines)


def _caption(state: State) -> str:
    p = state.player
    if state.phase is Phase.ROLL:
        return f"player {p} to roll"
    if state.phase is Phase.CHOOSE:
        dice = "-".join(map(str, state.dice or ()))
        return f"player {p} to choose a move for {dice}"
    if state.phase is Phase.DECIDE:
        return f"player {p} to roll again or stop"
    return f"player {p} has won ({format_state(state)})"
