"""The model's configuration and state: what the formulas of :mod:`proofs.model` are about.

A state of the model (:class:`Vars`) holds, per column of the board, the space
of each player's square and of the neutral marker (0 when there is none), the
player to move, the phase and the four dice (0 outside the CHOOSE phase).  Its
values are z3 terms (a symbolic state, for the proofs) or Python ints (a
concrete one, for the link to the engine).  The configuration
(:class:`Config`: players, heights, target, variant) is always concrete.  Rule
ids refer to ``spec/rules/``.

>>> from cantstop import Rules
>>> Config.of(Rules(players=3, variant=Variant.A)).options()
' A'
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import NamedTuple

from cantstop.board import STANDARD_HEIGHTS
from cantstop.config import Rules, Variant
from dicekit.proofs.solver import Term

__all__ = [
    "CHOOSE",
    "DECIDE",
    "OVER",
    "PHASE_LETTERS",
    "ROLL",
    "TRANSITIONS",
    "Config",
    "Transition",
    "Vars",
]

#: The phases, numbered as the model stores them (R3).
ROLL, CHOOSE, DECIDE, OVER = 0, 1, 2, 3
#: The notation's letter for each phase (N1.4).
PHASE_LETTERS = {ROLL: "r", CHOOSE: "c", DECIDE: "d", OVER: "x"}

#: The transitions of the model, in the order the reports list them.
TRANSITIONS = ("roll", "bust", "move", "stop", "win")


@dataclass(frozen=True)
class Config:
    """A game configuration as the model sees it: always concrete.

    Unlike :class:`~cantstop.Rules` it does not check R15, so that a mutation
    can use a configuration the rules refuse.

    >>> Config.of(Rules(players=3)).players
    3
    """

    #: Number of players (R15.1).
    players: int
    #: Column to height (R1.1, R15.3).
    heights: Mapping[int, int]
    #: Won columns needed to win (R12.1).
    target: int
    #: ``None``, ``"A"`` or ``"B"`` (R14).
    variant: str | None

    @classmethod
    def of(cls, rules: Rules) -> Config:
        """Return the configuration of ``rules``."""
        variant = None if rules.variant is None else rules.variant.value
        return cls(rules.players, dict(rules.heights), rules.columns_to_win, variant)

    @functools.cached_property
    def columns(self) -> tuple[int, ...]:
        """The board's columns, in increasing order."""
        return tuple(sorted(self.heights))

    def rules(self) -> Rules:
        """Return the engine's :class:`~cantstop.Rules` (which may refuse the configuration)."""
        variant = None if self.variant is None else Variant(self.variant)
        return Rules(self.players, self.target, dict(self.heights), variant)

    def options(self) -> str:
        """Return the options field of the notation (N1.5), with a leading space if any."""
        parts = []
        if dict(self.heights) != dict(STANDARD_HEIGHTS):
            parts.append("h" + ",".join(f"{c}:{self.heights[c]}" for c in self.columns))
        if self.target != 3:
            parts.append(f"w{self.target}")
        if self.variant is not None:
            parts.append(self.variant)
        return "".join(" " + p for p in parts)


@dataclass(frozen=True)
class Vars:
    """A state of the model: symbolic (z3 terms) or concrete (Python ints).

    A square or marker position of 0 means "none in this column"; dice are 0
    outside the CHOOSE phase.
    """

    #: The player whose turn it is (the winner once the game is over).
    player: Term
    #: :data:`ROLL`, :data:`CHOOSE`, :data:`DECIDE` or :data:`OVER`.
    phase: Term
    #: The four dice, in non-decreasing order during CHOOSE.
    dice: tuple[Term, Term, Term, Term]
    #: Column to the space of the neutral marker, 0 if none.
    markers: Mapping[int, Term]
    #: For each player, column to the space of their square, 0 if none.
    squares: tuple[Mapping[int, Term], ...]

    def terms(self) -> list[Term]:
        """Every value of the state, in a fixed order."""
        out = [self.player, self.phase, *self.dice]
        out += [self.markers[c] for c in sorted(self.markers)]
        for own in self.squares:
            out += [own[c] for c in sorted(own)]
        return out

    def map(self, value: Callable[[Term], Term]) -> Vars:
        """Return the state with ``value`` applied to each of its values.

        ``s.map(found.value)`` is the concrete state of a satisfying assignment.

        >>> Vars(1, ROLL, (0, 0, 0, 0), {7: 2}, ({7: 1},)).map(lambda v: v * 2).markers
        {7: 4}
        """
        d1, d2, d3, d4 = self.dice
        return Vars(
            player=value(self.player),
            phase=value(self.phase),
            dice=(value(d1), value(d2), value(d3), value(d4)),
            markers={c: value(v) for c, v in self.markers.items()},
            squares=tuple({c: value(v) for c, v in own.items()} for own in self.squares),
        )


class Transition(NamedTuple):
    """One transition: when it is enabled, and the state it leads to."""

    #: The transition's name, one of :data:`TRANSITIONS`.
    name: str
    #: The condition under which it can be taken.
    guard: Term
    #: The state after it.
    after: Vars
