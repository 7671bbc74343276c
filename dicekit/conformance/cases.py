"""Vector files, known-failures files and the choice of cases: what a run is given.

A folder of vector files holds JSON files with a list of ``cases`` each, and
``schema.json``; a known-failures file lists case ids or globs, one a line.
"""

from __future__ import annotations

import fnmatch
import json
import re
from collections.abc import Collection, Iterable, Sequence
from pathlib import Path

from dicekit.conformance.suite import Case

__all__ = [
    "HarnessError",
    "files_version",
    "is_glob",
    "load_cases",
    "read_known_failures",
    "select",
    "suite_versions",
    "unmatched_entries",
]


class HarnessError(Exception):
    """A problem that keeps a run from starting: unreadable vectors or known-failures file."""


def load_cases(directory: Path, kinds: Collection[str]) -> list[Case]:
    """Read the cases of every vector file in ``directory`` (all ``*.json`` but the schema).

    Every case must have an id and one of the ``kinds`` the game's suite checks.

    Raise :class:`HarnessError` if ``directory`` is not a directory, holds no
    vector file, or holds a file that is not one (``spec/protocol.md``, "The
    vectors").
    """
    if not directory.is_dir():
        raise HarnessError(f"--vectors {directory} is not a folder of vector files")
    cases: list[Case] = []
    paths = [p for p in sorted(directory.glob("*.json")) if p.name != "schema.json"]
    if not paths:
        raise HarnessError(f"--vectors {directory} holds no vector files (*.json)")
    for path in paths:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, ValueError, RecursionError) as exc:
            raise HarnessError(f"cannot read {path}: {exc}") from None
        found = data.get("cases") if isinstance(data, dict) else None
        if not isinstance(found, list):
            raise HarnessError(f"{path} is not a vector file: it has no list of cases")
        for number, case in enumerate(found, start=1):
            if not (
                isinstance(case, dict)
                and isinstance(case.get("id"), str)
                and case.get("kind") in kinds
            ):
                raise HarnessError(
                    f"{path}: case {number} is not a case with an id and a known kind"
                )
            case["_file"] = path.name
            cases.append(case)
    return cases


def read_known_failures(path: Path) -> list[str]:
    """Return the entries of a known-failures file: case ids or globs, ``#`` starts a comment.

    Raise :class:`HarnessError` if the file cannot be read as UTF-8 text.
    """
    try:
        text = path.read_text(encoding="utf-8")
    except IsADirectoryError:
        raise HarnessError(f"cannot read {path}: it is a directory") from None
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise HarnessError(f"cannot read {path}: {reason}") from None
    patterns = []
    for line in text.splitlines():
        entry = line.split("#", 1)[0].strip()
        if entry:
            patterns.append(entry)
    return patterns


def is_glob(entry: str) -> bool:
    """Whether a known-failures entry is a glob (it has ``*``, ``?`` or ``[``) rather than an id.

    >>> is_glob("invalid-0*"), is_glob("spec-E137")
    (True, False)
    """
    return any(c in entry for c in "*?[")


def unmatched_entries(entries: Iterable[str], cases: Iterable[Case]) -> list[str]:
    """Return the known-failures entries that match no case (a typo, or a case since removed).

    >>> unmatched_entries(["spec-E001", "spec-X*", "apply-*"], [{"id": "spec-E001"}])
    ['spec-X*', 'apply-*']
    """
    ids = [c["id"] for c in cases]
    present = set(ids)
    return [
        e
        for e in entries
        if not (any(fnmatch.fnmatchcase(i, e) for i in ids) if is_glob(e) else e in present)
    ]


def select(cases: list[Case], run: Sequence[str], skip: Sequence[str]) -> list[Case]:
    """Keep the cases whose id matches a ``run`` glob (all if none) and no ``skip`` glob."""
    return [
        c
        for c in cases
        if (not run or any(fnmatch.fnmatchcase(c["id"], g) for g in run))
        and not any(fnmatch.fnmatchcase(c["id"], g) for g in skip)
    ]


def suite_versions(root: Path) -> list[int]:
    """Return the suite versions under ``root`` (folders ``v1``, ``v2``...), oldest first.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     for name in ("v2", "v10", "v1", "vx", "notes"):
    ...         (Path(tmp) / name).mkdir()
    ...     suite_versions(Path(tmp))
    [1, 2, 10]
    """
    if not root.is_dir():
        return []
    found = [p.name for p in root.iterdir() if p.is_dir() and re.fullmatch(r"v[1-9][0-9]*", p.name)]
    return sorted(int(name[1:]) for name in found)


def files_version(directory: Path) -> int | None:
    """Return the version every vector file in ``directory`` names in its header, or ``None``.

    ``None`` when the files name different versions, or one cannot be read.
    """
    seen = set()
    for path in sorted(directory.glob("*.json")):
        if path.name == "schema.json":
            continue
        try:
            head = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, ValueError, RecursionError):
            return None
        version = head.get("version") if isinstance(head, dict) else None
        seen.add(version if type(version) is int else None)
    return seen.pop() if len(seen) == 1 else None
