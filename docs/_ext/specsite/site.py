"""Registering a game's spec with Sphinx: the reading, the directives, the links and the checks.

A site may carry several games: each call of :func:`setup_site` adds one,
with its own prefix and its own pages.
"""

from __future__ import annotations

from typing import Any, ClassVar

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective

from specsite.interface import SiteGame
from specsite.markup import (
    Cell,
    depart_details,
    details,
    literal,
    skip_details,
    table,
    visit_details,
)
from specsite.proofs import ProofResults, resolve_proof_links
from specsite.reading import SpecPage, check_site
from specsite.rules import resolve_rule_links
from specsite.store import Site, merge, purge, register, site_named

__all__ = ["ExampleKeys", "setup_site"]


class ExampleKeys(SphinxDirective):
    """The table of the game's example keys: every key an example may hold, and its meaning."""

    #: The prefix of the game whose keys the table lists (set for each game's directive).
    prefix: ClassVar[str] = ""

    def run(self) -> list[nodes.Node]:
        """Return the table."""
        keys = site_named(self.env.app, self.prefix).game.example_keys
        rows: list[list[Cell]] = [[literal(key), meaning] for key, meaning in keys.items()]
        return [table(["Key", "Meaning"], rows)]


def setup_site(app: Sphinx, game: SiteGame[Any], prefix: str, pages: str = "") -> None:
    """Put the spec of ``game`` on the site that ``app`` builds.

    ``prefix`` names what the site's pages and configuration use:

    - the configuration values ``PREFIX_spec_dir`` (the spec directory,
      relative to the configuration directory; ``None`` for the game's own
      spec), ``PREFIX_proof_results`` (the proofs results file) and
      ``PREFIX_pages`` (how the names of the game's pages start, ``pages``
      unless the configuration says otherwise; ``""`` for every page that
      no other game of the site claims);
    - the directives ``PREFIX-example-keys`` (the table of example keys) and
      ``PREFIX-proof-results`` (the table of the proofs results).

    Every page of the game is then read as :class:`specsite.reading.SpecPage`
    says, rule and proof links are resolved to the game's own pages when a
    page is written, and the build fails when an example failed or the site
    leaves out part of the spec.  A site may hold several games, each set up
    with its own prefix and pages.
    """
    first = register(app, Site(game, prefix))
    app.add_config_value(f"{prefix}_spec_dir", None, "env", types=(str, type(None)))
    app.add_config_value(f"{prefix}_proof_results", "../proofs/results.json", "env", types=(str,))
    app.add_config_value(f"{prefix}_pages", pages, "env", types=(str,))
    keys = type(f"ExampleKeys_{prefix}", (ExampleKeys,), {"prefix": prefix})
    results = type(f"ProofResults_{prefix}", (ProofResults,), {"prefix": prefix})
    app.add_directive(f"{prefix}-example-keys", keys)
    app.add_directive(f"{prefix}-proof-results", results)
    if not first:
        return
    app.add_transform(SpecPage)
    app.add_node(
        details,
        html=(visit_details, depart_details),
        text=(skip_details, None),
        latex=(skip_details, None),
        man=(skip_details, None),
        texinfo=(skip_details, None),
    )
    app.connect("env-purge-doc", purge)
    app.connect("env-merge-info", merge)
    app.connect("env-check-consistency", check_site)
    app.connect("doctree-resolved", resolve_rule_links)
    app.connect("doctree-resolved", resolve_proof_links)
