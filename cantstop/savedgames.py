r"""Saved games of ``cantstop play``: where their records live, and how one is read and rewritten.

Every game of ``cantstop play`` is kept as a game record (``spec/record.md``)
whose header holds the seats and the seed (:class:`~cantstop.record.PlaySetup`).
A game started without a file of its own goes to the per-user folder of
:func:`games_folder`.  To resume a game, its record is read back
(:func:`read_record_text`; a last line cut short by a crash is split off), and
written afresh beside the old one with every claim, then put in its place in
one step (:func:`rewrite`), so that a crash leaves one or the other whole.

>>> games_folder().parts[-2:]
('cantstop', 'games')
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from cantstop.actions import Action
from cantstop.game import new_game
from cantstop.record import PlaySetup, RecordError, RecordHeader, RecordWriter

__all__ = [
    "create_in_folder",
    "create_record",
    "games_folder",
    "read_record_text",
    "rewrite",
]


def games_folder() -> Path:
    r"""Return the per-user folder where ``cantstop play`` keeps games started without ``--record``.

    It follows the platform's convention for application data, with
    ``cantstop/games`` inside:

    - Linux and other Unix systems: ``$XDG_DATA_HOME/cantstop/games``, and
      ``~/.local/share/cantstop/games`` when ``XDG_DATA_HOME`` is unset or not
      an absolute path (the XDG Base Directory convention);
    - macOS: ``~/Library/Application Support/cantstop/games``;
    - Windows: ``%LOCALAPPDATA%\cantstop\games``.

    >>> games_folder().parts[-2:]
    ('cantstop', 'games')
    """
    home = Path.home()
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or home / "AppData" / "Local")
    elif sys.platform == "darwin":
        base = home / "Library" / "Application Support"
    else:
        xdg = os.environ.get("XDG_DATA_HOME", "")
        base = Path(xdg) if os.path.isabs(xdg) else home / ".local" / "share"
    return base / "cantstop" / "games"


def create_record(path: Path, *, replace: bool = False) -> TextIO:
    """Return ``path`` opened to write a new record; raise :class:`FileExistsError` if it exists.

    With ``replace``, a file that exists is replaced instead.
    """
    return path.open("w" if replace else "x", encoding="utf-8")


def create_in_folder(folder: Path) -> tuple[Path, TextIO]:
    """Return a new record file in ``folder``, named by the time, and its path.

    The folder is made if need be; a second game in the same second gets a
    name of its own.  :class:`FileExistsError` means that no free name was
    found.
    """
    folder.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    for n in range(1, 1000):
        path = folder / (f"game-{stamp}.jsonl" if n == 1 else f"game-{stamp}-{n}.jsonl")
        try:
            return path, path.open("x", encoding="utf-8")
        except FileExistsError:
            continue
    raise FileExistsError(f"no free file name in {folder}")


def read_record_text(path: Path) -> tuple[str, str | None]:
    """Return the text of the record at ``path`` and the torn last line, if there is one.

    A line is written whole, newline last, so a last line without its newline
    that is not a JSON value was cut short by a crash: it is split off.
    """
    raw = path.read_bytes()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        if b"\n" not in raw[exc.start :]:
            # The tear cut a character in two: only the last line is affected.
            text = raw[: raw.rfind(b"\n") + 1].decode("utf-8", errors="strict")
            return text, raw[raw.rfind(b"\n") + 1 :].decode("utf-8", errors="replace")
        raise RecordError(line, f"not UTF-8 text: {exc.reason}") from None
    head, _, last = text.rpartition("\n")
    if last.strip():
        try:
            json.loads(last)
        except (ValueError, RecursionError):
            return head + "\n" if head else "", last
    return text, None


def rewrite(
    path: Path, header: RecordHeader, actions: Sequence[Action], setup: PlaySetup | None
) -> tuple[TextIO, RecordWriter]:
    """Write the record afresh beside ``path`` and put it in its place; keep it open to append.

    The new file has every claim and the header's ``play`` field; it takes
    the old one's place in one step (``os.replace``), so a crash leaves one
    or the other whole.
    """
    handle, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    out = os.fdopen(handle, "w", encoding="utf-8")
    try:
        shutil.copymode(path, tmp)
        writer = RecordWriter(out, header.rules, first_player=header.first_player, play=setup)
        state = new_game(header.rules, header.first_player)
        for action in actions:
            state = state.apply(action)
            writer.append(action, state)
        writer.sync()
        os.replace(tmp, path)
    except BaseException:
        out.close()
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    _sync_folder(path.parent)
    return out, writer


def _sync_folder(folder: Path) -> None:
    """Force a folder's entries (a file just renamed into it) to the disk, where possible."""
    if not hasattr(os, "O_DIRECTORY"):
        return
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    except OSError:
        pass  # some file systems cannot sync a folder; the rename itself is still atomic
    finally:
        os.close(fd)
