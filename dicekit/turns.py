"""Whose turn comes next, in a game where a move may earn the same player another throw.

>>> next_player(1, 3, again=False), next_player(2, 3, again=False), next_player(2, 3, again=True)
(2, 0, 2)

Which values name a player at all is :func:`is_player`'s to say, and
:func:`check_first_player` refuses any other as the player who begins.
"""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["check_first_player", "is_player", "next_player"]


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
