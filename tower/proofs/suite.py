"""Every check of the proofs of Off to the Tower, in groups, with the results file and the table.

The groups, in the order they run: ``induction`` (the invariants and step
properties over every board, ``PROOFS.prove_all`` of :mod:`tower.proofs.checks`),
``non-vacuity`` (the witnesses), ``mutation`` (every broken model is caught)
and ``link`` (engine and model agree, :mod:`tower.proofs.link`).

The link's search of every reachable state of the small board (about
146,000 states) is the one costly check; it runs with ``full=True``
(``python -m tower.proofs --full``, for a nightly run).  By default the
search stops after the :data:`SAMPLE_STATES` states nearest the opening
(breadth first, so each is compared on every throw or move), and the
random games, which reach the late game the sample does not, are played
on the small board with two players too.

Running them, the table and the results file are the layer's
(:mod:`dicekit.proofs.runner`, :mod:`dicekit.proofs.command`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator

from dicekit.proofs.results import Check
from dicekit.proofs.runner import Stage, Suite, Table
from dicekit.proofs.verdicts import agreement
from tower.config import make_config
from tower.proofs.checks import PROOFS
from tower.proofs.link import LinkReport, random_agree, reachable_agree
from tower.proofs.mutations import MUTANTS

__all__ = ["GENERATED_BY", "LINK_RULES", "SAMPLE_STATES", "SUITE", "link_checks"]

#: The command that writes ``tower/proofs/results.json``.
GENERATED_BY = "python -m tower.proofs --json tower/proofs/results.json"
#: The states the default link compares, breadth first from the opening, on the small board.
SAMPLE_STATES = 15_000
#: The spec rules each check of the link covers.
_LINKED = "R4.1 R4.4 R5.5 R6.1 R7.1 R8.2 R8.3 R9.1 R10.2 R11.1"
LINK_RULES = {
    "R5.5 every reachable state agrees": _LINKED,
    f"R5.5 the {SAMPLE_STATES:,} reachable states nearest the opening agree": _LINKED,
    "R5.5 states of random games agree": _LINKED,
}


def _agreed(report: LinkReport) -> str:
    return f"{report.cases} cases on {report.states} states: engine and model agree"


def _link(name: str, config: str, run: Callable[[], LinkReport]) -> Check:
    return agreement(name, config, run, _agreed)


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


#: The proofs of Off to the Tower: the stages in order, and the rules each property covers.
SUITE = Suite(
    subject="the rules of Off to the Tower, on every board",
    generated_by=GENERATED_BY,
    stages=(
        *PROOFS.stages(MUTANTS),
        Stage(frozenset({"link"}), link_checks, full=functools.partial(link_checks, full=True)),
    ),
    rules={**PROOFS.rules, **LINK_RULES},
    full_help="link engine and model on every reachable state of the small board (slow)",
    table=Table(property_width=66, transition_width=7),
)
