"""The frozen-hash list of a suite: every file of a released version, held to its sha256.

A released version of a suite never changes, so that a port that passes it
keeps passing it.  The suite's folder (``conformance/``, beside ``v1/``,
``v2/``...) holds ``frozen.json``: for each released version, the sha256 of
each of its files.  :func:`check_frozen` names every file that changed,
went missing or was added; :func:`freeze` adds a version to the list when it
is released; ``refuse_frozen`` keeps a generator from writing into one, and
:func:`open_version` says where a suite's next change goes: into the newest
version while it is being prepared, and once that is released, into the
next, which the change opens.

>>> import tempfile
>>> with tempfile.TemporaryDirectory() as tmp:
...     root = Path(tmp)
...     (root / "v1").mkdir()
...     _ = (root / "v1" / "moves.json").write_text("{}")
...     freeze(root, 1)
...     _ = (root / "v1" / "moves.json").write_text("{ }")
...     check_frozen(root)
['v1/moves.json has changed since v1 was released']
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

__all__ = [
    "FROZEN_FILE",
    "FrozenError",
    "check_frozen",
    "file_hashes",
    "freeze",
    "open_version",
    "read_frozen",
]

#: The name of the list, in the folder of a suite's versions.
FROZEN_FILE = "frozen.json"


class FrozenError(Exception):
    """A released version that would be written, or a frozen-hash list that cannot be read."""


def file_hashes(folder: Path) -> dict[str, str]:
    """Return the sha256 of every file in ``folder``, by name, sorted by name."""
    return {
        path.name: hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(folder.iterdir())
        if path.is_file()
    }


def read_frozen(root: Path) -> dict[str, dict[str, str]]:
    """Return the frozen-hash list of the suite in ``root``: version folder -> file -> sha256.

    A suite with no list has released nothing: the answer is empty.
    """
    path = root / FROZEN_FILE
    if not path.exists():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise FrozenError(f"cannot read {path}: {exc}") from None
    if not (
        isinstance(data, dict)
        and all(
            isinstance(files, dict) and all(isinstance(h, str) for h in files.values())
            for files in data.values()
        )
    ):
        raise FrozenError(f"{path} is not a frozen-hash list: version -> file -> sha256")
    return data


def check_frozen(root: Path) -> list[str]:
    """Return what differs from the frozen-hash list in ``root``: one line a file, or nothing."""
    problems = []
    for version, listed in read_frozen(root).items():
        folder = root / version
        found = file_hashes(folder) if folder.is_dir() else {}
        for name in sorted(set(listed) | set(found)):
            if name not in found:
                problems.append(f"{version}/{name} is missing; {version} was released with it")
            elif name not in listed:
                problems.append(f"{version}/{name} was added after {version} was released")
            elif found[name] != listed[name]:
                problems.append(f"{version}/{name} has changed since {version} was released")
    return problems


def freeze(root: Path, version: int) -> None:
    """Add version ``version`` of the suite in ``root`` to its frozen-hash list.

    Raise :class:`FrozenError` if the version is frozen already or has no files.
    """
    listed = read_frozen(root)
    name = f"v{version}"
    if name in listed:
        raise FrozenError(f"{name} is frozen already")
    folder = root / name
    hashes = file_hashes(folder) if folder.is_dir() else {}
    if not hashes:
        raise FrozenError(f"{folder} holds no files to freeze")
    listed[name] = hashes
    text = json.dumps(dict(sorted(listed.items(), key=lambda kv: int(kv[0][1:]))), indent=1)
    (root / FROZEN_FILE).write_text(text + "\n", encoding="utf-8", newline="\n")


def open_version(root: Path, newest: int) -> int:
    """Return the version of the suite in ``root`` that its next change goes into.

    That is ``newest``, the newest version installed, while it is being
    prepared; once it is released (in the frozen-hash list), the next change
    opens the version after it.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     root = Path(tmp)
    ...     (root / "v1").mkdir()
    ...     _ = (root / "v1" / "moves.json").write_text("{}")
    ...     before = open_version(root, 1)
    ...     freeze(root, 1)
    ...     before, open_version(root, 1)
    (1, 2)
    """
    return newest + 1 if f"v{newest}" in read_frozen(root) else newest


def refuse_frozen(directory: Path) -> None:
    """Raise :class:`FrozenError` if ``directory`` is a version its suite's list has frozen."""
    if directory.name in read_frozen(directory.parent):
        raise FrozenError(
            f"{directory} is a released version of the suite, which is frozen: "
            "a change to its answers is a new version"
        )
