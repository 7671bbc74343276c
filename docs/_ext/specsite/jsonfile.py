"""Results files the site shows, read as JSON objects, with a message naming the fault.

The proofs' results and the seeded-bug study's are JSON objects holding a
list of objects; the extensions that draw them read them with
:func:`read_object` and walk the list with :func:`each_object`, so that a
broken file stops the build naming the file and the entry at fault.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

__all__ = ["each_object", "read_object"]


def read_object(path: Path) -> dict[str, Any]:
    """Return the JSON object in ``path``; raise ``ValueError`` if it is not JSON or no object."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise ValueError(f"{path} is not JSON: {exc}") from None
    if not isinstance(data, dict):
        raise ValueError(f"{path}: the top level must be an object")
    return data


def each_object(path: Path, name: str, items: list[Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    """Yield where each entry of the list ``name`` is (for a message) and the entry itself.

    An entry that is no JSON object raises ``ValueError`` naming it.
    """
    for index, item in enumerate(items):
        where = f"{path}: {name}[{index}]"
        if not isinstance(item, dict):
            raise ValueError(f"{where} must be an object")
        yield where, item
