"""Example blocks as cards: each example run against the game's engine, then shown.

A card holds the example's id and title, the rules it illustrates (linked),
whether it passed and the game's links; then the game's pictures; then the
example's keys as a list of facts.  Which keys there are, and what they mean,
is the example format of ``spec/README.md``, common to every game; a key of
the game's own that the card does not know is shown too, under its name.
"""

from __future__ import annotations

import json
from typing import Any

from docutils import nodes
from sphinx.util import logging

from specsite.interface import ExampleView, SiteGame
from specsite.markup import field, joined, literal
from specsite.rules import rule_ref

__all__ = ["card", "run"]

logger = logging.getLogger(__name__)

# The keys the card shows in its header or in a place of their own among the facts.
_KNOWN = frozenset(
    {
        *("id", "title", "rules", "state", "action", "actions", "event", "events", "result"),
        *("moves", "perft", "setup", "notation", "action-text", "error", "at", "json"),
        *("action-json", "note"),
    }
)


def run(game: SiteGame[Any], example: ExampleView) -> str | None:
    """Run ``example`` with the game's runner; return why it failed, or ``None`` if it passed."""
    try:
        game.run_example(example)
    except AssertionError as exc:
        return str(exc)
    except Exception as exc:
        return f"{example.id} ({example.path}:{example.line}): {type(exc).__name__}: {exc}"
    return None


def _header(game: SiteGame[Any], example: ExampleView, failure: str | None) -> nodes.container:
    """Return the card of ``example`` with its id, title, rules and whether it passed."""
    box = nodes.container(classes=["cs-example"], ids=[example.id.lower()])
    head = nodes.paragraph(classes=["cs-example-head"])
    head += nodes.strong(example.id, example.id)
    head += nodes.Text(" " + game.shown(example.get("title") or ""))
    box += head
    meta = nodes.paragraph(classes=["cs-example-meta"])
    meta += nodes.Text("Rules: ")
    meta.extend(joined(rule_ref(r) for r in example.rules))
    meta += nodes.Text(" · ")
    if failure is None:
        meta += nodes.inline("", "ran against the engine: passed", classes=["cs-ok"])
    else:
        meta += nodes.inline("", "FAILED: " + failure, classes=["cs-failed"])
    box += meta
    return box


def card(
    game: SiteGame[Any], example: ExampleView, failure: str | None, docname: str
) -> nodes.container:
    """Return the card of ``example`` on the page ``docname``; ``failure`` if it failed.

    A card whose pictures cannot be drawn (the example failed, so that its
    states may not be states at all) shows its header alone.
    """
    try:
        return _card(game, example, failure, docname)
    except Exception as exc:
        if failure is None:  # pragma: no cover - a passing example always renders
            raise
        logger.debug("example %s not drawn: %s", example.id, exc)
        return _header(game, example, failure)


def _card(
    game: SiteGame[Any], example: ExampleView, failure: str | None, docname: str
) -> nodes.container:
    box = _header(game, example, failure)
    links = game.links(example, docname) if failure is None else []
    if links:
        meta = box.children[-1]
        assert isinstance(meta, nodes.paragraph)
        meta += nodes.Text(" · ")
        meta.extend(joined(links, " · "))
    pictures = game.figures(example, failure)
    if pictures:
        box += nodes.raw("", pictures, format="html")
    box += _facts(game, example)
    return box


def _facts(game: SiteGame[Any], example: ExampleView) -> nodes.field_list:
    """Return the example's keys as a list of facts, in the order a reader follows them."""
    facts = nodes.field_list(classes=["cs-facts"])
    state = example.get("state")
    if state is not None:
        facts += field("State", literal(state))
    actions = (example.get("actions") or example.get("action") or "").split()
    if actions:
        facts += field(
            "Action" + ("s" if len(actions) > 1 else ""), *joined(literal(a) for a in actions)
        )
    for key, name in (("event", "Event"), ("events", "Events")):
        if example.get(key) is not None:
            facts += field(name, literal(example.get(key) or ""))
    if example.get("result") is not None:
        facts += field("Result", literal(example.get("result") or ""))
    if example.get("moves") is not None:
        moves = (example.get("moves") or "").split()
        facts += field(
            "Legal moves",
            *(
                [nodes.Text("none: the player has no move")]
                if moves == ["none"]
                else joined(literal(m) for m in moves)
            ),
        )
    if example.get("perft") is not None:
        facts += field(
            "Whole-roll counts",
            literal(example.get("perft") or ""),
            *_note(game.fact_note(example, "perft")),
        )
    for key, name in (("setup", "Setup"), ("notation", "Notation"), ("action-text", "Action text")):
        if example.get(key) is not None:
            facts += field(name, literal(example.get(key) or ""))
    for key in game.example_keys:
        value = example.get(key)
        if key not in _KNOWN and value is not None:
            facts += field(key[0].upper() + key[1:].replace("-", " "), literal(value))
    error = example.get("error")
    if error is not None:
        body: list[nodes.Node] = [nodes.Text("rejected under "), rule_ref(error)]
        at = example.get("at")
        if at is not None:
            body.append(nodes.Text(f", at character {at}"))
        message = game.message(example)
        if message is not None:
            body.append(nodes.literal_block(message, message, classes=["cs-message"]))
        facts += field("Error", *body)
    for key, name in (("json", "JSON"), ("action-json", "Action JSON")):
        value = example.get(key)
        if value is not None:
            pretty = json.dumps(json.loads(value), indent=1) if len(value) > 70 else value
            facts += field(name, nodes.literal_block(pretty, pretty, language="json"))
    if example.get("note") is not None:
        facts += field("Note", nodes.Text(game.shown(example.get("note") or "")))
    return facts


def _note(text: str) -> list[nodes.Node]:
    return [nodes.Text(text)] if text else []
