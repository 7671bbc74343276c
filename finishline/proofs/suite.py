"""Every check of the proofs, in order, and the results file ``finishline/proofs/results.json``.

The link compares engine and model, for every configuration, on the
:data:`NEAREST_STATES` reachable states nearest the opening (breadth first,
so each is compared on all its rolls or actions) and on the states of
:data:`LINK_SEEDS` games of random legal play, which reach the crossings and
wins of the late game.  With ``full=True`` (``python -m finishline.proofs
--full``, for a nightly run) it compares every reachable state of two
players with one counter each (16,158 states) and :data:`FULL_SEEDS` random
games of every configuration instead.
"""

from __future__ import annotations

import functools
import json
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from finishline import State
from finishline.proofs.checks import CONFIGS, Check, prove_all, witnesses
from finishline.proofs.link import (
    LinkReport,
    actions_agree,
    engine_config,
    nearest_states,
    random_states,
    rolls_agree,
    rolls_reduce,
)
from finishline.proofs.model import z3_version
from finishline.proofs.mutations import run_mutants
from finishline.proofs.properties import PROPERTIES

__all__ = [
    "FULL_CONFIG",
    "FULL_SEEDS",
    "GENERATED_BY",
    "GROUPS",
    "LINK_RULES",
    "LINK_SEEDS",
    "NEAREST_STATES",
    "RESULTS",
    "check_rules",
    "link_checks",
    "link_states",
    "results_json",
    "run",
    "table_line",
    "write_results",
]

#: The groups of checks, in the order they run.
GROUPS = ("induction", "non-vacuity", "mutation", "link")
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


def _link(name: str, config_name: str, report: Callable[[], LinkReport], what: str) -> Check:
    start = time.perf_counter()
    found = report()
    seconds = time.perf_counter() - start
    if found.agree:
        return Check(
            name,
            "link",
            name,
            None,
            config_name,
            "agree",
            seconds,
            f"{found.cases:,} cases: {what}",
        )
    shown = "; ".join(found.disagreements[:3])
    return Check(
        name,
        "link",
        name,
        None,
        config_name,
        "disagree",
        seconds,
        f"{len(found.disagreements)} of {found.cases:,} cases differ: {shown}",
    )


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
        yield _link(
            names[0],
            config_name,
            functools.partial(rolls_reduce, states),
            f"{which}: every ROLL state, each pair of different dice in both orders",
        )
        yield _link(
            names[1],
            config_name,
            functools.partial(rolls_agree, config, states),
            f"{which}: every ROLL state x the 21 rolls",
        )
        yield _link(
            names[2],
            config_name,
            functools.partial(actions_agree, config, states),
            f"{which}: every legal action of every CHOOSE state",
        )


def run(groups: Iterable[str] = GROUPS, full: bool = False) -> Iterator[Check]:
    """Run the checks of ``groups``, yielding each result as it comes; ``full``: the full link."""
    chosen = set(groups)
    unknown = chosen - set(GROUPS)
    if unknown:
        raise ValueError(f"unknown groups {sorted(unknown)}; the groups are {', '.join(GROUPS)}")
    if chosen & {"induction", "non-vacuity"}:
        for check in prove_all():
            if check.group in chosen:
                yield check
    if "non-vacuity" in chosen:
        yield from witnesses()
    if "mutation" in chosen:
        yield from run_mutants()
    if "link" in chosen:
        yield from link_checks(full)


def check_rules(check: Check) -> list[str]:
    """Return the ids of the spec rules ``check`` covers (none for a premises witness)."""
    if check.group == "link":
        return LINK_RULES[check.property].split()
    for prop in PROPERTIES:
        if prop.name == check.property:
            return prop.rules.split()
    return []


def table_line(check: Check) -> str:
    """Return one line of the table: result, seconds, group, property, transition, configuration."""
    mark = " " if check.ok else "!"
    return (
        f"{mark} {check.result:<14} {check.seconds:7.2f}s  {check.group:<11} "
        f"{check.property:<66} {check.transition or '-':<8} {check.config}"
    )


def results_json(checks: list[Check]) -> dict[str, object]:
    """Return the results file's content (see ``finishline/proofs/README.md``)."""
    return {
        "z3_version": z3_version(),
        "generated_by": GENERATED_BY,
        "checks": [{**check.as_json(), "rules": check_rules(check)} for check in checks],
    }


def write_results(checks: list[Check], path: Path) -> None:
    """Write the results file to ``path``."""
    path.write_text(json.dumps(results_json(checks), indent=1) + "\n", encoding="utf-8")
