"""What is proven: the state invariants and the properties of single transitions.

An :class:`Invariant` is a statement about one state, proven by induction:
it holds in every opening state, and every transition keeps it.  A
:class:`StepProperty` is a statement about one transition, from a state that
satisfies all invariants to the state after it.  Each names the spec rules it
covers; the rule text is in ``spec/rules/``.  Both classes are the layer's
(:mod:`dicekit.proofs.properties`); a focus here reads a state for an
invariant, and the step for a step property.

The invariants are proven together: the premise of each induction step is the
conjunction of all of them (for Variant A including R14.1), which is what makes
each one inductive.  For example "positions stay on the board" alone is not
inductive under Variant A, because a marker skipping squares could in principle
run past the top; it is the won-column invariant (the top space of an open
column holds no square) that rules this out.
"""

from __future__ import annotations

from dataclasses import dataclass

from dicekit.proofs.properties import Invariant, StepProperty
from dicekit.proofs.solver import Term
from proofs.model import Model
from proofs.state import CHOOSE, DECIDE, OVER, ROLL, Transition, Vars

__all__ = [
    "INVARIANTS",
    "PROPERTIES",
    "STEP_PROPERTIES",
    "Action",
    "Invariant",
    "Step",
    "StepProperty",
]


@dataclass(frozen=True)
class Action:
    """The choices of one transition: the dice of a roll, the pairing and sums of a move."""

    #: The dice rolled (a roll or a bust), sorted.
    dice: tuple[Term, Term, Term, Term]
    #: The pairing a move plays, 0 to 2 (R4.2).
    pairing: Term
    #: Whether the move plays the pairing's first sum (for equal sums: the first step).
    use_a: Term
    #: Whether the move plays the pairing's second sum (for equal sums: the second step).
    use_b: Term

    def transition(self, model: Model, s: Vars, name: str) -> Transition:
        """Return the transition ``name`` from ``s`` with these choices."""
        if name == "roll":
            return model.roll(s, self.dice)
        if name == "bust":
            return model.bust(s, self.dice)
        if name == "move":
            return model.move(s, self.pairing, self.use_a, self.use_b)
        if name == "stop":
            return model.stop(s)
        if name == "win":
            return model.win(s)
        raise ValueError(f"no transition {name!r}")


@dataclass(frozen=True)
class Step:
    """A transition taken: the state before, the action, and the transition itself."""

    before: Vars
    action: Action
    transition: Transition

    @property
    def after(self) -> Vars:
        """The state after the transition."""
        return self.transition.after


# -- invariants ----------------------------------------------------------------------


def _at_most_three_markers(m: Model, s: Vars) -> Term:
    # One marker per column is built into the state (one position per column, R5.4),
    # so "each in a different column" holds by construction.
    return m.marker_count(s.markers) <= 3


def _positions_on_board(m: Model, s: Vars) -> Term:
    o = m.ops
    cells = [s.markers, *s.squares]
    return o.all(
        o.all([cell[c] >= 0, cell[c] <= m.height(c)]) for cell in cells for c in m.config.columns
    )


def _markers_above_square(m: Model, s: Vars) -> Term:
    o = m.ops
    return o.all(
        o.ite(s.markers[c] > 0, s.markers[c] > m.own_square(s, c), True) for c in m.config.columns
    )


def _won_columns(m: Model, s: Vars) -> Term:
    o = m.ops
    players = range(m.config.players)
    facts = []
    for c in m.config.columns:
        facts.append(o.not_(o.all([m.won(s, c), s.markers[c] > 0])))  # R9.2
        for p in players:
            for q in players:
                if p != q:
                    # R9.1 (one square on a top space) and R9.3 (nobody else in a won column)
                    facts.append(o.not_(o.all([m.won_by(s, p, c), s.squares[q][c] > 0])))
    return o.all(facts)


def _phase_and_turn(m: Model, s: Vars) -> Term:
    o = m.ops
    markers = m.marker_count(s.markers)
    d1, d2, d3, d4 = s.dice
    no_dice = o.all([d == 0 for d in s.dice])
    return o.all(
        [
            s.player >= 0,
            s.player < m.config.players,
            o.any([s.phase == ROLL, s.phase == CHOOSE, s.phase == DECIDE, s.phase == OVER]),
            o.ite(
                s.phase == CHOOSE,
                o.all([m.valid_roll(s.dice), m.has_move(s, (d1, d2, d3, d4))]),  # R4.1, R10.1
                no_dice,
            ),
            o.ite(o.any([s.phase == ROLL, s.phase == OVER]), markers == 0, True),
            o.ite(s.phase == DECIDE, markers >= 1, True),
        ]
    )


