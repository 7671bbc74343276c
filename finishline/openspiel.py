"""The finish-line race as the OpenSpiel game ``python_finishline`` (extra ``openspiel``).

Importing this module registers the game through the layer's adapter
(:func:`dicekit.openspiel.register`), with its parameters ``players``,
``config`` and ``max_decisions``; actions are numbered by
:meth:`finishline.FinishLine.action_space`, and the last number, which lets
chance act, is never legal in this game.

>>> import pyspiel
>>> game = pyspiel.load_game(GAME_NAME, {"players": 2})
>>> game.num_distinct_actions(), game.max_chance_outcomes(), game.num_players()
(1281, 21, 2)
"""

from __future__ import annotations

from dicekit.openspiel import register
from finishline.layer import GAME

__all__ = ["GAME_NAME"]

#: The name the game is registered under.
GAME_NAME = "python_finishline"

register(GAME, GAME_NAME, "Python finish-line race")
