"""How every command reports a problem: one line on stderr and an exit status.

A command ends with one of the statuses of :class:`ExitStatus`: 0 on success,
1 when a rule or a check failed, 2 on a usage or harness error, 3 on an
internal error (a bug) and 130 when Ctrl-C stopped it.  A problem is one line
on stderr, ``cantstop COMMAND: error: ...``, and never a traceback; a warning
is one line ``cantstop COMMAND: warning: ...``.  To see where an internal
error arose, set the environment variable :data:`TRACEBACK_VARIABLE`
(``CANTSTOP_TRACEBACK=1``): the traceback then follows the error line.  At a
terminal, an error in notation also shows the text with a caret under the
offending character
(:class:`~cantstop.NotationError` cuts a long text around it).  A line is
never longer than :data:`MAX_LINE` characters, however long the text it quotes.

Every command reports through :func:`report_error`, so the wording, the caret,
the cut and the status are the same everywhere:

>>> import io
>>> from cantstop import parse_state
>>> err = io.StringIO()
>>> try:
...     parse_state('7:2/- 7:99 0d')
... except ValueError as exc:
...     status = report_error('show', exc, err)
>>> status
<ExitStatus.FAILED: 1>
>>> print(err.getvalue(), end='')
cantstop show: error: at position 8: a marker in column 7 is on space 99; ...(rule R16.2)
"""

from __future__ import annotations

import enum
import os
import sys
import traceback
from typing import TextIO

from dicekit.errors import GameError, NotationError
from dicekit.quote import brief

__all__ = [
    "INTERRUPTED",
    "MAX_LINE",
    "TRACEBACK_VARIABLE",
    "ExitStatus",
    "UsageError",
    "error_line",
    "quoted",
    "report_error",
    "report_warning",
]


class ExitStatus(enum.IntEnum):
    """The exit status of a command, the same for every command."""

    #: The command did what it was asked.
    SUCCESS = 0
    #: A rule or a check failed: an illegal state, action or record, a failing case.
    FAILED = 1
    #: A usage or harness error: a bad option, an unusable file, a port that cannot run.
    USAGE = 2
    #: An internal error: a bug in this program, not in what it was given.
    INTERNAL = 3
    #: Ctrl-C stopped the command (128 + SIGINT, as shells report it).
    INTERRUPTED = 130


#: The exit status of a run stopped by Ctrl-C (128 + SIGINT), as shells report it.
INTERRUPTED = int(ExitStatus.INTERRUPTED)

#: The longest line of a report, in characters; a longer message is cut, saying by how much.
MAX_LINE = 400

#: The environment variable that, set to anything but ``""`` or ``0``, adds the traceback of
#: an internal error after its error line.
TRACEBACK_VARIABLE = "CANTSTOP_TRACEBACK"


class UsageError(Exception):
    """A command line that asks for something the command cannot do: exit status 2.

    The message is one line saying what is wrong and, where it helps, what
    would be right; :func:`~cantstop.commands.report.report_error` prints it as
    ``cantstop COMMAND: error: ...``.
    """


def quoted(text: str) -> str:
    """Return ``text`` quoted for a message: in full when short, cut with its length when long.

    Every command quotes what a user typed with this, so a 5,000-digit number
    or a 120 KB line is named in a few words.

    >>> quoted('wizard')
    "'wizard'"
    >>> quoted('9' * 5000)
    "'999999999999999999999999999999…' (5,000 characters)"
    """
    return brief(text)


def _one_line(message: str) -> str:
    """``message`` on one line (runs of white space made one space), cut at :data:`MAX_LINE`."""
    text = " ".join(message.split())
    if len(text) <= MAX_LINE:
        return text
    return f"{text[: MAX_LINE - 40]}… ({len(text) - MAX_LINE + 40:,} more characters)"


def error_line(command: str, message: str, kind: str = "error") -> str:
    """Return the one line that reports ``message`` for ``command``, without its line end.

    ``command`` is the subcommand's name (``"verify"``), or ``""`` for the
    ``cantstop`` command itself; ``kind`` is ``"error"`` or ``"warning"``.

    >>> error_line('play', 'no such record: x.jsonl')
    'cantstop play: error: no such record: x.jsonl'
    >>> len(error_line('show', 'x' * 100_000)) <= MAX_LINE + len('cantstop show: error: ')
    True
    """
    prefix = f"cantstop {command}" if command else "cantstop"
    return f"{prefix}: {kind}: {_one_line(message)}"


