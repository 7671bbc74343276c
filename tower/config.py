"""The configuration of a game (R12): the board, the players and the colour each plays.

:func:`make_config` builds one from a board name or :class:`~tower.board.Board`,
a number of players and an optional list of colours, and checks it in the
order of R12, raising :class:`~dicekit.errors.InvalidConfig` (or
:class:`~tower.errors.InvalidBoard`) naming the first rule broken.  A
configuration also carries, per player, what the engine reads again and
again: the route's fields, its length, and the steps that give a throw again.

>>> config = make_config('ours', players=3)
>>> config.colours, config.stones
(('R', 'B', 'G'), 2)
>>> config.lengths, sorted(config.again_steps[0])[:4]
((33, 33, 33), [1, 7, 12, 18])
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from tower.board import Board, load_board
from tower.errors import InvalidConfig, shown

__all__ = ["DEFAULT_BOARD", "Config", "make_config", "stones_per_player"]

#: The board of the default configuration: our illustrative board (R2.7).
DEFAULT_BOARD = "ours"


def stones_per_player(players: int) -> int:
    """Return how many stones each player has: two, or one when four play (R1.2)."""
    return 1 if players == 4 else 2


@dataclass(frozen=True)
class Config:
    """A checked configuration: make one with :func:`make_config`.

    ``colours`` holds one colour letter per player, in order of play.
    """

    board: Board
    players: int
    colours: tuple[str, ...]

    def __post_init__(self) -> None:
        _check(self.board, self.players, self.colours)

    def __repr__(self) -> str:
        return f"Config({self.board!r}, players={self.players}, colours={self.colours!r})"

    @property
    def stones(self) -> int:
        """The number of stones each player has (R1.2)."""
        return stones_per_player(self.players)

    @functools.cached_property
    def routes(self) -> tuple[tuple[int, ...], ...]:
        """Each player's route: the field of each step, 0 for the start and the goal last (R2.6)."""
        return tuple(self.board.route(letter) for letter in self.colours)

    @functools.cached_property
    def lengths(self) -> tuple[int, ...]:
        """Each player's route length: the step of the goal (R2.6)."""
        return tuple(len(route) - 1 for route in self.routes)

    @functools.cached_property
    def again_steps(self) -> tuple[frozenset[int], ...]:
        """Each player's steps on a field of the player's colour, the goal included (R6.1, R6.6)."""
        fields = self.board.fields
        return tuple(
            frozenset(
                step
                for step, number in enumerate(route)
                if step and fields[number].colour == letter
            )
            for route, letter in zip(self.routes, self.colours, strict=True)
        )

    @functools.cached_property
    def crossing_steps(self) -> tuple[tuple[int, ...], ...]:
        """Each player's steps on the crossing: one, two, or none if the route misses it (R9.2)."""
        crossing = self.board.crossing
        return tuple(
            tuple(step for step, number in enumerate(route) if number == crossing)
            for route in self.routes
        )

    @functools.cached_property
    def first_pass_steps(self) -> tuple[int | None, ...]:
        """Each player's step on the crossing's first track position; ``None`` if off the route.

        The crossing is one field at two track positions (R2.2); the first is the
        one a stone reaches first along the track (R9.2).

        >>> config = make_config('ours')       # field 10 is steps 10 and 24 of both routes
        >>> config.first_pass_steps, config.crossing_steps
        ((10, 10), ((10, 24), (10, 24)))
        """
        board = self.board
        first = board.track.index(board.crossing) + 1
        steps: list[int | None] = []
        for letter in self.colours:
            colour = board.colour(letter)
            inside = colour.entry <= first <= colour.gate
            steps.append(len(colour.way_in) + first - colour.entry + 1 if inside else None)
        return tuple(steps)


def make_config(
    board: str | Board = DEFAULT_BOARD, players: int = 2, colours: tuple[str, ...] | None = None
) -> Config:
    """Return the configuration of ``board`` (a name or a board), players and colours (R12).

    Without ``colours`` the players take the board's first colours (R12.2).

    >>> make_config(players=5)
    Traceback (most recent call last):
    ...
    dicekit.errors.InvalidConfig: a game has 2 to 4 players, not 5 (rule R12.1)
    """
    _check_players(players)
    if isinstance(board, str):
        board = load_board(board)
    if not isinstance(board, Board):
        raise InvalidConfig(f"the board must be a name or a Board, not {shown(board)}", "R12.3")
    _check_board(board, players)
    if colours is None:
        colours = board.letters[:players]
    return Config(board, players, tuple(colours))


def _check_players(players: object) -> None:
    if not isinstance(players, int) or isinstance(players, bool) or not 2 <= players <= 4:
        raise InvalidConfig(f"a game has 2 to 4 players, not {shown(players)}", "R12.1")


def _check_board(board: Board, players: int) -> None:
    if len(board.colours) < players:
        raise InvalidConfig(
            f"board {shown(board.name)} has {len(board.colours)} colours, "
            f"too few for {players} players",
            "R12.3",
        )


def _check(board: object, players: int, colours: object) -> None:
    _check_players(players)
    if not isinstance(board, Board):
        raise InvalidConfig(f"the board must be a Board, not {shown(board)}", "R12.3")
    _check_board(board, players)
    if not isinstance(colours, tuple) or len(colours) != players:
        raise InvalidConfig(
            f"the colours must list one colour for each of {players} players", "R12.2"
        )
    seen: set[object] = set()
    for letter in colours:
        if letter not in board.letters:
            raise InvalidConfig(
                f"colour {shown(letter)} is not a colour of the board; "
                f"it has {', '.join(board.letters)}",
                "R12.2",
            )
        if letter in seen:
            raise InvalidConfig(f"colour {letter} is played twice", "R12.2")
        seen.add(letter)
