"""Saved games of any game: a record read back to be played on, and written afresh in its place.

A game played in the terminal (:mod:`dicekit.play`) is kept as a record in
the layer's format (:mod:`dicekit.recordform`) whose header's ``play`` field
holds the seats and the seed.  To play it on, :class:`SavedGame` reads the
record back line by line, in constant memory, leaving out a last line that a
crash cut short (:class:`WithoutTornTail`); :meth:`SavedGame.replay` checks
every line and writes the record afresh beside the old one with every claim,
and :meth:`Replay.keep` puts it in its place in one step, so that a crash
leaves one or the other whole and a full disk leaves nothing behind.

>>> import tempfile
>>> from tests.dicekit.toy import TOY  # the layer's toy game
>>> from dicekit.record import write_record
>>> folder, config = Path(tempfile.mkdtemp()), TOY.config(2)
>>> first_throw = TOY.chance_outcomes(TOY.new_game(config))[0][0]
>>> with (folder / "g.jsonl").open("w") as file:
...     _ = write_record(file, TOY, config, [first_throw])
>>> with SavedGame(TOY, folder / "g.jsonl") as saved:
...     replay = saved.replay({"seats": ["human", "random"], "seed": 7})
...     file, writer = replay.keep()
>>> replay.actions, saved.play
(1, None)
>>> file.close()
>>> import shutil
>>> shutil.rmtree(folder)
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO, Generic, Protocol, Self, TextIO, TypeVar, cast

from dicekit.protocol import Game
from dicekit.record import BLANK, RecordWriter, read_record
from dicekit.recordform import LAYER_FORMAT, RecordHeader, apply_with_event
from dicekit.recordlines import MAX_LINE_BYTES, RecordError, brief

__all__ = [
    "MAX_SEED",
    "OpenRecord",
    "Replay",
    "SavedGame",
    "StateT",
    "Syncs",
    "WithoutTornTail",
    "WriterT",
    "beside",
    "discard",
    "sync_folder",
]

#: The largest seed a header's ``play`` field may hold (seeds are below 2**64).
MAX_SEED = 2**64 - 1


class WithoutTornTail(io.BufferedIOBase):
    """A record file read line by line, holding back a last line that a crash cut short.

    A line is written whole, newline last, so a last line without its newline
    that is not UTF-8 or not a JSON value was cut short while it was written:
    it is kept in :attr:`torn` instead of being read.  One line is read ahead,
    never more than ``limit`` bytes and one, so the file streams in constant
    memory, however long it is.
    """

    def __init__(self, raw: BinaryIO, limit: int = MAX_LINE_BYTES) -> None:
        super().__init__()
        self._raw = raw
        self._read = limit + 1
        self._ahead = raw.readline(self._read)
        #: The last line, when it was cut short; ``None`` until then, and when it was not.
        self.torn: bytes | None = None

    def readable(self) -> bool:
        """Return ``True``: the file is read."""
        return True

    def readline(self, size: int | None = -1) -> bytes:
        """Return the next line, or ``b""`` at the end and in place of a torn last line."""
        line = self._ahead
        if not line:
            return b""
        self._ahead = self._raw.readline(self._read)
        if not self._ahead and not line.endswith(b"\n") and cut_short(line):
            self.torn = line
            return b""
        return line


def cut_short(line: bytes) -> bool:
    """Return whether a last line without its newline is the start of a line never finished."""
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError:  # the cut fell inside a character
        return True
    if not text.strip(BLANK):
        return False
    try:
        json.loads(text)
    except (ValueError, RecursionError):
        return True
    return False


def beside(path: Path) -> tuple[TextIO, str]:
    """Return a new hidden file in ``path``'s folder, open to write, and its name."""
    handle, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    return os.fdopen(handle, "w", encoding="utf-8"), tmp


def discard(out: TextIO, tmp: str) -> None:
    """Remove a new file that is not wanted, even on a full disk.

    It is unlinked first: closing it flushes what is left in its buffer, which
    fails again on a full disk.
    """
    with contextlib.suppress(OSError):
        os.unlink(tmp)
    with contextlib.suppress(OSError):
        out.close()


def sync_folder(folder: Path) -> None:
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


def _play_field(game: Game[Any, Any, Any], header: RecordHeader, value: object) -> dict[str, Any]:
    """Check a header's ``play`` field: a seat name per player and a seed; return it."""
    players = game.player_count(header.config)
    if not isinstance(value, dict) or set(value) != {"seats", "seed"}:
        raise RecordError(1, "the header's 'play' is an object with the fields seats and seed")
    seats, seed = value["seats"], value["seed"]
    if not (
        isinstance(seats, list)
        and len(seats) == players
        and all(isinstance(s, str) and s for s in seats)
    ):
        raise RecordError(
            1, f"the header's 'play' seats are {players} names, one per player, not {brief(seats)}"
        )
    if type(seed) is not int or not 0 <= seed <= MAX_SEED:
        raise RecordError(
            1, f"the header's 'play' seed is an integer from 0 to {MAX_SEED}, not {brief(seed)}"
        )
    return value


