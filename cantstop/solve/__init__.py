"""Optimal solitaire play, exactly: solve a board, play it, and evaluate any player on it.

Needs the ``solve`` extra (numba and numpy): ``pip install 'cantstop[solve]'``.
"""

from __future__ import annotations

import importlib.util

if importlib.util.find_spec("numba") is None:  # pragma: no cover - the extra is installed in CI
    raise ModuleNotFoundError(
        "cantstop.solve needs the 'solve' extra (numba and numpy): pip install 'cantstop[solve]'",
        name="numba",
    )

from cantstop.solve.solution import Solution, SolveStats, Turn, solve

__all__ = ["Solution", "SolveStats", "Turn", "solve"]