def _one_winner(m: Model, s: Vars) -> Term:
    o = m.ops
    players = range(m.config.players)
    somebody = o.any(m.has_target(s, p) for p in players)
    return o.all(
        [
            o.count(m.has_target(s, p) for p in players) <= 1,
            (s.phase == OVER) == somebody,
            o.ite(s.phase == OVER, m.held_by_active(s) >= m.config.target, True),
        ]
    )


def _open_column(m: Model, s: Vars) -> Term:
    o = m.ops
    everything_won = o.all(m.won(s, c) for c in m.config.columns)
    somebody = o.any(m.has_target(s, p) for p in range(m.config.players))
    return o.ite(everything_won, somebody, True)


def _no_sharing_under_a(m: Model, s: Vars) -> Term:
    o = m.ops
    return o.not_(m.sharing(s))


def _focus_on_board(m: Model, s: Vars) -> Term:
    return m.marker_count(s.markers) >= 1


def _focus_some_won(m: Model, s: Vars) -> Term:
    return m.ops.any(m.won(s, c) for c in m.config.columns)


def _focus_three_markers(m: Model, s: Vars) -> Term:
    return m.marker_count(s.markers) == 3


def _focus_top(m: Model, s: Vars) -> Term:
    o = m.ops
    return o.any(s.markers[c] == m.height(c) for c in m.config.columns)


def _focus_above_own(m: Model, s: Vars) -> Term:
    o = m.ops
    return o.any(o.all([s.markers[c] > 0, m.own_square(s, c) > 0]) for c in m.config.columns)


def _focus_other_square_in_column(m: Model, s: Vars) -> Term:
    o = m.ops
    return o.any(
        o.all([s.markers[c] > 0, o.any(sq[c] > 0 for sq in s.squares)]) for c in m.config.columns
    )


#: The invariants, in the order the reports list them.
INVARIANTS: tuple[Invariant[Model, Vars, Vars], ...] = (
    Invariant(
        "R16.1 at most three markers",
        "R16.1 R1.4 R5.4",
        _at_most_three_markers,
        _focus_three_markers,
    ),
    Invariant(
        "R16.4 won columns are closed and have one owner",
        "R16.4 R9.1 R9.2 R9.3",
        _won_columns,
        _focus_some_won,
    ),
    Invariant(
        "R16.2 positions lie between 0 and the height",
        "R16.2 R1.2 R8.1",
        _positions_on_board,
        _focus_top,
    ),
    Invariant(
        "R16.3 markers above the player's square",
        "R16.3 R5.2 R5.1",
        _markers_above_square,
        _focus_above_own,
    ),
    Invariant(
        "R16.5 phase, turn and dice agree",
        "R16.5 R3.2 R3.3 R3.4 R4.1 R10.1",
        _phase_and_turn,
        _focus_on_board,
    ),
    Invariant(
        "R12.1 over exactly when one player holds the target",
        "R12.1 R16.4 R16.5",
        _one_winner,
        _focus_some_won,
    ),
    Invariant(
        "R15.4 a column is open while nobody has won",
        "R15.4 R12.1",
        _open_column,
        _focus_some_won,
    ),
    Invariant(
        "R14.1 under Variant A no marker shares a space",
        "R14.1 R13.1",
        _no_sharing_under_a,
        _focus_other_square_in_column,
        applies=lambda config: config.variant == "A",
    ),
)


# -- properties of one transition ----------------------------------------------------


def _chosen_sums(m: Model, step: Step) -> tuple[Term, Term]:
    return m.move_sums(step.before.dice, step.action.pairing)


def _maximal(m: Model, step: Step) -> Term:
    """No sum of the chosen pairing that the move left out can be played afterwards."""
    o = m.ops
    a, b = _chosen_sums(m, step)
    after = step.after
    return o.all(
        [
            o.ite(step.action.use_a, True, o.not_(m.plays(after, after.markers, a))),
            o.ite(step.action.use_b, True, o.not_(m.plays(after, after.markers, b))),
        ]
    )


def _plays_something(m: Model, step: Step) -> Term:
    o = m.ops
    return o.any(step.after.markers[c] != step.before.markers[c] for c in m.config.columns)


