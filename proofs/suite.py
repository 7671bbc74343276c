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
import random
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from cantstop import Variant, pairings, parse_state, roll_outcomes
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

__all__ = ["GENERATED_BY", "GROUPS", "results_json", "run", "table_line", "write_results"]

#: The 126 distinct rolls, dice sorted.
SORTED_ROLLS = [roll.dice for roll, _ in roll_outcomes()]

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


def _link(
    name: str, config: str, run: Callable[[], LinkReport], what: str, rules: str = "R6.6"
) -> Check:
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


def link_checks(full: bool = False) -> Iterator[Check]:
    """Return the checks of the link between engine and model."""
    yield _link(
        "R4.1 ordered rolls reduce to sorted rolls",
        "2p, A, custom",
        lambda: ordered_rolls_reduce([parse_state(t) for t in REDUCTION_STATES]),
        "all 1296 ordered rolls: the model's pairings and the engine's result "
        "are those of the sorted roll",
    )
    scope = (
        "all six situations for every column"
        if full
        else ("all six situations for columns the roll doubles, four for the others")
    )
    yield _link(
        "R6.6 legal moves for every roll and situation",
        "2p" + (" full" if full else ""),
        lambda: exhaustive_moves(full=full),
        f"126 sorted rolls x situations ({scope}) x free markers 0-3",
    )
    # Variant A changes only where a marker lands (R14.1), which a roll's legal
    # moves depend on only through a pairing of equal sums (R7.3, E129).
    doubles = None if full else [r for r in SORTED_ROLLS if any(a == b for a, b in pairings(r))]
    yield _link(
        "R6.6 legal moves for every roll and situation",
        "2p-A" + (" full" if full else ""),
        lambda: exhaustive_moves(doubles, variant=Variant.A, full=full),
        f"{'126' if full else '34'} sorted rolls{'' if full else ' with equal sums'} x "
        f"situations realised by skipping (R14.1) ({scope}) x free markers 0-3",
    )
    yield _link(
        "R3 transitions agree on reachable states",
        "all proof configurations",
        _transitions,
        f"states of random games ({len(TRANSITION_SEEDS)} seeds per configuration): "
        "roll or bust, every legal move, stop or win",
        "R3",
    )


def run(groups: Iterable[str] = GROUPS, full_link: bool = False) -> Iterator[Check]:
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
        yield from link_checks(full_link)


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
        "checks": [check.as_json() for check in checks],
    }


def write_results(checks: list[Check], path: Path) -> None:
    """Write the results file to ``path``."""
    path.write_text(json.dumps(results_json(checks), indent=1) + "\n", encoding="utf-8")
