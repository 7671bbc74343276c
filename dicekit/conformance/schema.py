"""The JSON Schema of a game's vector files: the header, the case fields and the generic kinds.

Every vector file is an object with ``suite``, ``version``, ``file``,
``description``, ``count`` and ``cases``; every case has an ``id``, the
``rules`` that decide it, its ``kind``, what it ``needs`` and what it
expects.  :func:`schema` states that, and the fields of each generic kind of
case (``spec/protocol.md``), as JSON Schema 2020-12; a game with kinds of its
own adds their definitions.

>>> document = schema("toy-conformance", 1)
>>> document["properties"]["suite"]
{'const': 'toy-conformance'}
>>> document["$defs"]["case"]["properties"]["kind"]["enum"]
['action', 'apply', 'chance', 'example', 'game', 'moves', 'new', 'state']
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

__all__ = ["GENERIC_KINDS", "schema", "schema_text"]

_TEXT: dict[str, Any] = {"type": "string"}
_ERROR: dict[str, Any] = {
    "type": "object",
    "required": ["error"],
    "additionalProperties": False,
    "properties": {"error": {"$ref": "#/$defs/rule"}, "at": {"type": "integer", "minimum": 0}},
}
_SETUP: dict[str, Any] = {
    "type": "object",
    "required": ["config", "first_player"],
    "additionalProperties": False,
    "properties": {"config": True, "first_player": True},
}
_OUTCOME: dict[str, Any] = {
    "type": "object",
    "required": ["action", "p"],
    "additionalProperties": False,
    "properties": {
        "action": _TEXT,
        "p": {
            "type": "array",
            "prefixItems": [{"type": "integer", "minimum": 1}, {"type": "integer", "minimum": 1}],
            "items": False,
            "minItems": 2,
        },
    },
}


def _object(required: list[str], properties: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "type": "object",
        "required": required,
        "additionalProperties": False,
        "properties": dict(properties),
    }


def _after() -> dict[str, Any]:
    return _object(["state"], {"state": _TEXT, "event": _TEXT})


def _read_back(kind: str) -> tuple[list[str], dict[str, Any]]:
    """Return the fields of a case reading a text of ``kind``, expected back with its JSON."""
    expect = _object([kind, "json"], {kind: _TEXT, "json": True})
    return [], {
        "note": _TEXT,
        "text": _TEXT,
        "json": True,
        "expect": {"oneOf": [{"$ref": "#/$defs/error"}, expect]},
    }


#: The fields of each generic kind of case besides ``id``, ``rules``, ``kind`` and ``needs``:
#: the required ones, and the schema of each field.
GENERIC_KINDS: Mapping[str, tuple[list[str], Mapping[str, Any]]] = {
    "example": (
        ["title"],
        {
            "title": _TEXT,
            "setup": _TEXT,
            "new": {"$ref": "#/$defs/setup"},
            "text": _TEXT,
            "action_text": _TEXT,
            "state": _TEXT,
            "actions": {"type": "array", "items": _TEXT},
            "expect": {"type": "object"},
        },
    ),
    "moves": (
        ["state"],
        {
            "state": _TEXT,
            "expect": _object(["moves"], {"moves": {"type": "array", "items": _TEXT}}),
        },
    ),
    "apply": (
        ["state", "action"],
        {
            "state": _TEXT,
            "action": _TEXT,
            "expect": {"oneOf": [{"$ref": "#/$defs/error"}, _after()]},
        },
    ),
    "chance": (
        ["state"],
        {
            "state": _TEXT,
            "expect": _object(["outcomes"], {"outcomes": {"type": "array", "items": _OUTCOME}}),
        },
    ),
    "game": (
        ["new", "actions"],
        {
            "new": {"$ref": "#/$defs/setup"},
            "actions": {"type": "array", "items": _TEXT},
            "expect": _object(
                ["start", "states"],
                {
                    "start": _TEXT,
                    "states": {"type": "array", "items": _TEXT},
                    "events": {"type": "array", "items": _TEXT},
                },
            ),
        },
    ),
    "state": _read_back("state"),
    "action": _read_back("action"),
    "new": (
        ["new"],
        {
            "note": _TEXT,
            "new": {"$ref": "#/$defs/setup"},
            "expect": {"oneOf": [{"$ref": "#/$defs/error"}, _object(["state"], {"state": _TEXT})]},
        },
    ),
}


def _kind_rule(kind: str, required: list[str], properties: Mapping[str, Any]) -> dict[str, Any]:
    then: dict[str, Any] = {
        "required": required,
        "additionalProperties": False,
        "properties": {"id": True, "rules": True, "kind": True, "needs": True, **properties},
    }
    if kind in ("state", "action"):
        then["oneOf"] = [{"required": ["text"]}, {"required": ["json"]}]
    return {"if": {"properties": {"kind": {"const": kind}}}, "then": then}


def schema(
    suite: str,
    version: int,
    kinds: Mapping[str, tuple[list[str], Mapping[str, Any]]] | None = None,
    title: str | None = None,
) -> dict[str, Any]:
    """Return the JSON Schema of the vector files of ``suite`` ``version``.

    ``kinds`` gives the case kinds and their fields (by default the generic
    ones, :data:`GENERIC_KINDS`); a game adds its own to them.
    """
    kinds = GENERIC_KINDS if kinds is None else kinds
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": title or f"{suite} vectors, version {version}",
        "description": "One vector file: a header and its cases. "
        "spec/protocol.md says how a harness runs each kind of case.",
        "type": "object",
        "required": ["suite", "version", "file", "description", "count", "cases"],
        "additionalProperties": False,
        "properties": {
            "suite": {"const": suite},
            "version": {"const": version},
            "file": {"type": "string", "pattern": "^[a-z][a-z-]*$"},
            "description": {"type": "string"},
            "count": {"type": "integer", "minimum": 0},
            "cases": {"type": "array", "items": {"$ref": "#/$defs/case"}},
        },
        "$defs": {
            "rule": {"type": "string", "pattern": "^[RN][0-9]+(\\.[0-9]+)*$"},
            "error": _ERROR,
            "setup": _SETUP,
            "case": {
                "type": "object",
                "required": ["id", "rules", "kind", "expect"],
                "properties": {
                    "id": {"type": "string", "pattern": "^[a-z]+-[A-Za-z0-9-]+$"},
                    "rules": {"type": "array", "items": {"$ref": "#/$defs/rule"}},
                    "kind": {"enum": sorted(kinds)},
                    "needs": {"type": "array", "items": {"type": "string", "minLength": 1}},
                    "expect": {"type": "object"},
                },
                "allOf": [_kind_rule(k, *kinds[k]) for k in sorted(kinds)],
            },
        },
    }


def schema_text(suite: str, version: int) -> str:
    """Return :func:`schema` of the generic kinds as the text of ``schema.json``."""
    return json.dumps(schema(suite, version), indent=1) + "\n"