def _no_move_on_won(m: Model, step: Step) -> Term:
    o = m.ops
    return o.all(
        o.ite(m.won(step.before, c), step.after.markers[c] == step.before.markers[c], True)
        for c in m.config.columns
    )


def _some_sum_plays(m: Model, s: Vars, dice: tuple[Term, Term, Term, Term]) -> Term:
    o = m.ops
    return o.any(m.plays(s, s.markers, total) for pair in m.pairings(dice) for total in pair)


def _bust_exactly(m: Model, step: Step) -> Term:
    plays = _some_sum_plays(m, step.before, step.action.dice)
    return m.ops.not_(plays) if step.transition.name == "bust" else plays


def _win_at_stop(m: Model, step: Step) -> Term:
    o = m.ops
    over = step.after.phase == OVER
    if step.transition.name in ("stop", "win"):
        held = m.per_player(step.before.player, lambda p: m.held(step.after, p))
        return over == (held >= m.config.target)
    return o.not_(over)


def _squares_only_at_stop(m: Model, step: Step) -> Term:
    o = m.ops
    return o.all(
        a == b
        for own_a, own_b in zip(step.before.squares, step.after.squares, strict=True)
        for a, b in zip(own_a.values(), own_b.values(), strict=True)
    )


def _turn_passes(m: Model, step: Step) -> Term:
    o = m.ops
    s, t = step.before, step.after
    if step.transition.name in ("bust", "stop"):
        return o.all(
            [
                t.player == m.next_player(s),
                t.phase == ROLL,
                m.marker_count(t.markers) == 0,
            ]
        )
    return t.player == s.player


def _no_stop_while_sharing(m: Model, step: Step) -> Term:
    return m.ops.not_(m.sharing(step.before))


def _focus_single(m: Model, step: Step) -> Term:
    o = m.ops
    return o.not_(o.all([step.action.use_a, step.action.use_b]))


def _focus_won_column(m: Model, step: Step) -> Term:
    return _focus_some_won(m, step.before)


def _focus_markers_left(m: Model, step: Step) -> Term:
    return m.marker_count(step.before.markers) >= 1


def _focus_anything(m: Model, step: Step) -> Term:
    return True


def _focus_other_squares(m: Model, step: Step) -> Term:
    o = m.ops
    return o.any(sq[c] > 0 for sq in step.before.squares for c in m.config.columns)


#: The properties of single transitions, in the order the reports list them.
STEP_PROPERTIES: tuple[StepProperty[Model, Step], ...] = (
    StepProperty(
        "R6.1 a move drops no sum it could play",
        "R6.1 R6.2 R6.3 R7.1 R7.3",
        ("move",),
        _maximal,
        _focus_single,
    ),
    StepProperty(
        "R6.5 a move plays something",
        "R6.5 R6.4 R6.6",
        ("move",),
        _plays_something,
        _focus_anything,
    ),
    StepProperty(
        "R9.2 no move on a won column",
        "R9.2 R5.3",
        ("move",),
        _no_move_on_won,
        _focus_won_column,
    ),
    StepProperty(
        "R10.1 a roll busts exactly when no pairing plays",
        "R10.1 R10.3 R6.5",
        ("roll", "bust"),
        _bust_exactly,
        _focus_markers_left,
    ),
    StepProperty(
        "R12.1 a player wins exactly by stopping with the target",
        "R12.1 R11.4 R12.2",
        ("roll", "bust", "move", "stop", "win"),
        _win_at_stop,
        _focus_anything,
    ),
    StepProperty(
        "R10.2 squares change only at a stop",
        "R1.3 R10.2 R11.2 R8.2",
        ("roll", "bust", "move"),
        _squares_only_at_stop,
        _focus_markers_left,
    ),
    StepProperty(
        "R2.3 the turn passes after a bust or a stop",
        "R2.3 R3.5 R10.2 R11.4",
        ("roll", "bust", "move", "stop"),
        _turn_passes,
        _focus_anything,
    ),
    StepProperty(
        "R14.2 under Variant B no stop while sharing",
        "R14.2",
        ("stop", "win"),
        _no_stop_while_sharing,
        _focus_other_squares,
        applies=lambda config: config.variant == "B",
    ),
)


#: Every property: the invariants, then the properties of single transitions.
PROPERTIES: tuple[Invariant[Model, Vars, Vars] | StepProperty[Model, Step], ...] = (
    *INVARIANTS,
    *STEP_PROPERTIES,
)
