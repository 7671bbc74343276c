"""``cantstop verify``: check a game record (``spec/record.md``) line by line.

The record is read as a stream, so memory stays constant however long the game.
The first bad line is reported with its number, the rule it breaks, the state
before it in notation and the legal alternatives.

>>> import tempfile, pathlib
>>> from cantstop import Move, Roll, Rules, Stop
>>> from cantstop.record import write_record
>>> with tempfile.TemporaryDirectory() as tmp:
...     path = pathlib.Path(tmp) / "game.jsonl"
...     with path.open("w") as f:
...         _ = write_record(f, Rules(), [Roll((3, 4, 5, 5)), Move((7, 10)), Stop()])
...     status = verify_record(path)
game.jsonl: valid: 3 actions; final state '7:1,10:1/- - 1r'
>>> status
0
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import BinaryIO, TextIO

from cantstop.notation import format_state
from cantstop.record import check_line, iter_record
from cantstop.state import new_game
from dicekit.record import report

__all__ = ["verify_record"]


def _replay(file: BinaryIO) -> tuple[str, int]:
    """Replay a Can't Stop record; return the final state in notation and the number of actions."""
    rules, first, lines = iter_record(file)
    state = new_game(rules, first)
    actions = 0
    for line in lines:
        state = check_line(state, line)
        actions += 1
    return format_state(state), actions


def verify_record(path: Path, out: TextIO | None = None, err: TextIO | None = None) -> int:
    """Check the record at ``path``; print the verdict to ``out``; return 0 if valid, 1 if not.

    With ``err``, a record that is not valid also gets the one line
    ``cantstop verify: error: ...`` there, as the command line promises.  The
    report is the layer's (:func:`dicekit.record.report`), as for any game.
    """
    return report(path, _replay, sys.stdout if out is None else out, err, "cantstop verify")
