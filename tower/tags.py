"""Which rules decide an answer: the rule tags of Off to the Tower, for the layer's diagnosis.

A rule decides an answer when reading it otherwise would change that answer.
Each :class:`Reading` is one such other reading, of one rule: the reading
the spec weighs and rejects (R9.1's obstacle that freezes every move,
R10.2's stone that stops in the goal with points left over, R6.6's goal that
gives nothing), or a slip a port author can plausibly make (the priority of
the start decided die by die, captures found by comparing step numbers
across colours).  Its :class:`Kind` says where it acts: ``ADMIT``, a move
the rules refuse would be legal; ``REFUSE``, a move the rules allow would be
refused; ``LIST``, the legal moves would be filtered or listed otherwise;
``OUTCOME``, a legal throw or move would end in another state.

The other readings are :data:`READINGS`; the decisions of
:mod:`tower.decide` record which of them are at stake as they decide, and
this module reads those records:

- a refused move names, in its :class:`~tower.decide.Reason`, the rule that
  refuses it and the readings that would admit it;
- a move that passes names the readings that would refuse it; a legal move
  may also be dropped by a reading that admits a move from the start (R5.3);
- the priority of the start and the order of the list name the readings
  that would list the moves otherwise;
- a throw and a move name the readings under which they would end otherwise.

The tags of an answer are the rules of the readings that would change it,
in rule order; an illegal action's tags begin with the rule that refuses it,
the rule of its :class:`~dicekit.errors.IllegalAction`.

>>> from tower import Move, parse_state
>>> state = parse_state('R0,3/B0,0 - 0c35 @ours')      # 0+3 lands on the twin on 3
>>> choice_rules(state)
('R4.2', 'R5.3', 'R5.4')
>>> action_rules(state, Move(3, 3))                      # the stone at the start goes first
('R5.3',)
>>> action_rules(state, Move(0, 5))                      # to plain field 5, past red field 1
('R5.1', 'R6.1')
>>> READINGS["goal-overshoot"].rule, READINGS["goal-overshoot"].kind.value
('R10.2', 'admit')
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType

from tower.actions import Action, Throw
from tower.config import Config
from tower.decide import (
    Judged,
    judge,
    listing_readings,
    natural,
    prioritised,
    settle,
    throw_outcome,
    view,
    would_be,
)
from tower.errors import IllegalAction
from tower.state import Phase, State

__all__ = [
    "READINGS",
    "UNTAGGED",
    "Kind",
    "Reading",
    "action_readings",
    "action_rules",
    "choice_readings",
    "choice_rules",
    "readings_of",
    "rule_key",
]


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
    Reading(
        "turn-no-wrap",
        "R3.3",
        _O,
        "the turn passes to the next number, with no wrap-around from the last player to player 0",
    ),
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


Stones = tuple[tuple[int, ...], ...]
Key = tuple[int, int]

#: The readings that change which moves pass: they admit or refuse moves.
_LEGALITY = readings_of(Kind.ADMIT) + readings_of(Kind.REFUSE)
_RULE = re.compile(r"^([A-Z])(\d+)(?:\.(\d+))?$")

_BOARD = "what a playable board is (R2): a board that breaks it is refused under it"
_READING = "how a text or a JSON form is read, and where an error in it points"

#: The rules and chapters that tag no action and no choice, and why.  Besides the
#: phase rules (R3.4, R11.2), every other rule of R3 to R11 has readings that change
#: an answer; these decide whether a board, a configuration, a state or a text is
#: accepted (the refusals name them), or restate a rule that is tagged.
UNTAGGED: Mapping[str, str] = MappingProxyType(
    {
        "R1.1": "the colours a configuration may play, decided by R12.2",
        "R1.2": "the number of stones, fixed by the number of players and checked by R13.1",
        "R1.3": "the dice, two digits from 1 to 6 in a throw's notation (N2.2)",
        "R1.4": "the start holds any number of stones: no action lands there",
        "R2.1": _BOARD,
        "R2.2": _BOARD,
        "R2.3": _BOARD,
        "R2.4": _BOARD,
        "R2.5": _BOARD,
        "R2.7": "the shipped boards, read by name (R12.3)",
        "R3.1": "the opening state, which no action reaches",
        "R3.2": "the first player, part of the setup",
        "R4.3": "a usable throw is used: there is no action to decline it (R3.4)",
        "R6.3": "a throw again after a throw again: a state has no memory of the last throw",
        "R6.4": "the throw again is taken: there is no action to decline it (R3.4)",
        "R7.4": "two players on one field, a state refused under it; captures keep it (R7.1)",
        "R8.1": "one stone in the tower, kept by R8.2",
        "R8.4": "a stone in the tower is on no field: it moves by R5.2 and R8.3 only",
        "R10.1": "a route ends in its own goal: the board's routes (R2.6) decide it",
        "R11.3": "one winner: the game ends at the first (R11.1)",
        "R12": "the configuration: refused under it when a game is set up or read",
        "R13": "the state invariants: a state that breaks one is refused under it",
        "N1": _READING,
        "N2": _READING,
        "N3": _READING,
        "N4": _READING,
    }
)


def rule_key(rule: str) -> tuple[str, int, int]:
    """Return the sort key of a rule id: its letter, chapter and number (R2.6 before R10.1).

    >>> sorted(["R10.2", "R2.6", "N1.1", "R10"], key=rule_key)
    ['N1.1', 'R2.6', 'R10', 'R10.2']
    """
    found = _RULE.match(rule)
    if found is None:
        raise ValueError(f"{rule!r} is not a rule id")
    return found.group(1), int(found.group(2)), int(found.group(3) or 0)


def _rules(readings: Iterable[str], first: str | None = None) -> tuple[str, ...]:
    """Return the rules of ``readings`` in rule order, after ``first`` if given."""
    rules = sorted({READINGS[r].rule for r in readings} - {first}, key=rule_key)
    return (first, *rules) if first is not None else tuple(rules)


class _Choice:
    """Every move a player could name or a reading could make with the dice, judged."""

    def __init__(
        self, config: Config, me: int, stones: Stones, tower: int | None, dice: tuple[int, int]
    ) -> None:
        self.view = view(config, me, stones, tower)
        self.dice = dice
        natural_moves = natural(self.view, dice)
        self.judged = {(j.step, j.points): j for j in natural_moves + would_be(self.view, dice)}
        self.passing = [j for j in natural_moves if j.passes]
        self.listed = prioritised(self.passing)
        self.keys = [(j.step, j.points) for j in self.listed]

    def judged_move(self, key: Key) -> Judged:
        """Return the judgement of the move ``key``, judging it if no candidate is."""
        found = self.judged.get(key)
        if found is None:
            found = self.judged[key] = judge(self.view, self.dice, *key)
        return found

    def under(self, reading: str) -> list[Key]:
        """Return the legal moves if ``reading``, which admits or refuses moves, were the rule."""
        kept = [
            j
            for j in self.judged.values()
            if reading not in j.at_stake and all(reading in r.lifted_by for r in j.reasons)
        ]
        return [(j.step, j.points) for j in prioritised(kept)]

    def readings(self) -> list[str]:
        """Return the readings under which the list of legal moves would differ."""
        found = [r for r in _LEGALITY if self.under(r) != self.keys]
        return found + listing_readings(self.passing, self.listed, self.dice)

    def emptiness(self) -> list[str]:
        """Return the readings under which the dice would be forfeited or not, the other way."""
        return [r for r in _LEGALITY if bool(self.under(r)) != bool(self.keys)]

    def dropping(self, key: Key) -> list[str]:
        """Return the readings under which the legal move ``key`` would be refused.

        A reading that refuses the move itself, or one that admits a move from
        the start, which then goes first (R5.3).
        """
        return [r for r in _LEGALITY if key not in self.under(r)]

    def refusal(self, key: Key) -> list[str]:
        """Return the readings that would change the answer to the refused move ``key``."""
        judged = self.judged_move(key)
        named = judged.reasons[0].rule if judged.reasons else "R5.3"
        found = []
        for reading in _LEGALITY:
            if key in self.under(reading):
                found.append(reading)
                continue
            unlifted = (r.rule for r in judged.reasons if reading not in r.lifted_by)
            stake = READINGS[reading].rule if reading in judged.at_stake else "R5.3"
            if next(unlifted, stake) != named:
                found.append(reading)
        if judged.passes:  # refused only by the priority of the start (R5.3)
            found.append("no-priority")
            if judged.points not in {j.points for j in self.listed}:
                found.append("priority-per-die")
        return found


def choice_readings(state: State) -> tuple[str, ...]:
    """Return the readings under which the legal moves of ``state`` would differ.

    >>> from tower import parse_state
    >>> choice_readings(parse_state('R8,20/B0,10 - 0c35 @ours'))   # blue holds the crossing
    ('no-obstacle', 'first-pass-only', 'obstacle-blocks-all')
    """
    if state.dice is None:
        return ()
    return tuple(
        _Choice(state.config, state.player, state.stones, state.tower, state.dice).readings()
    )


def choice_rules(state: State) -> tuple[str, ...]:
    """Return the ids of the rules that decide which actions are legal in ``state``.

    About to throw, only a throw is (R3.4); once the game is over, nothing
    (R11.2); with dice on the table, the rules whose other readings would
    change the list of legal moves.
    """
    if state.phase is Phase.THROW:
        return ("R3.4",)
    if state.phase is Phase.OVER:
        return ("R11.2",)
    return _rules(choice_readings(state))


def _refused(state: State, action: Action) -> str | None:
    """Return the rule under which the engine refuses ``action``, or ``None`` if it is legal."""
    try:
        state.step(action)
    except IllegalAction as error:
        return error.rule
    return None


def action_readings(state: State, action: Action) -> tuple[str, ...]:
    """Return the readings under which the answer to ``action`` in ``state`` would differ.

    >>> from tower import Move, parse_state
    >>> action_readings(parse_state('R4,9/B7,14 - 0c35 @ours'), Move(4, 3))  # capture on red 7
    ('no-capture', 'short-step', 'captured-to-start', 'own-colour-no-again', 'capture-ends-turn')
    """
    config, me = state.config, state.player
    if isinstance(action, Throw):
        if state.phase is not Phase.THROW:
            return ()
        thrown = throw_outcome(config, me, state.stones, state.tower, action.dice)
        choice = _Choice(config, me, thrown.stones, thrown.tower, thrown.dice)
        return (*thrown.readings, *choice.emptiness())
    if state.dice is None:
        return ()
    choice = _Choice(config, me, state.stones, state.tower, state.dice)
    key = (action.step, action.points)
    if key not in choice.keys:
        return tuple(choice.refusal(key))
    done = settle(config, me, state.stones, state.tower, *key)
    return (*choice.dropping(key), *done.readings)


def action_rules(state: State, action: Action) -> tuple[str, ...]:
    """Return the ids of the rules that decide what ``action`` does in ``state``.

    For an illegal action, the rule that refuses it comes first.
    """
    return _rules(action_readings(state, action), _refused(state, action))
