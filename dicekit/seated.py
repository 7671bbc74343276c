"""Whose turn, the end, the winner and the returns, read from a state's own fields.

Most games keep in each state the player to act, a phase and the winner,
and in each configuration the number of players.  Such a game's object
inherits from :class:`SeatedGame` the five methods of
:class:`~dicekit.protocol.Core` that only read those fields, and names the
phase in which its game is over (:attr:`SeatedGame.over`).  A game whose
fields are named otherwise defines the methods itself.

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Config:
...     players: int = 2
>>> @dataclass(frozen=True)
... class State:
...     config: Config
...     player: int
...     phase: str
...     winner: int | None = None
>>> class Game(SeatedGame):
...     over = "over"
>>> game, won = Game(), State(Config(3), 1, "over", winner=1)
>>> game.player_count(Config(3)), game.player(won), game.is_over(won), game.winner(won)
(3, 1, True, 1)
>>> game.returns(won), game.returns(State(Config(), 0, "play"))
((-0.5, 1.0, -0.5), (0.0, 0.0))
"""

from __future__ import annotations

from typing import ClassVar, Protocol

from dicekit.rewards import winner_returns

__all__ = ["SeatedGame"]


class _Configuration(Protocol):
    """A configuration that says how many players it seats."""

    @property
    def players(self) -> int: ...


class _State(Protocol):
    """A state that says who acts, its phase and its winner."""

    @property
    def player(self) -> int: ...

    @property
    def phase(self) -> object: ...

    @property
    def winner(self) -> int | None: ...


class _ConfiguredState(_State, Protocol):
    """A state that also holds its configuration."""

    @property
    def config(self) -> _Configuration: ...


class SeatedGame:
    """The methods of a game object that read a state's player, phase and winner."""

    #: The phase of a state whose game is over.
    over: ClassVar[object]

    def player_count(self, config: _Configuration) -> int:
        """Return the number of players ``config`` seats."""
        return config.players

    def player(self, state: _State) -> int:
        """Return whose turn it is (the winner once the game is over)."""
        return state.player

    def is_over(self, state: _State) -> bool:
        """Return whether the game has ended: whether ``state`` is in the phase :attr:`over`."""
        return state.phase == self.over

    def winner(self, state: _State) -> int | None:
        """Return the winner, or ``None`` while the game goes on."""
        return state.winner

    def returns(self, state: _ConfiguredState) -> tuple[float, ...]:
        """Return each player's return: the layer's convention for the winner.

        (:func:`dicekit.rewards.winner_returns`: zero-sum, the winner 1.)
        """
        return winner_returns(state.config.players, state.winner)
