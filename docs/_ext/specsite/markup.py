"""Small builders of the site's markup: docutils nodes, tables, folded blocks and picture rows.

The HTML helpers (:func:`figure`, :func:`step`, :func:`transition`,
:func:`rejected`, :func:`figures_row`) write the row of pictures that an
example card or a position shows, with the classes of ``_static/cantstop.css``;
a game supplies the pictures themselves.  :func:`legible_width` says how
narrow a picture may be drawn before its smallest text gets too small to
read, so that a figure can be kept at least that wide.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable, Sequence
from typing import Any

from docutils import nodes

__all__ = [
    "Cell",
    "details",
    "field",
    "figure",
    "figures_row",
    "joined",
    "legible_width",
    "literal",
    "no_results",
    "rejected",
    "step",
    "table",
    "transition",
]


def literal(text: str) -> nodes.literal:
    """Return ``text`` as inline code."""
    return nodes.literal(text, text)


def no_results(command: str, *where: nodes.Node) -> nodes.admonition:
    """Return the warning that a results file is missing: ``where``, then how to make it.

    ``where`` says what was not found where, up to "when this site was
    built"; ``command`` is the command that writes the file.
    """
    note = nodes.admonition(classes=["warning"])
    note += nodes.title("", "No results yet")
    note += nodes.paragraph(
        "",
        "",
        *where,
        nodes.Text(" when this site was built. Run "),
        literal(command),
        nodes.Text(" and build the site again to see the table."),
    )
    return note


def field(name: str, *body: nodes.Node) -> nodes.field:
    """Return a field of a field list: ``name``, then ``body`` in paragraphs."""
    return nodes.field(
        "", nodes.field_name(name, name), nodes.field_body("", *_as_paragraphs(body))
    )


def _as_paragraphs(body: Sequence[nodes.Node]) -> list[nodes.Node]:
    out: list[nodes.Node] = []
    inline: list[nodes.Node] = []
    for node in body:
        if isinstance(node, nodes.Inline | nodes.Text):
            inline.append(node)
            continue
        if inline:
            out.append(nodes.paragraph("", "", *inline))
            inline = []
        out.append(node)
    if inline:
        out.append(nodes.paragraph("", "", *inline))
    return out


def joined(items: Iterable[nodes.Node], sep: str = " ") -> list[nodes.Node]:
    """Return ``items`` with the text ``sep`` between each two."""
    out: list[nodes.Node] = []
    for item in items:
        if out:
            out.append(nodes.Text(sep))
        out.append(item)
    return out


#: A table cell: plain text, or a node.
Cell = str | nodes.Node


def table(headers: Sequence[str], rows: Sequence[Sequence[Cell]]) -> nodes.table:
    """Return a table with one header row (``headers``) and ``rows``."""
    result = nodes.table(classes=["cs-table"])
    group = nodes.tgroup(cols=len(headers))
    result += group
    for _ in headers:
        group += nodes.colspec(colwidth=1)
    thead = nodes.thead()
    row = nodes.row()
    for header in headers:
        row += nodes.entry("", nodes.paragraph(header, header))
    thead += row
    group += thead
    tbody = nodes.tbody()
    for cells in rows:
        row = nodes.row()
        for cell in cells:
            content = cell if isinstance(cell, nodes.Node) else nodes.paragraph(cell, cell)
            if not isinstance(content, nodes.paragraph):
                content = nodes.paragraph("", "", content)
            row += nodes.entry("", content)
        tbody += row
    group += tbody
    return result


class details(nodes.General, nodes.Element):
    """A block that the page shows folded, with its ``summary`` as the line to unfold it."""


def visit_details(translator: Any, node: details) -> None:
    """Open a folded block in HTML, with its summary line."""
    translator.body.append(translator.starttag(node, "details"))
    translator.body.append(f"<summary>{html.escape(node['summary'])}</summary>\n")


def depart_details(translator: Any, node: details) -> None:
    """Close a folded block in HTML."""
    translator.body.append("</details>\n")


def skip_details(translator: Any, node: details) -> None:
    """Write nothing for a folded block in formats without one."""
    raise nodes.SkipNode


def figure(caption: str, svg: str, kind: str, least_width: float | None = None) -> str:
    """Return a picture (``svg``) with its caption, of the kind ``state`` or ``dice``.

    With ``least_width`` (CSS pixels), the figure is never drawn narrower,
    and may grow that wide (the class ``cs-legible``).
    """
    below = f"<figcaption>{html.escape(caption)}</figcaption>" if caption else ""
    if least_width is None:
        return f'<figure class="cs-fig cs-{kind}">{svg}{below}</figure>'
    style = f"--cs-least: {least_width:.0f}px"
    return f'<figure class="cs-fig cs-{kind} cs-legible" style="{style}">{svg}{below}</figure>'


_VIEW_WIDTH = re.compile(r'<svg\b[^>]*\bviewBox="[-\d.]+[ ,]+[-\d.]+[ ,]+([\d.]+)[ ,]+[\d.]+"')
_FONT_SIZE = re.compile(r'\bfont-size="([\d.]+)(?:px)?"')


def legible_width(svg: str, smallest_px: float = 11.0) -> float | None:
    """Return the least width, in CSS pixels, at which ``svg`` draws all its text legibly.

    That is the width at which its smallest ``font-size`` comes out at
    ``smallest_px``; ``None`` when the picture has no ``viewBox`` or no text.
    A picture drawn narrower scales its text below that size.

    >>> legible_width('<svg viewBox="0 0 400 300"><text font-size="11">a</text>'
    ...               '<text font-size="22">b</text></svg>')
    400.0
    >>> legible_width('<svg viewBox="0 0 400 300"><text font-size="16">a</text></svg>')
    275.0
    >>> legible_width('<svg width="40"></svg>') is None
    True
    """
    width = _VIEW_WIDTH.search(svg)
    sizes = [float(size) for size in _FONT_SIZE.findall(svg)]
    if width is None or not sizes:
        return None
    return float(width.group(1)) * smallest_px / min(sizes)


def step(text: str) -> str:
    """Return an action shown as text in a box, where it has no picture."""
    return f'<div class="cs-step"><code>{html.escape(text)}</code></div>'


def transition(shown: str) -> str:
    """Return an action (a picture or a :func:`step`) over an arrow to the next picture."""
    arrow = '<div class="cs-arrow" aria-hidden="true">&#x2192;</div>'
    return f'<div class="cs-transition">{shown}{arrow}</div>'


def rejected(rule: str) -> str:
    """Return the box that stands for the state after an action that ``rule`` rejects."""
    return f'<div class="cs-step cs-rejected">rejected<br/>rule {html.escape(rule)}</div>'


def figures_row(pictures: Sequence[str]) -> str:
    """Return ``pictures`` as one row that wraps on narrow pages."""
    return '<div class="cs-figures">' + "".join(pictures) + "</div>"
