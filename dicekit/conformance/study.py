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

:class:`PortStudy` is the study of a game's bundled port as a command: the
port's seeded bugs (:func:`load_bugs` reads its ``bugs.json``), the
command that starts it with one of them, the results file beside the
suite's versions and :meth:`PortStudy.main`, the command line
``python -m GAME.study [--json FILE] [--bug NAME]`` of each game, which
also prints the results file's table in Markdown (:func:`markdown_lines`)
for the game's port guide.

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

import argparse
import json
import shutil
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, TypeVar

from dicekit.conformance.cases import load_cases
from dicekit.conformance.gamesuite import GameVectorsSuite
from dicekit.conformance.run import CaseResult, Run, run_suite
from dicekit.conformance.suite import Case, GameSuite
from dicekit.conformance.vectors import vectors_dir, versions
from dicekit.protocol import Game

__all__ = [
    "FIRST_SHARE",
    "TOP",
    "Bug",
    "Outcome",
    "PortStudy",
    "in_pool",
    "load_bugs",
    "markdown_lines",
    "missed_status",
    "misses",
    "outcome_of",
    "run_bug",
    "run_study",
    "study_arguments",
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
    #: How many of the failing cases the port answered with an internal error (a defect of
    #: the port, such as a property read of ``undefined``, rather than a reading of the rules).
    defects: int = 0

    @property
    def caught(self) -> bool:
        """Whether some case failed."""
        return self.failed > 0

    def to_json(self, summary: str = "") -> dict[str, Any]:
        """Return the outcome as a JSON object of a results file, with the bug's ``summary``.

        >>> Outcome("a", "R1.1", 10, 2, 1, ("R1.1", "R2.1")).to_json("breaks R1.1")["rank"]
        1

        ``defects`` is written only when some failing case was answered with an internal error.
        """
        out: dict[str, Any] = {
            "mutant": self.mutant,
            "rule": self.rule,
            "summary": summary,
            "caught": self.caught,
            "failed": self.failed,
            "cases": self.cases,
            "rank": self.rank,
            "suspects": list(self.suspects),
        }
        if self.defects:
            out["defects"] = self.defects
        return out


def outcome_of(run: Run, mutant: str, rule: str) -> Outcome:
    """Return the outcome of the diagnosed ``run`` for the bug ``mutant``, which breaks ``rule``."""
    ranked = [suspect for suspect, _, _ in run.suspects()]
    rank = ranked.index(rule) + 1 if rule in ranked else None
    defects = sum(
        r.status == "failed" and any("internal error" in s for s in (r.message, *r.diagnosis))
        for r in run.results
    )
    return Outcome(
        mutant, rule, len(run.results), run.count("failed"), rank, tuple(ranked[:TOP]), defects
    )


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


def study_arguments(prog: str, description: str, names: Sequence[str]) -> argparse.ArgumentParser:
    """Return the command line of a study of the bugs ``names``.

    Its options: ``--json FILE`` (write the results file), ``--jobs N``,
    ``--bug NAME`` (repeatable: only these) and ``--markdown`` (print the
    committed results file as a table and run nothing).
    """
    parser = argparse.ArgumentParser(prog=prog, description=description)
    parser.add_argument("--json", type=Path, metavar="FILE", help="write the results file")
    parser.add_argument("--jobs", type=int, default=2, metavar="N", help="ports run at a time")
    parser.add_argument(
        "--bug", action="append", choices=list(names), metavar="NAME", help="only these"
    )
    parser.add_argument(
        "--markdown",
        action="store_true",
        help="print the committed results file as the port guide's Markdown table; run nothing",
    )
    return parser


def missed_status(outcomes: Sequence[Outcome]) -> int:
    """Print each target the outcomes miss; return the exit status, 1 when one is missed."""
    missed = misses(outcomes)
    for line in missed:
        print(f"target missed: {line}")
    return 1 if missed else 0


@dataclass(frozen=True, slots=True)
class Bug:
    """A seeded bug of a port: its name, the rule it breaks and what it does."""

    name: str
    rule: str
    description: str


def load_bugs(path: Path) -> tuple[Bug, ...]:
    """Return the seeded bugs listed in ``path``, a port's ``bugs.json``, in its order.

    The file holds a list of bugs, or an object whose ``bugs`` is that list;
    each bug is an object with its ``name``, ``rule`` and ``description``.
    """
    data = json.loads(path.read_text(encoding="utf-8"))
    listed = data["bugs"] if isinstance(data, dict) else data
    return tuple(Bug(b["name"], b["rule"], b["description"]) for b in listed)


def markdown_lines(data: Mapping[str, Any]) -> list[str]:
    r"""Return a study's results file (``data``) as a Markdown table and a sentence counting ranks.

    >>> data = {"targets": {"top": 3}, "outcomes": [
    ...     Outcome("a", "R1.1", 10, 2, 1, ("R1.1", "R2.1")).to_json("adds"),
    ...     Outcome("b", "R2.1", 10, 1, 2, ("R1.1", "R2.1")).to_json("drops")]}
    >>> print("\n".join(markdown_lines(data)))
    | bug | rule at fault | what it does | cases failed | rank | first suspects |
    | --- | --- | --- | ---: | ---: | --- |
    | `a` | R1.1 | adds | 2 | 1 | R1.1 R2.1 |
    | `b` | R2.1 | drops | 1 | 2 | R1.1 R2.1 |
    <BLANKLINE>
    Of the 2 bugs, 2 are caught; the rule at fault comes first for 1 and among the first 3 for 2.
    """
    outcomes = data["outcomes"]
    top = data["targets"]["top"]
    lines = [
        "| bug | rule at fault | what it does | cases failed | rank | first suspects |",
        "| --- | --- | --- | ---: | ---: | --- |",
    ]
    for o in outcomes:
        rank = "-" if o["rank"] is None else str(o["rank"])
        suspects = " ".join(o["suspects"])
        said = o["summary"].replace("|", "\\|")
        lines.append(
            f"| `{o['mutant']}` | {o['rule']} | {said} | {o['failed']} | {rank} | {suspects} |"
        )
    caught = sum(bool(o["caught"]) for o in outcomes)
    first = sum(o["rank"] == 1 for o in outcomes)
    within = sum(o["rank"] is not None and o["rank"] <= top for o in outcomes)
    lines += [
        "",
        f"Of the {len(outcomes)} bugs, {caught} are caught; the rule at fault comes first for "
        f"{first} and among the first {top} for {within}.",
    ]
    return lines


@dataclass(frozen=True)
class PortStudy:
    """The seeded-bug study of a game's bundled port, run as the game's command line.

    >>> from types import SimpleNamespace
    >>> toy = SimpleNamespace(info=SimpleNamespace(name="toy", spec_dir=Path("toy/spec")))
    >>> study = PortStudy(toy, Path("toy/port.js"), (Bug("slow", "R1.1", "moves one short"),))
    >>> study.port_command("slow", node="node")
    ['node', 'toy/port.js', '--bug', 'slow']
    >>> study.results_path().as_posix()
    'toy/spec/conformance/study.json'
    """

    #: The game object.
    game: Game[Any, Any, Any]
    #: The port's program, run by Node.js with ``--bug NAME``.
    port: Path
    #: The port's seeded bugs.
    bugs: tuple[Bug, ...]
    #: The game as a sentence names it, for the command's help.
    title: str = "the game"
    #: Files or folders a copy of the port holds beside its own (Off to the Tower's boards).
    extras: tuple[Path, ...] = ()

    @property
    def name(self) -> str:
        """The game's name."""
        name: str = self.game.info.name
        return name

    def port_command(self, bug: str, node: str | None = None) -> list[str]:
        """Return the command that runs the port with the seeded bug ``bug``."""
        return [node or shutil.which("node") or "node", str(self.port), "--bug", bug]

    def suite(self) -> GameVectorsSuite:
        """Return the game's conformance suite (the layer's generic suite of the game)."""
        return GameVectorsSuite(self.game)

    def results_path(self) -> Path:
        """Return the study's committed results file, ``study.json`` beside the versions."""
        return vectors_dir(self.game, 1).parent / "study.json"

    def newest_cases(self) -> tuple[int, list[Case]]:
        """Return the newest version of the game's suite and its cases."""
        version = versions(self.game)[-1]
        return version, load_cases(vectors_dir(self.game, version), self.suite().checks)

    def results(
        self, outcomes: Sequence[Outcome], version: int, cases: int, command: str
    ) -> dict[str, Any]:
        """Return the results file of ``outcomes``, run on ``cases`` cases of ``version``.

        ``command`` is the command line that made it, kept as ``generated_by``.
        """
        said = {b.name: b.description for b in self.bugs}
        return {
            "generated_by": command,
            "vectors": f"v{version}",
            "cases": cases,
            "targets": {"first_share": FIRST_SHARE, "top": TOP},
            "outcomes": [o.to_json(said[o.mutant]) for o in outcomes],
        }

    def main(self, argv: Sequence[str] | None = None) -> int:
        """Run the study, print its table and optionally write the results file; return the status.

        With ``--held-out`` first, run the port's held-out study instead
        (:func:`dicekit.conformance.heldout.port_heldout`).
        Exit status: 0 when the targets are met, 1 when not, 2 for a usage
        error (no Node.js, an unknown bug), with one line on stderr.
        """
        argv = list(sys.argv[1:] if argv is None else argv)
        if argv[:1] == ["--held-out"]:
            from dicekit.conformance.heldout import port_heldout  # it imports this module

            return port_heldout(self).main(argv[1:])
        parser = study_arguments(
            f"python -m {self.name}.study",
            f"Run {self.title}'s conformance suite against each seeded bug of its "
            "JavaScript port and rank the rule at fault (first --held-out: the held-out study).",
            [b.name for b in self.bugs],
        )
        args = parser.parse_args(argv)
        if args.markdown:
            data = json.loads(self.results_path().read_text(encoding="utf-8"))
            print("\n".join(markdown_lines(data)))
            return 0
        if shutil.which("node") is None:
            print(f"{self.name} study: error: Node.js (node) is not on PATH", file=sys.stderr)
            return 2
        version, cases = self.newest_cases()
        chosen = {b.name: b.rule for b in self.bugs if not args.bug or b.name in args.bug}
        outcomes = run_study(
            self.suite(),
            cases,
            chosen,
            self.port_command,
            jobs=args.jobs,
            progress=lambda o: print(f"{o.mutant}: rank {o.rank}", file=sys.stderr, flush=True),
        )
        for line in table_lines(outcomes):
            print(line)
        if args.json:
            command = f"python -m {self.name}.study --json {args.json.as_posix()}"
            data = self.results(outcomes, version, len(cases), command)
            args.json.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
        return missed_status(outcomes)
