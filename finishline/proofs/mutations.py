"""Deliberately broken models: for every property, a mistake its check must catch.

Each :class:`Mutant` switches on one mistake in :class:`~finishline.proofs.model.Model`
and names the property and transition whose check must then find a
counterexample.  A property whose check still said "proved" on a broken
model could not tell broken rules from the real ones.
"""

from __future__ import annotations

from dicekit.proofs.properties import Mutant, named
from finishline.proofs.properties import PROPERTIES

__all__ = ["MUTANTS", "Mutant"]


def _prop(prefix: str) -> str:
    return named(PROPERTIES, prefix).name


#: The mutants, at least one for every property.
MUTANTS: tuple[Mutant, ...] = (
    Mutant(
        "place-keeps-hand",
        "a placed counter is not taken from the hand",
        _prop("R12.3"),
        "play",
        "2p",
    ),
    Mutant(
        "place-on-occupied",
        "a counter may be placed on an occupied cell",
        _prop("R12.2"),
        "play",
        "2p",
    ),
    Mutant(
        "cross-to-row-0",
        "a counter moving forward from row 1 goes to a row 0, not across",
        _prop("R12.1"),
        "play",
        "2p",
    ),
    Mutant(
        "sideways-off-the-board",
        "a sideways step may leave the row at cell A or D",
        _prop("R12.1"),
        "sideways",
        "2p",
    ),
    Mutant(
        "roll-without-action",
        "a roll that offers nothing is not forfeited",
        _prop("R12.4"),
        "roll",
        "2p",
    ),
    Mutant(
        "win-one-early",
        "the game ends with one counter still to cross",
        _prop("R12.5"),
        "play",
        "2p",
    ),
    Mutant(
        "place-for-next-player",
        "a die places a counter of the next player",
        _prop("R7.3 a player"),
        "play",
        "2p",
    ),
    Mutant(
        "ignore-blocking",
        "a counter moves forward into an occupied cell",
        _prop("R6.4"),
        "play",
        "2p",
    ),
    Mutant(
        "sideways-any-roll",
        "the sideways step is open on any roll",
        _prop("R7.3 the sideways"),
        "sideways",
        "2p",
    ),
    Mutant(
        "sideways-any-counter",
        "the sideways step may move any player's counter",
        _prop("R7.3 the sideways"),
        "sideways",
        "2p",
    ),
    Mutant(
        "double-rolls-again", "the double advance keeps the turn", _prop("R3.4"), "double", "2p"
    ),
    Mutant("win-on-board", "the game is won once the hand is empty", _prop("R10.1"), "play", "2p"),
)
