"""Deliberately broken models: for every property, a mistake its check must catch.

Each :class:`Mutant` switches on one mistake in :class:`~finishline.proofs.model.Model`
and names the property and transition whose check must then find a
counterexample.  A property whose check still said "proved" on a broken
model could not tell broken rules from the real ones.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass

from finishline.proofs.checks import CONFIGS, Check, check_step
from finishline.proofs.model import Z3, Model
from finishline.proofs.properties import PROPERTIES

__all__ = ["MUTANTS", "Mutant", "run_mutants"]


@dataclass(frozen=True)
class Mutant:
    """A broken model and the check that must catch it."""

    #: The mistake switched on in the model.
    mutation: str
    #: What the broken rules do, in words.
    description: str
    #: The start of the name of the property whose check must fail.
    property: str
    #: The transition of that check.
    transition: str
    #: The configuration, by name in :data:`~finishline.proofs.checks.CONFIGS`.
    config: str = "2p"


def _prop(prefix: str) -> str:
    names = [p.name for p in PROPERTIES if p.name.startswith(prefix)]
    if len(names) != 1:
        raise LookupError(f"no single property named {prefix!r}: {names}")
    return names[0]


#: The mutants, at least one for every property.
MUTANTS: tuple[Mutant, ...] = (
    Mutant(
        "place-keeps-hand", "a placed counter is not taken from the hand", _prop("R12.3"), "play"
    ),
    Mutant(
        "place-on-occupied", "a counter may be placed on an occupied cell", _prop("R12.2"), "play"
    ),
    Mutant(
        "cross-to-row-0",
        "a counter moving forward from row 1 goes to a row 0, not across",
        _prop("R12.1"),
        "play",
    ),
    Mutant(
        "sideways-off-the-board",
        "a sideways step may leave the row at cell A or D",
        _prop("R12.1"),
        "sideways",
    ),
    Mutant(
        "roll-without-action", "a roll that offers nothing is not forfeited", _prop("R12.4"), "roll"
    ),
    Mutant(
        "win-one-early", "the game ends with one counter still to cross", _prop("R12.5"), "play"
    ),
    Mutant(
        "place-for-next-player",
        "a die places a counter of the next player",
        _prop("R7.3 a player"),
        "play",
    ),
    Mutant(
        "ignore-blocking", "a counter moves forward into an occupied cell", _prop("R6.4"), "play"
    ),
    Mutant(
        "sideways-any-roll",
        "the sideways step is open on any roll",
        _prop("R7.3 the sideways"),
        "sideways",
    ),
    Mutant(
        "sideways-any-counter",
        "the sideways step may move any player's counter",
        _prop("R7.3 the sideways"),
        "sideways",
    ),
    Mutant("double-rolls-again", "the double advance keeps the turn", _prop("R3.4"), "double"),
    Mutant("win-on-board", "the game is won once the hand is empty", _prop("R10.1"), "play"),
)


def run_mutants() -> Iterator[Check]:
    """Check every mutant; each must give a counterexample to its property."""
    by_name = {p.name: p for p in PROPERTIES}
    for mutant in MUTANTS:
        start = time.perf_counter()
        config = CONFIGS[mutant.config]
        model = Model(config, Z3, frozenset({mutant.mutation}))
        outcome, text = check_step(model, mutant.transition, by_name[mutant.property])
        seconds = time.perf_counter() - start
        if outcome.status == "sat":
            result, detail = "caught", f"{mutant.description}: {text}"
        else:
            result, detail = (
                "missed",
                f"{mutant.description}: the check still says {outcome.status}",
            )
        yield Check(
            f"mutant {mutant.mutation}",
            "mutation",
            mutant.property,
            mutant.transition,
            mutant.config,
            result,
            seconds,
            detail,
        )
