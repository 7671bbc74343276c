r"""Saved games of ``cantstop play``: where their records live, and how one is read and rewritten.

Every game of ``cantstop play`` is kept as a game record (``spec/record.md``)
whose header holds the seats and the seed (:class:`~cantstop.record.PlaySetup`).
A game started without a file of its own goes to the per-user folder of
:func:`games_folder`.  To resume a game, its record is read
back line by line (:class:`SavedGame`, in constant memory; a last line cut
short by a crash is left out), checked, and written afresh beside the old one
with every claim, then put in its place in one step (:meth:`dicekit.saved.Replay.keep`), so
that a crash leaves one or the other whole and a full disk leaves nothing
behind.

>>> games_folder().parts[-2:]
('cantstop', 'games')
"""

from __future__ import annotations

import os
import shutil
import sys
import time
from pathlib import Path
from typing import BinaryIO, TextIO, TypeAlias

from cantstop.record import MAX_LINE_BYTES, PlaySetup, RecordWriter, check_line, read_header
from cantstop.state import State, new_game
from dicekit import saved
from dicekit.saved import OpenRecord, beside, discard

__all__ = [
    "Replay",
    "SavedGame",
    "create_in_folder",
    "create_record",
    "games_folder",
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


class SavedGame(OpenRecord):
    """A saved game's record opened to be resumed: its header read at once, its lines streamed.

    ``path`` may be a symbolic link: the file it points to is read and, on
    :meth:`dicekit.saved.Replay.keep`, replaced, and the link stays a link.  Reading raises
    :class:`OSError` for a file that cannot be opened and
    :class:`~cantstop.record.RecordError` for a malformed header; use it as a
    context manager, or :meth:`~dicekit.saved.OpenRecord.close` it.

    >>> import io, tempfile
    >>> from pathlib import Path
    >>> from cantstop import Roll, Rules
    >>> from cantstop.record import write_record
    >>> folder = Path(tempfile.mkdtemp())
    >>> with (folder / "g.jsonl").open("w") as file:
    ...     _ = write_record(file, Rules(), [Roll((3, 4, 5, 5))])
    >>> with SavedGame(folder / "g.jsonl") as saved:
    ...     replay = saved.replay(PlaySetup(("human", "rule28"), 7))
    ...     file, writer = replay.keep()
    >>> replay.state, replay.actions
    (State('-/- - 0c3455'), 1)
    >>> file.close()
    >>> import shutil
    >>> shutil.rmtree(folder)
    """

    def __init__(self, path: Path) -> None:
        super().__init__(path, MAX_LINE_BYTES)

    def _read_header(self, lines: BinaryIO) -> None:
        self.header, self._records = read_header(lines)

    def replay(self, setup: PlaySetup | None) -> Replay:
        """Replay and check every line, writing the record afresh beside it; return the replay.

        The new file has the header's rules and first player, ``setup`` as its
        ``play`` field, and every action with every claim.  A line that breaks
        the record format or the rules raises
        :class:`~cantstop.record.RecordError`, and a file that cannot be written
        :class:`OSError`; neither leaves the new file behind.
        """
        header = self.header
        out, tmp = beside(self.path)
        try:
            shutil.copymode(self.path, tmp)
            writer = RecordWriter(out, header.rules, first_player=header.first_player, play=setup)
            state = new_game(header.rules, header.first_player)
            actions = 0
            for line in self._records:
                state = check_line(state, line)
                writer.append(line.action, state)
                actions += 1
        except BaseException:
            discard(out, tmp)
            raise
        torn = self._lines.torn
        return Replay(state, actions, torn, self.path, out, tmp, writer)


#: A Can't Stop game replayed and its record written afresh: the layer's replay
#: (:class:`dicekit.saved.Replay`) of a :class:`~cantstop.State` and its record writer.
Replay: TypeAlias = saved.Replay[State, RecordWriter]
