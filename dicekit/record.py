"""Game records of any game: one game as JSON lines, written, read and verified by replaying it.

A record is a header line naming the game and how it is set up, then one
line per action in its JSON form, chance's actions included, so that any
program that knows the rules replays it exactly.  A line may add claims (the
state after the action, its event, the legal actions after it); a verifier
checks each claim it is given.  Reading streams one line at a time
(:mod:`dicekit.recordlines`), so a record of any length replays in constant
memory; the first bad line is reported with its number, the rule it breaks,
the state before it and the actions that were legal (``spec/record.md``,
:mod:`dicekit.recordreport`).

This module reads, replays, writes and verifies the records of every game.
What the header and the lines hold is a :class:`RecordFormat`: the layer's
own (:mod:`dicekit.recordform`, whose header names the game), or a format
of the game's own, which a game declares
(:attr:`~dicekit.protocol.Capability.OWN_RECORDS`) and which then reads
every header not in the layer's format.  A header that names no game
(:func:`header_game`) is read as the game the caller says.

>>> import io
>>> header = '{"record": "dicekit", "version": 1, "game": "toy", "config": {}}'
>>> header_game(io.StringIO(header)), header_game(io.StringIO('{"record": "old"}'))
('toy', None)
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import sys
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any, BinaryIO, Protocol, TextIO

from dicekit import recordlines
from dicekit.protocol import JSON, Capability, Game, capable
from dicekit.recordform import (
    FORMAT,
    LAYER_FORMAT,
    RECORD_VERSION,
    RecordHeader,
    RecordLine,
    apply_with_event,
    legal_alternatives,
)
from dicekit.recordlines import MAX_LINE_BYTES, RecordError, load_object, numbered_lines
from dicekit.recordlines import brief as _brief
from dicekit.recordreport import report, report_error

__all__ = [
    "BLANK",
    "FORMAT",
    "LAYER_FORMAT",
    "MAX_LINE_BYTES",
    "RECORD_VERSION",
    "OwnRecords",
    "RecordError",
    "RecordFormat",
    "RecordHeader",
    "RecordLine",
    "RecordWriter",
    "check_line",
    "header_game",
    "legal_alternatives",
    "load_object",
    "numbered_lines",
    "read_header",
    "read_record",
    "record_format",
    "replay",
    "report",
    "report_error",
    "verify_record",
    "write_record",
]


#: The characters of a blank line: JSON's white space (RFC 8259), a line's end among them.
#: Any other, a form feed or a no-break space too, makes the line one to read as JSON.
BLANK = " \t\r\n"


def _objects(
    file: Iterable[str] | BinaryIO, form: RecordFormat
) -> Iterator[tuple[int, dict[str, Any]]]:
    """Yield the number and JSON object of every line that is not blank, errors in ``form``'s."""
    try:
        for number, text in numbered_lines(file, form.max_line_bytes()):
            if text.strip(BLANK):
                yield number, load_object(number, text, form.describe)
    except RecordError as exc:
        raise form.error(exc.line, exc.reason) from None


def header_game(file: Iterable[str] | BinaryIO) -> str | None:
    """Return the game a record's header names, or ``None`` when it names none.

    Only the first line that is not blank is read.  A header that cannot be
    read names no game here: the reader of the record reports what is wrong.
    A ``game`` that is not a name raises :class:`~dicekit.recordlines.RecordError`.  Which game
    a header without the field is of is the command line's to say.
    """
    return read_header(file)[1]


def read_header(file: Iterable[str] | BinaryIO) -> tuple[bool, str | None]:
    """Return whether a record's header can be read at all, and the game it names.

    ``(False, None)`` for a record that is empty, or whose first line that is
    not blank is no JSON object (its reader then says what is wrong, at line
    1 or wherever that line is); ``(True, None)`` for a header without
    ``game``.  A ``game`` that is not a name raises
    :class:`~dicekit.recordlines.RecordError`.

    >>> import io
    >>> read_header(io.StringIO('{"record": "old"}')), read_header(io.StringIO("not json"))
    ((True, None), (False, None))
    """
    try:
        for number, header in _objects(file, LAYER_FORMAT):
            game = header.get("game")
            if game is None or isinstance(game, str):
                return True, game
            raise RecordError(number, f"the header's 'game' is a game's name, not {_brief(game)}")
    except RecordError as exc:
        if exc.reason.startswith("the header's 'game'"):
            raise
    return False, None


