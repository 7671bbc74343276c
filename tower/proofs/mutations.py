"""Deliberately broken models: for every property, one mistake the checks must catch.

Each :class:`Mutant` switches on one mistake in
:class:`~tower.proofs.model.Model` and names the property and transition whose
check must then fail.  A property whose check still passed on its mutant
could not tell the broken rules from the real ones.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass

from tower.proofs.checks import CONFIGS, Check, check_property, model_for
from tower.proofs.properties import PROPERTIES

__all__ = ["MUTANTS", "Mutant", "run_mutants"]


@dataclass(frozen=True)
class Mutant:
    """A broken model and the check that must catch it."""

    #: The mistake switched on in the model.
    mutation: str
    #: What the broken rules do, in words.
    description: str
    #: The property whose check must find a counterexample (by its leading rule id).
    property: str
    #: The transition of that check.
    transition: str
    #: The shape of game, by name in :data:`~tower.proofs.checks.CONFIGS`.
    config: str = "2p"


#: One mutant for every property, and one more for conservation.
MUTANTS: tuple[Mutant, ...] = (
    Mutant(
        "lose-captured", "a captured stone vanishes instead of entering the tower", "R13.1", "move"
    ),
    Mutant("free-into-two", "a six frees the tower's stone twice over", "R13.1", "throw"),
    Mutant("keep-tower", "a capture leaves the stone already in the tower there", "R8.1", "move"),
    Mutant("past-the-goal", "a stone may go past its goal and stay on the track", "R13.2", "move"),
    Mutant("land-on-own", "a stone may land on its twin", "R5.4", "move"),
    Mutant("no-capture", "landing on another player's stone leaves it there", "R7.4", "move"),
    Mutant("unsorted-dice", "the dice stay on the table in the order they fell", "R13.5", "throw"),
    Mutant(
        "pass-obstacle", "a stone may pass another player's stone on the crossing", "R9.1", "move"
    ),
    Mutant("six-frees-nothing", "a six leaves the thrower's stone in the tower", "R8.3", "throw"),
    Mutant("win-needs-more", "a player needs a stone more than they have to win", "R11.1", "move"),
    Mutant("overshoot", "a throw too large still takes a stone into its goal", "R10.2", "move"),
)


def _property(prefix: str) -> object:
    found = [p for p in PROPERTIES if p.name.split()[0] == prefix]
    if len(found) != 1:
        raise LookupError(f"no single property {prefix!r}")
    return found[0]


def run_mutants() -> Iterator[Check]:
    """Check every mutant; each must give a counterexample (result ``caught``)."""
    for mutant in MUTANTS:
        prop = _property(mutant.property)
        model = model_for(CONFIGS[mutant.config], frozenset({mutant.mutation}))
        start = time.perf_counter()
        outcome, text = check_property(model, mutant.transition, prop)  # type: ignore[arg-type]
        seconds = time.perf_counter() - start
        result = "caught" if outcome.status == "sat" else "missed"
        yield Check(
            f"{mutant.mutation} | {mutant.transition} | {mutant.config}", "mutation",
            prop.name, mutant.transition, mutant.config, result, seconds,  # type: ignore[attr-defined]
            f"{mutant.description}: {text}" if text else mutant.description,
        )  # fmt: skip
