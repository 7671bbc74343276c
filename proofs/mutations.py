"""Deliberately broken models: for every property, one mistake the checker must catch.

Each :class:`Mutant` switches on one mistake in :class:`~proofs.model.Model`
(or, for R15.4, uses a configuration the rules refuse) and names the property
and transition whose check must then fail.  If a mutant's check were still
"proved", the property could not tell the broken rules from the real ones,
and its proof would mean little.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass

from proofs.checks import CONFIGS, check_step
from proofs.kit.results import Check
from proofs.kit.solver import Z3
from proofs.kit.verdicts import mutant_verdict
from proofs.model import Model
from proofs.properties import PROPERTIES, Invariant, StepProperty
from proofs.state import Config

__all__ = ["MUTANTS", "Mutant", "run_mutants"]


@dataclass(frozen=True)
class Mutant:
    """A broken model and the check that must catch it."""

    #: The mistake switched on in the model (see :class:`~proofs.model.Model`).
    mutation: str
    #: What the broken rules do, in words.
    description: str
    #: The property whose check must find a counterexample (its name starts with its rule id).
    property: str
    #: The transition of that check.
    transition: str
    #: The configuration, by name in :data:`~proofs.checks.CONFIGS`, or given directly.
    config: str | Config


#: A configuration the rules refuse under R15.4: three columns, two players, target 3.
STALLING = Config(players=2, heights={5: 3, 7: 3, 9: 3}, target=3, variant=None)


def _prop(prefix: str) -> str:
    names = [p.name for p in PROPERTIES if p.name.startswith(prefix)]
    if len(names) != 1:
        raise LookupError(f"no single property named {prefix!r}: {names}")
    return names[0]


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
        STALLING,
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


def _property(name: str) -> Invariant | StepProperty:
    return next(p for p in PROPERTIES if p.name == name)


def run_mutants(mutants: tuple[Mutant, ...] = MUTANTS) -> Iterator[Check]:
    """Check every mutant; the result is ``caught`` when a counterexample is found."""
    for mutant in mutants:
        if isinstance(mutant.config, Config):
            config, config_name = mutant.config, mutant.mutation
            mutations: frozenset[str] = frozenset()
        else:
            config, config_name = CONFIGS[mutant.config], mutant.config
            mutations = frozenset({mutant.mutation})
        model = Model(config, Z3, mutations)
        start = time.perf_counter()
        outcome, text = check_step(model, mutant.transition, _property(mutant.property))
        seconds = time.perf_counter() - start
        result, detail = mutant_verdict(outcome, text, mutant.description)
        yield Check(
            f"{mutant.property} | {mutant.transition} | {config_name} | mutant {mutant.mutation}",
            "mutation",
            mutant.property,
            mutant.transition,
            config_name,
            result,
            seconds,
            detail,
        )
