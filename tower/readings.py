"""The other readings of the rules: for each rule, the wrong readings that would change an answer.

A rule *decides* an answer when reading it otherwise would give another
answer.  Each :class:`Reading` is one such other reading, of one rule: the
reading the spec weighs and rejects (R9.1's obstacle that freezes every
move, R10.2's stone that stops in the goal with points left over, R6.6's
goal that gives nothing), or a slip a port author can plausibly make (the
priority of the start decided die by die, captures found by comparing step
numbers across colours).  The engine's decisions (:mod:`tower.decide`)
record, as they decide, the readings under which their answer would differ;
the rule tags of :mod:`tower.tags` are the rules of those readings.

The kinds say where a reading acts:

- ``ADMIT``: a move the rules refuse would be legal;
- ``REFUSE``: a move the rules allow would be refused;
- ``LIST``: the legal moves would be filtered or listed otherwise;
- ``OUTCOME``: a legal throw or move would end in another state.

>>> READINGS["goal-overshoot"].rule, READINGS["goal-overshoot"].kind.value
('R10.2', 'admit')
>>> sorted({r.rule for r in READINGS.values()})[:4]
['R10.2', 'R10.3', 'R11.1', 'R2.6']
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

__all__ = ["READINGS", "Kind", "Reading", "readings_of"]


class Kind(enum.Enum):
    """Where a reading acts: on which moves are legal, on their list, or on an outcome."""

    #: A move the rules refuse would be legal.
    ADMIT = "admit"
    #: A move the rules allow would be refused.
    REFUSE = "refuse"
    #: The legal moves would be filtered or listed otherwise.
    LIST = "list"
    #: A legal throw or move would end in another state.
    OUTCOME = "outcome"


@dataclass(frozen=True, slots=True)
class Reading:
    """One other reading of one rule: its name, the rule, where it acts, and what it says."""

    #: A short name, lower case with hyphens.
    name: str
    #: The id of the rule it reads otherwise.
    rule: str
    #: Where it acts.
    kind: Kind
    #: What the other reading says, in one line.
    summary: str


_A, _R, _L, _O = Kind.ADMIT, Kind.REFUSE, Kind.LIST, Kind.OUTCOME

_TABLE: tuple[Reading, ...] = (
    # Which moves are legal (R5.5): a test left out, or a test added.
    Reading("dice-added", "R4.2", _A, "the two dice may also be used added together"),
    Reading("tower-stone-moves", "R5.2", _A, "a stone in the tower moves as if at the start"),
    Reading("twin-allowed", "R5.4", _A, "a stone may land on a field held by its twin"),
    Reading("no-obstacle", "R9.1", _A, "a stone on the crossing closes nothing"),
    Reading(
        "first-pass-only",
        "R9.2",
        _A,
        "the crossing counts only at its first track position, for the blocking stone "
        "and for the stones passing",
    ),
    Reading("goal-overshoot", "R10.2", _A, "a throw too large still takes a stone into its goal"),
    Reading("no-capture", "R7.1", _R, "a stone may not land on another player's stone"),
    Reading(
        "safe-fields",
        "R7.2",
        _R,
        "a stone on a star or on a field of its own colour cannot be captured",
    ),
    Reading(
        "obstacle-blocks-all",
        "R9.1",
        _R,
        "while another player's stone stands on the crossing, none of the player's stones moves",
    ),
    Reading("obstacle-untouchable", "R9.3", _R, "a stone may not land on the obstacle"),
    Reading(
        "own-obstacle-blocks",
        "R9.4",
        _R,
        "a stone on the crossing closes it to its own player's stones too",
    ),
    Reading("goal-holds-one", "R10.3", _R, "a stone may not enter its goal while its twin is in"),
    # How the legal moves are listed.
    Reading("double-listed-twice", "R4.5", _L, "a double lists each move once for each die"),
    Reading("no-priority", "R5.3", _L, "stones at the start have no priority"),
    Reading(
        "priority-per-die",
        "R5.3",
        _L,
        "the start's priority is decided die by die: a die no stone at the start can use "
        "moves any stone",
    ),
    Reading("points-first", "R5.5", _L, "moves are listed by points, then by step"),
    # What a throw or a move does.
    Reading("unsorted-dice", "R4.1", _O, "the state keeps the dice in the order thrown"),
    Reading("forfeit-keeps-turn", "R4.4", _O, "after a forfeited throw the same player throws"),
    Reading("turn-backwards", "R3.3", _O, "the turn passes to the player before"),
    Reading("any-six-frees", "R8.3", _O, "a six frees the stone in the tower, whoever throws it"),
    Reading("six-frees-nothing", "R8.3", _O, "a six leaves the thrower's stone in the tower"),
    Reading(
        "short-step", "R5.1", _O, "a stone counts the field it stands on: it lands a step short"
    ),
    Reading(
        "steps-compared",
        "R2.6",
        _O,
        "a landing captures the stone of another colour on the same step number, "
        "not the one on the same field",
    ),
    Reading("own-colour-no-again", "R6.1", _O, "landing on one's own colour gives nothing"),
    Reading("any-colour-again", "R6.1", _O, "landing on any colour gives a throw again"),
    Reading(
        "passing-counts", "R6.1", _O, "passing a field of one's own colour gives a throw again"
    ),
    Reading("star-again", "R6.2", _O, "a star counts as every colour: it gives a throw again"),
    Reading("capture-ends-turn", "R6.5", _O, "a capture gives no throw again"),
    Reading("goal-no-again", "R6.6", _O, "reaching the goal gives no throw again"),
    Reading(
        "captured-to-start", "R7.1", _O, "a captured stone goes back to its start, not the tower"
    ),
    Reading("jump-captures", "R7.3", _O, "a stone captures the stones it passes"),
    Reading(
        "full-tower-refuses",
        "R8.2",
        _O,
        "while the tower holds a stone, a captured stone goes back to its start instead",
    ),
    Reading("first-home-wins", "R11.1", _O, "the first stone in the goal wins the game"),
    Reading(
        "winner-throws-again", "R11.1", _O, "the winning move gives a throw again, like any goal"
    ),
)

#: Every reading, by name, in the order above.
READINGS: Mapping[str, Reading] = MappingProxyType({r.name: r for r in _TABLE})


def readings_of(kind: Kind) -> tuple[str, ...]:
    """Return the names of the readings of ``kind``, in table order.

    >>> readings_of(Kind.LIST)
    ('double-listed-twice', 'no-priority', 'priority-per-die', 'points-first')
    """
    return tuple(r.name for r in _TABLE if r.kind is kind)
