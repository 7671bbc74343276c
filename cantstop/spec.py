"""Read the rules spec (``spec/``) and run its examples against the engine.

The spec is Markdown.  A rule is a heading whose text starts with its id
(``### R5.2 Placing a marker``); a chapter is a heading with a one-part id
(``## R5 Playing one sum``).  An example is a fenced block whose info string is
``example``, holding ``key: value`` lines; :data:`EXAMPLE_KEYS` lists the keys.
This module is the one reader of that format: the tests, the docs and the
conformance export all go through it.
"""

from __future__ import annotations

import json
import re
import shlex
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from cantstop.actions import Action, InvalidActionValue
from cantstop.errors import IllegalAction, InvalidRules, NotationError
from cantstop.game import Event, State, new_game, perft
from cantstop.jsonform import action_from_json, action_to_json, state_from_json, state_to_json
from cantstop.notation import format_action, format_state, parse_action, parse_state
from cantstop.rules import Rules, Variant

__all__ = [
    "EXAMPLE_KEYS",
    "Example",
    "ExampleFailure",
    "Rule",
    "Spec",
    "load_spec",
    "parse_setup",
    "run_example",
    "spec_dir",
]

#: The keys an example block may hold, and what each means.
EXAMPLE_KEYS: Mapping[str, str] = {
    "id": "stable id, E followed by three digits; never reused",
    "title": "one line saying what the example shows",
    "rules": "the ids of the rules it illustrates, separated by spaces",
    "state": "the starting state, in state notation",
    "action": "one action to apply, in action notation",
    "actions": "several actions to apply in turn, separated by spaces",
    "event": "the event the (last) action causes: rolled, busted, moved, stopped or won",
    "events": "the event of each action, separated by spaces",
    "result": "the state after the action(s), in state notation",
    "moves": "the exact legal moves of the state (after the actions, if any), or 'none'",
    "error": "the rule id that rejects the action, notation or setup",
    "perft": "whole-roll counts of the state: 'choices=N busts=M'",
    "json": "the JSON form (N3.1) of the state after the action(s), on one line",
    "action-json": "the JSON form (N3.2) of the example's one action, on one line",
    "setup": "a game setup that must be rejected: key=value words for Rules and first_player",
    "notation": "state text that the parser must reject",
    "action-text": "action text that the parser must reject",
    "at": "with notation or action-text: the index of the character the error points at",
    "note": "one line of explanation shown with the example",
}

_RULE_HEADING = re.compile(r"^(#{2,4}) (R\d+(?:\.\d+)?|N\d+(?:\.\d+)?) (.+?)\s*$")
_EXAMPLE_ID = re.compile(r"^E\d{3}$")
_EVENTS = {event.value: event for event in Event}


class ExampleFailure(AssertionError):
    """An example whose expectation the engine does not meet."""


@dataclass(frozen=True)
class Rule:
    """One numbered rule (or chapter) of the spec."""

    id: str
    title: str
    text: str
    path: str
    line: int

    @property
    def is_chapter(self) -> bool:
        """Whether this is a chapter heading (``R5``) rather than a rule (``R5.2``).

        >>> spec = load_spec()
        >>> spec.rules['R5'].is_chapter, spec.rules['R5.2'].is_chapter
        (True, False)
        """
        return "." not in self.id


@dataclass(frozen=True)
class Example:
    """One example block: its id, the rules it illustrates and its fields."""

    id: str
    rules: tuple[str, ...]
    fields: Mapping[str, str]
    path: str
    line: int
    #: The rule under whose heading the block stands.
    section: str | None = None

    def get(self, key: str) -> str | None:
        """Return the value of ``key``, or ``None`` if the example lacks it.

        >>> example = next(e for e in load_spec().examples if e.id == 'E008')
        >>> example.get('action'), example.get('error')
        ('r3455', None)
        """
        return self.fields.get(key)


