"""The solution file: a solved board's configuration, its values and their checksum.

A solution file has three parts:

1. the line ``cantstop-solution 1`` (the format and its version);
2. one line of JSON, the header:

   - ``rules``: the configuration solved, in its JSON form
     (:func:`cantstop.rules_to_json`);
   - ``columns`` and ``heights``: the board's columns in increasing order
     and their heights, which number the anchors: anchor ``n`` has its
     square in column ``columns[i]`` on space ``n // stride[i] % (heights[i] + 1)``
     (0 for none), where ``stride`` is the product of ``heights[j] + 1`` over
     the columns after ``i``;
   - ``anchors``: how many values follow (the product of ``heights[i] + 1``);
   - ``dtype``: ``"<f8"``, little-endian IEEE 754 doubles;
   - ``sha256``: the SHA-256 of the values' bytes, in hexadecimal;
   - ``start``: the value of the empty board, for a reader of the header alone;
   - ``stats``: what the solve cost (:class:`~cantstop.solve.SolveStats`), or null;

3. the values, one double per anchor in anchor order: the expected number of
   turns the best play needs to win from the start of a turn at that anchor
   (0 where the game is over).

>>> import io
>>> from cantstop import Rules
>>> from cantstop.solve import solve
>>> buffer = io.BytesIO()
>>> write(solve(Rules(players=1, heights={7: 1}, columns_to_win=1)), buffer)
>>> buffer.getvalue().splitlines()[0]
b'cantstop-solution 1'
>>> round(read(io.BytesIO(buffer.getvalue())).start_value, 6)
1.553957
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import BinaryIO

import numpy as np

from cantstop.errors import CantStopError, InvalidRules
from cantstop.jsonform import rules_from_json, rules_to_json
from cantstop.solve._solution import Solution, SolveStats

__all__ = ["MAGIC", "SolutionFileError", "load", "read", "save", "write"]

#: The first line of every solution file.
MAGIC = b"cantstop-solution 1"


class SolutionFileError(CantStopError, ValueError):
    """A solution file that cannot be read: not one, damaged, or for another board."""


def write(solution: Solution, stream: BinaryIO) -> None:
    """Write ``solution`` to a binary stream in the solution file format."""
    data = solution.values.astype("<f8").tobytes()
    board = solution.board
    header = {
        "rules": rules_to_json(solution.rules),
        "columns": list(board.columns),
        "heights": [int(h) for h in board.h],
        "anchors": board.anchors,
        "dtype": "<f8",
        "sha256": hashlib.sha256(data).hexdigest(),
        "start": solution.start_value,
        "stats": None if solution.stats is None else solution.stats.to_json(),
    }
    stream.write(MAGIC + b"\n")
    stream.write(json.dumps(header, separators=(",", ":")).encode() + b"\n")
    stream.write(data)


def save(solution: Solution, path: str | os.PathLike[str]) -> None:
    """Write ``solution`` to the file ``path``, whole or not at all."""
    target = Path(path)
    part = target.with_name(target.name + ".part")
    with part.open("wb") as stream:
        write(solution, stream)
    part.replace(target)


def read(stream: BinaryIO, name: str = "the solution") -> Solution:
    """Read a solution from a binary stream; raise :class:`SolutionFileError` if it is not one."""
    first = stream.readline(64).rstrip(b"\n")
    if first != MAGIC:
        raise SolutionFileError(
            f"{name} is not a solution file: it does not begin {MAGIC.decode()!r}"
        )
    line = stream.readline(1 << 20)
    try:
        header = json.loads(line)
        rules = rules_from_json(header["rules"])
        anchors = header["anchors"]
        checksum = header["sha256"]
        stats = header["stats"]
    except (ValueError, KeyError, TypeError) as exc:
        raise SolutionFileError(f"{name} has a damaged header: {exc}") from None
    if header.get("dtype") != "<f8" or not isinstance(anchors, int):
        raise SolutionFileError(f"{name} has a damaged header: dtype or anchors")
    data = stream.read(8 * anchors + 1)
    if len(data) != 8 * anchors:
        raise SolutionFileError(
            f"{name} holds {len(data)} bytes of values; its header promises {8 * anchors}"
        )
    if hashlib.sha256(data).hexdigest() != checksum:
        raise SolutionFileError(f"{name} is damaged: its values do not match their checksum")
    values = np.frombuffer(data, dtype="<f8").astype(np.float64)
    try:
        return Solution(rules, values, None if stats is None else SolveStats.from_json(stats))
    except (InvalidRules, KeyError, TypeError) as exc:
        raise SolutionFileError(f"{name} does not fit its board: {exc}") from None


def load(path: str | os.PathLike[str]) -> Solution:
    """Read the solution file ``path``."""
    with Path(path).open("rb") as stream:
        return read(stream, str(path))
