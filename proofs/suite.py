"""Every check of the proofs, in groups, with the results file and the table.

The groups, in the order they run:

- ``induction``: the invariants and step properties (:func:`proofs.checks.prove_all`);
- ``non-vacuity``: witnesses for every premise (:func:`proofs.checks.prove_all`
  yields those of each configuration and transition;
  :func:`proofs.checks.witnesses` the focused ones per property);
- ``mutation``: every broken model is caught (:mod:`proofs.mutations`);
- ``bmc``: traces to a bust, a double win and a win (:mod:`proofs.bmc`);
- ``link``: engine and model agree (:mod:`proofs.link`).
"""

from __future__ import annotations

import json
import os
import random
import re
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from cantstop import Variant, parse_state
from proofs.bmc import run_bmc
from proofs.checks import CONFIGS, Check, prove_all, witnesses
from proofs.link import (
    LinkReport,
    exhaustive_moves,
    ordered_rolls_reduce,
    random_states,
    transitions_agree,
)
from proofs.model import z3_version
from proofs.mutations import run_mutants
from proofs.properties import PROPERTIES

__all__ = [
    "GENERATED_BY",
    "GROUPS",
    "LINK_RULES",
    "check_rules",
    "results_json",
    "run",
    "table_line",
    "write_results",
]

#: The command that writes ``proofs/results.json``.
GENERATED_BY = "python -m proofs --json proofs/results.json"

#: The groups of checks, in the order they run.
GROUPS = ("induction", "non-vacuity", "mutation", "bmc", "link")

#: States from which every ordered roll is compared with its sorted form (R4.1).
REDUCTION_STATES = (
    "-/- - 0r",
    "7:2/- 7:4,8:2,10:1 0d",
    "2:3,4:7/3:2 3:5 1d",
    "-/7:12 7:11 0d A",
    "- 7:1 0d h7:2 w1",
)

#: Games played for the comparison of whole transitions: configuration and seeds.
TRANSITION_SEEDS = range(4)


#: The spec rules each check of the link covers, by property.
LINK_RULES = {
    "R4.1 ordered rolls reduce to sorted rolls": "R4.1 R4.2",
    "R6.6 legal moves for every roll and situation": (
        "R6.6 R5.1 R5.2 R5.3 R6.1 R6.2 R6.3 R6.5 R7.1 R7.3 R8.1 R9.2 R10.1 R14.1"
    ),
    "R3 transitions agree on reachable states": "R3 R2.3 R5 R6.6 R10.2 R11 R12.1 R14.2",
}

_LEADING_RULE = re.compile(r"^([RN]\d+(?:\.\d+)?) ")


def check_rules(check: Check) -> list[str]:
    """Return the spec rules ``check`` covers: those of its property.

    A property of the model names its rules (:data:`proofs.properties.PROPERTIES`),
    a check of the link those of :data:`LINK_RULES`; a bounded run is named
    after the rule it reaches; a witness of the premises covers none.

    >>> check_rules(Check("x", "bmc", "R10.1 a bust is reachable", None, "c", "witness", 0.0))
    ['R10.1']
    """
    by_name = {prop.name: prop.rules for prop in PROPERTIES}
    rules = by_name.get(check.property) or LINK_RULES.get(check.property)
    if rules is not None:
        return rules.split()
    leading = _LEADING_RULE.match(check.property)
    return [leading.group(1)] if leading else []


def _link(name: str, config: str, run: Callable[[], LinkReport], what: str) -> Check:
    start = time.perf_counter()
    report = run()
    seconds = time.perf_counter() - start
    if report.agree:
        detail = f"{report.cases} cases, engine and model agree: {what}"
    else:
        shown = "; ".join(report.disagreements[:5])
        detail = f"{len(report.disagreements)} of {report.cases} cases disagree: {shown}"
    return Check(
        f"{name} | {config}",
        "link",
        name,
        None,
        config,
        "agree" if report.agree else "counterexample",
        seconds,
        detail,
    )


def _transitions() -> LinkReport:
    rng = random.Random(0)
    cases = 0
    problems: list[str] = []
    for config in CONFIGS.values():
        rules = config.rules()
        for seed in TRANSITION_SEEDS:
            for state in random_states(rules, seed):
                dice = (rng.randint(1, 6), rng.randint(1, 6), rng.randint(1, 6), rng.randint(1, 6))
                report = transitions_agree(state, dice)
                cases += report.cases
                problems += report.disagreements
    return LinkReport(cases, problems)


#: Processes that share the exhaustive comparison of legal moves.
LINK_WORKERS = min(2, os.cpu_count() or 1)


def link_checks() -> Iterator[Check]:
    """Return the checks of the link between engine and model."""
    yield _link(
        "R4.1 ordered rolls reduce to sorted rolls",
        "2p, A, custom",
        lambda: ordered_rolls_reduce([parse_state(t) for t in REDUCTION_STATES]),
        "all 1296 ordered rolls: the model's pairings and the engine's result "
        "are those of the sorted roll",
    )
    yield _link(
        "R6.6 legal moves for every roll and situation",
        "2p",
        lambda: exhaustive_moves(workers=LINK_WORKERS),
        "126 sorted rolls x all six situations of each column the roll names x free markers 0-3",
    )
    yield _link(
        "R6.6 legal moves for every roll and situation",
        "2p-A",
        lambda: exhaustive_moves(variant=Variant.A, workers=LINK_WORKERS),
        "126 sorted rolls x all six situations of each column the roll names, "
        "realised by skipping (R14.1) x free markers 0-3",
    )
    yield _link(
        "R3 transitions agree on reachable states",
        "all proof configurations",
        _transitions,
        f"states of random games ({len(TRANSITION_SEEDS)} seeds per configuration): "
        "roll or bust, every legal move, stop or win",
    )


def run(groups: Iterable[str] = GROUPS) -> Iterator[Check]:
    """Run the checks of ``groups``, yielding each result as it comes."""
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
    if "bmc" in chosen:
        yield from run_bmc()
    if "link" in chosen:
        yield from link_checks()


def table_line(check: Check) -> str:
    """One line of the table: result, seconds, group, property, transition, configuration."""
    mark = " " if check.ok else "!"
    return (
        f"{mark} {check.result:<14} {check.seconds:7.2f}s  {check.group:<11} "
        f"{check.property:<57} {check.transition or '-':<6} {check.config}"
    )


def results_json(checks: list[Check]) -> dict[str, object]:
    """Return the results file's content (see ``proofs/README.md``)."""
    return {
        "z3_version": z3_version(),
        "generated_by": GENERATED_BY,
        "checks": [{**check.as_json(), "rules": check_rules(check)} for check in checks],
    }


def write_results(checks: list[Check], path: Path) -> None:
    """Write the results file to ``path``."""
    path.write_text(json.dumps(results_json(checks), indent=1) + "\n", encoding="utf-8")
