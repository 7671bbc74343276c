"""The diagnosis of a Can't Stop conformance run: which rule the port most likely gets wrong.

Every case names the rules that decide its answer (:mod:`cantstop.tags`).
A failing case blames those rules, and the diagnosis weighs the blame by the
evidence:

- **What differs.**  After a run, the failing cases are asked again and the
  port's answers compared with the expected ones part by part
  (:mod:`cantstop.conformance.evidence`); the blame goes to the rules of the
  parts that differ (:mod:`cantstop.conformance.blame`).  A move the port
  lists but the rules refuse blames the rule under which the engine refuses
  it; a legal move the port misses blames the rules that make it legal; a
  marker on the wrong space blames the rules of that marker's move; a count
  of whole rolls is divided roll by roll (perft "divide"), and each roll that
  differs blames the rules the decision table applies to it.
- **Specific cases weigh more.**  A failing case shares one unit of blame
  among the rules it names, so a case naming one rule gives it all; a whole
  game weighs a quarter of a case.
- **A rule whose other cases pass is less suspect.**  A rule's blame is
  multiplied by the share of the cases naming it that fail.

Without the port (:func:`rank` alone) the blame of a failing case is shared
among its rule tags.  The ranking itself is game-neutral
(:mod:`dicekit.conformance.ranking`); this module binds it to Can't
Stop's suite.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from cantstop.conformance import suite as _suite
from cantstop.conformance.blame import divide_lines, moves_blame, reference_table, step_blame
from cantstop.conformance.evidence import evidence
from cantstop.conformance.suite import SUITE
from dicekit.conformance import ranking as _ranking
from dicekit.conformance import suite as _base_suite
from dicekit.conformance.ranking import Diagnosis, Result, Suspect
from dicekit.conformance.suite import Case, Evidence

__all__ = [
    "EVIDENCE_LIMIT",
    "EVIDENCE_LIMITS",
    "GAME_WEIGHT",
    "Ask",
    "Diagnosis",
    "Evidence",
    "Suspect",
    "diagnose",
    "divide_lines",
    "evidence",
    "moves_blame",
    "rank",
    "reference_table",
    "step_blame",
]


#: Sends one request to the port and returns its answer, or ``None`` if the port broke.
Ask = _base_suite.Ask
#: The weight of a failing whole game, against 1 for every other case (Can't Stop's suite).
GAME_WEIGHT = _suite.GAME_WEIGHT
#: How many failing cases of one kind are asked again, at most, for the kinds that cost most.
EVIDENCE_LIMITS = _suite.EVIDENCE_LIMITS
#: How many failing cases of any other kind are asked again, at most.
EVIDENCE_LIMIT = _suite.EVIDENCE_LIMIT


def rank(
    results: Iterable[Result],
    evidence: Mapping[str, Evidence] | None = None,
    kinds: Mapping[str, str] | None = None,
) -> list[Suspect]:
    """Return the suspect rules of a run's results, most suspicious first.

    ``evidence`` holds what the failing cases showed when asked again;
    ``kinds`` maps case ids to their kind (by default the id's prefix).  It is
    the layer's :func:`dicekit.conformance.ranking.rank` with Can't Stop's
    weights: a failing whole game counts :data:`GAME_WEIGHT` (a quarter) of any
    other failing case, so its single rule scores 0.25 against 1.

    >>> from types import SimpleNamespace as R
    >>> results = [R(id="game-1", status="failed", rules=["R9.1"]),
    ...            R(id="moves-1", status="failed", rules=["R6.1"])]
    >>> [(s.rule, s.score) for s in rank(results)]
    [('R6.1', 1.0), ('R9.1', 0.25)]
    """
    return _ranking.rank(results, evidence, kinds, SUITE.weights)


def diagnose(
    results: Iterable[Result],
    cases: Iterable[Case],
    ask: Ask | None = None,
) -> Diagnosis:
    """Return the diagnosis of a run: ask failing cases again through ``ask``, then rank.

    Without ``ask`` only the rule tags of the failing cases count.
    """
    return _ranking.diagnose(results, cases, SUITE, ask)
