"""The verdict on a game record: one line saying it is valid, or where and why it is not.

:func:`report` replays a record and prints ``NAME: valid: N actions; final
state '...'``; :func:`report_error` prints the first bad line with its
number, the rules it breaks, the state before it and what was legal there,
and the same line on standard error for a command line.  Every game's
verifier prints through them (:func:`dicekit.record.verify_record`).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO, TextIO

from dicekit import recordlines

__all__ = ["report", "report_error"]


def report(
    path: Path,
    replay_file: Callable[[BinaryIO], tuple[str, int]],
    out: TextIO,
    err: TextIO | None = None,
    program: str = "verify",
) -> int:
    """Replay the record at ``path`` with ``replay_file``; print the verdict; return 0, or 1 if bad.

    ``replay_file`` replays an open binary file and returns the final state in
    notation and the number of actions, or raises :class:`~dicekit.recordlines.RecordError`.  A
    record that is not valid also gets one line ``PROGRAM: error: ...`` on ``err``.
    """
    name = path.name
    try:
        with path.open("rb") as file:
            final, actions = replay_file(file)
    except recordlines.RecordError as exc:
        return report_error(name, exc, out, err, program)
    count = "1 action" if actions == 1 else f"{actions} actions"
    print(f"{name}: valid: {count}; final state {final!r}", file=out)
    return 0


def report_error(
    name: str,
    exc: recordlines.RecordError,
    out: TextIO,
    err: TextIO | None = None,
    program: str = "verify",
) -> int:
    """Print the verdict on a bad record called ``name``: its line, rule, state; return 1.

    The line goes to ``out``, and to ``err`` as ``PROGRAM: error: ...``; the state
    before the line and what was legal there follow on ``out``.  When ``out``
    and ``err`` are one file (a terminal showing both, or ``2>&1``), the line is
    printed once, on ``out``: the reader would otherwise see it twice.

    >>> import io
    >>> from dicekit.record import RecordError
    >>> out = io.StringIO()
    >>> report_error("game.jsonl", RecordError(3, "hold is not legal", ("R2.5",), "0,0/0/0r"), out)
    1
    >>> print(out.getvalue(), end="")
    game.jsonl:3: hold is not legal (rule R2.5)
      state: 0,0/0/0r
      legal: none
    """
    # The legal alternatives get a line of their own; the engine's reason may list them too.
    listed = "; legal moves: " + ", ".join(exc.alternatives)
    reason = exc.reason.removesuffix(listed) if exc.alternatives else exc.reason
    text = f"{name}:{exc.line}: {reason}"
    if len(exc.rules) == 1:
        text += f" (rule {exc.rules[0]})"
    elif exc.rules:
        text += f" (rules {', '.join(exc.rules)})"
    print(text, file=out)
    if err is not None and not _one_file(out, err):
        print(f"{program}: error: {text}", file=err)
    if exc.state_text is not None:
        print(f"  state: {exc.state_text}", file=out)
        print(f"  legal: {' '.join(exc.alternatives) or 'none'}", file=out)
    return 1


def _one_file(out: TextIO, err: TextIO) -> bool:
    """Whether ``out`` and ``err`` write to the same open file (the same terminal, or ``2>&1``)."""
    try:
        return os.path.samestat(os.fstat(out.fileno()), os.fstat(err.fileno()))
    except (AttributeError, OSError, ValueError):  # no file: a StringIO, a closed stream
        return False
