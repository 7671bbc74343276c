"""Sphinx extension: references to the engine's names resolved under the package, as documented.

The engine's objects are documented as ``cantstop.State`` and so on, while
type hints and module docstrings name them by their module
(``cantstop.state.State.apply``, or ``State.apply`` inside ``cantstop.state``).
A reference Sphinx cannot resolve is tried again under the package name.
"""

from __future__ import annotations

from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment

__all__ = ["package_alias", "setup"]


def package_alias(
    app: Sphinx, env: BuildEnvironment, node: Any, contnode: nodes.Element
) -> nodes.Element | None:
    """Resolve a name the way it is documented: under the package, when it is exported there."""
    if node.get("refdomain") != "py":
        return None
    import cantstop

    target = str(node["reftarget"])
    module = str(node.get("py:module") or "")
    names = [target, f"{module}.{target}"] if module else [target]
    for name in names:
        parts = name.split(".")
        for start, part in enumerate(parts):
            if part in cantstop.__all__:
                prefix = parts[:start]
                alias = ".".join(["cantstop", *parts[start:]])
                if (not prefix or prefix[0] == "cantstop") and alias != target:
                    found: nodes.Element | None = env.domains["py"].resolve_xref(
                        env, node["refdoc"], app.builder, node["reftype"], alias, node, contnode
                    )
                    if found is not None:
                        return found
                break
    return None


def setup(app: Sphinx) -> dict[str, Any]:
    """Connect the alias to unresolved references; return the extension's metadata."""
    app.connect("missing-reference", package_alias)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
