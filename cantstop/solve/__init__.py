"""Optimal solitaire play, exactly: solve a board, play it, and evaluate any player on it.

Needs the ``solve`` extra (numba and numpy): ``pip install 'cantstop[solve]'``.

:func:`solve` takes start-of-turn positions (*anchors*) from the most
advanced to the empty board.  For each, it values every position the turn
can reach, with the anchor's own value as the unknown cost of a bust, and
finds that value as the fixed point of the turn (Newton's method, which
here is policy iteration).  A stop leads to a more advanced anchor, already
solved.  A :class:`Solution` holds the value of every anchor; the best play
in any position of a turn follows from them (:meth:`Solution.turn`).
"""

from __future__ import annotations

import importlib.util

if importlib.util.find_spec("numba") is None:  # pragma: no cover - the extra is installed in CI
    raise ModuleNotFoundError(
        "cantstop.solve needs the 'solve' extra (numba and numpy): pip install 'cantstop[solve]'",
        name="numba",
    )

from cantstop.solve._solution import Solution, SolveStats, Turn, solve

__all__ = ["Solution", "SolveStats", "Turn", "solve"]
