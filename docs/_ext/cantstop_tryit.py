"""Sphinx extension: the "Try it" page, a board that plays by the JavaScript port.

The directive ``cantstop-tryit`` writes the page's controls and the data the
page needs (the spec's examples with a state, and the page of each rule id) as
JSON.  The rules themselves run in the reader's browser: the page loads the
modules of the JavaScript port (``examples/ports/javascript``), which are
copied into the built site, unchanged, when the build finishes.

Browsers refuse to load ES modules from ``file://``, so the build also writes
the same modules as one classic script, ``_static/tryit/port-bundle.js``: each
module's text, unchanged but for its ``import`` and ``export`` lines, inside a
function whose result is the module's exports.  The page's loader
(``_static/tryit/load.js``) imports the modules over HTTP and loads the bundle
from ``file://``; both give the page the same four namespaces.

:func:`tryit_link` writes the links to the page that open the board at a
position; the spec examples and the questions page use it.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from docutils import nodes
from specsite.rules import rule_anchor
from sphinx.application import Sphinx
from sphinx.errors import ExtensionError
from sphinx.util.docutils import SphinxDirective

from cantstop.notation import parse_action, parse_state
from cantstop.spec import Example, load_spec

#: The JavaScript port, one source for the engine of the page.
PORT = Path(__file__).resolve().parents[2] / "examples" / "ports" / "javascript"

#: The modules the page uses; those they import are copied with them, the
#: Node-only protocol file (``port.js``, with the shared ``lineproto.js``) is not.
ENTRIES = ("rules.js", "notation.js", "board.js", "explain.js")

#: The page's name (its docname), and where the built site keeps its scripts.
PAGE = "tryit"
STATIC = "_static/tryit"

_IMPORT_ALL = re.compile(r"^import \* as (\w+) from '\./([\w-]+\.js)';[ \t]*$", re.MULTILINE)
_IMPORT_NAMES = re.compile(r"^import \{([^}]*)\} from '\./([\w-]+\.js)';[ \t]*$", re.MULTILINE)
_EXPORT_LIST = re.compile(r"^export \{([^}]*)\};[ \t]*$", re.MULTILINE)
_EXPORT_DECLARATION = re.compile(r"^export (?=(?:async function|function|class|const|let) )", re.M)
_DECLARED = re.compile(r"(?:async function|function|class|const|let) (\w+)")
_ANY_IMPORT_EXPORT = re.compile(r"^\s*(import|export)\b", re.MULTILINE)


def fragment(state: str, actions: Sequence[str] = (), explain: str | None = None) -> str:
    """Return the page's URL fragment for a start ``state`` and ``actions`` played from it.

    The fragment holds ``s=`` (the state in notation), ``a=`` (the actions in
    action notation) and ``x=`` (an action to explain without playing it), with
    ``_`` for a space; every character of the notation may stand in a fragment.

    >>> fragment("-/- - 0r", ["r3455", "7+10"], "stop")
    's=-/-_-_0r&a=r3455_7+10&x=stop'
    """
    parts = [f"s={state.replace(' ', '_')}"]
    if actions:
        parts.append("a=" + "_".join(actions))
    if explain is not None:
        parts.append(f"x={explain}")
    return "&".join(parts)


def tryit_link(
    docname: str, state: str, actions: Sequence[str] = (), explain: str | None = None
) -> nodes.raw:
    """Return the "Try it" link, from the page ``docname``, that opens the board at ``state``."""
    href = "../" * docname.count("/") + f"{PAGE}.html#" + fragment(state, actions, explain)
    return nodes.raw(
        "",
        f'<a class="cs-tryit-link" href="{html.escape(href)}">Try it on the board</a>',
        format="html",
    )


def example_link(example: Example) -> tuple[str, list[str], str | None] | None:
    """Return the state, actions and refused action that open ``example`` on the board.

    ``None`` for an example without a state the page can show.  An example
    whose last action is rejected opens before that action, which the page
    then explains.
    """
    state = example.get("state")
    if state is None:
        return None
    try:
        parse_state(state)
    except ValueError:
        return None
    actions = (example.get("actions") or example.get("action") or "").split()
    try:
        for action in actions:
            parse_action(action)
    except ValueError:
        return None
    if example.get("error") is not None and actions:
        return state, actions[:-1], actions[-1]
    return state, actions, None


def _page_data(docname: str) -> dict[str, Any]:
    """Return what the page needs to know of the spec: its examples and its rules' pages."""
    spec = load_spec()
    up = "../" * docname.count("/")
    rules = {
        rule.id: f"{up}{rule.path.removesuffix('.md')}.html#{rule_anchor(rule.id)}"
        for rule in spec.rules.values()
    }
    examples = []
    for example in spec.examples:
        found = example_link(example)
        if found is None:
            continue
        state, actions, refused = found
        examples.append(
            {
                "id": example.id,
                "title": _source_names(example.get("title") or ""),
                "chapter": example.path.removesuffix(".md"),
                "state": state,
                "actions": actions,
                "explain": refused,
            }
        )
    return {"rules": rules, "examples": examples, "static": f"{up}{STATIC}/"}


def _source_names(text: str) -> str:
    from cantstop_spec import source_names

    return source_names(text)


#: The page's controls, which ``_static/tryit/app.js`` fills in.
CONTROLS = Path(__file__).with_name("tryit.html")


