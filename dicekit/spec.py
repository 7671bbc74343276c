"""Read any game's rules spec and run its examples through the game protocol.

A spec is a directory of Markdown files: ``rules/*.md`` in file-name order,
then the other ``*.md`` files beside ``rules/`` (``README.md`` aside).  A rule
is a heading whose text starts with its id (``### R5.2 Placing``); a chapter
is a heading with a one-part id (``## R5 Placing``); notation rules use ``N``
(``### N1.2 The board``).  Any other heading ends the text of the rule
before it, and examples under it belong to no rule.  An example is a fenced
block whose info string is ``example``, holding ``key: value`` lines.  The
keys every game shares are :data:`EXAMPLE_KEYS`; a game adds its own
(:class:`ExampleKey`) by providing ``example_keys()`` (:class:`HasExampleKeys`).

The runner knows nothing of any game: it reads states and actions with the
game's parsers, applies actions with ``apply`` (or ``step``, for the
``event`` and ``events`` keys, when the game reports events:
:class:`~dicekit.protocol.Stepping`), and compares canonical texts and JSON
values.  Refusals are compared by the rule id of the
:class:`~dicekit.errors.RuleError` raised.

>>> spec = spec_from_texts({"rules/01-one.md": '''
... ## R1 Counting
... ### R1.1 Ones
... A rule's text.
...
... ```example
... id: E001
... title: An example
... rules: R1.1
... notation: x
... error: R1.1
... ```
... '''})
>>> spec.rules["R1.1"].text, [e.id for e in spec.examples_for("R1")]
("A rule's text.", ['E001'])
"""

from __future__ import annotations

import json
import re
import shlex
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from dicekit.errors import IllegalAction, NotationError, RuleError
from dicekit.protocol import JSON, Game, Stepping

__all__ = [
    "EXAMPLE_KEYS",
    "Example",
    "ExampleFailure",
    "ExampleKey",
    "HasExampleKeys",
    "Played",
    "Rule",
    "Spec",
    "game_keys",
    "iter_failures",
    "load_game_spec",
    "load_spec",
    "parse_setup",
    "run_example",
    "spec_from_texts",
]

#: The keys every game's examples may hold, and what each means.
EXAMPLE_KEYS: Mapping[str, str] = {
    "id": "stable id, E followed by three digits; never reused",
    "title": "one line saying what the example shows",
    "rules": "the ids of the rules it illustrates, separated by spaces",
    "state": "the starting state, in state notation",
    "action": "one action to apply, in action notation",
    "actions": "several actions to apply in turn, separated by spaces",
    "event": "the event the (last) action causes (games that report events)",
    "events": "the event of each action, separated by spaces",
    "result": "the state after the action(s), in state notation",
    "moves": "the exact legal actions of the state (after the actions, if any), or 'none'",
    "error": "the rule id that rejects the action, notation or setup",
    "json": "the JSON form of the state after the action(s), on one line",
    "action-json": "the JSON form of the example's one action, on one line",
    "setup": "a game setup that must be rejected: key=value words for the configuration "
    "and first_player",
    "notation": "state text that the parser must reject",
    "action-text": "action text that the parser must reject",
    "at": "with notation or action-text: the index of the character the error points at",
    "note": "one line of explanation shown with the example",
}

_HEADING = re.compile(r"^(#{2,4}) ([RN]\d+(?:\.\d+)?) (.+?)\s*$")
_EXAMPLE_ID = re.compile(r"^E\d{3}$")
_INTEGER = re.compile(r"-?(?:0|[1-9][0-9]*)\Z")


class ExampleFailure(AssertionError):
    """An example whose expectation the game does not meet."""


