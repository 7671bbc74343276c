"""The seeded-bug study of any game: whether the suite catches each bug and names its rule.

A game's study has a suite (:class:`~dicekit.conformance.suite.GameSuite`),
its cases, the seeded bugs of a port (each bug's name and the rule it
breaks) and a command that starts the port with one bug switched on.
:func:`run_study` runs the cases against each bug's port, two ports at a
time by default, asks the failing cases again for the diagnosis, and
returns one :class:`Outcome` per bug: whether it was caught, how many cases
failed, and where the rule at fault stands among the suspects.
:func:`misses` says how the outcomes fall short of the targets (every bug
caught, the rule at fault first for :data:`FIRST_SHARE` of the bugs and
among the first :data:`TOP` for all) and :func:`table_lines` prints them.

>>> outcomes = [Outcome("a", "R1.1", 10, 2, 1, ("R1.1",)), Outcome("b", "R2.1", 10, 0, None, ())]
>>> misses(outcomes)
['b: not caught', 'the rule at fault is first for 1 of 2 bugs, fewer than 90%']
>>> for line in table_lines(outcomes):
...     print(line)
mutant                     rule          failed  rank  suspects
a                          R1.1            2/10     1  R1.1
b                          R2.1            0/10     -
2 bugs: 1 caught, rule at fault first for 1, in the first 3 for 1
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from dicekit.conformance.run import CaseResult, Run, run_suite
from dicekit.conformance.suite import Case, GameSuite

__all__ = [
    "FIRST_SHARE",
    "TOP",
    "Outcome",
    "in_pool",
    "misses",
    "outcome_of",
    "run_bug",
    "run_study",
    "table_lines",
]

#: The share of seeded bugs whose rule at fault the diagnosis must name first.
FIRST_SHARE = 0.9
#: The rank within which the diagnosis must name the rule at fault of every bug.
TOP = 3

T = TypeVar("T")
R = TypeVar("R")


@dataclass(frozen=True, slots=True)
class Outcome:
    """What the suite made of one seeded bug."""

    #: The seeded bug's name.
    mutant: str
    #: The rule at fault.
    rule: str
    #: How many cases ran, and how many of them failed.
    cases: int
    failed: int
    #: The rank of the rule at fault among the suspects, from 1; ``None`` if not named.
    rank: int | None
    #: The first suspects of the diagnosis, most suspicious first.
    suspects: tuple[str, ...]

    @property
    def caught(self) -> bool:
        """Whether some case failed."""
        return self.failed > 0

    def to_json(self, summary: str = "") -> dict[str, Any]:
        """Return the outcome as a JSON object of a results file, with the bug's ``summary``.

        >>> Outcome("a", "R1.1", 10, 2, 1, ("R1.1", "R2.1")).to_json("breaks R1.1")["rank"]
        1
        """
        return {
            "mutant": self.mutant,
            "rule": self.rule,
            "summary": summary,
            "caught": self.caught,
            "failed": self.failed,
            "cases": self.cases,
            "rank": self.rank,
            "suspects": list(self.suspects),
        }


def outcome_of(run: Run, mutant: str, rule: str) -> Outcome:
    """Return the outcome of the diagnosed ``run`` for the bug ``mutant``, which breaks ``rule``."""
    ranked = [suspect for suspect, _, _ in run.suspects()]
    rank = ranked.index(rule) + 1 if rule in ranked else None
    return Outcome(mutant, rule, len(run.results), run.count("failed"), rank, tuple(ranked[:TOP]))


def run_bug(
    suite: GameSuite,
    cases: Sequence[Case],
    mutant: str,
    rule: str,
    command: Sequence[str],
    *,
    asked: Sequence[Case] | None = None,
    timeout: float = 10.0,
) -> Outcome:
    """Run ``cases`` against the port ``command`` (with the bug ``mutant``); diagnose; return it.

    With ``asked``, only those cases go to the port: the caller knows the
    others pass (the bug answers them as the reference does), and they are
    counted as passed.  The diagnosis and so the outcome are the same.
    """
    run = run_suite(command, list(cases if asked is None else asked), suite, timeout=timeout)
    if asked is not None:
        done = {r.id: r for r in run.results}
        results = [
            done.get(c["id"]) or CaseResult(c["id"], "passed", list(c.get("rules", [])))
            for c in cases
        ]
        run = replace(run, results=results, selected=len(cases))
    run.diagnose(cases, timeout=timeout)
    return outcome_of(run, mutant, rule)


def in_pool(work: Callable[[T], R], items: Iterable[T], jobs: int = 2) -> list[R]:
    """Return ``work`` of each item, in order, with ``jobs`` items at work at a time.

    >>> in_pool(lambda n: n * n, [1, 2, 3])
    [1, 4, 9]
    """
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        return list(pool.map(work, items))


def run_study(
    suite: GameSuite,
    cases: Sequence[Case],
    bugs: Mapping[str, str],
    command: Callable[[str], Sequence[str]],
    *,
    jobs: int = 2,
    timeout: float = 10.0,
    asked: Callable[[str], Sequence[Case]] | None = None,
    progress: Callable[[Outcome], None] | None = None,
) -> list[Outcome]:
    """Run the study of ``bugs`` (name to the rule at fault) on ``cases``; return the outcomes.

    ``command(name)`` starts the port with the bug ``name``; ``jobs`` ports
    run at a time.  ``asked(name)``, when given, returns the cases that bug
    is known to change (see :func:`run_bug`).  ``progress`` hears of each
    outcome in the order of ``bugs``.
    """

    def one(name: str) -> Outcome:
        return run_bug(
            suite,
            cases,
            name,
            bugs[name],
            command(name),
            asked=None if asked is None else asked(name),
            timeout=timeout,
        )

    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        futures = [pool.submit(one, name) for name in bugs]
        outcomes = []
        for future in futures:
            outcome = future.result()
            if progress is not None:
                progress(outcome)
            outcomes.append(outcome)
    return outcomes


def misses(outcomes: Sequence[Outcome]) -> list[str]:
    """Return how the outcomes fall short of the targets, one line each; empty when met."""
    lines = [f"{o.mutant}: not caught" for o in outcomes if not o.caught]
    lines += [
        f"{o.mutant}: {o.rule} is not among the first {TOP} suspects ({' '.join(o.suspects)})"
        for o in outcomes
        if o.caught and (o.rank is None or o.rank > TOP)
    ]
    first = sum(o.rank == 1 for o in outcomes)
    if outcomes and first < FIRST_SHARE * len(outcomes):
        lines.append(
            f"the rule at fault is first for {first} of {len(outcomes)} bugs, "
            f"fewer than {FIRST_SHARE:.0%}"
        )
    return lines


def table_lines(outcomes: Sequence[Outcome]) -> list[str]:
    """Return the outcomes as a text table, with a last line counting the ranks."""
    lines = [f"{'mutant':<26} {'rule':<6} {'failed':>13}  rank  suspects"]
    for o in outcomes:
        rank = "-" if o.rank is None else str(o.rank)
        failed = f"{o.failed}/{o.cases}"
        lines.append(f"{o.mutant:<26} {o.rule:<6} {failed:>13}  {rank:>4}  {' '.join(o.suspects)}")
    first = sum(o.rank == 1 for o in outcomes)
    top = sum(o.rank is not None and o.rank <= TOP for o in outcomes)
    caught = sum(o.caught for o in outcomes)
    lines.append(
        f"{len(outcomes)} bugs: {caught} caught, rule at fault first for {first}, "
        f"in the first {TOP} for {top}"
    )
    return lines
