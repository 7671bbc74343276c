"""The state invariants of R16: what the constructor of a State checks, and the fields it derives.

:func:`validate` is called by :class:`~cantstop.State` for every state built
through its constructor (by :func:`~cantstop.parse_state`, the JSON readers
or directly).  It normalises the fields (mappings become
:class:`~cantstop.ColumnMap` values, dice are sorted), raises
:class:`~cantstop.InvalidState` naming the first invariant broken, and sets
the fields a state derives: its won columns, its situation and its legal
moves.  Transitions build their successors without it, keeping the
invariants by construction (the proofs in ``proofs/`` show which).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from cantstop import _tables
from cantstop.board import MARKERS
from cantstop.columnmap import ColumnMap
from cantstop.config import Rules, Variant
from cantstop.errors import InvalidState
from cantstop.phase import Phase

if TYPE_CHECKING:
    from cantstop.state import State

__all__ = ["validate"]


def validate(state: State) -> None:
    """Normalise the fields of a newly constructed ``state``, check R16 and derive the rest.

    >>> from cantstop import Phase, Rules, State
    >>> State(Rules(), 0, Phase.DECIDE, markers={7: 1, 8: 1, 9: 1, 10: 1})
    Traceback (most recent call last):
    ...
    cantstop.errors.InvalidState: 4 markers are on the board; there are 3 (rule R16.1)
    """
    set_ = object.__setattr__
    rules = state.rules
    if not isinstance(rules, Rules):
        raise InvalidState(f"rules must be a Rules value, not {rules!r}", "R15.1")
    n = rules.players
    heights = rules.heights
    if not isinstance(state.phase, Phase):
        raise InvalidState(f"phase must be a Phase, not {state.phase!r}", "R16.5")
    player = state.player
    if not isinstance(player, int) or isinstance(player, bool) or not 0 <= player < n:
        raise InvalidState(f"player must be from 0 to {n - 1}, not {player!r}", "R16.5")

    squares = state.squares if state.squares != () else tuple({} for _ in range(n))
    if not isinstance(squares, tuple) or len(squares) != n:
        raise InvalidState(f"squares must hold one mapping for each of {n} players", "R16.2")
    normal: list[ColumnMap] = []
    for p, theirs in enumerate(squares):
        if not isinstance(theirs, Mapping):
            raise InvalidState(f"player {p}'s squares must be a mapping, not {theirs!r}", "R16.2")
        normal.append(_column_map(theirs, f"player {p}'s square", heights))
    set_(state, "squares", tuple(normal))
    if not isinstance(state.markers, Mapping):
        raise InvalidState(f"markers must be a mapping, not {state.markers!r}", "R16.1")
    markers = _column_map(state.markers, "a marker", heights)
    set_(state, "markers", markers)

    won = _won_columns(rules, normal)
    set_(state, "_won", ColumnMap(won))
    holders = sorted(
        {p for p in won.values() if sum(o == p for o in won.values()) >= rules.columns_to_win}
    )
    if len(holders) > 1:
        raise InvalidState(f"players {holders} both hold enough columns to win", "R12.1")
    winner = holders[0] if holders else None
    _check_markers(rules, player, markers, normal, won)
    _check_phase(state, winner, markers)

    situation = _tables.compute_situation(state)
    set_(state, "_situation", situation)
    set_(state, "_starts", None)
    dice = state.dice
    moves = () if dice is None else _tables.moves(situation, _tables.ROLL_INDEX[dice])
    set_(state, "_moves", moves)
    if state.phase is Phase.CHOOSE and not moves:
        raise InvalidState("these dice have no legal move: the roll was a bust", "R10.1")


def _won_columns(rules: Rules, squares: list[ColumnMap]) -> dict[int, int]:
    """Return column to owner of the won columns, checking R9.1 and R9.3."""
    n = rules.players
    won: dict[int, int] = {}
    for column, height in rules.heights.items():
        owners = [p for p in range(n) if squares[p].get(column) == height]
        if len(owners) > 1:
            raise InvalidState(
                f"column {column} has squares of players {owners[0]} and {owners[1]} "
                f"on its top space; a won column has one owner",
                "R9.1",
            )
        if owners:
            won[column] = owners[0]
            others = [p for p in range(n) if p != owners[0] and column in squares[p]]
            if others:
                raise InvalidState(
                    f"player {others[0]} has a square in column {column}, "
                    f"which player {owners[0]} has won",
                    "R9.3",
                )
    return won


def _check_markers(
    rules: Rules,
    player: int,
    markers: ColumnMap,
    squares: list[ColumnMap],
    won: Mapping[int, int],
) -> None:
    """Check the neutral markers: three at most, in open columns, above the player's squares."""
    if len(markers) > MARKERS:
        raise InvalidState(f"{len(markers)} markers are on the board; there are 3", "R16.1")
    for column, position in markers.items():
        if column in won:
            raise InvalidState(f"a marker is in column {column}, which has been won", "R9.2")
        own = squares[player].get(column, 0)
        if position <= own:
            raise InvalidState(
                f"the marker in column {column} is on space {position}, not above "
                f"player {player}'s square on space {own}",
                "R16.3",
            )
        if rules.variant is Variant.A:
            for p, theirs in enumerate(squares):
                if p != player and theirs.get(column) == position:
                    raise InvalidState(
                        f"under Variant A the marker in column {column} cannot share "
                        f"space {position} with player {p}'s square",
                        "R14.1",
                    )


def _check_phase(state: State, winner: int | None, markers: ColumnMap) -> None:
    """Check the phase against the dice, the markers and the winner (R4.1, R12.1, R16.5)."""
    rules = state.rules
    phase = state.phase
    dice = state.dice
    if phase is Phase.CHOOSE:
        if (
            not isinstance(dice, tuple | list)
            or len(dice) != 4
            or not all(isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= 6 for d in dice)
        ):
            raise InvalidState(f"a state choosing a move needs four dice 1-6, not {dice!r}", "R4.1")
        object.__setattr__(state, "dice", tuple(sorted(dice)))
    elif dice is not None:
        raise InvalidState(f"only a state choosing a move has dice, not {phase.name}", "R16.5")
    if phase is Phase.OVER:
        if winner is None:
            raise InvalidState(
                f"the game is over only when a player holds {rules.columns_to_win} columns",
                "R12.1",
            )
        if state.player != winner:
            raise InvalidState(f"a finished game's player is its winner, {winner}", "R16.5")
    elif winner is not None:
        raise InvalidState(
            f"player {winner} holds {rules.columns_to_win} columns, so the game is over",
            "R12.1",
        )
    if phase in (Phase.ROLL, Phase.OVER) and markers:
        raise InvalidState(f"no marker is on the board in phase {phase.name}", "R16.5")
    if phase is Phase.DECIDE and not markers:
        raise InvalidState("after a move at least one marker is on the board", "R16.5")


def _column_map(values: Mapping[int, int], what: str, heights: Mapping[int, int]) -> ColumnMap:
    """Check that every position lies on the board (R16.2); return them as a column map.

    ``what`` names the pieces with their article: ``a marker``, ``player 0's square``.
    """
    for column, position in values.items():
        if column not in heights:
            raise InvalidState(f"{what} is in column {column!r}, which the board lacks", "R16.2")
        if (
            not isinstance(position, int)
            or isinstance(position, bool)
            or not 1 <= position <= heights[column]
        ):
            raise InvalidState(
                f"{what} in column {column} is on space {position!r}; "
                f"the column has spaces 1 to {heights[column]}",
                "R16.2",
            )
    return values if isinstance(values, ColumnMap) else ColumnMap(values)
