"""Whose turn comes next, in a game where a move may earn the same player another throw.

>>> next_player(1, 3, again=False), next_player(2, 3, again=False), next_player(2, 3, again=True)
(2, 0, 2)
"""

from __future__ import annotations

__all__ = ["next_player"]


def next_player(player: int, players: int, *, again: bool) -> int:
    """Return the player who acts next: the same one after a move that earns a throw again."""
    return player if again else (player + 1) % players
