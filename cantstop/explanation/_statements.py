"""The explanation as a value: its statements, their text and JSON forms, and how they are written.

:class:`Writer` fills the sentences of :data:`~cantstop.explanation.TEMPLATES`
in, and the functions here write the values the sentences share
(``spec/explain.md``, X4.1).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from cantstop.actions import Action, Move
from cantstop.explanation._templates import DEPTHS, FORMAT, TEMPLATES
from cantstop.notation import format_action, format_state
from cantstop.refusals import listed
from cantstop.state import State

__all__ = [
    "Explanation",
    "Statement",
    "Writer",
    "cells",
    "column_map",
    "columns_text",
    "held_text",
    "pairing_names",
]


# -- the explanation as a value -------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Statement:
    """One statement of an explanation: a sentence, the rules it applies and its facts.

    ``kind`` is the key of its sentence in :data:`~cantstop.explanation.TEMPLATES`, ``depth`` its
    level of detail (0 for the whole position), ``text`` the sentence (ASCII,
    ending with a full stop, without rule ids), ``rules`` the rule ids it
    applies and ``data`` its facts as JSON values (spec/explain.md, X3).

    >>> from cantstop import explain, parse_state
    >>> first = explain(parse_state('-/- - 0r')).statements[0]
    >>> first.kind, first.rules, first.line()
    ('position.roll', ('R3.2',), 'Player 0 is about to roll; no marker is on the board (R3.2).')
    """

    kind: str
    depth: int
    text: str
    rules: tuple[str, ...]
    data: Mapping[str, Any]

    def line(self) -> str:
        """Return the statement's line of the text form: indented, its rule ids in parentheses."""
        return f"{'  ' * self.depth}{self.text[:-1]} ({', '.join(self.rules)})."

    def to_json(self) -> dict[str, Any]:
        """Return the JSON object: ``kind``, ``depth``, ``text``, ``rules`` and ``data``."""
        return {
            "kind": self.kind,
            "depth": self.depth,
            "text": self.text,
            "rules": list(self.rules),
            "data": dict(self.data),
        }


@dataclass(frozen=True, slots=True)
class Explanation:
    """What the rules say about a state, and an action in it: the result of ``explain``.

    See :func:`cantstop.explain`.  ``legal`` says whether
    ``action`` is legal (``None`` without an action); ``moves`` are the legal
    moves of the dice explained (``()`` for a roll that busts, ``None`` when
    no dice are explained); ``statements`` are the statements in order.

    >>> from cantstop import Move, explain, parse_state
    >>> why = explain(parse_state('7:2/- - 0c3455'), Move((7,)))
    >>> why.legal, why.moves
    (False, (Move(columns=(7, 10)), Move(columns=(8, 9))))
    >>> refusal = why.statements[1]
    >>> refusal.kind, refusal.rules, refusal.data['rule']
    ('illegal.one-sum', ('R6.1',), 'R6.1')
    >>> refusal.text[:58]
    '7 is not legal: pairing 1 makes 7 with 10, and both can be'
    """

    state: State
    action: Action | None
    legal: bool | None
    moves: tuple[Move, ...] | None
    statements: tuple[Statement, ...]

    def text(self) -> str:
        """Return the text form: one line per statement, each ending with a line feed."""
        return "".join(statement.line() + "\n" for statement in self.statements)

    def to_json(self) -> dict[str, Any]:
        """Return the JSON form as plain values (spec/explain.md, X1.3).

        >>> from cantstop import explain, parse_state
        >>> data = explain(parse_state('7:2/- - 0c3455')).to_json()
        >>> data['format'], data['moves'], data['statements'][0]['kind']
        ('cantstop-explain/1', ['7+10', '8+9'], 'position.choose')
        """
        return {
            "format": FORMAT,
            "state": format_state(self.state),
            "action": None if self.action is None else format_action(self.action),
            "legal": self.legal,
            "moves": None if self.moves is None else [format_action(m) for m in self.moves],
            "statements": [statement.to_json() for statement in self.statements],
        }

    def to_json_text(self) -> str:
        """Return the canonical serialization of the JSON form: compact, fields in order.

        >>> from cantstop import explain, parse_state
        >>> explain(parse_state('-/- - 0r')).to_json_text()[:60]
        '{"format":"cantstop-explain/1","state":"-/- - 0r","action":n'
        """
        return json.dumps(self.to_json(), separators=(",", ":"))

    def __str__(self) -> str:
        return self.text()


# -- the values of the sentences (X4.1) ------------------------------------------------


def cells(positions: Mapping[int, int]) -> str:
    """Return markers or squares as ``in column C on space S``, listed in column order."""
    return listed([f"in column {c} on space {s}" for c, s in sorted(positions.items())])


def columns_text(columns: Sequence[int]) -> str:
    """Return ``column 7`` or ``columns 2, 3 and 4``."""
    names = [str(c) for c in sorted(columns)]
    return ("column " if len(names) == 1 else "columns ") + listed(names)


def pairing_names(numbers: Sequence[int]) -> str:
    """Return ``pairing 1`` or ``pairings 2 and 3``."""
    return ("pairing " if len(numbers) == 1 else "pairings ") + listed([str(n) for n in numbers])


def held_text(count: int) -> str:
    """Return ``no won column``, ``1 won column`` or ``N won columns``."""
    if count == 0:
        return "no won column"
    return f"{count} won column" + ("" if count == 1 else "s")


def column_map(values: Mapping[int, int]) -> dict[str, int]:
    """Return a column map as the JSON form writes it: column numbers as keys, in order."""
    return {str(c): v for c, v in sorted(values.items())}


class Writer:
    """Collects statements, filling the templates in."""

    def __init__(self) -> None:
        self.statements: list[Statement] = []

    def say(
        self,
        kind: str,
        data: Mapping[str, Any],
        values: Mapping[str, Any] | None = None,
        *,
        fragments: Sequence[str] = (),
        extra: Sequence[str] = (),
    ) -> None:
        """Add the statement ``kind`` with ``data``; ``values`` fill its template.

        ``fragments`` are the ``where.*`` fragments to append (as ``{where}``)
        and the ``reason.*`` fragment (as ``{reason}``), in the order they are
        written; ``extra`` are the rules the statement adds after its template's.
        """
        fill = dict(values or {})
        rules = list(TEMPLATES[kind][1]) + list(extra)
        where = ""
        for fragment in fragments:
            text, cited = TEMPLATES[fragment]
            if fragment.startswith("reason."):
                fill["reason"] = text.format(**fill)
            else:
                where += text.format(**fill)
            rules.extend(cited)
        fill["where"] = where
        family = kind.split(".")[0]
        depth = DEPTHS.get(kind, DEPTHS.get(family, 0))
        self.statements.append(
            Statement(
                kind=kind,
                depth=depth,
                text=TEMPLATES[kind][0].format(**fill),
                rules=tuple(dict.fromkeys(rules)),
                data=data,
            )
        )