# -- formats ---------------------------------------------------------------------------------


class RecordFormat(Protocol):
    """How a record is laid out: its header, its action lines and their claims.

    The layer reads lines, replays, writes and reports for every game
    (:func:`read_record`, :func:`replay`, :class:`RecordWriter`,
    :func:`verify_record`); a format says what the lines hold and what a
    false claim is called.  The layer's own is :data:`~dicekit.recordform.LAYER_FORMAT`; a game
    with a format of its own declares :attr:`~dicekit.protocol.Capability.OWN_RECORDS`.
    Every error a format raises is a :class:`~dicekit.recordlines.RecordError`.
    """

    def describe(self, value: object) -> str:
        """Return ``value``, a JSON value, quoted briefly for a message."""
        ...

    def max_line_bytes(self) -> int:
        """Return the longest line a reader takes, in bytes with its line end."""
        ...

    def error(self, line: int, reason: str) -> recordlines.RecordError:
        """Return the format's error for line ``line``, which is not a record line."""
        ...

    def read_header(self, game: Game[Any, Any, Any], number: int, obj: dict[str, Any]) -> Any:
        """Return the header of line ``number`` (with ``config`` and ``first_player``)."""
        ...

    def read_line(self, game: Game[Any, Any, Any], number: int, obj: dict[str, Any]) -> Any:
        """Return action line ``number``: its action (``line.action``) and claims."""
        ...

    def header(
        self, game: Game[Any, Any, Any], config: Any, first_player: int, play: Any
    ) -> dict[str, JSON]:
        """Return the header of a new record; refuse a setup the rules forbid."""
        ...

    def line(
        self, game: Game[Any, Any, Any], action: Any, after: Any, event: str | None, claims: bool
    ) -> dict[str, JSON]:
        """Return the line of ``action``, which led to ``after``; with its claims if ``claims``."""
        ...

    def check_line(self, game: Game[Any, Any, Any], state: Any, line: Any) -> Any:
        """Apply the action of ``line`` to ``state``, check its claims; return the new state."""
        ...


class OwnRecords(Protocol):
    """:attr:`~dicekit.protocol.Capability.OWN_RECORDS`: a record format of the game's own.

    Records in the layer's format (a header whose ``record`` is
    :data:`~dicekit.recordform.FORMAT`) are read in it still; the game's own format reads every
    other header and writes the game's new records.
    """

    def record_format(self) -> RecordFormat:
        """Return the game's own record format."""
        ...


def record_format(
    game: Game[Any, Any, Any], header: Mapping[str, Any] | None = None
) -> RecordFormat:
    """Return the format of a record of ``game`` with ``header``, or of its new records.

    The layer's format names the game in its header.  A game with a format of
    its own (:class:`OwnRecords`) has its records read in it when their
    header names no game, and writes its new records in it; every other
    record is in :data:`~dicekit.recordform.LAYER_FORMAT`.
    """
    own = capable(game, Capability.OWN_RECORDS)
    if own is None or (header is not None and "game" in header):
        return LAYER_FORMAT
    return own.record_format()


def _read(
    game: Game[Any, Any, Any], file: Iterable[str] | BinaryIO, form: RecordFormat | None = None
) -> tuple[RecordFormat, Any, Iterator[Any]]:
    preferred = record_format(game) if form is None else form
    lines = _objects(file, preferred)
    try:
        number, obj = next(lines)
    except StopIteration:
        raise preferred.error(1, "the record is empty: it needs a header line") from None
    form = record_format(game, obj) if form is None else form
    header = form.read_header(game, number, obj)
    return form, header, (form.read_line(game, n, o) for n, o in lines)


def read_record(
    game: Game[Any, Any, Any], file: Iterable[str] | BinaryIO, form: RecordFormat | None = None
) -> tuple[Any, Iterator[Any]]:
    """Read the header of a record of ``game``; return it and the action lines to come.

    The lines are read lazily; a malformed line raises
    :class:`~dicekit.recordlines.RecordError` with its number when it is
    reached.  ``file`` is best a binary file (see
    :func:`~dicekit.recordlines.numbered_lines`).  The format is ``form``, or
    else the one :func:`record_format` gives for the header.  In the layer's
    format the header is a :class:`~dicekit.recordform.RecordHeader` and the
    lines :class:`~dicekit.recordform.RecordLine`; a game's own format has its
    own.
    """
    _, header, lines = _read(game, file, form)
    return header, lines