class OpenRecord:
    """A record file opened to be read: its header at once, then its lines one by one.

    ``path`` may be a symbolic link; :attr:`path` is the file it points to.
    The lines are read through :class:`WithoutTornTail` (at most ``limit``
    bytes a line), so a last line that a crash cut short is left out.  A
    subclass reads the header in ``_read_header``; when that raises, the
    file is closed before the error goes on.  Use it as a context manager, or
    :meth:`close` it.
    """

    def __init__(self, path: Path, limit: int = MAX_LINE_BYTES) -> None:
        #: The file read and rewritten: ``path`` with every symbolic link followed.
        self.path = Path(os.path.realpath(path))
        self._file = self.path.open("rb")
        try:
            self._lines = WithoutTornTail(cast(BinaryIO, self._file), limit)
            self._read_header(cast(BinaryIO, self._lines))
        except BaseException:
            self._file.close()
            raise

    def _read_header(self, lines: BinaryIO) -> None:
        """Read the header from ``lines``, keeping what the subclass needs to replay the rest."""
        raise NotImplementedError

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Close the record being read."""
        self._file.close()


class SavedGame(OpenRecord):
    """A saved game's record opened to be played on: its header read at once, its lines streamed.

    The record is in the layer's format.  ``path`` may be a symbolic link: the
    file it points to is read and, on :meth:`Replay.keep`, replaced.  Reading
    raises :class:`OSError` for a file that cannot be opened and
    :class:`~dicekit.recordlines.RecordError` for a malformed header; use it
    as a context manager, or :meth:`~OpenRecord.close` it.
    """

    def __init__(self, game: Game[Any, Any, Any], path: Path) -> None:
        self.game = game
        super().__init__(path)

    def _read_header(self, lines: BinaryIO) -> None:
        self.header, self._records = read_record(self.game, lines, LAYER_FORMAT)
        #: The header's ``play`` field (seats and seed), or ``None`` when it has none.
        self.play: dict[str, Any] | None = None
        if self.header.play is not None:
            self.play = _play_field(self.game, self.header, self.header.play)

    def replay(self, play: Mapping[str, Any] | None) -> Replay[Any, RecordWriter]:
        """Replay and check every line, writing the record afresh beside it; return the replay.

        The new file has the header's configuration and first player, ``play``
        as its ``play`` field, and every action with every claim.  A bad line
        raises :class:`~dicekit.recordlines.RecordError`, and a file that
        cannot be written :class:`OSError`; neither leaves the new file behind.
        """
        game, header = self.game, self.header
        out, tmp = beside(self.path)
        try:
            shutil.copymode(self.path, tmp)
            writer = RecordWriter(
                out,
                game,
                header.config,
                first_player=header.first_player,
                play=play,
                form=LAYER_FORMAT,
            )
            state = game.new_game(header.config, header.first_player)
            actions = 0
            for line in self._records:
                before = state
                state = LAYER_FORMAT.check_line(game, before, line)
                writer.append(line.action, state, _event(game, before, line.action))
                actions += 1
        except BaseException:
            discard(out, tmp)
            raise
        return Replay(state, actions, self._lines.torn, self.path, out, tmp, writer)


def _event(game: Game[Any, Any, Any], state: Any, action: Any) -> str | None:
    """Return the event of ``action`` in ``state``, ``None`` for a game without events."""
    return apply_with_event(game, state, action)[1]


class Syncs(Protocol):
    """A record writer that can force what it wrote to the disk."""

    def sync(self) -> None:
        """Flush the record and force it to the disk."""


#: The state a replay ends in (any game's).
StateT = TypeVar("StateT")
#: The writer of a replay's record (any game's).
WriterT = TypeVar("WriterT", bound=Syncs)


@dataclass
class Replay(Generic[StateT, WriterT]):
    """A saved game replayed to its last action, and its record written afresh, not yet in place.

    The same for every game: each uses it with its own state and record writer.
    """

    #: The state after the last action.
    state: StateT
    #: How many actions the record holds.
    actions: int
    #: The last line, when it was cut short by a crash and left out; else ``None``.
    torn: bytes | None
    #: The record file the new one replaces.
    path: Path
    _out: TextIO
    _tmp: str
    _writer: WriterT

    def keep(self) -> tuple[TextIO, WriterT]:
        """Put the new record in the old one's place; return it open, and its writer, to append.

        The new file is forced to the disk, then takes the old one's place in
        one step (``os.replace``), so a crash leaves one or the other whole.
        """
        try:
            self._writer.sync()
            os.replace(self._tmp, self.path)
        except BaseException:
            discard(self._out, self._tmp)
            raise
        sync_folder(self.path.parent)
        return self._out, self._writer

    def discard(self) -> None:
        """Leave the old record as it is, and remove the new one."""
        discard(self._out, self._tmp)
