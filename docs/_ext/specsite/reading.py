"""Reading a page that holds the spec: its examples run and shown, its rules anchored and linked.

The rules pages include the Markdown files of the spec themselves.  Each
fenced block whose info string is ``example`` is replaced, while the page is
read, by the card of that example as the game's spec reader reads it
(:mod:`specsite.cards`); every example is run first, and a failing example is
reported with its id and location.  Rule headings are anchored, listed with
the proof checks that cite them (:mod:`specsite.proofs`), and rule ids in the
text become links (:mod:`specsite.rules`).  A page is read with the spec of
the game that owns it (:func:`specsite.store.site_of`).  Once every page is
read, the build fails if an example failed or if the site leaves out an
example or a rule of any of its games.
"""

from __future__ import annotations

import re
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.transforms import SphinxTransform
from sphinx.util import logging

from specsite.cards import card, run
from specsite.proofs import add_proofs, checks_by_rule
from specsite.rules import anchor_rules, demote_glossary_entries, link_rule_ids
from specsite.store import record_failure, records, site_of, site_records, sites

__all__ = ["SpecPage", "check_site"]

logger = logging.getLogger(__name__)

_EXAMPLE_LINE = re.compile(r"^\s*id:\s*(E\d{3})\s*$", re.MULTILINE)


class SpecPage(SphinxTransform):
    """Run and show every ``example`` block; anchor rule headings; link rule ids."""

    default_priority = 400

    def apply(self, **kwargs: Any) -> None:
        """Transform the document being read."""
        docname = self.env.docname
        site = site_of(self.app, docname)
        if site is None:
            return
        spec = site.spec(self.app)
        shown = site_records(self.env, site.prefix)["examples"]
        by_id = {ex.id: ex for ex in spec.examples}
        for block in list(self.document.findall(nodes.literal_block)):
            if block.get("language") != "example":
                continue
            match = _EXAMPLE_LINE.search(block.astext())
            example = by_id.get(match.group(1)) if match else None
            if example is None:
                message = "an example block without an id that the spec reader knows"
                logger.error(message, location=block)
                record_failure(self.env, docname, message)
                continue
            failure = run(site.game, example)
            if failure is not None:
                logger.error("spec example failed: %s", failure, location=block)
                record_failure(self.env, docname, failure)
            shown.setdefault(docname, []).append(example.id)
            rendered = card(site.game, example, failure, docname)
            self.document.note_explicit_target(rendered)
            block.replace_self(rendered)
        citing = checks_by_rule(self.app, self.env, self.document, site)
        for rule_id, section in anchor_rules(self.env, self.document, spec.rules, site.prefix):
            if rule_id in citing:
                add_proofs(section, citing[rule_id])
        link_rule_ids(self.document, set(spec.rules))
        demote_glossary_entries(self.document)


def check_site(app: Sphinx, env: BuildEnvironment) -> None:
    """Fail the build when an example failed or the site leaves out part of a game's spec.

    A failure is reported with the game that owns its page (the first game
    for a page that no game owns).
    """
    games = sites(app)
    problems: dict[str, list[str]] = {site.prefix: [] for site in games}
    failures = records(env)["failures"]
    for docname in sorted(failures):
        owner = site_of(app, docname) or games[0]
        problems[owner.prefix].extend(failures[docname])
    for site in games:
        spec = site.spec(app)
        kept = site_records(env, site.prefix)
        shown = {ex for ids in kept["examples"].values() for ex in ids}
        missing = [f"{ex.id} ({ex.path})" for ex in spec.examples if ex.id not in shown]
        if missing:
            problems[site.prefix].append("examples not on any page: " + ", ".join(missing))
        unanchored = [r for r in spec.rules if r not in kept["rules"]]
        if unanchored:
            problems[site.prefix].append(
                "rules without a heading on any page: " + ", ".join(unanchored)
            )
        if problems[site.prefix]:
            # An error message and a failing exit status, without -W too.
            lines = "\n  ".join(problems[site.prefix])
            logger.error("%s spec check failed:\n  %s", site.prefix, lines)
            app.statuscode = 1