@dataclass(frozen=True)
class Spec:
    """The whole spec: its rules in order and its examples in order."""

    rules: dict[str, Rule] = field(default_factory=dict)
    examples: list[Example] = field(default_factory=list)

    def examples_for(self, rule_id: str) -> list[Example]:
        """Return the examples that name ``rule_id`` (or a rule inside that chapter).

        >>> 'E008' in [e.id for e in load_spec().examples_for('R2')]
        True
        """
        return [
            ex
            for ex in self.examples
            if any(r == rule_id or r.startswith(rule_id + ".") for r in ex.rules)
        ]


def spec_dir() -> Path:
    """Return the spec directory: beside the package in a checkout, or inside it when installed."""
    here = Path(__file__).resolve().parent
    for candidate in (here.parent / "spec", here / "_spec"):
        if (candidate / "rules").is_dir():
            return candidate
    raise FileNotFoundError("the spec directory (spec/rules) was not found")


def load_spec(root: Path | None = None) -> Spec:
    """Read every Markdown file of the spec, in file-name order, and check its form.

    >>> spec = load_spec()
    >>> spec.rules['R5.2'].title
    'Placing'
    >>> spec.examples[0].id, spec.examples[0].path
    ('E001', 'rules/01-equipment.md')
    """
    root = spec_dir() if root is None else root
    spec = Spec()
    files = sorted((root / "rules").glob("*.md")) + sorted(
        p for p in root.glob("*.md") if p.name != "README.md"
    )
    for path in files:
        _read_file(path, root, spec)
    _check(spec)
    return spec


def _read_file(path: Path, root: Path, spec: Spec) -> None:
    rel = path.relative_to(root).as_posix()
    lines = path.read_text(encoding="utf-8").splitlines()
    current: Rule | None = None
    body: list[str] = []
    i = 0

    def close() -> None:
        if current is not None:
            spec.rules[current.id] = Rule(
                current.id, current.title, "\n".join(body).strip(), current.path, current.line
            )

    while i < len(lines):
        line = lines[i]
        heading = _RULE_HEADING.match(line)
        if heading:
            close()
            rule_id = heading.group(2)
            if rule_id in spec.rules:
                raise ValueError(f"{rel}:{i + 1}: rule {rule_id} is defined twice")
            current = Rule(rule_id, heading.group(3), "", rel, i + 1)
            body = []
        elif line.strip() == "```example":
            start = i + 1
            block: list[str] = []
            i += 1
            while i < len(lines) and lines[i].strip() != "```":
                block.append(lines[i])
                i += 1
            if i == len(lines):
                raise ValueError(f"{rel}:{start}: example block is not closed")
            spec.examples.append(_parse_example(block, rel, start, current))
        elif current is not None:
            body.append(line)
        i += 1
    close()


def _parse_example(block: list[str], path: str, line: int, section: Rule | None) -> Example:
    fields: dict[str, str] = {}
    for offset, text in enumerate(block):
        if not text.strip():
            continue
        key, sep, value = text.partition(":")
        key = key.strip()
        where = f"{path}:{line + offset + 1}"
        if not sep or key not in EXAMPLE_KEYS:
            raise ValueError(
                f"{where}: expected 'key: value' with a key from EXAMPLE_KEYS, got {text!r}"
            )
        if key in fields:
            raise ValueError(f"{where}: key {key!r} given twice")
        fields[key] = value.strip()
    ex_id = fields.get("id", "")
    if not _EXAMPLE_ID.match(ex_id):
        raise ValueError(f"{path}:{line}: example needs an id like E001, got {ex_id!r}")
    rules = tuple(fields.get("rules", "").split())
    if not rules:
        raise ValueError(f"{path}:{line}: example {ex_id} names no rule")
    return Example(ex_id, rules, fields, path, line, section.id if section else None)


