"""The optimal solitaire player, and where solved boards are kept for it.

:class:`OptimalPlayer` plays every decision of a solitaire game as the
solution of its board says: the move that leaves the fewest expected turns,
and a stop exactly when stopping leaves no more than rolling on.  It finds
the solution of the board it is playing in the solutions folder
(:func:`solutions_dir`), where ``python -m cantstop solve board`` puts it,
unless it is handed one.

>>> import random
>>> from cantstop import Roll, Rules, new_game
>>> from cantstop.solve import solve
>>> rules = Rules(players=1, heights={6: 2, 7: 2, 8: 2}, columns_to_win=2)
>>> player = OptimalPlayer(solve(rules))
>>> state = new_game(rules).apply(Roll((1, 5, 3, 4)))  # 6+7, or 8 (4+4 is off the board)
>>> player.choose(state, random.Random(1))
Move(columns=(6, 7))
"""

from __future__ import annotations

import errno
import os
import random
from pathlib import Path

from cantstop import Move, Rules, State
from cantstop.solve._solution import Solution
from cantstop.solve.fileformat import load

__all__ = ["OptimalPlayer", "find_solution", "solution_path", "solutions_dir"]

_LOADED: dict[Path, Solution] = {}


def solutions_dir() -> Path:
    """Return the folder of solved boards: ``$CANTSTOP_SOLUTIONS``, else the user's data folder.

    The data folder is ``$XDG_DATA_HOME/cantstop/solutions``, by default
    ``~/.local/share/cantstop/solutions``.
    """
    chosen = os.environ.get("CANTSTOP_SOLUTIONS")
    if chosen:
        return Path(chosen)
    data = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(data) / "cantstop" / "solutions"


def solution_path(rules: Rules) -> Path:
    """Return where the solution of ``rules`` is kept in :func:`solutions_dir`.

    >>> solution_path(Rules(players=1, heights={6: 2, 7: 3}, columns_to_win=1)).name
    'solitaire-6x2-7x3-w1.solution'
    """
    board = "-".join(f"{c}x{h}" for c, h in rules.heights.items())
    variant = "" if rules.variant is None else f"-{rules.variant.value}"
    return solutions_dir() / f"solitaire-{board}-w{rules.columns_to_win}{variant}.solution"


def find_solution(rules: Rules) -> Solution:
    """Return the kept solution of ``rules`` (read once per process).

    A board that has not been solved raises :class:`FileNotFoundError`
    naming the file it looked for.
    """
    path = solution_path(rules)
    found = _LOADED.get(path)
    if found is None:
        if not path.exists():
            raise FileNotFoundError(
                errno.ENOENT,
                f"no solution of this board; make it with: python -m cantstop solve board "
                f"--rules '{_rules_text(rules)}'",
                str(path),
            )
        found = _LOADED[path] = load(path)
    return found


def _rules_text(rules: Rules) -> str:
    import json

    from cantstop.jsonform import rules_to_json

    return json.dumps(rules_to_json(rules), separators=(",", ":"))


class OptimalPlayer:
    """Plays solitaire as the board's solution says (see the module docstring).

    Ties between moves go to the first of :meth:`~cantstop.State.legal_moves`;
    a tie between stopping and rolling stops.  It never draws from ``rng``.
    """

    name = "optimal"

    def __init__(self, solution: Solution | None = None) -> None:
        self.solution = solution

    def _for(self, state: State) -> Solution:
        if self.solution is None or self.solution.rules != state.rules:
            self.solution = find_solution(state.rules)
        return self.solution

    def choose(self, state: State, rng: random.Random) -> Move:
        """Return the move that leaves the fewest expected turns to win."""
        return self._for(state).best_move(state)

    def stops(self, state: State, rng: random.Random) -> bool:
        """Return whether stopping leaves no more expected turns than rolling on."""
        return self._for(state).stops(state)
