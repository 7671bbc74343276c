"""What is proven: the invariants of every state and the properties of single transitions.

An :class:`Invariant` is a statement about one state, proven by induction: it
holds in every opening state, and every transition keeps it, from any state
that satisfies all the invariants (their conjunction is the premise of each
step).  A :class:`StepProperty` is a statement about one transition taken
from such a state.  Each names the spec rules it covers
(``finishline/spec/rules/``) and a *focus*: a situation in which it has
something to say, for the non-vacuity witnesses.  Both classes are the
layer's (:mod:`dicekit.proofs.properties`).
"""

from __future__ import annotations

from dataclasses import dataclass

from dicekit.proofs.properties import Invariant, StepProperty
from finishline.proofs.model import BOARD, CHOOSE, GRID, OVER, ROLL, Model, PlayChoice, Term, Vars

__all__ = ["INVARIANTS", "PROPERTIES", "STEP_PROPERTIES", "Invariant", "Step", "StepProperty"]


@dataclass(frozen=True)
class Step:
    """A transition taken: its name, the state before, and the state after."""

    transition: str
    before: Vars
    after: Vars
    guard: Term
    #: The choices of a play, or ``None`` for the other transitions.
    choice: PlayChoice | None = None


def _on_board(m: Model, s: Vars, p: int) -> Term:
    return m.ops.sum(s.cells[p][g] for g in GRID)


# -- invariants ------------------------------------------------------------------------


def _conserved(m: Model, s: Vars) -> Term:
    o = m.ops
    n = m.config.counters
    return o.all(
        o.all(
            [
                s.hand[p] >= 0,
                s.across[p] >= 0,
                o.all(s.cells[p][g] >= 0 for g in GRID),
                s.hand[p] + _on_board(m, s, p) + s.across[p] == n,
            ]
        )
        for p in range(m.config.players)
    )


def _one_per_cell(m: Model, s: Vars) -> Term:
    return m.ops.all(m.occupied(s.cells, g) <= 1 for g in BOARD)


def _on_the_board(m: Model, s: Vars) -> Term:
    return m.ops.all(own[g] == 0 for own in s.cells for g in GRID if g not in BOARD)


def _phase_and_turn(m: Model, s: Vars) -> Term:
    o = m.ops
    d1, d2 = s.dice
    return o.all(
        [
            s.player >= 0,
            s.player < m.config.players,
            o.any([s.phase == ROLL, s.phase == CHOOSE, s.phase == OVER]),
            o.ite(
                s.phase == CHOOSE,
                o.all([m.valid_dice(d1, d2), m.has_action(s, d1, d2)]),
                o.all([d1 == 0, d2 == 0]),
            ),
        ]
    )


def _finished(m: Model, s: Vars, p: int) -> Term:
    return s.across[p] == m.config.counters


def _winner(m: Model, s: Vars) -> Term:
    o = m.ops
    players = range(m.config.players)
    return o.all(
        [
            o.sum(o.ite(_finished(m, s, p), 1, 0) for p in players) <= 1,
            (s.phase == OVER) == o.any(_finished(m, s, p) for p in players),
            o.ite(
                s.phase == OVER, m.per_player(s.player, lambda p: _finished(m, s, p), False), True
            ),
        ]
    )


def _played_before(m: Model, s: Vars) -> Term:
    o = m.ops
    return o.all(
        o.ite(_on_board(m, s, p) + s.across[p] > 0, s.played[p], True)
        for p in range(m.config.players)
    )