def _check(spec: Spec) -> None:
    seen: set[str] = set()
    for ex in spec.examples:
        if ex.id in seen:
            raise ValueError(f"{ex.path}:{ex.line}: example id {ex.id} is used twice")
        seen.add(ex.id)
        for rule_id in ex.rules:
            if rule_id not in spec.rules:
                raise ValueError(
                    f"{ex.path}:{ex.line}: example {ex.id} names unknown rule {rule_id}"
                )
        error = ex.get("error")
        if error is not None and error not in spec.rules:
            raise ValueError(f"{ex.path}:{ex.line}: example {ex.id} expects unknown rule {error}")


# -- running examples ------------------------------------------------------------


def run_example(example: Example) -> None:
    """Check ``example`` against the engine; raise :class:`ExampleFailure` naming its id.

    >>> from dataclasses import replace
    >>> example = next(e for e in load_spec().examples if e.id == 'E008')
    >>> run_example(example)
    >>> wrong = replace(example, fields={**example.fields, 'moves': '7+10'})
    >>> run_example(wrong)
    Traceback (most recent call last):
    ...
    cantstop.spec.ExampleFailure: E008 (...): expected legal moves 7+10, got 7+10 8+9
    """
    try:
        _run(example)
    except ExampleFailure as exc:
        raise ExampleFailure(f"{example.id} ({example.path}:{example.line}): {exc}") from None


def _fail(message: str) -> ExampleFailure:
    return ExampleFailure(message)


def _run(ex: Example) -> None:
    expected_error = ex.get("error")
    if ex.get("setup") is not None:
        _run_setup(ex.get("setup") or "", expected_error)
        return
    if ex.get("notation") is not None:
        _expect_notation_error(parse_state, ex.get("notation") or "", expected_error, ex.get("at"))
        return
    if ex.get("action-text") is not None:
        _expect_notation_error(
            parse_action, ex.get("action-text") or "", expected_error, ex.get("at")
        )
        return
    state_text = ex.get("state")
    if state_text is None:
        raise _fail("an example needs a state, a setup, a notation or an action-text")
    state = parse_state(state_text)
    if format_state(state) != state_text:
        raise _fail(f"state {state_text!r} is not canonical; it reads {format_state(state)!r}")
    actions = [parse_action(a) for a in (ex.get("actions") or ex.get("action") or "").split()]
    events: list[Event] = []
    for index, action in enumerate(actions):
        last = index == len(actions) - 1
        if last and expected_error is not None:
            _expect_illegal(state, action, expected_error)
            return
        try:
            step = state.step(action)
        except IllegalAction as exc:
            raise _fail(f"{format_action(action)} was rejected: {exc}") from None
        state = step.state
        events.append(step.event)
    if expected_error is not None:
        raise _fail(f"expected an error under rule {expected_error}, but no action was given")
    _check_events(ex, events)
    result = ex.get("result")
    if result is not None and format_state(state) != result:
        raise _fail(f"expected state {result!r}, got {format_state(state)!r}")
    moves = ex.get("moves")
    if moves is not None:
        got = " ".join(format_action(m) for m in state.legal_moves()) or "none"
        want = " ".join(sorted(moves.split(), key=_move_key)) if moves != "none" else "none"
        if got != want:
            raise _fail(f"expected legal moves {moves}, got {got}")
    _check_json(ex, state, actions)
    counts = ex.get("perft")
    if counts is not None:
        got_counts = perft(state)
        if f"choices={got_counts.choices} busts={got_counts.busts}" != counts:
            raise _fail(
                f"expected {counts}, got choices={got_counts.choices} busts={got_counts.busts}"
            )


def _check_json(ex: Example, state: State, actions: list[Action]) -> None:
    want_state = ex.get("json")
    if want_state is not None:
        expected = _load_json(want_state)
        if state_to_json(state) != expected or state_from_json(expected) != state:
            raise _fail(f"expected JSON {want_state}, got {json.dumps(state_to_json(state))}")
    want_action = ex.get("action-json")
    if want_action is not None:
        if len(actions) != 1:
            raise _fail("action-json needs exactly one action")
        expected = _load_json(want_action)
        if action_to_json(actions[0]) != expected or action_from_json(expected) != actions[0]:
            raise _fail(
                f"expected action JSON {want_action}, got {json.dumps(action_to_json(actions[0]))}"
            )


