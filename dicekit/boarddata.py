"""Boards given as data: JSON files shipped in a directory, named or embedded in a text.

A game whose board is an input keeps its shipped boards as ``NAME.json``
files in one directory and refers to them by name; any other board is
embedded as its canonical JSON text, which :func:`canonical_text` writes:
compact, keys in the order the value gives them.  :func:`change` edits a
board's JSON value by dotted paths, which is how a spec can state a board
that must be refused without writing the whole of it out.

>>> canonical_text({"b": [1, 2], "a": {"x": None}})
'{"b":[1,2],"a":{"x":null}}'
>>> change({"fields": {"6": {"star": True}}, "track": [1]}, 'fields.6.star=false track.0=3')
{'fields': {'6': {'star': False}}, 'track': [3]}
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

__all__ = ["NAME", "BoardFiles", "canonical_text", "change"]

#: The form of a shipped board's name: a lower-case letter, then letters, digits and hyphens.
NAME = re.compile(r"[a-z][a-z0-9-]{0,31}")

#: A value as :func:`json.loads` returns it.
JSON = Any


class BoardFiles:
    """The shipped boards of a game: ``NAME.json`` files in ``directory``, but ``schema.json``.

    The directory also holds the JSON Schema of the board files, which is not a board.
    """

    def __init__(self, directory: Path, schema: str = "schema") -> None:
        self.directory = directory
        self.schema = schema

    def names(self) -> tuple[str, ...]:
        """Return the names of the shipped boards, sorted."""
        return tuple(
            sorted(
                p.stem
                for p in self.directory.glob("*.json")
                if NAME.fullmatch(p.stem) and p.stem != self.schema
            )
        )

    def read(self, name: str) -> JSON:
        """Return the JSON value of the board ``name``; raise ``KeyError`` if it is not shipped."""
        if name not in self.names():
            raise KeyError(name)
        return json.loads((self.directory / f"{name}.json").read_text(encoding="utf-8"))


def canonical_text(value: JSON) -> str:
    """Return ``value`` as compact JSON, keys in the order the value holds them."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def change(value: JSON, words: str) -> JSON:
    """Return a copy of ``value`` with each ``PATH=VALUE`` word of ``words`` applied.

    ``PATH`` is keys separated by dots (a list index counts from 0); ``VALUE``
    is JSON without spaces, or ``~`` to remove the key.  A path through a missing key raises
    ``KeyError``.
    """
    result = json.loads(json.dumps(value))
    for word in words.split():
        path, sep, text = word.partition("=")
        if not sep or not path:
            raise ValueError(f"a change is PATH=VALUE, not {word!r}")
        *parents, last = path.split(".")
        node = result
        for key in parents:
            node = node[int(key)] if isinstance(node, list) else node[key]
        if text == "~":
            if isinstance(node, list):
                del node[int(last)]
            else:
                del node[last]
        elif isinstance(node, list):
            node[int(last)] = json.loads(text)
        else:
            node[last] = json.loads(text)
    return result