#: The invariants, proven together by induction.
INVARIANTS: tuple[Invariant[Model, Vars, Vars], ...] = (
    Invariant(
        "R12.3 counters are conserved: hand + board + across = counters",
        "R12.3 R1.3 R5.1 R6.5",
        _conserved,
        lambda m, s: m.ops.any(h < m.config.counters for h in s.hand),
    ),
    Invariant(
        "R12.2 at most one counter per cell",
        "R12.2 R1.4 R5.2 R6.4 R7.1",
        _one_per_cell,
        lambda m, s: m.ops.any(m.occupied(s.cells, g) >= 1 for g in BOARD),
    ),
    Invariant(
        "R12.1 positions only in rows 1-6, cells A-D",
        "R12.1 R1.1 R1.2 R6.5 R7.1",
        _on_the_board,
        lambda m, s: m.ops.any(own[(1, c)] >= 1 for own in s.cells for c in range(4)),
    ),
    Invariant(
        "R12.4 phase, turn and dice agree; a choosing state has an action",
        "R12.4 R3.3 R4.1 R9.1",
        _phase_and_turn,
        lambda m, s: s.phase == CHOOSE,
    ),
    Invariant(
        "R12.5 over exactly when one player has all counters across",
        "R12.5 R10.1 R10.2",
        _winner,
        lambda m, s: s.phase == OVER,
    ),
    Invariant(
        "R7.3 a player with counters out of hand has finished a turn",
        "R7.3 R3.4 R5.1",
        _played_before,
        lambda m, s: m.ops.any(
            m.ops.all([_on_board(m, s, p) >= 1, s.player == p]) for p in range(m.config.players)
        ),
    ),
)


# -- properties of single transitions ------------------------------------------------------


def _nothing_into_occupied(m: Model, step: Step) -> Term:
    o = m.ops
    s, t = step.before, step.after
    return o.all(
        o.ite(
            t.cells[p][g] > s.cells[p][g],
            m.occupied(s.cells, g) == 0,
            True,
        )
        for p in range(m.config.players)
        for g in BOARD
    )


def _gains_a_cell(m: Model, step: Step) -> Term:
    o = m.ops
    s, t = step.before, step.after
    return o.any(t.cells[p][g] > s.cells[p][g] for p in range(m.config.players) for g in BOARD)


def _sideways_after_first_turn(m: Model, step: Step) -> Term:
    s = step.before
    d1, d2 = s.dice
    return m.ops.all([d1 + d2 == 7, m.per_player(s.player, lambda p: s.played[p], False)])


def _turn_passes(m: Model, step: Step) -> Term:
    o = m.ops
    s, t = step.before, step.after
    if step.transition == "roll":
        return o.all([t.player == s.player, t.phase == CHOOSE])
    if step.transition == "forfeit":
        return o.all([t.player == m.next_player(s), t.phase == ROLL])
    return o.ite(
        t.phase == OVER,
        t.player == s.player,
        o.all([t.player == m.next_player(s), t.phase == ROLL]),
    )


def _won_exactly_when_all_across(m: Model, step: Step) -> Term:
    s, t = step.before, step.after
    mover_done = m.per_player(s.player, lambda p: _finished(m, t, p), False)
    return (t.phase == OVER) == mover_done


#: The properties of single transitions.
STEP_PROPERTIES: tuple[StepProperty[Model, Step], ...] = (
    StepProperty(
        "R6.4 no counter moves into an occupied cell",
        "R6.4 R1.4 R5.2 R7.1 R8.3",
        ("play", "sideways", "double"),
        _nothing_into_occupied,
        _gains_a_cell,
    ),
    StepProperty(
        "R7.3 the sideways step only on a 7, after the player's first turn",
        "R7.1 R7.3",
        ("sideways",),
        _sideways_after_first_turn,
        lambda m, step: True,
    ),
    StepProperty(
        "R3.4 the turn passes exactly when the rules say",
        "R3.4 R2.5 R3.3 R9.2 R10.1",
        ("roll", "forfeit", "play", "sideways", "double"),
        _turn_passes,
        lambda m, step: step.after.phase == ROLL,
    ),
    StepProperty(
        "R10.1 won exactly when all the mover's counters are across",
        "R10.1 R12.5",
        ("play", "sideways", "double"),
        _won_exactly_when_all_across,
        lambda m, step: step.after.phase == OVER,
    ),
)

#: Every property, invariants first.
PROPERTIES: tuple[Invariant[Model, Vars, Vars] | StepProperty[Model, Step], ...] = (
    *INVARIANTS,
    *STEP_PROPERTIES,
)
