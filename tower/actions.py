"""The actions of Off to the Tower: :class:`Throw` (chance) and :class:`Move` (N2).

An action is an immutable value that checks its own shape when it is made;
whether it is legal in a position is the engine's question
(:mod:`tower.state`).

>>> Move(0, 5), Throw((6, 1))
(Move(step=0, points=5), Throw(dice=(6, 1)))
"""

from __future__ import annotations

from dataclasses import dataclass

from dicekit.dice import FACES
from tower.errors import InvalidActionValue, shown

__all__ = ["Action", "Move", "Throw"]


@dataclass(frozen=True, slots=True)
class Throw:
    """A throw of both dice, in the order they fell (R4.1): the chance action."""

    dice: tuple[int, int]

    def __post_init__(self) -> None:
        dice = self.dice
        if (
            not isinstance(dice, tuple)
            or len(dice) != 2
            or not all(
                isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= FACES for d in dice
            )
        ):
            raise InvalidActionValue(f"a throw is two dice from 1 to 6, not {shown(dice)}", "N2.2")


@dataclass(frozen=True, slots=True, order=True)
class Move:
    """A move: the stone on ``step`` (0 for the start) goes ``points`` steps on (R4.2, R5.1)."""

    step: int
    points: int

    def __post_init__(self) -> None:
        if not (
            isinstance(self.step, int) and not isinstance(self.step, bool) and 0 <= self.step < 1000
        ):
            raise InvalidActionValue(f"a move's step is 0 to 999, not {shown(self.step)}", "N2.3")
        if not (
            isinstance(self.points, int)
            and not isinstance(self.points, bool)
            and 1 <= self.points <= FACES
        ):
            raise InvalidActionValue(
                f"a move's points are 1 to 6, not {shown(self.points)}", "N2.3"
            )


#: An action: a throw or a move.
Action = Throw | Move