@dataclass(frozen=True)
class Rule:
    """One numbered rule (or chapter) of a spec."""

    id: str
    title: str
    text: str
    path: str
    line: int

    @property
    def is_chapter(self) -> bool:
        """Whether this is a chapter (``R5``) rather than a rule (``R5.2``).

        >>> Rule("R5", "Placing", "", "rules/05.md", 1).is_chapter
        True
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
    #: The rule under whose heading the block stands, if any.
    section: str | None = None

    def get(self, key: str) -> str | None:
        """Return the value of ``key``, or ``None`` if the example lacks it.

        >>> Example("E001", ("R1.1",), {"id": "E001", "state": "x"}, "a.md", 1).get("action")
        """
        return self.fields.get(key)


@dataclass(frozen=True)
class Spec:
    """A whole spec: its rules and its examples, in the order the files give them."""

    rules: dict[str, Rule] = field(default_factory=dict)
    examples: list[Example] = field(default_factory=list)

    def examples_for(self, rule_id: str) -> list[Example]:
        """Return the examples that name ``rule_id``, or a rule inside that chapter."""
        return [
            ex
            for ex in self.examples
            if any(r == rule_id or r.startswith(rule_id + ".") for r in ex.rules)
        ]


@dataclass(frozen=True)
class Played:
    """What running an example's actions gave: what a game's own key checks."""

    #: The game the example runs on.
    game: Game[Any, Any, Any]
    #: The example.
    example: Example
    #: The actions applied, read from ``action`` or ``actions``.
    actions: tuple[Any, ...]
    #: The state after the actions (the starting state when there are none).
    state: Any
    #: The event of each action, when the game reports events; otherwise ``None``.
    events: tuple[str, ...] | None


@dataclass(frozen=True)
class ExampleKey:
    """A key a game adds to its examples: its meaning, and the check it runs.

    ``check(played, value)`` raises :class:`ExampleFailure` when the game does
    not meet the expectation ``value``; it runs after the actions of an example
    with a ``state``.  A key without a check (``None``) only informs.
    """

    meaning: str
    check: Callable[[Played, str], None] | None = None


@runtime_checkable
class HasExampleKeys(Protocol):
    """A game whose examples have keys of their own (Can't Stop's ``perft``, for one)."""

    def example_keys(self) -> Mapping[str, ExampleKey]:
        """Return the game's own example keys by name."""
        ...


def game_keys(game: object) -> Mapping[str, ExampleKey]:
    """Return the example keys ``game`` adds (none unless it provides ``example_keys``)."""
    if isinstance(game, HasExampleKeys):
        keys = game.example_keys()
        clash = sorted(set(keys) & set(EXAMPLE_KEYS))
        if clash:
            raise ValueError(f"a game's example keys may not redefine the layer's: {clash}")
        return keys
    return {}


# -- reading ---------------------------------------------------------------------


def load_spec(root: Path, keys: Iterable[str] = ()) -> Spec:
    """Read every Markdown file of the spec in ``root`` and check its form.

    ``keys`` names the game's own example keys, allowed besides
    :data:`EXAMPLE_KEYS`.  A malformed file raises :class:`ValueError` naming
    the file and line.
    """
    files = sorted((root / "rules").glob("*.md")) + sorted(
        p for p in root.glob("*.md") if p.name != "README.md"
    )
    if not files:
        raise FileNotFoundError(f"no spec files in {root}")
    return spec_from_texts(
        {p.relative_to(root).as_posix(): p.read_text(encoding="utf-8") for p in files}, keys
    )


def load_game_spec(game: Game[Any, Any, Any]) -> Spec:
    """Read the spec of ``game`` from its ``info.spec_dir``, with the game's own keys."""
    return load_spec(game.info.spec_dir, game_keys(game))


def spec_from_texts(files: Mapping[str, str], keys: Iterable[str] = ()) -> Spec:
    """Read a spec from file texts, given by relative path in reading order."""
    allowed = set(EXAMPLE_KEYS) | set(keys)
    spec = Spec()
    for path, text in files.items():
        _read_file(path, text.splitlines(), spec, allowed)
    _check(spec)
    return spec


def _read_file(rel: str, lines: list[str], spec: Spec, allowed: set[str]) -> None:
    current: Rule | None = None
    body: list[str] = []

    def close() -> None:
        if current is not None:
            spec.rules[current.id] = Rule(
                current.id, current.title, "\n".join(body).strip(), current.path, current.line
            )

    i = 0
    while i < len(lines):
        line = lines[i]
        heading = _HEADING.match(line)
        if heading:
            close()
            rule_id = heading.group(2)
            if rule_id in spec.rules:
                raise ValueError(f"{rel}:{i + 1}: rule {rule_id} is defined twice")
            current = Rule(rule_id, heading.group(3), "", rel, i + 1)
            body = []
        elif line.startswith("#"):  # any other heading ends the rule's text
            close()
            current = None
        elif line.strip() == "```example":
            start = i + 1
            block: list[str] = []
            i += 1
            while i < len(lines) and lines[i].strip() != "```":
                block.append(lines[i])
                i += 1
            if i == len(lines):
                raise ValueError(f"{rel}:{start}: example block is not closed")
            spec.examples.append(_parse_example(block, rel, start, current, allowed))
        elif current is not None:
            body.append(line)
        i += 1
    close()


def _parse_example(
    block: list[str], path: str, line: int, section: Rule | None, allowed: set[str]
) -> Example:
    fields: dict[str, str] = {}
    for offset, text in enumerate(block):
        if not text.strip():
            continue
        key, sep, value = text.partition(":")
        key = key.strip()
        where = f"{path}:{line + offset + 1}"
        if not sep or key not in allowed:
            raise ValueError(f"{where}: expected 'key: value' with a known key, got {text!r}")
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
        for rule_id in (*ex.rules, *filter(None, [ex.get("error")])):
            if rule_id not in spec.rules:
                raise ValueError(
                    f"{ex.path}:{ex.line}: example {ex.id} names unknown rule {rule_id}"
                )


