"""Whose turn comes next, in a game where a move may earn the same player another throw.

>>> next_player(1, 3, again=False), next_player(2, 3, again=False), next_player(2, 3, again=True)
(2, 0, 2)

Which values name a player at all is :func:`is_player`'s to say, and
:func:`check_first_player` refuses any other as the player who begins;
:func:`opening_config` checks both arguments of a game's ``new_game``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, TypeVar

__all__ = ["check_first_player", "is_player", "next_player", "opening_config"]


class _Seats(Protocol):
    """A configuration that says how many players it seats."""

    @property
    def players(self) -> int: ...


_C = TypeVar("_C", bound=_Seats)


def next_player(player: int, players: int, *, again: bool) -> int:
    """Return the player who acts next: the same one after a move that earns a throw again."""
    return player if again else (player + 1) % players


def is_player(value: object, players: int) -> bool:
    """Return whether ``value`` names a player of a game of ``players``: a whole number from 0.

    A ``bool`` is no player, though Python counts it as a whole number.

    >>> is_player(2, 3), is_player(3, 3), is_player(-1, 3), is_player(True, 3), is_player("1", 3)
    (True, False, False, False, False)
    """
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < players


def check_first_player(
    first_player: object,
    players: int,
    error: Callable[[str, str], Exception],
    rule: str,
    quote: Callable[[object], str] = repr,
) -> None:
    """Raise ``error(message, rule)`` unless ``first_player`` names one of ``players`` players.

    The message quotes the value with ``quote``, the game's own quoting.

    >>> check_first_player(1, 2, ValueError, "R2.2")
    >>> check_first_player(2, 2, lambda message, rule: ValueError(f"{message} ({rule})"), "R2.2")
    Traceback (most recent call last):
    ...
    ValueError: first_player must be a player from 0 to 1, not 2 (R2.2)
    """
    if not is_player(first_player, players):
        raise error(
            f"first_player must be a player from 0 to {players - 1}, not {quote(first_player)}",
            rule,
        )


def opening_config(
    config: object,
    first_player: object,
    kind: type[_C],
    error: Callable[[str, str], Exception],
    rules: tuple[str, str],
    quote: Callable[[object], str] = repr,
) -> _C:
    """Return the configuration of a new game: ``config``, or ``kind()`` when it is ``None``.

    Raise ``error(message, rule)`` unless the configuration is a ``kind``
    (the first of ``rules``) and ``first_player`` names one of its players
    (:func:`check_first_player`, the second); the message calls the
    configuration by ``kind``'s name in lower case and quotes values with ``quote``.

    >>> from dataclasses import dataclass
    >>> @dataclass
    ... class Setup:
    ...     players: int = 2
    >>> opening_config(None, 1, Setup, ValueError, ("R1", "R2"))
    Setup(players=2)
    >>> error = lambda message, rule: ValueError(f"{message} ({rule})")
    >>> opening_config("two", 0, Setup, error, ("R1", "R2"))
    Traceback (most recent call last):
    ...
    ValueError: setup must be a Setup value, not 'two' (R1)
    >>> opening_config(Setup(3), 3, Setup, error, ("R1", "R2"))
    Traceback (most recent call last):
    ...
    ValueError: first_player must be a player from 0 to 2, not 3 (R2)
    """
    found = kind() if config is None else config
    if not isinstance(found, kind):
        name = kind.__name__
        raise error(f"{name.lower()} must be a {name} value, not {quote(found)}", rules[0])
    check_first_player(first_player, found.players, error, rules[1], quote)
    return found
