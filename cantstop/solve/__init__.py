"""Optimal solitaire play, exactly: solve a board, play it, and evaluate any player on it.

Needs the ``solve`` extra (numba and numpy): ``pip install 'cantstop[solve]'``.
"""

from __future__ import annotations

from cantstop.solve.solution import Solution, SolveStats, Turn, solve

__all__ = ["Solution", "SolveStats", "Turn", "solve"]
