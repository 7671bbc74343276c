"""Every check of the proofs of Off to the Tower, in groups, with the results file and the table.

The groups, in the order they run: ``induction`` (the invariants and step
properties over every board, :func:`tower.proofs.checks.prove_all`),
``non-vacuity`` (the witnesses), ``mutation`` (every broken model is caught)
and ``link`` (engine and model agree, :mod:`tower.proofs.link`).

The link's search of every reachable state of the small board (about
146,000 states) is the one costly check; it runs with ``full=True``
(``python -m tower.proofs --full``, for a nightly run).  By default the
search stops after the :data:`SAMPLE_STATES` states nearest the opening
(breadth first, so each is compared on every throw or move), and the
random games, which reach the late game the sample does not, are played
on the small board with two players too.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from tower.config import make_config
from tower.proofs.checks import Check, prove_all, witnesses
from tower.proofs.link import LinkReport, random_agree, reachable_agree
from tower.proofs.model import z3_version
from tower.proofs.mutations import run_mutants
from tower.proofs.properties import PROPERTIES

__all__ = [
    "GENERATED_BY",
    "GROUPS",
    "LINK_RULES",
    "SAMPLE_STATES",
    "check_rules",
    "results_json",
    "run",
    "table_line",
]

#: The command that writes ``tower/proofs/results.json``.
GENERATED_BY = "python -m tower.proofs --json tower/proofs/results.json"
#: The states the default link compares, breadth first from the opening, on the small board.
SAMPLE_STATES = 15_000
#: The groups of checks, in the order they run.
GROUPS = ("induction", "non-vacuity", "mutation", "link")
#: The spec rules each check of the link covers.
_LINKED = "R4.1 R4.4 R5.5 R6.1 R7.1 R8.2 R8.3 R9.1 R10.2 R11.1"
LINK_RULES = {
    "R5.5 every reachable state agrees": _LINKED,
    f"R5.5 the {SAMPLE_STATES:,} reachable states nearest the opening agree": _LINKED,
    "R5.5 states of random games agree": _LINKED,
}
_LEADING_RULE = re.compile(r"^([RN]\d+(?:\.\d+)?) ")


def check_rules(check: Check) -> list[str]:
    """Return the spec rules ``check`` covers: those of its property or link check.

    >>> link = Check("x", "link", "R5.5 every reachable state agrees", None, "c", "agree", 0)
    >>> check_rules(link)[:2]
    ['R4.1', 'R4.4']
    """
    by_name = {prop.name: prop.rules for prop in PROPERTIES}
    rules = by_name.get(check.property) or LINK_RULES.get(check.property)
    if rules is not None:
        return rules.split()
    leading = _LEADING_RULE.match(check.property)
    return [leading.group(1)] if leading else []


def _link(name: str, config: str, run: Callable[[], LinkReport]) -> Check:
    start = time.perf_counter()
    report = run()
    seconds = time.perf_counter() - start
    if report.agree:
        detail = f"{report.cases} cases on {report.states} states: engine and model agree"
    else:
        shown = "; ".join(report.disagreements[:5])
        detail = f"{len(report.disagreements)} of {report.cases} cases disagree: {shown}"
    result = "agree" if report.agree else "counterexample"
    return Check(f"{name} | {config}", "link", name, None, config, result, seconds, detail)


def link_checks(full: bool = False) -> Iterator[Check]:
    """Return the checks of the link between engine and model; ``full``: every reachable state."""
    if full:
        yield _link("R5.5 every reachable state agrees", "small 2p", reachable_agree)
    else:
        yield _link(
            f"R5.5 the {SAMPLE_STATES:,} reachable states nearest the opening agree",
            "small 2p",
            lambda: reachable_agree(max_states=SAMPLE_STATES),
        )
    configs = [make_config("small", p) for p in (2, 3, 4)] + [make_config("ours", 2)]
    yield _link(
        "R5.5 states of random games agree",
        "small 2p, small 3p, small 4p, ours 2p",
        lambda: random_agree(configs, range(20)),
    )


def run(groups: Iterable[str] = GROUPS, full: bool = False) -> Iterator[Check]:
    """Run the checks of ``groups``, yielding each result as it comes; ``full``: see above."""
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


def table_line(check: Check) -> str:
    """One line of the table: result, seconds, group, property, transition, configuration."""
    mark = " " if check.ok else "!"
    return (
        f"{mark} {check.result:<14} {check.seconds:7.2f}s  {check.group:<11} "
        f"{check.property:<66} {check.transition or '-':<7} {check.config}"
    )


def results_json(checks: list[Check]) -> dict[str, object]:
    """Return the results file's content (see ``tower/proofs/README.md``)."""
    return {
        "z3_version": z3_version(),
        "generated_by": GENERATED_BY,
        "checks": [{**check.as_json(), "rules": check_rules(check)} for check in checks],
    }


def write_results(checks: list[Check], path: Path) -> None:
    """Write the results file to ``path``."""
    path.write_text(json.dumps(results_json(checks), indent=1) + "\n", encoding="utf-8")
