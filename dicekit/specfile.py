"""The spec files of any game: their form, read into numbered rules and example blocks.

A spec is a directory of Markdown files: ``rules/*.md`` in file-name order,
then the other ``*.md`` files beside ``rules/`` (``README.md`` aside).  A rule
is a heading whose text starts with its id (``### R5.2 Placing``); a chapter
is a heading with a one-part id (``## R5 Placing``); notation rules use ``N``
(``### N1.2 The board``).  Any other heading ends the text of the rule
before it, and examples under it belong to no rule.  An example is a fenced
block whose info string is ``example``, holding ``key: value`` lines.  The
keys every game shares are :data:`EXAMPLE_KEYS`; a game may allow more.
Running the examples is :mod:`dicekit.spec`'s concern.

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

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["EXAMPLE_KEYS", "Example", "Rule", "Spec", "load_spec", "spec_from_texts"]

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
