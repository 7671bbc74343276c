"""The results of the proofs: one :class:`Check` per line, and the results file they make.

A check belongs to a group (:data:`GROUPS`), each with the one result that
counts as a success (:data:`EXPECTED`); anything else is a failure.  The
results file (such as ``proofs/results.json``; its format is in ``proofs/README.md``) lists
every check with the spec rules it covers.
"""

from __future__ import annotations

import builtins
import json
import re
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass
from pathlib import Path

from dicekit.proofs.solver import z3_version

__all__ = ["EXPECTED", "GROUPS", "Check", "results_json", "rules_of", "write_results"]

#: The groups of checks, in the order they run and report.
GROUPS = ("induction", "non-vacuity", "mutation", "bmc", "link")

#: The result each group expects; any other is a failure.
EXPECTED: Mapping[str, str] = {
    "induction": "proved",
    "non-vacuity": "witness",
    "mutation": "caught",
    "bmc": "witness",
    "link": "agree",
}

_LEADING_RULE = re.compile(r"^([A-Z]+\d+(?:\.\d+)*) ")


@dataclass
class Check:
    """One line of the results: what was checked, where, and how it came out."""

    #: A unique name: property, transition and configuration.
    name: str
    #: One of :data:`GROUPS`.
    group: str
    #: The property, starting with its main rule id.
    property: str
    #: The transition (``"init"`` for the opening state), or ``None``.
    transition: str | None
    #: The configuration's name.
    config: str
    #: ``"proved"``, ``"counterexample"``, ``"unknown"``, ``"witness"``, ``"caught"``
    #: or ``"agree"``.
    result: str
    #: Wall-clock seconds.
    seconds: float
    #: A counterexample, a witness or a summary, in the game's notation.
    detail: str = ""

    @builtins.property
    def ok(self) -> bool:
        """Whether this result is the one expected for its group."""
        return self.result == EXPECTED[self.group]

    def as_json(self) -> dict[str, object]:
        """Return the check as a JSON object (the format of ``proofs/results.json``)."""
        data = asdict(self)
        data["seconds"] = round(self.seconds, 3)
        return data


def rules_of(check: Check, by_property: Mapping[str, str]) -> list[str]:
    """Return the spec rules ``check`` covers: those ``by_property`` gives its property.

    A property missing from ``by_property`` (a bounded run, say) covers the
    rule its name starts with; a witness of the premises covers none.

    >>> rules_of(Check("x", "bmc", "R10.1 a bust is reachable", None, "c", "witness", 0.0), {})
    ['R10.1']
    >>> rules_of(Check("x", "link", "p", None, "c", "agree", 0.0), {"p": "R4.1 R4.2"})
    ['R4.1', 'R4.2']
    """
    rules = by_property.get(check.property)
    if rules is not None:
        return rules.split()
    leading = _LEADING_RULE.match(check.property)
    return [leading.group(1)] if leading else []


def results_json(
    checks: list[Check], generated_by: str, rules: Callable[[Check], list[str]]
) -> dict[str, object]:
    """Return the results file's content: the solver's version, the command, every check."""
    return {
        "z3_version": z3_version(),
        "generated_by": generated_by,
        "checks": [{**check.as_json(), "rules": rules(check)} for check in checks],
    }


def write_results(
    checks: list[Check], path: Path, generated_by: str, rules: Callable[[Check], list[str]]
) -> None:
    """Write the results file to ``path``."""
    content = results_json(checks, generated_by, rules)
    path.write_text(json.dumps(content, indent=1) + "\n", encoding="utf-8")
