"""Deliberately broken models: for every property, one mistake the checks must catch.

Each :class:`Mutant` switches on one mistake in
:class:`~tower.proofs.model.Model` and names the property and transition whose
check must then fail.  A property whose check still passed on its mutant
could not tell the broken rules from the real ones.
"""

from __future__ import annotations

from dicekit.proofs.properties import Mutant, named
from tower.proofs.properties import PROPERTIES

__all__ = ["MUTANTS", "Mutant"]


def _prop(rule: str) -> str:
    return named(PROPERTIES, f"{rule} ").name


#: One mutant for every property, and one more for conservation.
MUTANTS: tuple[Mutant, ...] = (
    Mutant(
        "lose-captured",
        "a captured stone vanishes instead of entering the tower",
        _prop("R13.1"),
        "move",
        "2p",
    ),
    Mutant(
        "free-into-two", "a six frees the tower's stone twice over", _prop("R13.1"), "throw", "2p"
    ),
    Mutant(
        "keep-tower",
        "a capture leaves the stone already in the tower there",
        _prop("R8.1"),
        "move",
        "2p",
    ),
    Mutant(
        "past-the-goal",
        "a stone may go past its goal and stay on the track",
        _prop("R13.2"),
        "move",
        "2p",
    ),
    Mutant("land-on-own", "a stone may land on its twin", _prop("R5.4"), "move", "2p"),
    Mutant(
        "no-capture",
        "landing on another player's stone leaves it there",
        _prop("R7.4"),
        "move",
        "2p",
    ),
    Mutant(
        "unsorted-dice",
        "the dice stay on the table in the order they fell",
        _prop("R13.5"),
        "throw",
        "2p",
    ),
    Mutant(
        "pass-obstacle",
        "a stone may pass another player's stone on the crossing",
        _prop("R9.1"),
        "move",
        "2p",
    ),
    Mutant(
        "six-frees-nothing",
        "a six leaves the thrower's stone in the tower",
        _prop("R8.3"),
        "throw",
        "2p",
    ),
    Mutant(
        "win-needs-more",
        "a player needs a stone more than they have to win",
        _prop("R11.1"),
        "move",
        "2p",
    ),
    Mutant(
        "overshoot",
        "a throw too large still takes a stone into its goal",
        _prop("R10.2"),
        "move",
        "2p",
    ),
)
