"""Rule pages: each rule heading anchored and indexed, and every rule id in the text a link to it.

A rule heading (``### R5.2 Placing``) gets the anchor ``rule-r5-2`` and an
index entry with the rule's title, so that the search lists the rule's page
first for its title words.  A rule id written in the text of any page (not in
code, titles or links) becomes a link, resolved once every page is read.
Only the ids of the spec's rules are anchored or linked, and a page's rule
ids are those of its own game: on a site with several games, ``R5.2`` links
to the rule of the game whose page it is written on.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from docutils import nodes
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment

from specsite.interface import RuleView
from specsite.store import resolve_links, site_records

__all__ = [
    "anchor_rules",
    "demote_glossary_entries",
    "has_rule_heading",
    "index_entry",
    "leading_rule",
    "link_rule_ids",
    "resolve_rule_links",
    "rule_anchor",
    "rule_ref",
]


_RULE_ID = re.compile(r"\b([A-Z]+\d+(?:\.\d+)*)\b")
_LEADING_ID = re.compile(r"^([A-Z]+\d+(?:\.\d+)*) ")

# Nodes whose text is never turned into rule links.
_NO_LINKS = (
    nodes.FixedTextElement,
    nodes.literal,
    nodes.reference,
    nodes.title,
    nodes.raw,
    nodes.comment,
    nodes.target,
)


def leading_rule(text: str) -> str | None:
    """Return the rule id that starts ``text`` (``R5.2 Placing``), or ``None``.

    >>> leading_rule("R5.2 Placing"), leading_rule("premises")
    ('R5.2', None)
    """
    found = _LEADING_ID.match(text)
    return found.group(1) if found else None


def rule_anchor(rule_id: str) -> str:
    """Return the anchor of a rule's heading.

    >>> rule_anchor("R5.2")
    'rule-r5-2'
    """
    return "rule-" + rule_id.lower().replace(".", "-")


def rule_ref(rule_id: str) -> nodes.reference:
    """Return a link to the rule ``rule_id``, whose page is filled in once every page is read."""
    ref = nodes.reference("", rule_id, internal=True, refuri="#", classes=["cs-rule"])
    ref["cs_rule"] = rule_id
    return ref


def index_entry(rules: Mapping[str, RuleView], rule_id: str) -> str:
    """Return the index entry of a rule: its title, and its id if a chapter has that title.

    Sphinx's search ranks an index entry higher the closer it is to the words
    searched, so a rule whose title repeats a chapter's (R16.4 Won columns,
    chapter R9 Won columns) gets its id added, and the chapter comes first.
    """
    title = rules[rule_id].title
    chapters = {r.title for r in rules.values() if r.is_chapter}
    if not rules[rule_id].is_chapter and title in chapters:
        return f"{title} ({rule_id})"
    return title


def anchor_rules(
    env: BuildEnvironment, document: nodes.document, rules: Mapping[str, RuleView], prefix: str
) -> list[tuple[str, nodes.section]]:
    """Anchor and index each rule heading of ``document``, a page of the game ``prefix``.

    Return each rule id and its section.
    """
    anchored = site_records(env, prefix)["rules"]
    found = []
    for section in list(document.findall(nodes.section)):
        title = section.next_node(nodes.title)
        rule_id = leading_rule(title.astext()) if title is not None else None
        if title is None or title.parent is not section or rule_id is None or rule_id not in rules:
            continue
        anchor = rule_anchor(rule_id)
        section["ids"].insert(0, anchor)
        document.ids[anchor] = section
        anchored[rule_id] = env.docname
        # An index entry with the rule's title, so that the search
        # shows the rule's page first for its title words.
        entry = addnodes.index(
            entries=[("single", index_entry(rules, rule_id), anchor, "main", None)]
        )
        section.insert(section.index(title) + 1, entry)
        found.append((rule_id, section))
    return found


def demote_glossary_entries(document: nodes.document) -> None:
    """Make the index entries of glossary terms secondary.

    The search then lists a rule's page before the definition of a word in
    the rule's title.
    """
    for index in document.findall(addnodes.index):
        if isinstance(index.parent, nodes.term):
            index["entries"] = [
                (kind, value, target, "", key) for kind, value, target, _, key in index["entries"]
            ]


def has_rule_heading(document: nodes.document) -> bool:
    """Return whether some section title of ``document`` starts with a rule id."""
    titles = (s.next_node(nodes.title) for s in document.findall(nodes.section))
    return any(leading_rule(title.astext()) for title in titles if title is not None)


def link_rule_ids(document: nodes.document, known: set[str]) -> None:
    """Turn each id of ``known`` written in the text of ``document`` into a rule link."""
    for text in list(document.findall(nodes.Text)):
        parent = text.parent
        if parent is None or any(isinstance(n, _NO_LINKS) for n in _ancestors(parent)):
            continue
        value = str(text)
        pieces: list[nodes.Node] = []
        last = 0
        for match in _RULE_ID.finditer(value):
            if match.group(1) not in known:
                continue
            pieces.append(nodes.Text(value[last : match.start()]))
            pieces.append(rule_ref(match.group(1)))
            last = match.end()
        if pieces:
            pieces.append(nodes.Text(value[last:]))
            parent.replace(text, [p for p in pieces if not isinstance(p, str) or p])


def _ancestors(node: nodes.Node) -> Iterable[nodes.Node]:
    current: nodes.Node | None = node
    while current is not None:
        yield current
        current = current.parent


def resolve_rule_links(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """Point each rule link of the page ``docname`` at the page of its game holding the rule."""
    resolve_links(
        app,
        doctree,
        docname,
        "rules",
        "cs_rule",
        "rule %s is not on any page of the site",
        anchor=rule_anchor,
        text=lambda _ref, rule_id: rule_id,
    )