def _os_error(exc: OSError) -> str:
    """Describe a failed file operation in one line: what, where and why."""
    why = exc.strerror or str(exc) or type(exc).__name__
    if exc.filename is None:
        return why
    return f"{exc.filename}: {why}"


def _write(stream: TextIO, text: str) -> None:
    """Write ``text`` to ``stream``; what its encoding cannot hold is written as escapes."""
    try:
        stream.write(text)
    except UnicodeEncodeError:
        stream.write(text.encode("ascii", "backslashreplace").decode("ascii"))
    stream.flush()


def report_error(
    command: str,
    problem: BaseException | str,
    stream: TextIO | None = None,
    *,
    status: ExitStatus | None = None,
) -> ExitStatus:
    r"""Report ``problem`` as the error line of ``command`` on ``stream``; return the exit status.

    This is the one way a command reports a problem; any command, those of
    other packages included, calls it instead of printing its own line:

    - :class:`~cantstop.commands.report.UsageError` and :class:`OSError` (a file
      that cannot be used) are usage errors, status 2;
    - :class:`~cantstop.CantStopError` (an illegal state, action or record),
      and any game's :class:`~dicekit.errors.GameError`, is a failed rule,
      status 1; a :class:`~cantstop.NotationError` also shows
      the text and a caret under the offending character when ``stream`` is a
      terminal;
    - a message given as text is reported with ``status`` (default 1);
    - any other exception is an internal error, status 3, named by its type;
      with :data:`~cantstop.commands.report.TRACEBACK_VARIABLE` set, its traceback follows the line.

    ``command`` is the subcommand's name (``"verify"``); ``stream`` defaults to
    ``sys.stderr``; ``status``, when given, overrides the status of the kind.

    >>> import io
    >>> err = io.StringIO()
    >>> report_error('verify', UsageError('- (stdin) is not read: give the record as a file'), err)
    <ExitStatus.USAGE: 2>
    >>> err.getvalue()
    'cantstop verify: error: - (stdin) is not read: give the record as a file\n'
    """
    out = sys.stderr if stream is None else stream
    extra: list[str] = []
    if isinstance(problem, str):
        message, kind = problem, ExitStatus.FAILED
    elif isinstance(problem, UsageError):
        message, kind = str(problem), ExitStatus.USAGE
    elif isinstance(problem, GameError):
        message, *extra = str(problem).splitlines() or [type(problem).__name__]
        kind = ExitStatus.FAILED
        if not (isinstance(problem, NotationError) and _isatty(out)):
            extra = []  # the quoted text and its caret are for a reader at a terminal
    elif isinstance(problem, OSError):
        message, kind = _os_error(problem), ExitStatus.USAGE
    else:
        detail = str(problem)
        name = type(problem).__name__
        message = f"internal error, a bug in cantstop: {name}" + (f": {detail}" if detail else "")
        kind = ExitStatus.INTERNAL
        if _traceback_wanted():
            extra = "".join(traceback.format_exception(problem)).rstrip("\n").splitlines()
        else:
            message += f" (set {TRACEBACK_VARIABLE}=1 to see where)"
    _write(out, error_line(command, message) + "\n" + "".join(line + "\n" for line in extra))
    return kind if status is None else status


def report_warning(command: str, message: str, stream: TextIO | None = None) -> None:
    r"""Report ``message`` as the one warning line of ``command`` (on ``sys.stderr`` by default).

    >>> import io
    >>> err = io.StringIO()
    >>> report_warning('play', 'the last line was cut short', err)
    >>> err.getvalue()
    'cantstop play: warning: the last line was cut short\n'
    """
    _write(sys.stderr if stream is None else stream, error_line(command, message, "warning") + "\n")


def _traceback_wanted() -> bool:
    """Return whether the environment asks for the traceback of an internal error."""
    return os.environ.get(TRACEBACK_VARIABLE, "") not in ("", "0")


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # a closed stream, or one without a terminal
        return False
