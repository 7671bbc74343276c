"""The phases of a turn (R3): where the active player is, which every part of the engine reads.

:class:`Phase` lives apart from the states (:mod:`cantstop.state`) so that the
modules the states rely on (the invariants, the refusals) can read it too;
``cantstop.Phase`` and ``cantstop.state.Phase`` are this class.
"""

from __future__ import annotations

import enum

__all__ = ["Phase"]


class Phase(enum.Enum):
    """Where the active player is in their turn (R3).

    >>> from cantstop import new_game
    >>> new_game().phase
    <Phase.ROLL: 'roll'>
    """

    #: The turn has begun; the player must roll (R3.2).
    ROLL = "roll"
    #: The dice are on the table; the player must choose a move (R3.3).
    CHOOSE = "choose"
    #: The roll has been played; the player rolls again or stops (R3.4).
    DECIDE = "decide"
    #: Somebody has won; no action is possible (R12.3).
    OVER = "over"
