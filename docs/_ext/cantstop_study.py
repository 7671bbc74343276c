"""Sphinx extension: the table of the seeded-bug study, read from its results file.

The directive ``cantstop-study-results`` renders the file that
``python -m cantstop.conformance.study --json spec/conformance/study.json``
writes (config value ``cantstop_study_results``, relative to the
configuration directory): one row per seeded bug, with the rule at fault,
the failing cases, the rank of the rule at fault in the diagnosis and the
first suspects.  A missing file gives a note; a malformed one stops the build.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective

_OUTCOME: dict[str, type] = {
    "mutant": str,
    "rule": str,
    "summary": str,
    "caught": bool,
    "failed": int,
    "cases": int,
    "suspects": list,
}


def read_study(path: Path) -> dict[str, Any]:
    """Read and check the study's results file; raise ``ValueError`` naming what is wrong."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise ValueError(f"{path} is not JSON: {exc}") from None
    if not isinstance(data, dict):
        raise ValueError(f"{path}: the top level must be an object")
    header: dict[str, type] = {"generated_by": str, "vectors": str, "subset": str, "cases": int}
    for key, kind in header.items():
        if not isinstance(data.get(key), kind):
            raise ValueError(f"{path}: {key!r} must be a {kind.__name__}")
    targets = data.get("targets")
    if not (
        isinstance(targets, dict)
        and isinstance(targets.get("first_share"), int | float)
        and isinstance(targets.get("top"), int)
    ):
        raise ValueError(f"{path}: 'targets' must hold a number 'first_share' and an int 'top'")
    outcomes = data.get("outcomes")
    if not isinstance(outcomes, list) or not outcomes:
        raise ValueError(f"{path}: 'outcomes' must be a non-empty list")
    for index, outcome in enumerate(outcomes):
        where = f"{path}: outcomes[{index}]"
        if not isinstance(outcome, dict):
            raise ValueError(f"{where} must be an object")
        for key, kind in _OUTCOME.items():
            if not isinstance(outcome.get(key), kind):
                raise ValueError(f"{where}: {key!r} must be a {kind.__name__}")
        rank = outcome.get("rank")
        if rank is not None and (not isinstance(rank, int) or isinstance(rank, bool) or rank < 1):
            raise ValueError(f"{where}: 'rank' must be a positive int or null")
    return data


def _literal(text: str) -> nodes.literal:
    return nodes.literal(text, text)


def _table(headers: list[str], rows: list[list[str | nodes.Node]]) -> nodes.table:
    table = nodes.table(classes=["cs-table"])
    group = nodes.tgroup(cols=len(headers))
    table += group
    for _ in headers:
        group += nodes.colspec(colwidth=1)
    head = nodes.thead()
    row = nodes.row()
    for header in headers:
        row += nodes.entry("", nodes.paragraph(header, header))
    head += row
    group += head
    body = nodes.tbody()
    for cells in rows:
        row = nodes.row()
        for cell in cells:
            content = cell if isinstance(cell, nodes.Node) else nodes.Text(cell)
            row += nodes.entry("", nodes.paragraph("", "", content))
        body += row
    group += body
    return table


class StudyResults(SphinxDirective):
    """The table of the seeded-bug study, read from ``cantstop_study_results``."""

    def run(self) -> list[nodes.Node]:
        """Return the summary and the table, or a note that no results file was found."""
        path = (Path(self.env.app.confdir) / self.config.cantstop_study_results).resolve()
        self.env.note_dependency(str(path))
        command = "python -m cantstop.conformance.study --json spec/conformance/study.json"
        if not path.is_file():
            note = nodes.admonition(classes=["warning"])
            note += nodes.title("", "No results yet")
            note += nodes.paragraph(
                "",
                "",
                nodes.Text(f"No study results were found at {path.name} when this site was "),
                nodes.Text("built. Run "),
                _literal(command),
                nodes.Text(" and build the site again to see the table."),
            )
            return [note]
        try:
            data = read_study(path)
        except ValueError as exc:
            raise self.error(f"cannot read the study results: {exc}") from None
        outcomes = data["outcomes"]
        top = int(data["targets"]["top"])
        share = float(data["targets"]["first_share"])
        caught = sum(1 for o in outcomes if o["caught"])
        first = sum(1 for o in outcomes if o["rank"] == 1)
        within = sum(1 for o in outcomes if o["rank"] is not None and o["rank"] <= top)
        met = caught == len(outcomes) and first >= share * len(outcomes) and within == len(outcomes)
        summary = (
            f"{len(outcomes)} seeded bugs, each run against {data['cases']} cases of the "
            f"vectors {data['vectors']} ({data['subset']}): {caught} caught; the rule at fault "
            f"named first for {first} ({first / len(outcomes):.0%}) and among the first {top} "
            f"for {within}. Targets (every bug caught, the rule at fault first for at least "
            f"{share:.0%}, among the first {top} for all): {'met' if met else 'MISSED'}. "
            f"Generated by "
        )
        out: list[nodes.Node] = [
            nodes.paragraph(
                "", "", nodes.Text(summary), _literal(data["generated_by"]), nodes.Text(".")
            )
        ]
        if not met:
            warn = nodes.admonition(classes=["danger"])
            warn += nodes.title("", "Targets missed")
            warn += nodes.paragraph("", "The study's last run fell short of its targets.")
            out.append(warn)
        rows: list[list[str | nodes.Node]] = []
        for o in outcomes:
            rank = "not named" if o["rank"] is None else str(o["rank"])
            rows.append(
                [
                    _literal(o["mutant"]),
                    o["summary"],
                    o["rule"],
                    f"{o['failed']} of {o['cases']}" if o["caught"] else "none: not caught",
                    rank,
                    " ".join(o["suspects"]),
                ]
            )
        headers = ["Seeded bug", "What the port does", "Rule at fault", "Failing cases", "Rank"]
        out.append(_table([*headers, "First suspects"], rows))
        return out


def setup(app: Sphinx) -> dict[str, Any]:
    """Register the directive and its configuration value."""
    app.add_config_value(
        "cantstop_study_results", "../spec/conformance/study.json", "env", types=(str,)
    )
    app.add_directive("cantstop-study-results", StudyResults)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
