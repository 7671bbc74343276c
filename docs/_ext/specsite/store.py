"""The state of one build: the game of the site, its spec, and what each page holds of it.

Each Sphinx application hosts one game's spec (:class:`Site`, registered by
:func:`specsite.setup_site`).  The build environment keeps, per page, the
examples it shows, the rules it anchors, the failures found while reading
it, and the proofs table rows it carries; the records survive incremental
and parallel builds (:func:`purge`, :func:`merge`).
"""

from __future__ import annotations

import weakref
from collections.abc import Set
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic

from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment

from specsite.interface import ExampleT, SiteGame, SpecView

__all__ = ["Site", "merge", "purge", "record_failure", "records", "register", "site_of"]


@dataclass
class Site(Generic[ExampleT]):
    """A game's spec on one Sphinx application."""

    #: The game: its spec reader, its example runner and its pictures.
    game: SiteGame[ExampleT]
    #: The prefix of the site's directives and configuration values (``cantstop``).
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


_SITES: weakref.WeakKeyDictionary[Sphinx, Site[Any]] = weakref.WeakKeyDictionary()


def register(app: Sphinx, site: Site[Any]) -> None:
    """Make ``site`` the spec of ``app``."""
    _SITES[app] = site


def site_of(app: Sphinx) -> Site[Any]:
    """Return the site registered for ``app``."""
    return _SITES[app]


def records(env: BuildEnvironment) -> dict[str, dict[str, Any]]:
    """Return the per-page records: examples shown, rules anchored, failures, proofs rows."""
    data: dict[str, dict[str, Any]] | None = getattr(env, "specsite_records", None)
    if data is None:
        data = {"examples": {}, "rules": {}, "failures": {}, "proofs": {}}
        env.specsite_records = data  # type: ignore[attr-defined]
    return data


def record_failure(env: BuildEnvironment, docname: str, message: str) -> None:
    """Note a failure found on the page ``docname``; the build then fails."""
    records(env)["failures"].setdefault(docname, []).append(message)


def purge(app: Sphinx, env: BuildEnvironment, docname: str) -> None:
    """Forget what the page ``docname`` held, before it is read again."""
    data = records(env)
    data["examples"].pop(docname, None)
    data["failures"].pop(docname, None)
    data["rules"] = {r: d for r, d in data["rules"].items() if d != docname}
    data["proofs"] = {a: d for a, d in data["proofs"].items() if d != docname}


def merge(app: Sphinx, env: BuildEnvironment, docnames: Set[str], other: BuildEnvironment) -> None:
    """Take the records of ``docnames`` from a parallel reader's environment."""
    data, theirs = records(env), records(other)
    for key in ("examples", "failures"):
        for docname in docnames:
            if docname in theirs[key]:
                data[key][docname] = theirs[key][docname]
    for key in ("rules", "proofs"):
        data[key].update({k: d for k, d in theirs[key].items() if d in docnames})
