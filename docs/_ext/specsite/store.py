"""The state of one build: the games of the site, their specs, and what each page holds of them.

A Sphinx application hosts one game's spec or several (:class:`Site`, one per
call of :func:`specsite.setup_site`).  Each game owns the pages whose names
start with its ``PREFIX_pages`` setting (``finishline/``, say); a page
belongs to the game with the longest such start, and a game whose setting is
empty owns every page no other game claims.  The build environment keeps,
per game, the examples each page shows, the rules it anchors and the proofs
table rows it carries, and, per page, the failures found while reading it;
the records survive incremental and parallel builds (:func:`purge`,
:func:`merge`).
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Set
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.util import logging

from specsite.interface import ExampleT, SiteGame, SpecView

__all__ = [
    "Site",
    "merge",
    "purge",
    "record_failure",
    "records",
    "register",
    "resolve_links",
    "site_named",
    "site_of",
    "site_records",
    "sites",
]

#: What the build keeps for each game: page by page, or id by id.
_KINDS = ("examples", "rules", "proofs")


@dataclass
class Site(Generic[ExampleT]):
    """A game's spec on one Sphinx application."""

    #: The game: its spec reader, its example runner and its pictures.
    game: SiteGame[ExampleT]
    #: The prefix of the game's directives and configuration values (``cantstop``).
    prefix: str
    _specs: dict[str, SpecView[ExampleT]] = field(default_factory=dict, repr=False)

    def setting(self, app: Sphinx, name: str) -> Any:
        """Return the configuration value ``PREFIX_name``."""
        return getattr(app.config, f"{self.prefix}_{name}")

    def spec(self, app: Sphinx) -> SpecView[ExampleT]:
        """Return the spec, read once per build (``PREFIX_spec_dir``, or the game's own)."""
        root = self.setting(app, "spec_dir")
        path = None if root is None else Path(app.confdir, root).resolve()
        key = str(path)
        if key not in self._specs:
            self._specs[key] = self.game.load_spec(path)
        return self._specs[key]

    def pages(self, app: Sphinx) -> str:
        """Return how the names of the game's pages start (``PREFIX_pages``; ``""``: any page)."""
        return str(self.setting(app, "pages"))


_SITES: weakref.WeakKeyDictionary[Sphinx, dict[str, Site[Any]]] = weakref.WeakKeyDictionary()


def register(app: Sphinx, site: Site[Any]) -> bool:
    """Add ``site`` to the games of ``app``; return whether it is the first one."""
    games = _SITES.setdefault(app, {})
    if site.prefix in games:
        raise ValueError(f"a game with the prefix {site.prefix!r} is already on this site")
    games[site.prefix] = site
    return len(games) == 1


def sites(app: Sphinx) -> list[Site[Any]]:
    """Return the games of ``app``, in the order they were registered."""
    return list(_SITES.get(app, {}).values())


def site_of(app: Sphinx, docname: str | None = None) -> Site[Any] | None:
    """Return the game that owns the page ``docname``, or ``None`` if no game does.

    Without ``docname``, return the first game registered.
    """
    games = sites(app)
    if docname is None:
        return games[0] if games else None
    owners = [site for site in games if docname.startswith(site.pages(app))]
    return max(owners, key=lambda site: len(site.pages(app)), default=None)


def site_named(app: Sphinx, prefix: str) -> Site[Any]:
    """Return the game of ``app`` set up with ``prefix``."""
    return _SITES[app][prefix]


def records(env: BuildEnvironment) -> dict[str, Any]:
    """Return the records of the build: ``failures`` by page, and each game's records by prefix."""
    data: dict[str, Any] | None = getattr(env, "specsite_records", None)
    if data is None:
        data = {"failures": {}, "games": {}}
        env.specsite_records = data  # type: ignore[attr-defined]
    return data


def site_records(env: BuildEnvironment, prefix: str) -> dict[str, dict[str, Any]]:
    """Return the records of the game ``prefix``: examples shown, rules anchored, proofs rows."""
    games: dict[str, dict[str, dict[str, Any]]] = records(env)["games"]
    return games.setdefault(prefix, {kind: {} for kind in _KINDS})


def record_failure(env: BuildEnvironment, docname: str, message: str) -> None:
    """Note a failure found on the page ``docname``; the build then fails."""
    records(env)["failures"].setdefault(docname, []).append(message)


def purge(app: Sphinx, env: BuildEnvironment, docname: str) -> None:
    """Forget what the page ``docname`` held, before it is read again."""
    data = records(env)
    data["failures"].pop(docname, None)
    for game in data["games"].values():
        game["examples"].pop(docname, None)
        for kind in ("rules", "proofs"):
            game[kind] = {key: page for key, page in game[kind].items() if page != docname}


def merge(app: Sphinx, env: BuildEnvironment, docnames: Set[str], other: BuildEnvironment) -> None:
    """Take the records of ``docnames`` from a parallel reader's environment."""
    data, theirs = records(env), records(other)
    for docname in docnames:
        if docname in theirs["failures"]:
            data["failures"][docname] = theirs["failures"][docname]
    for prefix, game in theirs["games"].items():
        ours = site_records(env, prefix)
        for docname in docnames:
            if docname in game["examples"]:
                ours["examples"][docname] = game["examples"][docname]
        for kind in ("rules", "proofs"):
            ours[kind].update({key: page for key, page in game[kind].items() if page in docnames})


def resolve_links(
    app: Sphinx,
    doctree: nodes.document,
    docname: str,
    kind: str,
    attribute: str,
    missing: str,
    anchor: Callable[[str], str],
    text: Callable[[nodes.reference, str], str],
) -> None:
    """Point each link of the page ``docname`` that names a ``kind`` record at the page holding it.

    A link names the record in its ``attribute``; the records are those of the
    game that owns the page (:func:`site_records`), and the link goes to
    ``anchor(name)`` on the page that holds the record.  A link to a record on
    no page is logged as the warning ``missing`` (with the name) and becomes
    plain ``text(link, name)``.
    """
    site = site_of(app, docname)
    pages = {} if site is None else site_records(app.env, site.prefix)[kind]
    for ref in list(doctree.findall(nodes.reference)):
        name = ref.get(attribute)
        if name is None:
            continue
        page = pages.get(name)
        if page is None:
            logging.getLogger(__name__).warning(missing, name, location=ref)
            ref.replace_self(nodes.inline("", text(ref, name), classes=ref["classes"]))
            continue
        uri = "" if page == docname else app.builder.get_relative_uri(docname, page)
        ref["refuri"] = f"{uri}#{anchor(name)}"
