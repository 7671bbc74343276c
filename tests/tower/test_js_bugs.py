"""The seeded bugs of the JavaScript port (``bugs.json``): each is caught, and by its own rule.

The port takes ``--bug NAME`` to read one rule wrongly.  Each bug is run
over the ``moves`` and ``apply`` requests of the parity test's first seeds
(``SEEDS``, a subset of the parity run kept small for time; the other
requests read texts, which no bug touches): at least one answer must change, and
every answer it changes must involve the bug's rule, that is, name it among
the engine's rule tags of the request (``tower.tags``: ``action_rules`` for
``apply``, ``choice_rules`` for ``moves``).  Whether the conformance suite's
diagnosis names each bug's rule first is the study's question
(``tower/spec/conformance/study.json``).
"""

from __future__ import annotations

import json
import subprocess
from functools import cache
from typing import Any

import pytest

from dicekit.spec import load_game_spec
from tests.tower.test_js_parity import NODE, PORT, Requests, _comparable, build
from tower import GAME, parse_action, parse_state
from tower.tags import action_rules, choice_rules

BUGS: list[dict[str, str]] = json.loads((PORT.parent / "bugs.json").read_text("utf-8"))["bugs"]
SEEDS = range(1)

pytestmark = pytest.mark.skipif(NODE is None, reason="the JavaScript port needs Node.js")


@cache
def requests() -> Requests:
    """Return the ``moves`` and ``apply`` requests of the parity run's ``SEEDS``, built once."""
    every = build(SEEDS)[0]
    kept = Requests()
    for request, expected in zip(every.lines, every.expected, strict=True):
        if request["op"] in ("moves", "apply"):
            kept.add({k: v for k, v in request.items() if k != "seq"}, expected)
    return kept


def answers(*options: str) -> list[dict[str, Any]]:
    """Return the port's answers to :func:`requests`, run with ``options``."""
    assert NODE is not None
    lines = "".join(json.dumps(r) + "\n" for r in requests().lines)
    done = subprocess.run(
        [NODE, str(PORT), *options], input=lines, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return [_comparable(json.loads(line)) for line in done.stdout.splitlines()]


def tags(request: dict[str, Any]) -> tuple[str, ...]:
    """Return the engine's rule tags of a ``moves`` or ``apply`` request."""
    if request["op"] == "moves":
        return choice_rules(parse_state(request["state"]))
    return action_rules(parse_state(request["state"]), parse_action(request["action"]))


def test_the_bug_list_names_rules_of_the_spec() -> None:
    """bugs.json: distinct names, each with a rule of the spec and a one-line description."""
    rules = load_game_spec(GAME).rules
    assert len(BUGS) >= 10
    assert len({b["name"] for b in BUGS}) == len(BUGS)
    for bug in BUGS:
        assert bug["rule"] in rules, bug
        assert not rules[bug["rule"]].is_chapter, bug
        assert bug["description"], bug
        assert "\n" not in bug["description"], bug


def test_an_unknown_bug_is_a_usage_error() -> None:
    """--bug with a name bugs.json does not list: status 2 and one line naming the choices."""
    assert NODE is not None
    done = subprocess.run(
        [NODE, str(PORT), "--bug", "nope"], input="", capture_output=True, text=True, check=False
    )
    assert done.returncode == 2
    assert done.stderr.startswith("port.js: error: ")
    assert "dice-added" in done.stderr


@pytest.mark.parametrize("bug", BUGS, ids=[b["name"] for b in BUGS])
def test_each_bug_changes_answers_that_involve_its_rule(bug: dict[str, str]) -> None:
    """The bug changes some answer, and every answer it changes names its rule among its tags."""
    bad = answers("--bug", bug["name"])
    assert len(bad) == len(clean())
    changed = [r for r, x, y in zip(requests().lines, clean(), bad, strict=True) if x != y]
    assert changed, f"{bug['name']} changes no answer"
    missed = [r for r in changed if bug["rule"] not in tags(r)]
    assert missed == [], (bug["name"], missed[:3])


@cache
def clean() -> tuple[dict[str, Any], ...]:
    """Return the answers of the port without a bug (the parity test holds them to the engine)."""
    return tuple(answers())
