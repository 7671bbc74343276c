"""specsite: a game's rules spec on a Sphinx site, whatever the game.

The rules pages of a site include the spec's Markdown files themselves; this
package runs and shows every example block of them, anchors and indexes the
rule headings, links every rule id, lists under each rule the proof checks
that cite it, and fails the build when an example fails or a part of the
spec is missing from the site.  It imports no game: what depends on the game
is asked of a :class:`~specsite.interface.SiteGame` (its spec reader, its
example runner, its pictures and links), passed to :func:`setup_site` by
the game's own extension (``cantstop_spec`` for Can't Stop).  A site may
carry several games, each on pages of its own.

- :mod:`specsite.interface`: what a game provides;
- :mod:`specsite.store`: the game of the site, its spec, and the records of each page;
- :mod:`specsite.reading`: reading a page that holds the spec, and the check of the whole site;
- :mod:`specsite.cards`: an example block as a card;
- :mod:`specsite.rules`: rule anchors, index entries and links;
- :mod:`specsite.proofs`: the proofs results table and the checks under each rule;
- :mod:`specsite.markup`: small builders of nodes, tables and picture rows;
- :mod:`specsite.site`: registering it all with Sphinx.
"""

from specsite.interface import ExampleView, RuleView, SiteGame, SpecView
from specsite.site import setup_site

__all__ = ["ExampleView", "RuleView", "SiteGame", "SpecView", "setup_site"]
