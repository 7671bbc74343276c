"""A game's proofs as one suite: its stages, the rules each check covers, its table and file.

A :class:`Suite` is a game's proofs: the stages that yield its checks (each
with an optional slower variant that ``--full`` runs instead, for a nightly
run), the spec rules each property covers, the command that writes its
results file, and the :class:`Table` its command prints.
:mod:`dicekit.proofs.command` runs it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from dicekit.proofs.results import GROUPS, Check, results_json, rules_of, write_results

__all__ = ["Stage", "Suite", "Table", "table_line"]


@dataclass(frozen=True)
class Stage:
    """Work that yields checks of ``groups``; it runs when one of them is asked for."""

    #: The groups its checks belong to.
    groups: frozenset[str]
    #: The work.
    run: Callable[[], Iterable[Check]]
    #: Slower, wider work run instead with ``--full`` (for a nightly run), if any.
    full: Callable[[], Iterable[Check]] | None = None


@dataclass(frozen=True)
class Table:
    """How a suite's command prints: the widths of the table's columns and the summary's lines.

    >>> check = Check("x", "link", "R1 p", None, "2p", "agree", 1.5)
    >>> Table(property_width=6).line(check)
    '  agree             1.50s  link        R1 p   -      2p'
    >>> Table().summary(Counter({"link": 2}), {"link": 3.0}, {"link": 1})
    ['', 'link            2 checks     3.0s']
    """

    #: The width of the property column.
    property_width: int = 57
    #: The width of the transition column.
    transition_width: int = 6
    #: The summary line of a group, from ``group``, ``checks``, ``failed`` and ``seconds``.
    group_line: str = "{group:<12} {checks:4} checks {seconds:7.1f}s"
    #: Whether an empty line parts the table from the summary.
    gap: bool = True
    #: Whether the command says where it wrote the results file.
    say_written: bool = True

    def line(self, check: Check) -> str:
        """One line of the table: result, seconds, group, property, transition, configuration."""
        mark = " " if check.ok else "!"
        return (
            f"{mark} {check.result:<14} {check.seconds:7.2f}s  {check.group:<11} "
            f"{check.property:<{self.property_width}} "
            f"{check.transition or '-':<{self.transition_width}} {check.config}"
        )

    def summary(
        self, counts: Counter[str], seconds: Mapping[str, float], failed: Mapping[str, int]
    ) -> list[str]:
        """Return the lines after the table: one per group that ran, in the order of the groups."""
        lines = [""] if self.gap else []
        for group in GROUPS:
            if group in counts:
                lines.append(
                    self.group_line.format(
                        group=group,
                        checks=counts[group],
                        failed=failed.get(group, 0),
                        seconds=seconds[group],
                    )
                )
        return lines


def table_line(check: Check) -> str:
    """One line of the table with the default widths (see :class:`Table`)."""
    return Table().line(check)


@dataclass(frozen=True)
class Suite:
    """A game's proofs: what runs, in order, and how its results are filed and printed."""

    #: What is proven, for the command's help: ``the Can't Stop rules``.
    subject: str
    #: The command that writes the committed results file.
    generated_by: str
    #: The stages, in the order they run.
    stages: Sequence[Stage]
    #: The spec rules each property covers, as space-separated ids.
    rules: Mapping[str, str] = field(default_factory=dict)
    #: What ``--full`` does, for the command's help (when some stage has a full variant).
    full_help: str = ""
    #: How the command prints.
    table: Table = Table()

    @property
    def groups(self) -> tuple[str, ...]:
        """The groups the stages yield, in the order of :data:`~dicekit.proofs.results.GROUPS`."""
        named = {group for stage in self.stages for group in stage.groups}
        return tuple(group for group in GROUPS if group in named)

    @property
    def has_full(self) -> bool:
        """Whether some stage has a slower variant for ``--full``."""
        return any(stage.full is not None for stage in self.stages)

    def check_rules(self, check: Check) -> list[str]:
        """Return the spec rules ``check`` covers (:func:`~dicekit.proofs.results.rules_of`)."""
        return rules_of(check, self.rules)

    def run(self, groups: Iterable[str] | None = None, full: bool = False) -> Iterator[Check]:
        """Run the checks of ``groups`` (all by default), yielding each result as it comes.

        With ``full``, a stage with a slower variant runs that instead.
        """
        chosen = set(self.groups if groups is None else groups)
        unknown = chosen - set(self.groups)
        if unknown:
            raise ValueError(
                f"unknown groups {sorted(unknown)}; the groups are {', '.join(self.groups)}"
            )
        for stage in self.stages:
            if stage.groups & chosen:
                work = stage.full if full and stage.full is not None else stage.run
                yield from (check for check in work() if check.group in chosen)

    def results_json(self, checks: list[Check]) -> dict[str, object]:
        """Return the results file's content (its format is in ``proofs/README.md``)."""
        return results_json(checks, self.generated_by, self.check_rules)

    def write_results(self, checks: list[Check], path: Path) -> None:
        """Write the results file to ``path``."""
        write_results(checks, path, self.generated_by, self.check_rules)
