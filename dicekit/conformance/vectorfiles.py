"""Writing a suite's vector files: one JSON object per file, one case per line, byte for byte.

The text of a file depends only on its cases, so a generator that draws them
deterministically writes the same bytes on every run, and a test can hold
the committed files to a regeneration.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

from dicekit.conformance.suite import Case

__all__ = ["render", "write_files"]


def render(suite: str, version: int, name: str, description: str, cases: list[Case]) -> str:
    """Return the text of one vector file: a JSON object with one case per line.

    >>> print(render("demo", 1, "one", "a file", [{"id": "a-1"}]), end="")
    {"suite":"demo","version":1,"file":"one","description":"a file","count":1,"cases":[
    {"id":"a-1"}
    ]}
    """
    head = {
        "suite": suite,
        "version": version,
        "file": name,
        "description": description,
        "count": len(cases),
    }
    text = json.dumps(head, separators=(",", ":"))[:-1] + ',"cases":[\n'
    text += ",\n".join(json.dumps(c, separators=(",", ":"), ensure_ascii=True) for c in cases)
    return text + "\n]}\n"


def write_files(directory: Path, files: Mapping[str, str]) -> dict[str, int]:
    """Write each file's text under ``directory``; return the number of cases in each."""
    directory.mkdir(parents=True, exist_ok=True)
    counts = {}
    for name, text in files.items():
        (directory / name).write_text(text, encoding="utf-8", newline="\n")
        counts[name] = json.loads(text)["count"]
    return counts