# -- running ---------------------------------------------------------------------


def run_example(game: Game[Any, Any, Any], example: Example) -> None:
    """Check ``example`` against ``game``; raise :class:`ExampleFailure` naming its id."""
    try:
        _run(game, example)
    except ExampleFailure as exc:
        raise ExampleFailure(f"{example.id} ({example.path}:{example.line}): {exc}") from None


def iter_failures(game: Game[Any, Any, Any], spec: Spec) -> Iterator[tuple[Example, str]]:
    """Yield each example of ``spec`` that ``game`` fails, with the failure's message.

    An exception other than :class:`ExampleFailure` is a failure too, reported
    with its type.
    """
    for ex in spec.examples:
        try:
            run_example(game, ex)
        except ExampleFailure as exc:
            yield ex, str(exc)
        except Exception as exc:
            yield ex, f"{ex.id}: {type(exc).__name__}: {exc}"


def _run(game: Game[Any, Any, Any], ex: Example) -> None:
    expected_error = ex.get("error")
    setup = ex.get("setup")
    if setup is not None:
        _run_setup(game, setup, expected_error)
        return
    for key, parse in (("notation", game.parse_state), ("action-text", game.parse_action)):
        text = ex.get(key)
        if text is not None:
            _expect_notation_error(parse, text, expected_error, ex.get("at"))
            return
    state_text = ex.get("state")
    if state_text is None:
        raise ExampleFailure("an example needs a state, a setup, a notation or an action-text")
    state = _read(game.parse_state, state_text, "state")
    if game.format_state(state) != state_text:
        raise ExampleFailure(
            f"state {state_text!r} is not canonical; it reads {game.format_state(state)!r}"
        )
    words = (ex.get("actions") or ex.get("action") or "").split()
    actions = tuple(_read(game.parse_action, word, "action") for word in words)
    stepper = game if isinstance(game, Stepping) else None
    events: list[str] = []
    for index, action in enumerate(actions):
        if index == len(actions) - 1 and expected_error is not None:
            _expect_illegal(game, state, action, expected_error)
            return
        try:
            if stepper is not None:
                state, event = stepper.step(state, action)
                events.append(event)
            else:
                state = game.apply(state, action)
        except RuleError as exc:
            raise ExampleFailure(f"{game.format_action(action)} was rejected: {exc}") from None
    if expected_error is not None:
        raise ExampleFailure(f"expected an error under rule {expected_error}, but no action")
    played = Played(game, ex, actions, state, tuple(events) if stepper is not None else None)
    _check_events(played)
    result = ex.get("result")
    if result is not None and game.format_state(state) != result:
        raise ExampleFailure(f"expected state {result!r}, got {game.format_state(state)!r}")
    _check_moves(played)
    _check_json(played)
    for key, spec_key in game_keys(game).items():
        value = ex.get(key)
        if value is not None and spec_key.check is not None:
            spec_key.check(played, value)


def _read(parse: Callable[[str], Any], text: str, what: str) -> Any:
    try:
        return parse(text)
    except RuleError as exc:
        raise ExampleFailure(f"the {what} {text!r} does not read: {exc}") from None


def _check_events(played: Played) -> None:
    ex = played.example
    wanted = ex.get("events")
    last_only = wanted is None
    if last_only:
        wanted = ex.get("event")
    if wanted is None:
        return
    game = played.game
    if played.events is None or not isinstance(game, Stepping):
        raise ExampleFailure("the game reports no events, so the example cannot name one")
    names = wanted.split()
    known = game.events
    unknown = [name for name in names if name not in known]
    if unknown:
        raise ExampleFailure(f"unknown event {unknown[0]!r}; the game's are {' '.join(known)}")
    got = list(played.events[-1:] if last_only else played.events)
    if got != names:
        raise ExampleFailure(f"expected events {' '.join(names)}, got {' '.join(got) or 'none'}")


def _check_moves(played: Played) -> None:
    moves = played.example.get("moves")
    if moves is None:
        return
    game = played.game
    got = [game.format_action(a) for a in game.legal_actions(played.state)]
    want = [] if moves == "none" else moves.split()
    for text in want:
        action = _read(game.parse_action, text, "legal action")
        if game.format_action(action) != text:
            raise ExampleFailure(f"the legal action {text!r} is not written canonically")
    if len(set(want)) != len(want):
        raise ExampleFailure("the example lists a legal action twice")
    if sorted(got) != sorted(want):
        missing = sorted(set(want) - set(got))
        extra = sorted(set(got) - set(want))
        raise ExampleFailure(
            f"expected legal actions {moves}, got {' '.join(got) or 'none'}"
            f" (missing: {' '.join(missing) or '-'}; not expected: {' '.join(extra) or '-'})"
        )


