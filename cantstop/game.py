"""The states of a game, kept at this path: see :mod:`cantstop.state`.

``from cantstop.game import State`` keeps working; the states, their queries
and their transitions live in :mod:`cantstop.state`.

>>> from cantstop.state import State as StateState
>>> State is StateState
True
"""

from cantstop.state import Decisions, Event, Perft, Phase, Play, State, Step, new_game, perft

__all__ = ["Decisions", "Event", "Perft", "Phase", "Play", "State", "Step", "new_game", "perft"]
