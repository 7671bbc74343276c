"""Rules to proofs and back: the proofs results table, and under each rule the checks citing it.

The proofs name the rules they cover (the ``rules`` of each check in the
results file of the page's game, ``PREFIX_proof_results``); the reverse is
added here.  Under
each rule that some check names, the rule page lists those checks, property
by property, with their results, each linked to the property's rows in the
proofs table (anchor ``proof-`` and the property's name; each row also has
the anchor ``check-`` and the check's name).  The results file's format is
described in ``proofs/README.md``; this module reads it on its own, so that
the site builds without the solver.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

from specsite.jsonfile import each_object, read_object
from specsite.markup import Cell, details, literal, no_results, table
from specsite.rules import has_rule_heading, leading_rule
from specsite.store import Site, resolve_links, site_named, site_records

__all__ = [
    "GROUPS",
    "ProofResults",
    "add_proofs",
    "check_anchor",
    "check_rules",
    "checks_by_rule",
    "is_failure",
    "proof_anchor",
    "read_results",
    "resolve_proof_links",
    "results_path",
]

logger = logging.getLogger(__name__)

#: The groups of checks, in the order the results file lists them.
GROUPS = ("induction", "non-vacuity", "mutation", "bmc", "link")
_RESULTS = ("proved", "counterexample", "unknown", "witness", "caught", "agree")
_FIELDS = {
    "name": str,
    "group": str,
    "property": str,
    "config": str,
    "result": str,
    "detail": str,
}


def results_path(app: Sphinx, site: Site[Any]) -> Path:
    """Return the results file of a game (``PREFIX_proof_results``, from the conf directory)."""
    return Path(app.confdir, site.setting(app, "proof_results")).resolve()


def is_failure(check: dict[str, Any]) -> bool:
    """Whether a check's result is a failure, as the proofs results format defines it."""
    group, result = str(check["group"]), str(check["result"])
    if group in ("induction", "link"):
        return result in ("counterexample", "unknown")
    if group == "mutation":
        return result != "caught"
    return False


def read_results(path: Path) -> dict[str, Any]:
    """Read and check the proofs results file; raise ``ValueError`` naming what is wrong."""
    data = read_object(path)
    for key in ("z3_version", "generated_by"):
        if not isinstance(data.get(key), str):
            raise ValueError(f"{path}: {key!r} must be a string")
    checks = data.get("checks")
    if not isinstance(checks, list):
        raise ValueError(f"{path}: 'checks' must be a list")
    for where, check in each_object(path, "checks", checks):
        for key, kind in _FIELDS.items():
            if not isinstance(check.get(key), kind):
                raise ValueError(f"{where}: {key!r} must be a string")
        if check.get("transition") is not None and not isinstance(check["transition"], str):
            raise ValueError(f"{where}: 'transition' must be a string or null")
        seconds = check.get("seconds")
        if not isinstance(seconds, int | float) or isinstance(seconds, bool):
            raise ValueError(f"{where}: 'seconds' must be a number")
        if check["group"] not in GROUPS:
            raise ValueError(f"{where}: unknown group {check['group']!r}")
        if check["result"] not in _RESULTS:
            raise ValueError(f"{where}: unknown result {check['result']!r}")
        rules = check.get("rules")
        if rules is not None and (
            not isinstance(rules, list) or not all(isinstance(r, str) for r in rules)
        ):
            raise ValueError(f"{where}: 'rules' must be a list of rule ids")
    return data


def check_rules(check: dict[str, Any]) -> list[str]:
    """Return the rules a check names: its ``rules``, else the rule its property starts with."""
    rules = check.get("rules")
    if rules is not None:
        return list(rules)
    leading = leading_rule(str(check["property"]))
    return [leading] if leading else []


def checks_by_rule(
    app: Sphinx, env: BuildEnvironment, document: nodes.document, site: Site[Any]
) -> dict[str, dict[str, list[dict[str, Any]]]]:
    """Return, for each rule id, the checks of the game's results file naming it, by property.

    Empty when there is no results file or the document has no rule heading;
    a document with rule headings depends on the results file.
    """
    if not has_rule_heading(document):
        return {}
    path = results_path(app, site)
    env.note_dependency(str(path))
    if not path.is_file():
        return {}
    try:
        data = read_results(path)
    except ValueError as exc:
        logger.error("cannot read the proofs results: %s", exc)
        return {}
    citing: dict[str, dict[str, list[dict[str, Any]]]] = {}
    for check in data["checks"]:
        for rule in check_rules(check):
            citing.setdefault(rule, {}).setdefault(check["property"], []).append(check)
    return citing


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def proof_anchor(prop: str) -> str:
    """Return the anchor of a property's first row in the proofs table.

    >>> proof_anchor("R16.1 at most three markers")
    'proof-r16-1-at-most-three-markers'
    """
    return "proof-" + _slug(prop)


def check_anchor(name: str) -> str:
    """Return the anchor of a check's row in the proofs table."""
    return "check-" + _slug(name)


