"""Plain-text pictures of a state: the mountain of columns, as a terminal shows it.

:func:`render_board` draws a state as text; :func:`board_lines` is the same
picture with a hook that colours each mark (``cantstop play`` paints players
in colour); :func:`legend` explains the marks.
"""

from __future__ import annotations

from collections.abc import Callable

from cantstop.notation import format_state
from cantstop.state import Phase, State

__all__ = ["MARKER", "Paint", "board_lines", "caption", "legend", "render_board"]

#: The mark of a neutral marker; a player's square is their number, an empty space ``.``.
MARKER = "^"
_EMPTY = "."

#: A function that dresses one mark for display: ``paint(text, owner)`` where
#: ``owner`` is the player a square or won column belongs to, ``MARKER`` for a
#: neutral marker and ``None`` for an empty space.
Paint = Callable[[str, int | str | None], str]


def _plain(text: str, owner: int | str | None) -> str:
    return text


def board_lines(state: State, paint: Paint = _plain) -> list[str]:
    r"""Return the board of ``state`` as lines: column numbers, then one line per space, top first.

    A cell shows the number of each player with a square on that space and
    :data:`MARKER` for a neutral marker; ``.`` is an empty space.  A last line
    marks each won column ``*N``, N its owner.  Every cell is as wide as the
    fullest one, so the columns stay aligned even with four players and a
    marker on one space.  ``paint`` dresses each mark (colour, for instance)
    without changing its width.

    >>> from cantstop import parse_state
    >>> print("\n".join(board_lines(parse_state('7:2/7:3/7:3/7:3 7:3 0d h6:3,7:5 w1'))))
         6     7
      5        .
      4        .
      3  .     123^
      2  .     0
      1  .     .
    """
    heights = state.rules.heights
    cells: dict[tuple[int, int], list[tuple[str, int | str | None]]] = {}
    for column, height in heights.items():
        for row in range(1, height + 1):
            marks: list[tuple[str, int | str | None]] = [
                (str(p), p) for p, squares in enumerate(state.squares) if squares.get(column) == row
            ]
            if state.markers.get(column) == row:
                marks.append((MARKER, MARKER))
            cells[column, row] = marks or [(_EMPTY, None)]
    width = max(2, *(sum(len(t) for t, _ in marks) for marks in cells.values()))

    def cell(marks: list[tuple[str, int | str | None]]) -> str:
        shown = sum(len(t) for t, _ in marks)
        return "  " + "".join(paint(t, owner) for t, owner in marks) + " " * (width - shown)

    lines = ["   " + "".join(f"  {c:<{width}}" for c in heights).rstrip()]
    for row in range(max(heights.values()), 0, -1):
        text = "".join(
            cell(cells[column, row]) if row <= height else " " * (width + 2)
            for column, height in heights.items()
        )
        lines.append(f"{row:>3}" + text.rstrip())
    if state.won:
        owners: list[list[tuple[str, int | str | None]]] = [
            [(f"*{state.won[c]}", state.won[c])] if c in state.won else [("", None)]
            for c in heights
        ]
        lines.append(("   " + "".join(cell(o) for o in owners)).rstrip())
    return lines


def legend(players: int, paint: Paint = _plain) -> str:
    """Return one line that explains the marks of :func:`board_lines` for ``players`` players.

    >>> legend(2)
    'legend: 0 1 squares of players 0 and 1, ^ neutral marker, . empty space, *N won by player N'
    """
    numbers = " ".join(paint(str(p), p) for p in range(players))
    whose = "player 0" if players == 1 else f"players {', '.join(map(str, range(players - 1)))}"
    whose += f" and {players - 1}" if players > 1 else ""
    return (
        f"legend: {numbers} squares of {whose}, {paint(MARKER, MARKER)} neutral marker, "
        f"{paint(_EMPTY, None)} empty space, *N won by player N"
    )


def render_board(state: State) -> str:
    """Return a text picture of ``state``: the board, what happens next and the state in notation.

    The board is :func:`board_lines`; the last line is the state in notation,
    ready to paste into ``cantstop odds`` or ``cantstop show``.

    >>> from cantstop import parse_state
    >>> print(render_board(parse_state('2:3/3:1 4:1 1d h2:3,3:2,4:2 w2')))
         2   3   4
      3  0
      2  .   .   .
      1  .   1   ^
         *0
    player 1 to roll again or stop
    position: 2:3/3:1 4:1 1d h2:3,3:2,4:2 w2
    """
    return "\n".join([*board_lines(state), caption(state), f"position: {format_state(state)}"])


def caption(state: State) -> str:
    """Return one line saying whose turn it is and what they do next.

    >>> from cantstop import parse_state
    >>> caption(parse_state('-/- - 0c3455'))
    'player 0 to choose a move for 3-4-5-5'
    """
    p = state.player
    if state.phase is Phase.ROLL:
        return f"player {p} to roll"
    if state.phase is Phase.CHOOSE:
        dice = "-".join(map(str, state.dice or ()))
        return f"player {p} to choose a move for {dice}"
    if state.phase is Phase.DECIDE:
        return f"player {p} to roll again or stop"
    return f"player {p} has won"