def _load_json(text: str) -> object:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise _fail(f"malformed JSON in the example: {exc}") from None


def _move_key(text: str) -> tuple[int, ...]:
    return tuple(int(c) for c in text.split("+"))


def _check_events(ex: Example, events: list[Event]) -> None:
    wanted = ex.get("events")
    if wanted is None and ex.get("event") is not None:
        wanted = ex.get("event")
        events = events[-1:]
    if wanted is None:
        return
    names = wanted.split()
    for name in names:
        if name not in _EVENTS:
            raise _fail(f"unknown event {name!r}")
    got = [e.value for e in events]
    if got != names:
        raise _fail(f"expected events {' '.join(names)}, got {' '.join(got)}")


def _expect_illegal(state: State, action: Action, rule: str) -> None:
    before = format_state(state)
    try:
        after = state.apply(action)
    except IllegalAction as exc:
        if exc.rule != rule:
            raise _fail(f"expected rule {rule}, got rule {exc.rule}: {exc}") from None
        if format_state(state) != before:  # pragma: no cover - states are immutable
            raise _fail("the rejected action changed the state") from None
        return
    raise _fail(
        f"expected {format_action(action)} to break {rule}, but it gave {format_state(after)!r}"
    )


def _expect_notation_error(
    parse: Callable[[str], object], text: str, rule: str | None, at: str | None
) -> None:
    if rule is None:
        raise _fail("a notation example needs an error")
    try:
        got = parse(text)
    except NotationError as exc:
        if exc.rule != rule:
            raise _fail(f"expected rule {rule}, got rule {exc.rule}: {exc}") from None
        if at is not None and exc.position != int(at):
            raise _fail(f"expected the error at position {at}, got {exc.position}: {exc}") from None
        return
    raise _fail(f"expected {text!r} to be rejected under {rule}, but it parsed as {got!r}")


def parse_setup(setup: str) -> tuple[dict[str, object], object]:
    """Split a ``setup`` example's ``key=value`` words into rules values and the first player.

    Numbers become ints and ``heights`` a dict of ints; every other value
    (``variant`` included) stays the text the example gives, so that examples
    can also state values the engine must reject.

    >>> parse_setup('players=2 heights=7:3,8:2 variant=A first_player=1')
    ({'players': 2, 'heights': {7: 3, 8: 2}, 'variant': 'A'}, 1)
    """
    values: dict[str, object] = {}
    first_player: object = 0
    for word in shlex.split(setup):
        key, _, value = word.partition("=")
        parsed: object
        if key == "heights":
            parsed = {
                int(c): int(h) for c, h in (cell.split(":") for cell in value.split(",") if cell)
            }
        elif key == "variant":
            parsed = value
        else:
            try:
                parsed = int(value)
            except ValueError:
                parsed = value
        if key == "first_player":
            first_player = parsed
        else:
            values[key] = parsed
    return values, first_player


def _run_setup(setup: str, rule: str | None) -> None:
    if rule is None:
        raise _fail("a setup example needs an error")
    kwargs, first_player = parse_setup(setup)
    if kwargs.get("variant") in ("A", "B"):
        kwargs["variant"] = Variant(kwargs["variant"])
    try:
        new_game(Rules(**kwargs), first_player)  # type: ignore[arg-type]
    except (InvalidRules, InvalidActionValue) as exc:
        if exc.rule != rule:
            raise _fail(f"expected rule {rule}, got rule {exc.rule}: {exc}") from None
        return
    raise _fail(f"expected setup {setup!r} to be rejected under {rule}")


def iter_failures(spec: Spec) -> Iterator[tuple[Example, str]]:
    """Yield each example that fails, with the failure message."""
    for ex in spec.examples:
        try:
            run_example(ex)
        except ExampleFailure as exc:
            yield ex, str(exc)
        except Exception as exc:
            yield ex, f"{ex.id}: {type(exc).__name__}: {exc}"
