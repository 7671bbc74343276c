"""Exact evaluation of any deterministic player: its expected turns to win solitaire.

:func:`evaluate` follows the player through every roll of every turn it can
reach, asking the engine for each roll's outcome and the player for each
decision, and solves the turn's equation exactly as the solver does: a
bust starts the same turn again, so the value of a turn's start ``x``
satisfies ``x = a + b x``, where ``b`` is the chance that the player's turn
busts.  Nothing is sampled, so the answer is exact up to rounding, and can
be set beside the optimal value of a solved board.

>>> from cantstop import Rules
>>> from cantstop.players import Rule28Player
>>> rules = Rules(players=1, heights={7: 1}, columns_to_win=1)
>>> round(evaluate(Rule28Player(), rules), 6)  # it stops on the win: as good as the best play
1.553957
"""

from __future__ import annotations

import math
import random
import sys
from collections.abc import Callable

from cantstop import Event, Phase, Rules, State, Stop, new_game, roll_outcomes
from cantstop.errors import IllegalAction
from cantstop.players import Decision, Player, decide
from cantstop.solve.board import check_solitaire

__all__ = ["RandomnessError", "evaluate"]


#: A turn whose chance of not busting is this small or less is taken never to end well: the
#: rounding of the chances' sum is far larger than any chance a real player leaves of winning.
_NEVER = 1e-9


class RandomnessError(RuntimeError):
    """A player drew from its generator: its play is not a function of the state."""


class _NoDraws(random.Random):
    """A generator that refuses to be drawn from, naming the player that tried."""

    def __init__(self, name: str) -> None:
        super().__init__(0)
        self.name = name

    def random(self) -> float:
        raise RandomnessError(
            f"player {self.name!r} draws from its generator, so its expected turns are "
            f"not a function of its decisions; exact evaluation needs a deterministic player"
        )


class _Evaluation:
    def __init__(self, player: Player, progress: Callable[[int], None] | None) -> None:
        self.player = player
        self.rng = _NoDraws(player.name)
        self.outcomes = [(roll, float(chance)) for roll, chance in roll_outcomes()]
        self.anchors: dict[State, float] = {}
        self.positions = 0
        self.progress = progress

    def anchor(self, start: State) -> float:
        found = self.anchors.get(start)
        if found is None:
            seen: dict[State, tuple[float, float]] = {}
            a, b = self.roll(start, seen)
            # b is the chance that the turn busts: 1 (up to rounding) if every turn does.
            found = self.anchors[start] = math.inf if 1.0 - b <= _NEVER else a / (1.0 - b)
            self.positions += len(seen) + 1
            if self.progress is not None and len(self.anchors) % 1000 == 0:
                self.progress(len(self.anchors))
        return found

    def roll(self, state: State, seen: dict[State, tuple[float, float]]) -> tuple[float, float]:
        """Return (a, b): rolling from ``state`` is worth a + b x, x the anchor's value."""
        a = b = 0.0
        for roll, chance in self.outcomes:
            step = state.step(roll)
            if step.event is Event.BUSTED:
                a += chance
                b += chance
                continue
            choosing = step.state
            moves = choosing.legal_moves()
            move = moves[0] if len(moves) == 1 else self.player.choose(choosing, self.rng)
            if move not in moves:
                raise IllegalAction(
                    f"player {self.player.name!r} chose {move!r}, not a legal move",
                    "R6.6",
                    choosing,
                    move,
                )
            after = choosing.apply(move)
            found = seen.get(after)
            if found is None:
                found = seen[after] = self.decide(after, seen)
            a += chance * found[0]
            b += chance * found[1]
        return a, b

    def decide(self, state: State, seen: dict[State, tuple[float, float]]) -> tuple[float, float]:
        if decide(self.player, state, self.rng) is Decision.STOP:
            step = state.step(Stop())
            if step.event is Event.WON:
                return 1.0, 0.0
            return 1.0 + self.anchor(step.state), 0.0
        return self.roll(state, seen)


def evaluate(
    player: Player,
    rules: Rules,
    start: State | None = None,
    progress: Callable[[int], None] | None = None,
) -> float:
    """Return the exact expected number of turns ``player`` needs to win solitaire ``rules``.

    The count starts at ``start`` (by default the empty board; a state about
    to roll) and includes its turn.  The player must be deterministic: one
    that draws from its generator raises :class:`RandomnessError`.
    ``progress`` is called with the number of anchors valued, every thousand.
    A player that never wins (every turn it plays ends in a bust, as when it
    never stops) is worth ``math.inf``.
    """
    check_solitaire(rules)
    state = new_game(rules) if start is None else start
    if state.phase is Phase.OVER:
        return 0.0
    if state.phase is not Phase.ROLL or state.rules != rules:
        raise IllegalAction(
            "exact evaluation starts from a turn's start of the given rules", "R3.2", state, None
        )
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 100_000))
    try:
        return _Evaluation(player, progress).anchor(state)
    finally:
        sys.setrecursionlimit(limit)
