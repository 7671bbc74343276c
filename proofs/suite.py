"""The Can't Stop proofs as one suite: every check, in groups, with the rules each covers.

The groups, in the order they run (:data:`SUITE`):

- ``induction``: the invariants and step properties (``PROOFS.prove_all`` of
  :mod:`proofs.checks`);
- ``non-vacuity``: witnesses for every premise (``PROOFS.prove_all`` yields
  those of each configuration and transition; ``PROOFS.witnesses`` the
  focused ones per property);
- ``mutation``: every broken model is caught (:mod:`proofs.mutations`);
- ``bmc``: traces to a bust, a double win and a win (:mod:`proofs.bmc`);
- ``link``: engine and model agree (:mod:`proofs.link`, :mod:`proofs.situations`).

Running them, the table and the results file are the layer's
(:mod:`dicekit.proofs.runner`, :mod:`dicekit.proofs.command`); the names
below bind them to this suite.
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable, Iterator

from cantstop import Variant, parse_state
from dicekit.proofs.results import GROUPS, Check
from dicekit.proofs.runner import Stage, Suite, table_line
from dicekit.proofs.verdicts import LinkReport, agreement
from proofs.bmc import run_bmc
from proofs.checks import CONFIGS, PROOFS
from proofs.link import ordered_rolls_reduce, random_states, transitions_agree
from proofs.mutations import MUTANTS
from proofs.situations import exhaustive_moves

__all__ = [
    "GENERATED_BY",
    "GROUPS",
    "LINK_RULES",
    "SUITE",
    "check_rules",
    "results_json",
    "run",
    "table_line",
    "write_results",
]

#: The command that writes ``proofs/results.json``.
GENERATED_BY = "python -m proofs --json proofs/results.json"

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


def _agree(what: str) -> Callable[[LinkReport], str]:
    """Return the detail of a comparison that agrees: its cases, and what was compared."""
    return lambda report: f"{report.cases} cases, engine and model agree: {what}"


def link_checks() -> Iterator[Check]:
    """Return the checks of the link between engine and model."""
    yield agreement(
        "R4.1 ordered rolls reduce to sorted rolls",
        "2p, A, custom",
        lambda: ordered_rolls_reduce([parse_state(t) for t in REDUCTION_STATES]),
        _agree(
            "all 1296 ordered rolls: the model's pairings and the engine's result "
            "are those of the sorted roll"
        ),
    )
    yield agreement(
        "R6.6 legal moves for every roll and situation",
        "2p",
        lambda: exhaustive_moves(workers=LINK_WORKERS),
        _agree(
            "126 sorted rolls x all six situations of each column the roll names x free markers 0-3"
        ),
    )
    yield agreement(
        "R6.6 legal moves for every roll and situation",
        "2p-A",
        lambda: exhaustive_moves(variant=Variant.A, workers=LINK_WORKERS),
        _agree(
            "126 sorted rolls x all six situations of each column the roll names, "
            "realised by skipping (R14.1) x free markers 0-3"
        ),
    )
    yield agreement(
        "R3 transitions agree on reachable states",
        "all proof configurations",
        _transitions,
        _agree(
            f"states of random games ({len(TRANSITION_SEEDS)} seeds per configuration): "
            "roll or bust, every legal move, stop or win"
        ),
    )


#: The Can't Stop proofs: the stages in order, and the rules each property covers.
SUITE = Suite(
    subject="the Can't Stop rules",
    generated_by=GENERATED_BY,
    stages=(
        *PROOFS.stages(MUTANTS),
        Stage(frozenset({"bmc"}), run_bmc),
        Stage(frozenset({"link"}), link_checks),
    ),
    rules={**PROOFS.rules, **LINK_RULES},
)

#: The rules a check covers: those of its property (:data:`proofs.properties.PROPERTIES`),
#: of the link (:data:`LINK_RULES`), or the rule a bounded run is named after.
check_rules = SUITE.check_rules
#: Run the checks of some groups (all by default), yielding each as it comes.
run = SUITE.run
#: The results file's content (see ``proofs/README.md``).
results_json = SUITE.results_json
#: Write the results file.
write_results = SUITE.write_results
