"""Every check of the proofs, in order, and the results file ``finishline/proofs/results.json``.

The link compares engine and model, for every configuration, on the
:data:`NEAREST_STATES` reachable states nearest the opening (breadth first,
so each is compared on all its rolls or actions) and on the states of
:data:`LINK_SEEDS` games of random legal play, which reach the crossings and
wins of the late game.  With ``full=True`` (``python -m finishline.proofs
--full``, for a nightly run) it compares every reachable state of two
players with one counter each (16,158 states) and :data:`FULL_SEEDS` random
games of every configuration instead.

Running them, the table and the results file are the layer's
(:mod:`dicekit.proofs.runner`, :mod:`dicekit.proofs.command`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from pathlib import Path

from dicekit.proofs.results import Check
from dicekit.proofs.runner import Stage, Suite, Table
from dicekit.proofs.verdicts import LinkReport, agreement
from finishline import State
from finishline.proofs.checks import CONFIGS, PROOFS
from finishline.proofs.link import (
    actions_agree,
    engine_config,
    nearest_states,
    random_states,
    rolls_agree,
    rolls_reduce,
)
from finishline.proofs.mutations import MUTANTS

__all__ = [
    "FULL_CONFIG",
    "FULL_SEEDS",
    "GENERATED_BY",
    "LINK_RULES",
    "LINK_SEEDS",
    "NEAREST_STATES",
    "RESULTS",
    "SUITE",
    "link_checks",
    "link_states",
]

#: The command that writes the results file.
GENERATED_BY = "python -m finishline.proofs --json finishline/proofs/results.json"
#: Where the results file lives.
RESULTS = Path(__file__).resolve().parent / "results.json"
#: The games of random play whose states the link compares, per configuration.
LINK_SEEDS = range(1)
#: The reachable states nearest the opening that the link compares, per configuration.
NEAREST_STATES = 100
#: The configuration whose every reachable state the full link compares.
FULL_CONFIG = "2p-n1"
#: The games of random play of the full link, per configuration.
FULL_SEEDS = range(8)
#: The spec rules each link check covers.
LINK_RULES: dict[str, str] = {
    "R4.1 a roll and its reverse are the same roll": "R4.1 R4.4",
    "R9.1 rolls forfeit exactly when the engine's do": "R9.1 R3.3 R4.5 R7.1 R8.3",
    "R4.5 legal actions and their results agree": "R4.2 R4.4 R4.5 R5.2 R6.3 R6.4 R7.1 R8.2 R8.3",
}


def link_states(config_name: str, full: bool = False) -> tuple[list[State], str]:
    """Return the states the link compares on one configuration, and what they are, in words."""
    config = engine_config(CONFIGS[config_name])
    seeds = FULL_SEEDS if full else LINK_SEEDS
    games = f"{len(seeds)} random game{'s' if len(seeds) != 1 else ''}"
    if full and config_name == FULL_CONFIG:
        nearest, which = nearest_states(config), "every reachable state"
    elif full:
        nearest, which = [], ""
    else:
        nearest = nearest_states(config, NEAREST_STATES)
        which = f"the {NEAREST_STATES} reachable states nearest the opening"
    states = nearest + list(random_states(config, seeds))
    return states, f"{which} and {games}" if which else games


def link_checks(full: bool = False) -> Iterator[Check]:
    """Compare the model with the engine on every configuration; ``full``: see the module."""
    for config_name, config in CONFIGS.items():
        states, which = link_states(config_name, full)
        names = list(LINK_RULES)
        comparisons: tuple[tuple[Callable[[list[State]], LinkReport], str], ...] = (
            (rolls_reduce, "every ROLL state, each pair of different dice in both orders"),
            (functools.partial(rolls_agree, config), "every ROLL state x the 21 rolls"),
            (functools.partial(actions_agree, config), "every legal action of every CHOOSE state"),
        )
        for name, (compare, what) in zip(names, comparisons, strict=True):
            yield agreement(
                name,
                config_name,
                functools.partial(compare, states),
                functools.partial(_agreed, f"{which}: {what}"),
                name=name,
            )


def _agreed(what: str, report: LinkReport) -> str:
    return f"{report.cases:,} cases: {what}"


#: The proofs of the finish-line race: the stages in order, and the rules each property covers.
SUITE = Suite(
    subject="the finish-line race's rules",
    generated_by=GENERATED_BY,
    stages=(
        *PROOFS.stages(MUTANTS),
        Stage(frozenset({"link"}), link_checks, full=functools.partial(link_checks, full=True)),
    ),
    rules={**PROOFS.rules, **LINK_RULES},
    full_help="link engine and model on every reachable state of 2p-n1 (slow)",
    table=Table(
        property_width=66,
        transition_width=8,
        group_line="{group}: {checks} checks, {failed} failed, {seconds:.1f}s",
        gap=False,
        say_written=False,
    ),
)
