"""Sphinx extension: the spec's examples, run against the engine and drawn; generated tables.

The rules pages include the Markdown files of ``spec/`` themselves.  Each
fenced block whose info string is ``example`` is replaced, while the page is
read, by a rendering of that example as :func:`cantstop.spec.load_spec` reads
it: the state drawn by :mod:`cantstop.svg`, each roll drawn as four dice, and
the expected outcome (legal moves, bust, rejection or the new state, drawn).
Every example is run by :func:`cantstop.spec.run_example` first; a failing
example is reported with its id and location and fails the build.

Rule headings (``### R5.2 Placing``) get the anchor ``rule-r5-2``, and rule
ids written in the text of any page become links to them.  After reading, the
build checks that every example and every rule of the spec is on the site.

The proofs name the rules they cover (the ``rules`` of each check in
``proofs/results.json``); the reverse is added here.  Under each rule that
some check names, the rule page lists those checks, property by property,
with their results, each linked to the property's rows in the proofs table
(anchor ``proof-`` and the property's name; each row also has the anchor
``check-`` and the check's name).

Directives: ``cantstop-board`` (a state drawn from its notation),
``cantstop-example-keys`` (the keys of an example block),
``cantstop-proof-results`` (the table of ``proofs/results.json``),
``cantstop-single-column-chances`` and ``cantstop-three-column-table`` (the
exact odds of :mod:`cantstop.odds`).
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Callable, Iterable, Sequence, Set
from fractions import Fraction
from pathlib import Path
from typing import Any, ClassVar

from cantstop_tryit import example_link, tryit_link
from docutils import nodes
from docutils.parsers.rst import directives
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.transforms import SphinxTransform
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

from cantstop.actions import Action, Roll
from cantstop.errors import CantStopError, IllegalAction
from cantstop.game import State
from cantstop.notation import format_action, format_state, parse_action, parse_state
from cantstop.spec import Example, ExampleFailure, Spec, load_spec, run_example
from cantstop.svg import dice_svg, state_svg

logger = logging.getLogger(__name__)

_RULE_ID = re.compile(r"\b([RN]\d+(?:\.\d+)?)\b")
_HEADING_ID = re.compile(r"^([RN]\d+(?:\.\d+)?) ")
_EXAMPLE_LINE = re.compile(r"^\s*id:\s*(E\d{3})\s*$", re.MULTILINE)

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


#: The rules sources by the number of their file, and the name the site gives them.
SOURCES: dict[str, str] = {"000": "the write-up", "001": "the rules guide", "004": "the FAQ"}
_SOURCE_NUMBER = re.compile(r"\b([Ss])eed (\d{3})\b")


def source_names(text: str) -> str:
    """Replace a source cited by number (``seed 000``) with its name (``the write-up``).

    The spec cites the sources by name; a few example titles, which the
    conformance vectors copy word for word, still cite them by number.
    """

    def name(match: re.Match[str]) -> str:
        found = SOURCES.get(match.group(2), match.group(0))
        return found[0].upper() + found[1:] if match.group(1) == "S" else found

    return _SOURCE_NUMBER.sub(name, text)


# -- state kept in the build environment -------------------------------------------


def _data(env: BuildEnvironment) -> dict[str, dict[str, Any]]:
    """Per-document records: examples shown, rules anchored, failures found."""
    data: dict[str, dict[str, Any]] | None = getattr(env, "cantstop_spec_data", None)
    if data is None:
        data = {"examples": {}, "rules": {}, "failures": {}, "proofs": {}}
        env.cantstop_spec_data = data  # type: ignore[attr-defined]
    return data


def _purge(app: Sphinx, env: BuildEnvironment, docname: str) -> None:
    data = _data(env)
    data["examples"].pop(docname, None)
    data["failures"].pop(docname, None)
    data["rules"] = {r: d for r, d in data["rules"].items() if d != docname}
    data["proofs"] = {a: d for a, d in data["proofs"].items() if d != docname}


def _merge(app: Sphinx, env: BuildEnvironment, docnames: Set[str], other: BuildEnvironment) -> None:
    data, theirs = _data(env), _data(other)
    for key in ("examples", "failures"):
        for docname in docnames:
            if docname in theirs[key]:
                data[key][docname] = theirs[key][docname]
    for key in ("rules", "proofs"):
        data[key].update({k: d for k, d in theirs[key].items() if d in docnames})


_SPECS: dict[str, Spec] = {}


def _spec(app: Sphinx) -> Spec:
    """Load the spec once per build (``cantstop_spec_dir``, or the package's spec)."""
    root = app.config.cantstop_spec_dir
    path = None if root is None else Path(app.confdir, root).resolve()
    key = str(path)
    if key not in _SPECS:
        _SPECS[key] = load_spec(path)
    return _SPECS[key]


# -- reading: examples, rule anchors, rule links -----------------------------------


class SpecExamples(SphinxTransform):
    """Run and render every ``example`` block; anchor rule headings; link rule ids."""

    default_priority = 400

    def apply(self, **kwargs: Any) -> None:
        """Transform the document being read."""
        spec = _spec(self.app)
        data = _data(self.env)
        docname = self.env.docname
        by_id = {ex.id: ex for ex in spec.examples}
        for block in list(self.document.findall(nodes.literal_block)):
            if block.get("language") != "example":
                continue
            match = _EXAMPLE_LINE.search(block.astext())
            example = by_id.get(match.group(1)) if match else None
            if example is None:
                message = "an example block without an id that the spec reader knows"
                logger.error(message, location=block)
                data["failures"].setdefault(docname, []).append(message)
                continue
            failure = _run(example)
            if failure is not None:
                logger.error("spec example failed: %s", failure, location=block)
                data["failures"].setdefault(docname, []).append(failure)
            data["examples"].setdefault(docname, []).append(example.id)
            try:
                rendered = _render(example, failure, docname)
            except Exception as exc:
                if failure is None:  # pragma: no cover - a passing example always renders
                    raise
                logger.debug("example %s not drawn: %s", example.id, exc)
                rendered = _render_header(example, failure)
            self.document.note_explicit_target(rendered)
            block.replace_self(rendered)
        citing = _checks_by_rule(self)
        for section in list(self.document.findall(nodes.section)):
            title = section.next_node(nodes.title)
            heading = _HEADING_ID.match(title.astext()) if title is not None else None
            if (
                title is not None
                and title.parent is section
                and heading
                and heading.group(1) in spec.rules
            ):
                anchor = _anchor(heading.group(1))
                section["ids"].insert(0, anchor)
                self.document.ids[anchor] = section
                data["rules"][heading.group(1)] = docname
                # An index entry with the rule's title, so that the search
                # shows the rule's page first for its title words.
                entry = addnodes.index(
                    entries=[("single", _index_entry(spec, heading.group(1)), anchor, "main", None)]
                )
                section.insert(section.index(title) + 1, entry)
                if heading.group(1) in citing:
                    _add_proofs(section, citing[heading.group(1)])
        _link_rule_ids(self.document, set(spec.rules))
        # A glossary term's index entry is secondary: the search lists the
        # rule's page before the definition of a word in its title.
        for index in self.document.findall(addnodes.index):
            if isinstance(index.parent, nodes.term):
                index["entries"] = [
                    (kind, value, target, "", key)
                    for kind, value, target, _, key in index["entries"]
                ]


def _index_entry(spec: Spec, rule_id: str) -> str:
    """Return the index entry of a rule: its title, and its id if a chapter has that title.

    Sphinx's search ranks an index entry higher the closer it is to the words
    searched, so a rule whose title repeats a chapter's (R16.4 Won columns,
    chapter R9 Won columns) gets its id added, and the chapter comes first.
    """
    title = spec.rules[rule_id].title
    chapters = {r.title for r in spec.rules.values() if r.is_chapter}
    if not spec.rules[rule_id].is_chapter and title in chapters:
        return f"{title} ({rule_id})"
    return title


def _results_path(app: Sphinx) -> Path:
    return Path(app.confdir, app.config.cantstop_proof_results).resolve()


def _checks_by_rule(transform: SphinxTransform) -> dict[str, dict[str, list[dict[str, Any]]]]:
    """Return, for each rule id, the checks of the results file naming it, by property.

    Empty when there is no results file or the document has no rule heading;
    a document with rule headings depends on the results file.
    """
    titles = (s.next_node(nodes.title) for s in transform.document.findall(nodes.section))
    if not any(_HEADING_ID.match(title.astext()) for title in titles if title is not None):
        return {}
    path = _results_path(transform.app)
    transform.env.note_dependency(str(path))
    if not path.is_file():
        return {}
    try:
        data = _read_results(path)
    except ValueError as exc:
        logger.error("cannot read the proofs results: %s", exc)
        return {}
    citing: dict[str, dict[str, list[dict[str, Any]]]] = {}
    for check in data["checks"]:
        for rule in _check_rules(check):
            citing.setdefault(rule, {}).setdefault(check["property"], []).append(check)
    return citing


def _check_rules(check: dict[str, Any]) -> list[str]:
    """Return the rules a check names: its ``rules``, else the rule its property starts with."""
    rules = check.get("rules")
    if rules is not None:
        return list(rules)
    leading = _HEADING_ID.match(str(check["property"]))
    return [leading.group(1)] if leading else []


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def _proof_anchor(prop: str) -> str:
    return "proof-" + _slug(prop)


def _check_anchor(name: str) -> str:
    return "check-" + _slug(name)


def _summary(checks: Sequence[dict[str, Any]]) -> str:
    """Count the results of ``checks`` by group: ``induction 54 proved; mutation 1 caught``."""
    counts: dict[tuple[str, str], int] = {}
    for check in checks:
        key = (str(check["group"]), str(check["result"]))
        counts[key] = counts.get(key, 0) + 1
    parts = []
    for (group, result), count in sorted(
        counts.items(), key=lambda item: (_GROUPS.index(item[0][0]), item[0][1])
    ):
        failed = " (FAILED)" if _is_failure({"group": group, "result": result}) else ""
        parts.append(f"{group} {count} {result}{failed}")
    return "; ".join(parts)


class details(nodes.General, nodes.Element):
    """A block that the page shows folded, with its ``summary`` as the line to unfold it."""


def _visit_details(translator: Any, node: details) -> None:
    translator.body.append(translator.starttag(node, "details"))
    translator.body.append(f"<summary>{html.escape(node['summary'])}</summary>\n")


def _depart_details(translator: Any, node: details) -> None:
    translator.body.append("</details>\n")


def _skip(translator: Any, node: details) -> None:
    """Write nothing for a folded block in formats without one."""
    raise nodes.SkipNode


def _add_proofs(section: nodes.section, by_property: dict[str, list[dict[str, Any]]]) -> None:
    """Put the folded list of proof checks citing the section's rule before its sub-rules."""
    items = nodes.bullet_list()
    checks = 0
    for prop, cited in by_property.items():
        ref = nodes.reference("", prop, internal=True, refuri="#", classes=["cs-proof"])
        ref["cs_proof"] = _proof_anchor(prop)
        items += nodes.list_item(
            "", nodes.paragraph("", "", ref, nodes.Text(": " + _summary(cited)))
        )
        checks += len(cited)
    properties = len(by_property)
    box = details(classes=["cs-proofs"])
    box["summary"] = (
        f"Proof checks that cite this rule: {properties} "
        f"{'property' if properties == 1 else 'properties'}, {checks} "
        f"{'check' if checks == 1 else 'checks'}"
    )
    box += items
    first = next((i for i, child in enumerate(section) if isinstance(child, nodes.section)), None)
    if first is None:
        section += box
    else:
        section.insert(first, box)


def _run(example: Example) -> str | None:
    try:
        run_example(example)
    except ExampleFailure as exc:
        return str(exc)
    except Exception as exc:
        return f"{example.id} ({example.path}:{example.line}): {type(exc).__name__}: {exc}"
    return None


def _anchor(rule_id: str) -> str:
    return "rule-" + rule_id.lower().replace(".", "-")


def _rule_ref(rule_id: str) -> nodes.reference:
    ref = nodes.reference("", rule_id, internal=True, refuri="#", classes=["cs-rule"])
    ref["cs_rule"] = rule_id
    return ref


def _link_rule_ids(document: nodes.document, known: set[str]) -> None:
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
            pieces.append(_rule_ref(match.group(1)))
            last = match.end()
        if pieces:
            pieces.append(nodes.Text(value[last:]))
            parent.replace(text, [p for p in pieces if not isinstance(p, str) or p])


def _ancestors(node: nodes.Node) -> Iterable[nodes.Node]:
    current: nodes.Node | None = node
    while current is not None:
        yield current
        current = current.parent


def _resolve_rule_links(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    rules = _data(app.env)["rules"]
    proofs = _data(app.env)["proofs"]
    for ref in list(doctree.findall(nodes.reference)):
        anchor = ref.get("cs_proof")
        if anchor is not None:
            page = proofs.get(anchor)
            if page is None:
                logger.warning("the proofs table has no row %s on any page", anchor, location=ref)
                ref.replace_self(nodes.inline("", ref.astext(), classes=ref["classes"]))
                continue
            uri = "" if page == docname else app.builder.get_relative_uri(docname, page)
            ref["refuri"] = f"{uri}#{anchor}"
            continue
        rule_id = ref.get("cs_rule")
        if rule_id is None:
            continue
        target = rules.get(rule_id)
        if target is None:
            logger.warning("rule %s is not on any page of the site", rule_id, location=ref)
            ref.replace_self(nodes.inline("", rule_id, classes=ref["classes"]))
            continue
        uri = "" if target == docname else app.builder.get_relative_uri(docname, target)
        ref["refuri"] = f"{uri}#{_anchor(rule_id)}"


def _check_site(app: Sphinx, env: BuildEnvironment) -> None:
    """Fail the build when an example failed or the site leaves out part of the spec."""
    data = _data(env)
    problems = [msg for docname in sorted(data["failures"]) for msg in data["failures"][docname]]
    spec = _spec(app)
    shown = {ex for ids in data["examples"].values() for ex in ids}
    missing = [f"{ex.id} ({ex.path})" for ex in spec.examples if ex.id not in shown]
    if missing:
        problems.append("examples not on any page: " + ", ".join(missing))
    unanchored = [r for r in spec.rules if r not in data["rules"]]
    if unanchored:
        problems.append("rules without a heading on any page: " + ", ".join(unanchored))
    if problems:
        # An error message and a failing exit status, without -W too.
        logger.error("cantstop spec check failed:\n  %s", "\n  ".join(problems))
        app.statuscode = 1


# -- rendering one example ---------------------------------------------------------


def _figure(caption: str, svg: str, kind: str) -> str:
    below = f"<figcaption>{html.escape(caption)}</figcaption>" if caption else ""
    return f'<figure class="cs-fig cs-{kind}">{svg}{below}</figure>'


def _step(text: str) -> str:
    return f'<div class="cs-step"><code>{html.escape(text)}</code></div>'


def _transition(shown: str) -> str:
    """Return an action (a roll's dice or a move) over an arrow to the next picture."""
    arrow = '<div class="cs-arrow" aria-hidden="true">&#x2192;</div>'
    return f'<div class="cs-transition">{shown}{arrow}</div>'


def _literal(text: str) -> nodes.literal:
    return nodes.literal(text, text)


def _field(name: str, *body: nodes.Node) -> nodes.field:
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


def _joined(items: Iterable[nodes.Node], sep: str = " ") -> list[nodes.Node]:
    out: list[nodes.Node] = []
    for item in items:
        if out:
            out.append(nodes.Text(sep))
        out.append(item)
    return out


def _engine_message(example: Example, actions: Sequence[Action]) -> str | None:
    """Return the message the engine gives for an example that expects an error."""
    try:
        if example.get("notation") is not None:
            parse_state(example.get("notation") or "")
        elif example.get("action-text") is not None:
            parse_action(example.get("action-text") or "")
        elif example.get("state") is not None:
            state = parse_state(example.get("state") or "")
            for action in actions:
                state = state.apply(action)
    except CantStopError as exc:
        return str(exc)
    return None


def _render_header(example: Example, failure: str | None) -> nodes.container:
    """Return the card of ``example`` with its id, title, rules and whether it passed."""
    box = nodes.container(classes=["cs-example"], ids=[example.id.lower()])
    head = nodes.paragraph(classes=["cs-example-head"])
    head += nodes.strong(example.id, example.id)
    head += nodes.Text(" " + source_names(example.get("title") or ""))
    box += head
    meta = nodes.paragraph(classes=["cs-example-meta"])
    meta += nodes.Text("Rules: ")
    meta.extend(_joined(_rule_ref(r) for r in example.rules))
    meta += nodes.Text(" · ")
    if failure is None:
        meta += nodes.inline("", "ran against the engine: passed", classes=["cs-ok"])
    else:
        meta += nodes.inline("", "FAILED: " + failure, classes=["cs-failed"])
    box += meta
    return box


def _render(example: Example, failure: str | None, docname: str) -> nodes.container:
    """Return the nodes that show ``example``: header, pictures, expected outcome, "Try it" link."""
    box = _render_header(example, failure)
    found = example_link(example) if failure is None else None
    if found is not None:
        meta = box.children[-1]
        assert isinstance(meta, nodes.paragraph)
        meta += nodes.Text(" · ")
        meta += tryit_link(docname, *found)
    text = example.get("actions") or example.get("action") or ""
    actions: list[Action] = [parse_action(a) for a in text.split()]
    error = example.get("error")
    pictures: list[str] = []
    state_text = example.get("state")
    if state_text is not None:
        before = parse_state(state_text)
        state: State | None = before
        pictures.append(_figure("Before" if actions else "The state", state_svg(before), "state"))
        for index, action in enumerate(actions):
            # Each action stands over the arrow that leads to the next state,
            # so that two boards and a roll fit on one line of the page.
            if isinstance(action, Roll):
                shown = _figure(f"Roll {format_action(action)}", dice_svg(action.dice), "dice")
            else:
                shown = _step(format_action(action))
            pictures.append(_transition(shown))
            last = index == len(actions) - 1
            if state is not None and not (last and error is not None):
                state = state.apply(action) if failure is None else None
        if actions and error is None and state is not None:
            event = (example.get("events") or example.get("event") or "").split()
            caption = f"After ({event[-1]})" if event else "After"
            pictures.append(_figure(caption, state_svg(state), "state"))
        elif error is not None and actions:
            pictures.append(
                f'<div class="cs-step cs-rejected">rejected<br/>rule {html.escape(error)}</div>'
            )
    if pictures:
        box += nodes.raw(
            "", '<div class="cs-figures">' + "".join(pictures) + "</div>", format="html"
        )

    facts = nodes.field_list(classes=["cs-facts"])
    if state_text is not None:
        facts += _field("State", _literal(state_text))
    if actions:
        facts += _field(
            "Action" + ("s" if len(actions) > 1 else ""),
            *_joined(_literal(a) for a in text.split()),
        )
    for key, name in (("event", "Event"), ("events", "Events")):
        if example.get(key) is not None:
            facts += _field(name, _literal(example.get(key) or ""))
    if example.get("result") is not None:
        facts += _field("Result", _literal(example.get("result") or ""))
    if example.get("moves") is not None:
        moves = (example.get("moves") or "").split()
        facts += _field(
            "Legal moves",
            *(
                [nodes.Text("none: the player has no move")]
                if moves == ["none"]
                else _joined(_literal(m) for m in moves)
            ),
        )
    if example.get("perft") is not None:
        counts = dict(part.split("=") for part in (example.get("perft") or "").split())
        busts = int(counts.get("busts", "0"))
        chance = Fraction(busts, 1296)
        facts += _field(
            "Whole-roll counts",
            _literal(example.get("perft") or ""),
            nodes.Text(f" (bust chance {chance} = {float(chance):.2%})"),
        )
    for key, name in (("setup", "Setup"), ("notation", "Notation"), ("action-text", "Action text")):
        if example.get(key) is not None:
            facts += _field(name, _literal(example.get(key) or ""))
    if error is not None:
        body: list[nodes.Node] = [nodes.Text("rejected under "), _rule_ref(error)]
        at = example.get("at")
        if at is not None:
            body.append(nodes.Text(f", at character {at}"))
        message = _engine_message(example, actions)
        if message is not None:
            body.append(nodes.literal_block(message, message, classes=["cs-message"]))
        facts += _field("Error", *body)
    for key, name in (("json", "JSON"), ("action-json", "Action JSON")):
        value = example.get(key)
        if value is not None:
            pretty = json.dumps(json.loads(value), indent=1) if len(value) > 70 else value
            facts += _field(name, nodes.literal_block(pretty, pretty, language="json"))
    if example.get("note") is not None:
        facts += _field("Note", nodes.Text(source_names(example.get("note") or "")))
    box += facts
    return box


# -- generated tables ----------------------------------------------------------------


_Cell = str | nodes.Node


def _table(headers: Sequence[str], rows: Sequence[Sequence[_Cell]]) -> nodes.table:
    table = nodes.table(classes=["cs-table"])
    group = nodes.tgroup(cols=len(headers))
    table += group
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
    return table


def _percent(p: Fraction) -> str:
    return f"{float(p) * 100:.2f} %"


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
        rows: list[list[_Cell]] = [
            [str(column), _literal(str(p)), _percent(p)] for column, p in sorted(chances.items())
        ]
        return [_table(["Sum", "Probability (exact)", "Percent"], rows)]


class ThreeColumnTable(SphinxDirective):
    """The table of :func:`cantstop.odds.three_column_table`, safest choice first."""

    def run(self) -> list[nodes.Node]:
        """Return the table, computed now."""
        table = _odds(self).three_column_table()
        ranked = sorted(table.items(), key=lambda item: (-item[1], item[0]))
        rows: list[list[_Cell]] = [
            [
                str(rank),
                " ".join(map(str, columns)),
                _literal(str(1 - p)),
                _percent(1 - p),
                _literal(str(p)),
            ]
            for rank, (columns, p) in enumerate(ranked, start=1)
        ]
        headers = ["#", "Columns", "Bust (exact)", "Bust", "At least one column (exact)"]
        return [_table(headers, rows)]


class ExampleKeys(SphinxDirective):
    """The table of :data:`cantstop.spec.EXAMPLE_KEYS`: every key an example may hold."""

    def run(self) -> list[nodes.Node]:
        """Return the table."""
        from cantstop.spec import EXAMPLE_KEYS

        rows: list[list[_Cell]] = [
            [_literal(key), meaning] for key, meaning in EXAMPLE_KEYS.items()
        ]
        return [_table(["Key", "Meaning"], rows)]


class Board(SphinxDirective):
    """Draw the state given in notation as the directive's argument."""

    required_arguments = 1
    final_argument_whitespace = True

    def run(self) -> list[nodes.Node]:
        """Return the picture, or an error naming what is wrong with the notation."""
        try:
            state = parse_state(self.arguments[0])
        except CantStopError as exc:
            raise self.error(f"cannot draw {self.arguments[0]!r}: {exc}") from None
        figure = _figure("", state_svg(state), "state")
        return [nodes.raw("", f'<div class="cs-figures">{figure}</div>', format="html")]


def _yes_no(argument: str) -> str:
    return str(directives.choice(argument, ("yes", "no")))


class ExplainedPosition(SphinxDirective):
    """Draw a position, run ``cantstop explain`` on it, and check the answer against the engine.

    The argument is a state in notation; ``:action:`` an action in notation.
    The options ``:legal:`` (``yes`` or ``no``), ``:rule:`` (the rule that
    refuses the action), ``:moves:`` (the legal moves of the dice explained,
    ``none`` for a bust) and ``:shows:`` (kinds of statement the explanation
    must hold) state what the answer claims: each is checked against the
    engine (:meth:`State.apply <cantstop.State.apply>` and
    :meth:`~cantstop.State.legal_moves`) and the explanation while the page
    is read, and a claim that does not hold fails the build.
    """

    required_arguments = 1
    final_argument_whitespace = True
    option_spec: ClassVar[dict[str, Callable[[str], Any]]] = {
        "action": directives.unchanged_required,
        "legal": _yes_no,
        "rule": directives.unchanged_required,
        "moves": directives.unchanged_required,
        "shows": directives.unchanged_required,
    }

    def run(self) -> list[nodes.Node]:
        """Return the pictures, the command and its explanation."""
        from cantstop import explain

        text = self.arguments[0]
        try:
            state = parse_state(text)
            action = parse_action(self.options["action"]) if "action" in self.options else None
            found = explain(state, action)
        except CantStopError as exc:
            raise self.error(f"cannot explain {text!r}: {exc}") from None
        problems = self._check(state, action, found)
        if problems:
            message = f"the answer about {text!r} does not hold: " + "; ".join(problems)
            logger.error(message, location=self.get_location())
            data = _data(self.env)
            data["failures"].setdefault(self.env.docname, []).append(message)
        box = nodes.container(classes=["cs-position"])
        box += nodes.raw("", self._pictures(state, action, found), format="html")
        command = f"cantstop explain '{text}'" + (
            "" if action is None else f" {format_action(action)}"
        )
        box += nodes.literal_block(command, command, language="sh", classes=["cs-command"])
        try_it = nodes.paragraph(classes=["cs-tryit-line"])
        try_it += tryit_link(
            self.env.docname,
            format_state(state),
            explain=None if action is None else format_action(action),
        )
        box += try_it
        lines = nodes.container(classes=["cs-explain"])
        for statement in found.statements:
            line = nodes.paragraph(classes=["cs-line", f"cs-depth-{statement.depth}"])
            line += nodes.Text(statement.text[:-1] + " (")
            line.extend(_joined((_rule_ref(r) for r in statement.rules), ", "))
            line += nodes.Text(").")
            lines += line
        box += lines
        return [box]

    def _check(self, state: State, action: Action | None, found: Any) -> list[str]:
        """Return what the options claim that the engine or the explanation contradicts."""
        problems = []
        refused = None
        if action is not None:
            try:
                state.apply(action)
            except IllegalAction as exc:
                refused = exc.rule
        legal = self.options.get("legal")
        if legal is not None and (legal == "yes") != (refused is None):
            problems.append(f"the engine says the action is {'not ' if refused else ''}legal")
        rule = self.options.get("rule")
        if rule is not None and rule != refused:
            problems.append(f"the engine refuses it under {refused}, not {rule}")
        if (refused is None) != (found.legal is not False):
            problems.append("the explanation and the engine disagree on the action")
        moves = self.options.get("moves")
        if moves is not None:
            dice_state = state
            if isinstance(action, Roll) and refused is None:
                dice_state = state.step(action).state
            engine = [format_action(m) for m in dice_state.legal_moves()]
            wanted = [] if moves.split() == ["none"] else moves.split()
            if engine != wanted:
                problems.append(f"the legal moves are {' '.join(engine) or 'none'}")
            if found.moves is None or [format_action(m) for m in found.moves] != wanted:
                problems.append("the explanation derives other moves")
        kinds = {s.kind for s in found.statements}
        for kind in self.options.get("shows", "").split():
            if kind not in kinds:
                problems.append(f"the explanation has no statement {kind}")
        return problems

    def _pictures(self, state: State, action: Action | None, found: Any) -> str:
        pictures = [_figure("", state_svg(state), "state")]
        if action is not None:
            if isinstance(action, Roll):
                shown = _figure(f"Roll {format_action(action)}", dice_svg(action.dice), "dice")
            else:
                shown = _step(format_action(action))
            pictures.append(_transition(shown))
            if found.legal:
                pictures.append(_figure("", state_svg(state.apply(action)), "state"))
            else:
                rule = found.statements[1].rules[0]
                pictures.append(
                    f'<div class="cs-step cs-rejected">rejected<br/>rule {html.escape(rule)}</div>'
                )
        return '<div class="cs-figures">' + "".join(pictures) + "</div>"


_GROUPS = ("induction", "non-vacuity", "mutation", "bmc", "link")
_RESULTS = ("proved", "counterexample", "unknown", "witness", "caught", "agree")
_FIELDS = {
    "name": str,
    "group": str,
    "property": str,
    "config": str,
    "result": str,
    "detail": str,
}


def _is_failure(check: dict[str, Any]) -> bool:
    """Whether a check's result is a failure, as the proofs results format defines it."""
    group, result = str(check["group"]), str(check["result"])
    if group in ("induction", "link"):
        return result in ("counterexample", "unknown")
    if group == "mutation":
        return result != "caught"
    return False


def _read_results(path: Path) -> dict[str, Any]:
    """Read and check the proofs results file; raise ``ValueError`` naming what is wrong."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise ValueError(f"{path} is not JSON: {exc}") from None
    if not isinstance(data, dict):
        raise ValueError(f"{path}: the top level must be an object")
    for key in ("z3_version", "generated_by"):
        if not isinstance(data.get(key), str):
            raise ValueError(f"{path}: {key!r} must be a string")
    checks = data.get("checks")
    if not isinstance(checks, list):
        raise ValueError(f"{path}: 'checks' must be a list")
    for index, check in enumerate(checks):
        where = f"{path}: checks[{index}]"
        if not isinstance(check, dict):
            raise ValueError(f"{where} must be an object")
        for key, kind in _FIELDS.items():
            if not isinstance(check.get(key), kind):
                raise ValueError(f"{where}: {key!r} must be a string")
        if check.get("transition") is not None and not isinstance(check["transition"], str):
            raise ValueError(f"{where}: 'transition' must be a string or null")
        seconds = check.get("seconds")
        if not isinstance(seconds, int | float) or isinstance(seconds, bool):
            raise ValueError(f"{where}: 'seconds' must be a number")
        if check["group"] not in _GROUPS:
            raise ValueError(f"{where}: unknown group {check['group']!r}")
        if check["result"] not in _RESULTS:
            raise ValueError(f"{where}: unknown result {check['result']!r}")
        rules = check.get("rules")
        if rules is not None and (
            not isinstance(rules, list) or not all(isinstance(r, str) for r in rules)
        ):
            raise ValueError(f"{where}: 'rules' must be a list of rule ids")
    return data


class ProofResults(SphinxDirective):
    """The table of the latest proofs run, read from ``cantstop_proof_results``."""

    def run(self) -> list[nodes.Node]:
        """Return the results table, or a note that no results file was found."""
        path = _results_path(self.env.app)
        self.env.note_dependency(str(path))
        try:
            shown = path.relative_to(Path(self.env.app.confdir).resolve().parent).as_posix()
        except ValueError:
            shown = str(path)
        if not path.is_file():
            note = nodes.admonition(classes=["warning"])
            note += nodes.title("", "No results yet")
            note += nodes.paragraph(
                "",
                "",
                nodes.Text("No results file was found at "),
                _literal(shown),
                nodes.Text(" when this site was built. Run "),
                _literal("python -m proofs --json proofs/results.json"),
                nodes.Text(" and build the site again to see the table."),
            )
            return [note]
        try:
            data = _read_results(path)
        except ValueError as exc:
            raise self.error(f"cannot read the proofs results: {exc}") from None
        checks = data["checks"]
        failures = [c for c in checks if _is_failure(c)]
        total = sum(float(c["seconds"]) for c in checks)
        out: list[nodes.Node] = [
            nodes.paragraph(
                "",
                "",
                nodes.Text(
                    f"{len(checks)} checks with z3 {data['z3_version']}, "
                    f"{total:.1f} s in all; {len(failures)} failed. Generated by "
                ),
                _literal(data["generated_by"]),
                nodes.Text("."),
            )
        ]
        if failures:
            warn = nodes.admonition(classes=["danger"])
            warn += nodes.title("", "Failed checks")
            warn += nodes.paragraph("", ", ".join(c["name"] for c in failures))
            out.append(warn)
        rows: list[list[_Cell]] = []
        ids: list[tuple[str, bool]] = []
        seen: set[str] = set()
        proofs = _data(self.env)["proofs"]
        for check in checks:
            status = "FAILED" if _is_failure(check) else "ok"
            rows.append(
                [
                    check["group"],
                    _literal(check["name"]),
                    check["property"],
                    check["transition"] or "",
                    check["config"],
                    f"{check['result']} ({status})",
                    " ".join(_check_rules(check)),
                    f"{float(check['seconds']):.2f}",
                    check["detail"],
                ]
            )
            first = check["property"] not in seen
            seen.add(check["property"])
            ids.append((_check_anchor(check["name"]), first))
        headers = [
            "Group",
            "Check",
            "Property",
            "Transition",
            "Config",
            "Result",
            "Rules",
            "Seconds",
            "Detail",
        ]
        table = _table(headers, rows)
        table["classes"].append("cs-proofs-table")
        body = list(table.findall(nodes.row))[1:]
        for row, (anchor, first), check in zip(body, ids, checks, strict=True):
            # The row is the check's; the first row of a property carries the
            # property's anchor on its Property cell.
            row["ids"].append(anchor)
            proofs[anchor] = self.env.docname
            cell = row.children[2]
            if first and isinstance(cell, nodes.Element):
                cell["ids"].append(_proof_anchor(check["property"]))
                proofs[_proof_anchor(check["property"])] = self.env.docname
        out.append(table)
        return out


def _package_alias(
    app: Sphinx, env: BuildEnvironment, node: Any, contnode: nodes.Element
) -> nodes.Element | None:
    """Resolve a name the way it is documented: under the package, when it is exported there.

    The engine's objects are documented as ``cantstop.State`` and so on, while
    type hints and module docstrings name them by their module
    (``cantstop.game.State.apply``, or ``State.apply`` inside ``cantstop.game``).
    """
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
    """Register the transform, the directives and the build checks."""
    app.add_config_value("cantstop_spec_dir", None, "env", types=(str, type(None)))
    app.add_config_value("cantstop_proof_results", "../proofs/results.json", "env", types=(str,))
    app.add_transform(SpecExamples)
    app.add_node(
        details,
        html=(_visit_details, _depart_details),
        text=(_skip, None),
        latex=(_skip, None),
        man=(_skip, None),
        texinfo=(_skip, None),
    )
    app.add_directive("cantstop-board", Board)
    app.add_directive("cantstop-explain", ExplainedPosition)
    app.add_directive("cantstop-example-keys", ExampleKeys)
    app.add_directive("cantstop-proof-results", ProofResults)
    app.add_directive("cantstop-single-column-chances", SingleColumnChances)
    app.add_directive("cantstop-three-column-table", ThreeColumnTable)
    app.connect("env-purge-doc", _purge)
    app.connect("env-merge-info", _merge)
    app.connect("env-check-consistency", _check_site)
    app.connect("doctree-resolved", _resolve_rule_links)
    app.connect("missing-reference", _package_alias)
    return {
        "version": "1",
        "env_version": 1,
        "parallel_read_safe": True,
        "parallel_write_safe": True,
    }
