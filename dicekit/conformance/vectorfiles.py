"""Writing a suite's vector files: one JSON object per file, one case per line, byte for byte.

The text of a file depends only on its cases, so a generator that draws them
deterministically writes the same bytes on every run, and a test can hold
the committed files to a regeneration.  :func:`write_next` writes a suite's
files where its next change goes: into the newest version while it is being
prepared, or, once that is released, into a new version, and only when the
files differ from the released ones.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from pathlib import Path

from dicekit.conformance.frozen import open_version, refuse_frozen
from dicekit.conformance.suite import Case

__all__ = ["render", "write_files", "write_next"]


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


def write_next(
    root: Path, newest: int, texts: Callable[[int], Mapping[str, str]]
) -> tuple[dict[str, int], Path]:
    """Write the files of the suite in ``root`` into the version its next change goes into.

    ``newest`` is the newest version installed and ``texts(version)`` gives
    every file of a version, by name (a schema without ``count`` included).
    While ``newest`` is being prepared, its files are rewritten.  Once it is
    released, the files it would be written with today are compared with its
    own: the same, and nothing is written (the counts are empty); different,
    and the next version is opened and written.  Return the number of cases of
    each vector file, and the version's folder.

    >>> import tempfile
    >>> from dicekit.conformance.frozen import freeze
    >>> def texts(version):
    ...     return {"one.json": render("demo", version, "one", "a file", [{"id": "a-1"}])}
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     root = Path(tmp)
    ...     first = write_next(root, 1, texts)
    ...     freeze(root, 1)
    ...     again = write_next(root, 1, texts)
    ...     first[0], first[1].name, again[0], again[1].name
    ({'one.json': 1}, 'v1', {}, 'v1')
    """
    version = open_version(root, newest)
    if version != newest:
        released = root / f"v{newest}"
        if all(
            (released / name).is_file() and (released / name).read_text(encoding="utf-8") == text
            for name, text in texts(newest).items()
        ):
            return {}, released
    target = root / f"v{version}"
    refuse_frozen(target)
    files = dict(texts(version))
    target.mkdir(parents=True, exist_ok=True)
    counts = {}
    for name, text in files.items():
        (target / name).write_text(text, encoding="utf-8", newline="\n")
        count = json.loads(text).get("count")
        if isinstance(count, int):
            counts[name] = count
    return counts, target
