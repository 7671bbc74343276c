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


def verify_record(path: Path, out: TextIO | None = None, err: TextIO | None = None) -> int:
    """Check the record at ``path``; print the verdict to ``out``; return 0 if valid, 1 if not.

    With ``err``, a record that is not valid also gets the one line
    ``cantstop verify: error: ...`` there, as the command line promises.
    """
    out = sys.stdout if out is None else out
    name = path.name
    actions = 0
    try:
        with path.open("rb") as file:
            rules, first, lines = iter_record(file)
            state = new_game(rules, first)
            for line in lines:
                state = check_line(state, line)
                actions += 1
    except RecordError as exc:
        # The legal alternatives get a line of their own; the engine's reason may list them too.
        listed = "; legal moves: " + ", ".join(exc.alternatives)
        reason = exc.reason.removesuffix(listed) if exc.alternatives else exc.reason
        text = f"{name}:{exc.line}: {reason}"
        if exc.rule is not None:
            text += f" (rule {exc.rule})"
        print(text, file=out)
        if err is not None:
            print(f"cantstop verify: error: {text}", file=err)
        if exc.state is not None:
            print(f"  state: {format_state(exc.state)}", file=out)
            print(f"  legal: {' '.join(exc.alternatives) or 'none'}", file=out)
        return 1
    count = "1 action" if actions == 1 else f"{actions} actions"
    print(f"{name}: valid: {count}; final state {format_state(state)!r}", file=out)
    return 0