# -- writing ---------------------------------------------------------------------------


class RecordWriter:
    """Write a record of ``game`` to ``file``: the header at once, then one line per :meth:`append`.

    The record is in the game's format (:func:`record_format`).  With
    ``claims`` (the default) each line also gives what the format claims
    (in the layer's: the state after the action, its event and the legal
    actions after it).  ``play`` is the header's optional ``play`` field,
    written by a program that seats people and bots (in the layer's format
    ``{"seats": [...], "seed": n}``).  ``form`` writes in another format than
    the game's own, as when a record is written afresh in the format it was
    read in.  Each line is flushed as it is written.
    """

    def __init__(
        self,
        file: TextIO,
        game: Game[Any, Any, Any],
        config: Any,
        *,
        first_player: int = 0,
        claims: bool = True,
        play: Any = None,
        form: RecordFormat | None = None,
    ) -> None:
        self._format = record_format(game) if form is None else form
        header = self._format.header(game, config, first_player, play)
        self._file = file
        self._game = game
        self._claims = claims
        self._write(header)

    def _write(self, obj: dict[str, Any]) -> None:
        self._file.write(json.dumps(obj, separators=(",", ":")) + "\n")
        self._file.flush()

    def append(self, action: Any, after: Any, event: str | None = None) -> None:
        """Write the line of ``action``, whose result is ``after`` (and ``event``), and flush."""
        self._write(self._format.line(self._game, action, after, event, self._claims))

    def sync(self) -> None:
        """Force what is written to the disk (nothing to do for a file that has no descriptor)."""
        with contextlib.suppress(io.UnsupportedOperation, AttributeError, ValueError):
            os.fsync(self._file.fileno())


def write_record(
    file: TextIO,
    game: Game[Any, Any, Any],
    config: Any,
    actions: Iterable[Any],
    *,
    first_player: int = 0,
    claims: bool = True,
) -> Any:
    """Play ``actions`` from the opening state, write them as a record, and return the end state.

    An illegal action raises the game's ``IllegalAction`` after the lines
    before it have been written.
    """
    writer = RecordWriter(file, game, config, first_player=first_player, claims=claims)
    state = game.new_game(config, first_player)
    for action in actions:
        state, event = apply_with_event(game, state, action)
        writer.append(action, state, event)
    return state


# -- replaying -------------------------------------------------------------------------


def check_line(game: Game[Any, Any, Any], state: Any, line: Any) -> Any:
    """Apply the action of ``line`` to ``state``, check its claims, and return the new state.

    The line's format checks it: the layer's for a :class:`~dicekit.recordform.RecordLine`,
    otherwise the game's own.
    """
    form = LAYER_FORMAT if isinstance(line, RecordLine) else record_format(game)
    return form.check_line(game, state, line)


def replay(
    game: Game[Any, Any, Any], file: Iterable[str] | BinaryIO, form: RecordFormat | None = None
) -> tuple[Any, int]:
    """Replay a record of ``game`` from ``file``, checking every line; return the end and the count.

    ``form`` is as for :func:`read_record`.  Raise :class:`~dicekit.recordlines.RecordError` at
    the first bad line.
    """
    form, header, lines = _read(game, file, form)
    state = game.new_game(header.config, header.first_player)
    count = 0
    for line in lines:
        state = form.check_line(game, state, line)
        count += 1
    return state, count


def verify_record(
    game: Game[Any, Any, Any],
    path: str | os.PathLike[str],
    out: TextIO | None = None,
    err: TextIO | None = None,
    program: str = "verify",
) -> int:
    """Check the record of ``game`` at ``path``; print the verdict to ``out``; return 0 or 1."""

    def replay_file(file: BinaryIO) -> tuple[str, int]:
        final, count = replay(game, file)
        return game.format_state(final), count

    return report(Path(path), replay_file, sys.stdout if out is None else out, err, program)
