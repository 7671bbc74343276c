"""The state invariants (R12): the check every new state passes, and the fields it derives.

:func:`validate` is what the constructor of a :class:`~finishline.state.State`
runs: it reads the board (:func:`read_board`), derives each player's counters
in hand, and refuses any state the rules cannot reach, naming the rule.

>>> from finishline.state import Phase, State
>>> from finishline.config import Config
>>> State(Config(), 0, Phase.OVER)
Traceback (most recent call last):
...
dicekit.errors.InvalidState: the game is over only when a player has all counters across ...
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from dicekit.turns import is_player
from finishline.board import Cell
from finishline.config import Config
from finishline.errors import InvalidState, brief

if TYPE_CHECKING:
    from finishline.decide import Board
    from finishline.state import State

__all__ = ["read_board", "too_many_counters", "validate"]


def validate(state: State) -> None:
    """Normalise the fields of a new state and check the invariants of R12."""
    from finishline.state import Phase

    set_ = object.__setattr__
    config = state.config
    if not isinstance(config, Config):
        raise InvalidState(f"config must be a Config value, not {brief(config)}", "R11.1")
    n = config.players
    board = read_board(state.board, n)
    set_(state, "board", board)
    across = state.across if state.across != () else (0,) * n
    if not isinstance(across, tuple | list) or len(across) != n:
        raise InvalidState(f"across must hold one count for each of {n} players", "R12.3")
    for p, count in enumerate(across):
        if not isinstance(count, int) or isinstance(count, bool) or count < 0:
            raise InvalidState(
                f"player {p}'s counters across must be a number from 0, not {brief(count)}",
                "R12.3",
            )
    across = tuple(across)
    set_(state, "across", across)
    hand = []
    surplus = too_many_counters(board, across, config.counters)
    if surplus is not None:
        raise InvalidState(surplus[1], "R12.3")
    for p in range(n):
        hand.append(config.counters - board.count(p) - across[p])
    set_(state, "hand", tuple(hand))
    player = state.player
    if not isinstance(player, int) or isinstance(player, bool) or not 0 <= player < n:
        raise InvalidState(f"player must be from 0 to {n - 1}, not {brief(player)}", "R12.4")
    phase = state.phase
    if not isinstance(phase, Phase):
        raise InvalidState(f"phase must be a Phase, not {brief(phase)}", "R12.4")
    finished = [p for p in range(n) if across[p] == config.counters]
    if len(finished) > 1:
        raise InvalidState(
            f"players {finished[0]} and {finished[1]} both have every counter across; "
            "the game ends with the first",
            "R10.1",
        )
    if phase is Phase.OVER:
        if not finished:
            raise InvalidState(
                "the game is over only when a player has all counters across", "R10.1"
            )
        if finished[0] != player:
            raise InvalidState(
                f"a finished game's player is its winner, {finished[0]}, not {player}", "R10.1"
            )
    elif finished:
        raise InvalidState(
            f"player {finished[0]} has every counter across, so the game is over", "R10.1"
        )
    dice = state.dice
    if phase is Phase.CHOOSE:
        if (
            not isinstance(dice, tuple | list)
            or len(dice) != 2
            or not all(isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= 6 for d in dice)
        ):
            raise InvalidState(f"a state choosing needs two dice 1 to 6, not {brief(dice)}", "R4.1")
        a, b = dice
        set_(state, "dice", (a, b) if a <= b else (b, a))
        set_(state, "_legal", None)
        if not state._outcomes():
            raise InvalidState(
                "these dice offer no legal action: the roll forfeits the turn", "R9.1"
            )
    elif dice is not None:
        raise InvalidState(
            f"only a state choosing has dice, not one in phase {phase.name}", "R12.4"
        )
    else:
        set_(state, "_legal", None)


def too_many_counters(
    board: Sequence[int | None], across: Sequence[int], counters: int
) -> tuple[int, str] | None:
    """Return the first player with more counters on the board and across than ``counters``.

    The player and the sentence that says so (R12.3), or ``None`` when every
    player has at most ``counters``.

    >>> too_many_counters([0, 0, None, 1], [5, 0], 6)
    (0, 'player 0 has 2 counters on the board and 5 across, more than 6')
    >>> too_many_counters([0, None], [1, 2], 6) is None
    True
    """
    for p, gone in enumerate(across):
        on_board = board.count(p)
        if on_board + gone > counters:
            return p, (
                f"player {p} has {on_board} counters on the board and {gone} across, "
                f"more than {counters}"
            )
    return None


def read_board(board: object, players: int) -> Board:
    """Return a board from a sequence of 24 owners, checking each (R12.1)."""
    if isinstance(board, Sequence) and not isinstance(board, str) and len(board) == 24:
        cells: list[object] = list(board)
    else:
        raise InvalidState(f"a board has 24 cells, not {brief(board)}", "R12.1")
    for c, owner in enumerate(cells):
        if owner is not None and not is_player(owner, players):
            raise InvalidState(
                f"{Cell(c)} names player {brief(owner)}; the players are 0 to {players - 1}",
                "R12.1",
            )
    return tuple(cells)  # type: ignore[arg-type]  # each entry was checked above
