"""Sphinx extension: the exact odds tables of :mod:`cantstop.odds`, computed while the page is read.

Directives: ``cantstop-single-column-chances`` (the chance that a roll makes
each sum) and ``cantstop-three-column-table`` (the chance of a bust with
markers on three columns, safest first).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from docutils import nodes
from specsite.markup import Cell, literal, table
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective

__all__ = ["SingleColumnChances", "ThreeColumnTable", "setup"]


def _percent(p: Fraction) -> str:
    """Return ``p`` as a percentage; a no-break space keeps the sign with its number."""
    return f"{float(p) * 100:.2f}\N{NO-BREAK SPACE}%"


def _odds(directive: SphinxDirective) -> Any:
    """Import :mod:`cantstop.odds`, or stop the build saying why it cannot be."""
    try:
        import cantstop.odds
    except ImportError as exc:
        raise directive.error(f"the odds tables need cantstop.odds, which failed: {exc}") from None
    return cantstop.odds


class SingleColumnChances(SphinxDirective):
    """The table of :func:`cantstop.odds.single_column_chances`."""

    def run(self) -> list[nodes.Node]:
        """Return the table, computed now."""
        chances = _odds(self).single_column_chances()
        rows: list[list[Cell]] = [
            [str(column), literal(str(p)), _percent(p)] for column, p in sorted(chances.items())
        ]
        return [table(["Sum", "Probability (exact)", "Percent"], rows)]


class ThreeColumnTable(SphinxDirective):
    """The table of :func:`cantstop.odds.three_column_table`, safest choice first."""

    def run(self) -> list[nodes.Node]:
        """Return the table, computed now."""
        chances = _odds(self).three_column_table()
        ranked = sorted(chances.items(), key=lambda item: (-item[1], item[0]))
        rows: list[list[Cell]] = [
            [
                str(rank),
                " ".join(map(str, columns)),
                literal(str(1 - p)),
                _percent(1 - p),
                literal(str(p)),
            ]
            for rank, (columns, p) in enumerate(ranked, start=1)
        ]
        headers = ["#", "Columns", "Bust (exact)", "Bust", "At least one column (exact)"]
        return [table(headers, rows)]


def setup(app: Sphinx) -> dict[str, Any]:
    """Register the odds directives; return the extension's metadata."""
    app.add_directive("cantstop-single-column-chances", SingleColumnChances)
    app.add_directive("cantstop-three-column-table", ThreeColumnTable)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