class TryIt(SphinxDirective):
    """The board of the "Try it" page: its controls, its data and its scripts."""

    def run(self) -> list[nodes.Node]:
        """Return the raw HTML of the page's board."""
        data = _page_data(self.env.docname)
        # "</" cannot end the script element early: JSON may escape the slash.
        payload = json.dumps(data, separators=(",", ":")).replace("</", "<\\/")
        static = data["static"]
        markup = (
            CONTROLS.read_text(encoding="utf-8")
            + f'<script type="application/json" id="cs-tryit-data">{payload}</script>\n'
            + f'<script src="{static}app.js"></script>\n'
            + f'<script src="{static}load.js"></script>\n'
        )
        return [nodes.raw("", markup, format="html")]


def module_closure(entries: Sequence[str] = ENTRIES, root: Path = PORT) -> list[str]:
    """Return the modules ``entries`` need, each after those it imports."""
    order: list[str] = []

    def visit(name: str, path: tuple[str, ...]) -> None:
        if name in order:
            return
        if name in path:
            raise ExtensionError(f"{root / name}: the modules import each other in a cycle")
        text = (root / name).read_text(encoding="utf-8")
        imported = [m.group(2) for m in _IMPORT_ALL.finditer(text)]
        imported += [m.group(2) for m in _IMPORT_NAMES.finditer(text)]
        for dependency in imported:
            visit(dependency, (*path, name))
        order.append(name)

    for entry in entries:
        visit(entry, ())
    return order


def _bindings(names: str, *, export: bool) -> str:
    """Return ``a, b: c`` for the names of an import or export list (``x as y``)."""
    out = []
    for item in (part.strip() for part in names.split(",")):
        if not item:
            continue
        words = item.split()
        if len(words) == 1:
            out.append(words[0])
        elif len(words) == 3 and words[1] == "as":
            inner, outer = words[0], words[2]
            out.append(f"{outer}: {inner}" if export else f"{inner}: {outer}")
        else:
            raise ExtensionError(f"cannot read the import or export list {names!r}")
    return ", ".join(out)


def classic_module(name: str, text: str) -> str:
    """Return the module ``name`` as the body of a function that returns its exports.

    Only the import and export forms the port uses are read: ``import * as X``,
    ``import { a, b as c }``, ``export { ... };`` and ``export`` before a
    declaration.  Any other import or export stops the build, so that the
    bundle never differs silently from the modules.
    """
    exported: list[str] = []

    def import_all(match: re.Match[str]) -> str:
        return f"const {match.group(1)} = __modules[{json.dumps(match.group(2))}];"

    def import_names(match: re.Match[str]) -> str:
        names = _bindings(match.group(1), export=False)
        return f"const {{ {names} }} = __modules[{json.dumps(match.group(2))}];"

    def export_list(match: re.Match[str]) -> str:
        exported.append(_bindings(match.group(1), export=True))
        return ""

    body = _IMPORT_ALL.sub(import_all, text)
    body = _IMPORT_NAMES.sub(import_names, body)
    body = _EXPORT_LIST.sub(export_list, body)
    for match in _EXPORT_DECLARATION.finditer(body):
        declared = _DECLARED.match(body, match.end())
        if declared is not None:
            exported.append(declared.group(1))
    body = _EXPORT_DECLARATION.sub("", body)
    left = _ANY_IMPORT_EXPORT.search(body)
    if left is not None:
        line = body[: left.start()].count("\n") + 1
        raise ExtensionError(f"{name}: line {line}: an import or export the bundle cannot read")
    names = ", ".join(n for n in exported if n)
    return (
        f"__modules[{json.dumps(name)}] = (function () {{\n"
        f"{body.rstrip()}\n"
        f"return {{ {names} }};\n"
        f"}})();\n"
    )


def bundle(root: Path = PORT) -> str:
    """Return the port's modules as one classic script that defines ``cantstopPort``."""
    names = module_closure(root=root)
    parts = [
        "// The JavaScript port of examples/ports/javascript as one classic script, for pages\n"
        "// opened from file://, where browsers load no ES modules. Written by the build from\n"
        f"// {', '.join(names)}: each module unchanged but for its import and export lines.\n",
        "var cantstopPort = (function () {\n'use strict';\nconst __modules = {};\n",
    ]
    for name in names:
        parts.append(f"// ---- {name}\n")
        parts.append(classic_module(name, (root / name).read_text(encoding="utf-8")))
    entries = ", ".join(f"{n.removesuffix('.js')}: __modules[{json.dumps(n)}]" for n in ENTRIES)
    parts.append(f"return {{ {entries} }};\n}})();\n")
    return "".join(parts)


def _copy_port(app: Sphinx, exception: Exception | None) -> None:
    """Copy the port's modules, and write their bundle, into the built site."""
    if exception is not None or app.builder.format != "html":
        return
    target = Path(app.outdir) / STATIC / "port"
    target.mkdir(parents=True, exist_ok=True)
    for name in module_closure():
        (target / name).write_bytes((PORT / name).read_bytes())
    (Path(app.outdir) / STATIC / "port-bundle.js").write_text(bundle(), encoding="utf-8")


def setup(app: Sphinx) -> dict[str, Any]:
    """Register the directive and the copying of the port; return the extension's metadata."""
    app.add_directive("cantstop-tryit", TryIt)
    app.connect("build-finished", _copy_port)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
