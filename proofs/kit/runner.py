"""Running the proofs and reporting them: the suite's stages, the table, the command.

A :class:`Suite` is a game's proofs: the stages that yield its checks, the
spec rules each property covers, and the command that writes its results
file.  :func:`command` is ``python -m proofs``: it runs the stages of the
groups asked for, prints one line per check as it comes (:func:`table_line`)
and a summary per group, writes the results file if asked, and exits 1 on
any failure.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from proofs.kit.results import GROUPS, Check, results_json, rules_of, write_results

__all__ = ["Stage", "Suite", "command", "table_line"]


@dataclass(frozen=True)
class Stage:
    """Work that yields checks of ``groups``; it runs when one of them is asked for."""

    #: The groups its checks belong to.
    groups: frozenset[str]
    #: The work.
    run: Callable[[], Iterable[Check]]


@dataclass(frozen=True)
class Suite:
    """A game's proofs: what runs, in order, and how its results are filed."""

    #: What is proven, for the command's help: ``the Can't Stop rules``.
    subject: str
    #: The command that writes the committed results file.
    generated_by: str
    #: The stages, in the order they run.
    stages: Sequence[Stage]
    #: The spec rules each property covers, as space-separated ids.
    rules: Mapping[str, str] = field(default_factory=dict)

    def check_rules(self, check: Check) -> list[str]:
        """Return the spec rules ``check`` covers (:func:`~proofs.kit.results.rules_of`)."""
        return rules_of(check, self.rules)

    def run(self, groups: Iterable[str] = GROUPS) -> Iterator[Check]:
        """Run the checks of ``groups``, yielding each result as it comes."""
        chosen = set(groups)
        unknown = chosen - set(GROUPS)
        if unknown:
            raise ValueError(
                f"unknown groups {sorted(unknown)}; the groups are {', '.join(GROUPS)}"
            )
        for stage in self.stages:
            if stage.groups & chosen:
                yield from (check for check in stage.run() if check.group in chosen)

    def results_json(self, checks: list[Check]) -> dict[str, object]:
        """Return the results file's content (see ``proofs/README.md``)."""
        return results_json(checks, self.generated_by, self.check_rules)

    def write_results(self, checks: list[Check], path: Path) -> None:
        """Write the results file to ``path``."""
        write_results(checks, path, self.generated_by, self.check_rules)


def table_line(check: Check) -> str:
    """One line of the table: result, seconds, group, property, transition, configuration."""
    mark = " " if check.ok else "!"
    return (
        f"{mark} {check.result:<14} {check.seconds:7.2f}s  {check.group:<11} "
        f"{check.property:<57} {check.transition or '-':<6} {check.config}"
    )


def command(suite: Suite, argv: Sequence[str] | None = None) -> int:
    """Run ``python -m proofs`` for ``suite``; return 0 if every result is as expected, else 1."""
    parser = argparse.ArgumentParser(
        prog="python -m proofs", description=f"Run the z3 proofs of {suite.subject}."
    )
    parser.add_argument("--json", type=Path, metavar="PATH", help="write the results file")
    parser.add_argument(
        "--group", action="append", choices=GROUPS, help="run only this group (repeatable)"
    )
    parser.add_argument(
        "-v", "--verbose", action="store_true", help="print every counterexample and witness"
    )
    args = parser.parse_args(argv)
    start = time.perf_counter()
    checks: list[Check] = []
    for check in suite.run(args.group or GROUPS):
        checks.append(check)
        print(table_line(check), flush=True)
        if check.detail and (args.verbose or not check.ok):
            print(f"    {check.detail}", flush=True)
    failures = [c for c in checks if not c.ok]
    by_group = Counter(c.group for c in checks)
    seconds = {g: sum(c.seconds for c in checks if c.group == g) for g in by_group}
    print()
    for group in GROUPS:
        if group in by_group:
            print(f"{group:<12} {by_group[group]:4} checks {seconds[group]:7.1f}s")
    print(f"{len(checks)} checks, {len(failures)} failed, {time.perf_counter() - start:.1f}s")
    if args.json is not None:
        suite.write_results(checks, args.json)
        print(f"wrote {args.json}")
    return 1 if failures else 0