def _summary(checks: Sequence[dict[str, Any]]) -> str:
    """Count the results of ``checks`` by group: ``induction 54 proved; mutation 1 caught``."""
    counts: dict[tuple[str, str], int] = {}
    for check in checks:
        key = (str(check["group"]), str(check["result"]))
        counts[key] = counts.get(key, 0) + 1
    parts = []
    for (group, result), count in sorted(
        counts.items(), key=lambda item: (GROUPS.index(item[0][0]), item[0][1])
    ):
        failed = " (FAILED)" if is_failure({"group": group, "result": result}) else ""
        parts.append(f"{group} {count} {result}{failed}")
    return "; ".join(parts)


def add_proofs(section: nodes.section, by_property: dict[str, list[dict[str, Any]]]) -> None:
    """Put the folded list of proof checks citing the section's rule before its sub-rules."""
    items = nodes.bullet_list()
    checks = 0
    for prop, cited in by_property.items():
        ref = nodes.reference("", prop, internal=True, refuri="#", classes=["cs-proof"])
        ref["cs_proof"] = proof_anchor(prop)
        items += nodes.list_item(
            "", nodes.paragraph("", "", ref, nodes.Text(": " + _summary(cited)))
        )
        checks += len(cited)
    properties = len(by_property)
    box = details(classes=["cs-proofs"])
    box["summary"] = (
        f"Proof checks that cite this rule: {properties} "
        f"{'property' if properties == 1 else 'properties'}, {checks} "
        f"{'check' if checks == 1 else 'checks'}"
    )
    box += items
    first = next((i for i, child in enumerate(section) if isinstance(child, nodes.section)), None)
    if first is None:
        section += box
    else:
        section.insert(first, box)


def resolve_proof_links(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """Point each link to a property's results at the page holding the game's proofs table."""
    resolve_links(
        app,
        doctree,
        docname,
        "proofs",
        "cs_proof",
        "the proofs table has no row %s on any page",
        anchor=lambda anchor: anchor,
        text=lambda ref, _anchor: ref.astext(),
    )


class ProofResults(SphinxDirective):
    """The table of the latest proofs run, read from ``PREFIX_proof_results``."""

    #: The prefix of the game whose results the table shows (set for each game's directive).
    prefix: ClassVar[str] = ""

    def run(self) -> list[nodes.Node]:
        """Return the results table, or a note that no results file was found."""
        path = results_path(self.env.app, site_named(self.env.app, self.prefix))
        self.env.note_dependency(str(path))
        try:
            shown = path.relative_to(Path(self.env.app.confdir).resolve().parent).as_posix()
        except ValueError:
            shown = str(path)
        if not path.is_file():
            command = "python -m proofs --json proofs/results.json"
            return [
                no_results(command, nodes.Text("No results file was found at "), literal(shown))
            ]
        try:
            data = read_results(path)
        except ValueError as exc:
            raise self.error(f"cannot read the proofs results: {exc}") from None
        checks = data["checks"]
        failures = [c for c in checks if is_failure(c)]
        total = sum(float(c["seconds"]) for c in checks)
        out: list[nodes.Node] = [
            nodes.paragraph(
                "",
                "",
                nodes.Text(
                    f"{len(checks)} checks with z3 {data['z3_version']}, "
                    f"{total:.1f} s in all; {len(failures)} failed. Generated by "
                ),
                literal(data["generated_by"]),
                nodes.Text("."),
            )
        ]
        if failures:
            warn = nodes.admonition(classes=["danger"])
            warn += nodes.title("", "Failed checks")
            warn += nodes.paragraph("", ", ".join(c["name"] for c in failures))
            out.append(warn)
        out.append(self._table(checks))
        return out

    def _table(self, checks: list[dict[str, Any]]) -> nodes.table:
        """Return the table of ``checks``, each row and each property's first row anchored."""
        rows: list[list[Cell]] = []
        ids: list[tuple[str, bool]] = []
        seen: set[str] = set()
        proofs = site_records(self.env, self.prefix)["proofs"]
        for check in checks:
            status = "FAILED" if is_failure(check) else "ok"
            rows.append(
                [
                    check["group"],
                    literal(check["name"]),
                    check["property"],
                    check["transition"] or "",
                    check["config"],
                    f"{check['result']} ({status})",
                    " ".join(check_rules(check)),
                    f"{float(check['seconds']):.2f}",
                    check["detail"],
                ]
            )
            first = check["property"] not in seen
            seen.add(check["property"])
            ids.append((check_anchor(check["name"]), first))
        headers = [
            "Group",
            "Check",
            "Property",
            "Transition",
            "Config",
            "Result",
            "Rules",
            "Seconds",
            "Detail",
        ]
        result = table(headers, rows)
        result["classes"].append("cs-proofs-table")
        body = list(result.findall(nodes.row))[1:]
        for row, (anchor, first), check in zip(body, ids, checks, strict=True):
            # The row is the check's; the first row of a property carries the
            # property's anchor on its Property cell.
            row["ids"].append(anchor)
            proofs[anchor] = self.env.docname
            cell = row.children[2]
            if first and isinstance(cell, nodes.Element):
                cell["ids"].append(proof_anchor(check["property"]))
                proofs[proof_anchor(check["property"])] = self.env.docname
        return result
