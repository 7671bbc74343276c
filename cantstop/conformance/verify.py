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
from typing import TextIO

from cantstop.layer import GAME
from dicekit import record

__all__ = ["verify_record"]


def verify_record(path: Path, out: TextIO | None = None, err: TextIO | None = None) -> int:
    """Check the record at ``path``; print the verdict to ``out``; return 0 if valid, 1 if not.

    With ``err``, a record that is not valid also gets the one line
    ``cantstop verify: error: ...`` there, as the command line promises.  The
    record is replayed and reported by the layer
    (:func:`dicekit.record.verify_record`), as any game's is; a header that
    names no game is in Can't Stop's own format (:mod:`cantstop.record`).
    """
    return record.verify_record(
        GAME, path, sys.stdout if out is None else out, err, "cantstop verify"
    )
