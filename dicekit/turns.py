"""Whose turn comes next, in a game where a move may earn the same player another throw.

>>> next_player(1, 3, again=False), next_player(2, 3, again=False), next_player(2, 3, again=True)
(2, 0, 2)

Which values name a player at all is :func:`is_player`'s to say.
"""

from __future__ import annotations

__all__ = ["is_player", "next_player"]


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
