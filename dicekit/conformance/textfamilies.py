"""The generic case families of notation for any game: round trips of text and JSON, and rejections.

Valid states and actions are read in text and in JSON and written back; the
rejections break one thing each: a text with one character deleted, inserted
or replaced, a JSON form or configuration with one value spoiled, a first
player out of range.  A rejection is kept only when the game's reader refuses
it, and expects the rule (and, for a text, the position) the reader names.
Round trips are tagged with the notation rules (ids starting ``N``) under
which the game refused the rejections of the same form, so that a port that
cannot read a form is pointed at the rules that define it.

>>> import random
>>> spoil({"a": [1, 2]}, random.Random(5))
({'a': [1, 1]}, 'a.1: 2 becomes 1')
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from functools import partial
from typing import Any, Protocol

from dicekit.conformance.pool import Pool, Setup, VectorError, make_case
from dicekit.conformance.ranking import rule_key
from dicekit.conformance.suite import Case
from dicekit.errors import NotationError, RuleError
from dicekit.protocol import JSON, Capability, Game, capable

__all__ = [
    "BrokenSetups",
    "edit",
    "invalid_cases",
    "notation_cases",
    "reading_rules",
    "spoil",
]


class BrokenSetups(Protocol):
    """:attr:`~dicekit.protocol.Capability.BROKEN_SETUPS`: setups made to break one rule each.

    A game whose configuration holds data of its own (a board given as data)
    offers configurations, each with one part of a valid one changed or
    taken away, so that the rules that decide such data are asked; the
    rejections keep those the game's reader refuses, with the rule it names.
    """

    def broken_setups(self) -> Sequence[tuple[JSON, str, tuple[str, ...]]]:
        """Return configurations as JSON, each with what was changed and what a port needs."""
        ...


#: Characters every edit may draw from, besides those of the texts edited.
EXTRA_CHARS = " -x9/,:+"


def edit(text: str, rng: random.Random, alphabet: str) -> str:
    """Return ``text`` with one character deleted, inserted or replaced from ``alphabet``.

    >>> edit("0,0/0/0r", random.Random(1), "x")
    '0,x0/0/0r'
    """
    pos = rng.randrange(len(text) + 1)
    what = rng.random()
    if what < 0.35 and pos < len(text):
        return text[:pos] + text[pos + 1 :]
    if what < 0.7 or pos == len(text):
        return text[:pos] + rng.choice(alphabet) + text[pos:]
    return text[:pos] + rng.choice(alphabet) + text[pos + 1 :]


def _paths(value: JSON, prefix: tuple[str | int, ...] = ()) -> Iterator[tuple[str | int, ...]]:
    if isinstance(value, dict):
        for key in value:
            yield (*prefix, key)
            yield from _paths(value[key], (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield (*prefix, index)
            yield from _paths(item, (*prefix, index))


def _changes(value: JSON, in_dict: bool) -> list[tuple[JSON, str]]:
    """Return what a value may become, each with a few words; ``...`` for a deleted key."""
    out: list[tuple[JSON, str]] = [(None, "null")]
    if in_dict:
        out.append((..., "dropped"))
    if isinstance(value, bool):
        out.append((not value, json.dumps(not value)))
    elif isinstance(value, int):
        out += [(value + 1, str(value + 1)), (value - 1, str(value - 1)), (-1, "-1")]
        out += [
            (10**6, "1000000"),
            (str(value), json.dumps(str(value))),
            (value + 0.5, "a fraction"),
        ]
    elif isinstance(value, str):
        out += [("", '""'), (value + "x", json.dumps(value + "x")), (7, "7")]
    elif isinstance(value, list):
        out += [([], "[]"), ([*value, *value[:1]], "one more item"), ({}, "{}")]
    elif isinstance(value, dict):
        out += [({}, "{}"), ({**value, "unknown": 0}, "an unknown field"), ([], "[]")]
    return out


def spoil(value: JSON, rng: random.Random) -> tuple[JSON, str]:
    """Return a copy of the JSON ``value`` with one value changed, and what changed."""
    spoiled = copy.deepcopy(value)
    paths = list(_paths(spoiled))
    if isinstance(spoiled, dict) and (not paths or rng.random() < 0.1):
        spoiled["unknown"] = 0
        return spoiled, "an unknown field"
    if not paths:
        return None, "null instead of the value"
    path = rng.choice(paths)
    parent = spoiled
    for step in path[:-1]:
        parent = parent[step]
    key = path[-1]
    becomes, words = rng.choice(_changes(parent[key], isinstance(parent, dict)))
    where = ".".join(map(str, path))
    if becomes is ...:
        del parent[key]
        return spoiled, f"{where} dropped"
    parent[key] = becomes
    return spoiled, f"{where}: {json.dumps(value_at(value, path))} becomes {words}"


def value_at(value: JSON, path: Sequence[str | int]) -> JSON:
    """Return the part of a JSON value at ``path``.

    >>> value_at({"a": [1, {"b": 2}]}, ("a", 1, "b"))
    2
    """
    for step in path:
        value = value[step]
    return value


def _refusal(read: Callable[[], object], what: str) -> RuleError | None:
    """Run a reader; return its refusal, ``None`` if it reads, or raise :class:`VectorError`."""
    try:
        read()
    except RuleError as exc:
        return exc
    except Exception as exc:
        raise VectorError(
            f"the game's reader raised {type(exc).__name__} instead of naming a rule, on {what}"
        ) from exc
    return None


def invalid_cases(
    game: Game[Any, Any, Any], pool: Pool, setups: Sequence[Setup], count: int
) -> list[Case]:
    """Return texts, JSON forms and setups the game refuses, each with the rule it names.

    About two fifths are state texts, a fifth action texts, a quarter JSON
    forms of states, a tenth JSON forms of actions, the rest setups, which
    also come valid so that a port refusing every setup fails.
    """
    rng = random.Random("invalid")
    cases: list[Case] = []
    seen: set[str] = set()

    def add(kind: str, rules: list[str], needs: Sequence[str], **fields: Any) -> None:
        key = json.dumps([kind, {k: v for k, v in fields.items() if k != "note"}], sort_keys=True)
        if key not in seen:
            seen.add(key)
            cases.append(make_case(f"invalid-{len(cases) + 1:05d}", rules, kind, needs, **fields))

    texts = pool.texts
    actions = list(pool.actions)
    state_chars = "".join(sorted(set("".join(texts)) | set(EXTRA_CHARS)))
    action_chars = "".join(sorted(set("".join(actions)) | set(EXTRA_CHARS)))

    def reject(kind: str, target: int, draw: Callable[[], tuple[dict[str, Any], Any, str]]) -> None:
        goal = len(cases) + target
        for _ in range(target * 30):
            if len(cases) >= goal:
                return
            fields, read, source = draw()
            refused = _refusal(read, json.dumps(fields)[:200])
            if refused is None:
                continue
            expect: dict[str, Any] = {"error": refused.rule}
            if "text" in fields and isinstance(refused, NotationError):
                expect["at"] = refused.position
            needs = pool.setups[source].needs if source else ()
            add(kind, [refused.rule], needs, **fields, expect=expect)

    def state_text() -> tuple[dict[str, Any], Any, str]:
        source = rng.choice(texts)
        text = edit(source, rng, state_chars)
        return {"text": text}, lambda: game.parse_state(text), source

    def action_text() -> tuple[dict[str, Any], Any, str]:
        text = edit(rng.choice(actions), rng, action_chars)
        return {"text": text}, lambda: game.parse_action(text), ""

    def state_json() -> tuple[dict[str, Any], Any, str]:
        source = rng.choice(texts)
        data, note = spoil(game.state_to_json(pool.states[source]), rng)
        return {"json": data, "note": note}, lambda: game.state_from_json(data), source

    def action_json() -> tuple[dict[str, Any], Any, str]:
        data, note = spoil(game.action_to_json(pool.actions[rng.choice(actions)]), rng)
        return {"json": data, "note": note}, lambda: game.action_from_json(data), ""

    if texts:
        reject("state", count * 2 // 5, state_text)
        reject("action", count // 5, action_text)
        reject("state", count // 4, state_json)
        reject("action", count // 10, action_json)
    _setup_cases(game, setups, rng, count - len(cases), add)
    if texts:
        _mixed_cases(game, pool, random.Random("invalid-mixed"), MIXED, add)
        _each_rule(game, pool, random.Random("invalid-each-rule"), add)
    broken = capable(game, Capability.BROKEN_SETUPS)
    for data, note, needs in broken.broken_setups() if broken is not None else ():
        shown = json.dumps(data)[:200]
        refused = _refusal(partial(_start, game, data), shown)
        if refused is not None:
            new = {"config": data, "first_player": 0}
            add("new", [refused.rule], needs, new=new, note=note, expect={"error": refused.rule})
    return cases


#: How many reachable states :func:`_each_rule` spoils every value of, and how many
#: rejections it keeps for each rule the reader names.
EACH_RULE_STATES = 80
EACH_RULE_CASES = 4


def _each_rule(
    game: Game[Any, Any, Any], pool: Pool, rng: random.Random, add: Callable[..., None]
) -> None:
    """Add JSON states with one value changed, so that every rule the reader names is asked.

    A few reachable states have every value changed in every way
    :func:`spoil` may change it; of those the game's reader refuses, a few
    are kept for each rule it names, the rules of the spec first.
    """
    found: dict[str, list[tuple[JSON, str, str]]] = {}
    for text in rng.sample(pool.texts, min(EACH_RULE_STATES, len(pool.texts))):
        data = game.state_to_json(pool.states[text])
        for path in _paths(data):
            parent = value_at(data, path[:-1])
            value = value_at(data, path)
            changes = _changes(value, isinstance(parent, dict))
            if value is None:  # an absent thing made present: a number out of every range
                changes += [(-1, "-1"), (10**6, "1000000")]
            for becomes, words in changes:
                spoiled = copy.deepcopy(data)
                _put(spoiled, path, becomes)
                refused = _refusal(
                    partial(game.state_from_json, spoiled), json.dumps(spoiled)[:200]
                )
                if refused is not None:
                    where = ".".join(map(str, path))
                    found.setdefault(refused.rule, []).append((spoiled, f"{where}: {words}", text))
    for rule in sorted(found, key=rule_key):
        for spoiled, note, text in found[rule][:EACH_RULE_CASES]:
            needs = pool.setups[text].needs
            add("state", [rule], needs, json=spoiled, note=note, expect={"error": rule})


def _start(game: Game[Any, Any, Any], data: JSON) -> object:
    return game.new_game(game.config_from_json(data), 0)


#: How many states made of two reachable states' parts the rejections hold, at most.
MIXED = 120


def _mixed_cases(
    game: Game[Any, Any, Any],
    pool: Pool,
    rng: random.Random,
    count: int,
    add: Callable[..., None],
) -> None:
    """Add JSON forms of states made of two states of one setup, one field taken from the other.

    Each part is valid on its own, so what refuses the whole is a rule that
    ties the parts together (dice only while an action is chosen, a player
    who exists, pieces that add up); it is kept only when the game's reader
    refuses it, and expects the rule the reader names.
    """
    texts = pool.texts
    by_setup: dict[str, list[str]] = {}
    for text in texts:
        by_setup.setdefault(pool.setups[text].name, []).append(text)
    goal = count
    for _ in range(count * 30):
        if goal <= 0:
            return
        source = rng.choice(texts)
        donor = rng.choice(by_setup[pool.setups[source].name])
        data = game.state_to_json(pool.states[source])
        other = game.state_to_json(pool.states[donor])
        if not isinstance(data, dict) or not isinstance(other, dict):
            return
        keys = sorted(k for k in data.keys() & other.keys() if data[k] != other[k])
        if not keys:
            continue
        key = rng.choice(keys)
        mixed = {**data, key: copy.deepcopy(other[key])}
        refused = _refusal(partial(game.state_from_json, mixed), json.dumps(mixed)[:200])
        if refused is None:
            continue
        note = f"{key} taken from {donor}"
        needs = pool.setups[source].needs
        add("state", [refused.rule], needs, json=mixed, note=note, expect={"error": refused.rule})
        goal -= 1


def _setup_cases(
    game: Game[Any, Any, Any],
    setups: Sequence[Setup],
    rng: random.Random,
    count: int,
    add: Callable[..., None],
) -> None:
    """Add refused setups (a spoiled configuration, a first player out of range), then valid ones.

    The valid ones name the rules the refusals named: those that decide a setup.
    """
    deciding: set[str] = set()
    for _ in range(max(count, 0) * 30):
        if count <= 0 or not setups:
            break
        setup = rng.choice(setups)
        first: Any = rng.randrange(setup.players)
        data = game.config_to_json(setup.config)
        if rng.random() < 0.2:
            first, note = rng.choice([(setup.players, "a player too many"), (-1, "player -1")])
        else:
            data, note = spoil(data, rng)
        shown = json.dumps({"config": data, "first_player": first})

        def start(data: JSON = data, first: Any = first) -> object:
            return game.new_game(game.config_from_json(data), first)

        refused = _refusal(start, shown)
        if refused is not None:
            new = {"config": data, "first_player": first}
            add("new", [refused.rule], (), new=new, note=note, expect={"error": refused.rule})
            deciding.add(refused.rule)
            count -= 1
    for setup in setups:
        for first in range(setup.players):
            opening = game.format_state(game.new_game(setup.config, first))
            new = {"config": game.config_to_json(setup.config), "first_player": first}
            add(
                "new",
                sorted(deciding),
                setup.needs,
                new=new,
                note=setup.name,
                expect={"state": opening},
            )


def reading_rules(invalid: Sequence[Case]) -> dict[tuple[str, str], list[str]]:
    """Return, for each kind and form (``("state", "text")``), the rules that decide a reading.

    They are the notation rules (ids starting ``N``) that the refusals of that
    kind and form named, or all the rules they named if none is a notation rule.

    >>> reading_rules([{"kind": "state", "text": "x", "rules": ["N1.2"]},
    ...                {"kind": "state", "text": "y", "rules": ["R4.1"]},
    ...                {"kind": "state", "json": {}, "rules": ["R4.1"]}])
    {('state', 'text'): ['N1.2'], ('state', 'json'): ['R4.1']}
    """
    found: dict[tuple[str, str], set[str]] = {}
    for case in invalid:
        form = "text" if "text" in case else "json" if "json" in case else None
        if form is not None:
            found.setdefault((case["kind"], form), set()).update(case["rules"])
    return {
        key: sorted({r for r in rules if r.startswith("N")} or rules, key=rule_key)
        for key, rules in found.items()
    }


def notation_cases(
    game: Game[Any, Any, Any],
    pool: Pool,
    count: int,
    reading: Mapping[tuple[str, str], Sequence[str]],
) -> list[Case]:
    """Return valid states and actions read from text and from JSON: the canonical text and form.

    ``count`` states of the pool, each in both forms, then as many of the
    actions seen (all, when there are fewer) in both forms; ``reading`` gives
    the rule tags of each kind and form.
    """
    rng = random.Random("notation")
    cases: list[Case] = []
    chosen = rng.sample(pool.texts, min(count, len(pool.texts)))
    for text in chosen:
        state = pool.states[text]
        expect = {"state": text, "json": game.state_to_json(state)}
        needs = pool.setups[text].needs
        for form, value in (("text", text), ("json", game.state_to_json(state))):
            cases.append(
                make_case(
                    f"notation-{len(cases) + 1:05d}",
                    reading.get(("state", form), ()),
                    "state",
                    needs,
                    **{form: value},
                    expect=expect,
                )
            )
    names = sorted(rng.sample(list(pool.actions), min(count, len(pool.actions))))
    for name in names:
        action = pool.actions[name]
        expect = {"action": name, "json": game.action_to_json(action)}
        for form, value in (("text", name), ("json", game.action_to_json(action))):
            cases.append(
                make_case(
                    f"notation-{len(cases) + 1:05d}",
                    reading.get(("action", form), ()),
                    "action",
                    (),
                    **{form: value},
                    expect=expect,
                )
            )
    for data, rules, setup_needs, note in _reordered(game, pool, REORDERED):
        state = game.state_from_json(data)
        expect = {"state": game.format_state(state), "json": game.state_to_json(state)}
        cases.append(
            make_case(
                f"notation-{len(cases) + 1:05d}",
                rules,
                "state",
                setup_needs,
                json=data,
                note=note,
                expect=expect,
            )
        )
    return cases


#: How many JSON forms of states with a list in another order the round trips hold, at most.
REORDERED = 60


def _reordered(
    game: Game[Any, Any, Any], pool: Pool, count: int
) -> Iterator[tuple[JSON, list[str], Sequence[str], str]]:
    """Yield JSON forms of states with one list reversed that the game reads as the same state.

    Such a form is not the canonical one (the game puts the list in its own
    order, as its dice sorted), so a port that keeps the order given writes
    another state back.  Each comes with the rules the game names when it
    refuses another value in that list's place: the rules that decide the
    list; and the setup's needs and a note.
    """
    rng = random.Random("notation-reordered")
    texts = list(pool.texts)
    rng.shuffle(texts)
    for text in texts:
        if count <= 0:
            return
        data = game.state_to_json(pool.states[text])
        paths = [
            path
            for path in _paths(data)
            if isinstance(value_at(data, path), list)
            and len(value_at(data, path)) > 1
            and value_at(data, path) != value_at(data, path)[::-1]
        ]
        if not paths:
            continue
        path = rng.choice(paths)
        turned = copy.deepcopy(data)
        _put(turned, path, value_at(data, path)[::-1])
        try:
            read = game.state_from_json(turned)
        except RuleError:
            continue  # refused, not read in another order: a rejection, not a round trip
        if game.state_to_json(read) != data:
            continue
        rules = _deciding(game, data, path)
        if not rules:
            continue
        where = ".".join(map(str, path))
        count -= 1
        yield turned, rules, pool.setups[text].needs, f"{where} reversed"


def _put(data: Any, path: Sequence[str | int], value: Any) -> None:
    parent = value_at(data, path[:-1])
    if value is ...:
        del parent[path[-1]]
    else:
        parent[path[-1]] = value


def _deciding(game: Game[Any, Any, Any], data: JSON, path: Sequence[str | int]) -> list[str]:
    """Return the rules the game names when it refuses what the part at ``path`` may become."""
    rules: set[str] = set()
    parent = value_at(data, path[:-1])
    for becomes, _ in _changes(value_at(data, path), isinstance(parent, dict)):
        spoiled = copy.deepcopy(data)
        _put(spoiled, path, becomes)
        refused = _refusal(partial(game.state_from_json, spoiled), json.dumps(spoiled)[:200])
        if refused is not None:
            rules.add(refused.rule)
    return sorted(rules, key=rule_key)
