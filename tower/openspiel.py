"""Off to the Tower as the OpenSpiel game ``python_tower`` (extra ``openspiel``).

Importing this module registers the game through the layer's adapter
(:func:`dicekit.openspiel.register`), with its parameters ``players``,
``config`` (for another board: ``{"board":"small"}``) and ``max_decisions``;
moves are numbered by :meth:`tower.layer.TowerGame.action_space`, and the
last number, which lets chance act, is never legal in this game.

>>> import pyspiel
>>> game = pyspiel.load_game(GAME_NAME, {"players": 3})
>>> game.num_distinct_actions(), game.max_chance_outcomes(), game.num_players()
(199, 21, 3)
"""

from __future__ import annotations

from dicekit.openspiel import register
from tower.layer import GAME

__all__ = ["GAME_NAME"]

#: The name the game is registered under.
GAME_NAME = "python_tower"

register(GAME, GAME_NAME, "Python Off to the Tower")