def _check_json(played: Played) -> None:
    game, ex = played.game, played.example
    want_state = ex.get("json")
    if want_state is not None:
        expected = _load_json(want_state)
        got = game.state_to_json(played.state)
        if got != expected:
            raise ExampleFailure(f"expected JSON {want_state}, got {json.dumps(got)}")
        back = _read(game.state_from_json, expected, "JSON state")
        if back != played.state:
            raise ExampleFailure(f"the JSON form reads back as {game.format_state(back)!r}")
    want_action = ex.get("action-json")
    if want_action is not None:
        if len(played.actions) != 1:
            raise ExampleFailure("action-json needs exactly one action")
        expected = _load_json(want_action)
        action = played.actions[0]
        got = game.action_to_json(action)
        if got != expected:
            raise ExampleFailure(f"expected action JSON {want_action}, got {json.dumps(got)}")
        if _read(game.action_from_json, expected, "JSON action") != action:
            raise ExampleFailure("the action's JSON form reads back as another action")


def _load_json(text: str) -> JSON:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ExampleFailure(f"malformed JSON in the example: {exc}") from None


def _expect_illegal(game: Game[Any, Any, Any], state: Any, action: Any, rule: str) -> None:
    before = game.format_state(state)
    try:
        after = game.apply(state, action)
    except IllegalAction as exc:
        if exc.rule != rule:
            raise ExampleFailure(f"expected rule {rule}, got rule {exc.rule}: {exc}") from None
        if game.format_state(state) != before:  # pragma: no cover - states are values
            raise ExampleFailure("the refused action changed the state") from None
        return
    raise ExampleFailure(
        f"expected {game.format_action(action)} to break {rule}, "
        f"but it gave {game.format_state(after)!r}"
    )


def _expect_notation_error(
    parse: Callable[[str], object], text: str, rule: str | None, at: str | None
) -> None:
    if rule is None:
        raise ExampleFailure("a notation example needs an error")
    try:
        got = parse(text)
    except RuleError as exc:
        if exc.rule != rule:
            raise ExampleFailure(f"expected rule {rule}, got rule {exc.rule}: {exc}") from None
        if at is not None:
            position = exc.position if isinstance(exc, NotationError) else None
            if position != int(at):
                raise ExampleFailure(
                    f"expected the error at position {at}, got {position}: {exc}"
                ) from None
        return
    raise ExampleFailure(f"expected {text!r} to be rejected under {rule}, but it read as {got!r}")


def parse_setup(setup: str) -> tuple[dict[str, JSON], JSON]:
    """Split a ``setup`` example's ``key=value`` words into a JSON configuration and a first player.

    A value is read as an integer when it is one, as an object when it is
    ``key:value`` pairs separated by commas (the values again integers when
    they are) or nothing at all (an empty object), and otherwise kept as
    text, so that an example can state a value the game must refuse.
    ``first_player`` is taken out (0 when absent).

    >>> parse_setup('players=3 counters=x first_player=1')
    ({'players': 3, 'counters': 'x'}, 1)
    >>> parse_setup('heights=7:3,8:2 variant=A')
    ({'heights': {'7': 3, '8': 2}, 'variant': 'A'}, 0)
    >>> parse_setup('heights=')
    ({'heights': {}}, 0)
    """
    values: dict[str, JSON] = {}
    first_player: JSON = 0
    for word in shlex.split(setup):
        key, _, text = word.partition("=")
        value = _setup_value(text)
        if key == "first_player":
            first_player = value
        else:
            values[key] = value
    return values, first_player


def _setup_value(text: str) -> JSON:
    if not text:
        return {}
    if _INTEGER.match(text):
        return int(text)
    pairs = [cell.partition(":") for cell in text.split(",")]
    if ":" in text and all(sep and key for key, sep, _ in pairs):
        return {key: _setup_value(value) for key, _, value in pairs}
    return text


def _run_setup(game: Game[Any, Any, Any], setup: str, rule: str | None) -> None:
    if rule is None:
        raise ExampleFailure("a setup example needs an error")
    config, first_player = parse_setup(setup)
    try:
        game.new_game(game.config_from_json(config), first_player)
    except RuleError as exc:
        if exc.rule != rule:
            raise ExampleFailure(f"expected rule {rule}, got rule {exc.rule}: {exc}") from None
        return
    raise ExampleFailure(f"expected setup {setup!r} to be rejected under {rule}")
