"""Deliberately broken models: for every property, one mistake the checker must catch.

Each :class:`Mutant` switches on one mistake in :class:`~proofs.model.Model`
(or, for R15.4, uses a configuration the rules refuse, named in
:data:`~proofs.checks.REFUSED`) and names the property
and transition whose check must then fail.  If a mutant's check were still
"proved", the property could not tell the broken rules from the real ones,
and its proof would mean little.
"""

from __future__ import annotations

from dicekit.proofs.properties import Mutant, named
from proofs.properties import PROPERTIES

__all__ = ["MUTANTS", "Mutant"]


def _prop(prefix: str) -> str:
    return named(PROPERTIES, prefix).name


#: One mutant per property, in the order of the properties.
MUTANTS: tuple[Mutant, ...] = (
    Mutant(
        "fourth-marker",
        "a fourth marker may be placed",
        _prop("R16.1"),
        "move",
        "2p",
    ),
    Mutant(
        "keep-other-squares",
        "winning a column leaves the other players' squares in it",
        _prop("R16.4"),
        "stop",
        "2p",
    ),
    Mutant(
        "past-the-top",
        "a marker on the top space still advances",
        _prop("R16.2"),
        "move",
        "2p",
    ),
    Mutant(
        "marker-below-square",
        "a new marker goes on space 1 whatever the player's square",
        _prop("R16.3"),
        "move",
        "2p",
    ),
    Mutant(
        "bust-keeps-markers",
        "a bust leaves the markers on the board",
        _prop("R16.5"),
        "bust",
        "2p",
    ),
    Mutant(
        "win-needs-more",
        "the game is won only with more columns than the target",
        _prop("R12.1 over"),
        "stop",
        "2p",
    ),
    Mutant(
        "stalling-configuration",
        "a board with no more columns than players x (target - 1)",
        _prop("R15.4"),
        "stop",
        "stalling-configuration",
    ),
    Mutant(
        "no-skip",
        "under Variant A, markers do not skip other players' squares",
        _prop("R14.1"),
        "move",
        "2p-A",
    ),
    Mutant(
        "drop-playable-sum",
        "a pairing may play one sum even when both can be played",
        _prop("R6.1"),
        "move",
        "2p",
    ),
    Mutant(
        "empty-move",
        "a move may play nothing",
        _prop("R6.5"),
        "move",
        "2p",
    ),
    Mutant(
        "place-on-won",
        "a marker may be placed on a won column",
        _prop("R9.2"),
        "move",
        "2p",
    ),
    Mutant(
        "bust-despite-move",
        "a roll busts unless some pairing plays both its sums",
        _prop("R10.1"),
        "bust",
        "2p",
    ),
    Mutant(
        "win-needs-more",
        "the game is won only with more columns than the target",
        _prop("R12.1 a player"),
        "stop",
        "2p",
    ),
    Mutant(
        "bust-scores",
        "a bust turns the markers into squares",
        _prop("R10.2"),
        "bust",
        "2p",
    ),
    Mutant(
        "bust-keeps-turn",
        "after a bust the same player rolls again",
        _prop("R2.3"),
        "bust",
        "2p",
    ),
    Mutant(
        "stop-while-sharing",
        "under Variant B a player may stop while sharing a space",
        _prop("R14.2"),
        "stop",
        "3p-B",
    ),
)
