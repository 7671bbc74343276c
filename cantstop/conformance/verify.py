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

from cantstop.game import new_game
from cantstop.notation import format_state
from cantstop.record import RecordError, check_line, iter_record

__all__ = ["verify_record"]


def verify_record(path: Path, out: TextIO | None = None) -> int:
    """Check the record at ``path``; print the verdict to ``out``; return 0 if valid, 1 if not."""
    out = sys.stdout if out is None else out
    name = path.name
    actions = 0
    try:
        with path.open(encoding="utf-8") as file:
            rules, first, lines = iter_record(file)
            state = new_game(rules, first)
            for line in lines:
                state = check_line(state, line)
                actions += 1
    except RecordError as exc:
        text = f"{name}:{exc.line}: {exc.reason}"
        if exc.rule is not None:
            text += f" (rule {exc.rule})"
        print(text, file=out)
        if exc.state is not None:
            print(f"  state: {format_state(exc.state)}", file=out)
            print(f"  legal: {' '.join(exc.alternatives) or 'none'}", file=out)
        return 1
    except UnicodeDecodeError as exc:
        print(f"{name}: not UTF-8 text: {exc.reason} at byte {exc.start}", file=out)
        return 1
    print(f"{name}: valid: {actions} actions; final state {format_state(state)!r}", file=out)
    return 0
