"""Seeded play of any game, kept at this path: see :mod:`dicekit.seeded`.

``from dicekit.playing import play_out`` keeps working; throwing by the
exact odds, asking the bots and playing a game out live in
:mod:`dicekit.seeded`.

>>> from dicekit.seeded import play_out as seeded_play_out
>>> play_out is seeded_play_out
True
"""

from dicekit.seeded import Acted, NoAction, next_action, pick, play_out, player_count, throw

__all__ = ["Acted", "NoAction", "next_action", "pick", "play_out", "player_count", "throw"]
