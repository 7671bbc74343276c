"""The inductive proofs over every board, and their non-vacuity witnesses.

For every shape of game in :data:`CONFIGS` (two, three and four players) and
a symbolic board (:class:`~tower.proofs.model.AnyBoard`), every invariant is
checked against the opening state and against each transition, and every
step property against the transitions it names.  A transition is checked for
each player who may take it, so a proof covers every player, every state and
every board at once.

A non-vacuity witness is a concrete state (on a concrete assignment of the
symbolic board) that satisfies the premises, and for each property its
*focus*: a capture while the tower holds a stone, a stone landing beside its
twin, a move onto another player's obstacle, a stone entering its goal.

How the checks are asked and reported is the layer's
(:class:`~dicekit.proofs.induction.Induction`); :class:`Proofs` says what
the model and the premises are here, and asks each question once per
player.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from dicekit.proofs.induction import Induction, Premise
from dicekit.proofs.properties import Invariant, StepProperty
from dicekit.proofs.results import Check
from dicekit.proofs.solver import Z3, Outcome, Solver, Term, int_var, readable
from dicekit.proofs.verdicts import witness
from tower.proofs.model import CHOOSE, THROW, AnyBoard, Model, Shape, Vars
from tower.proofs.properties import (
    INVARIANTS,
    PROPERTIES,
    SIX_FREES,
    STEP_PROPERTIES,
    TRANSITIONS,
    Step,
)

__all__ = [
    "CONFIGS",
    "PROOFS",
    "Proofs",
    "check_property",
    "describe",
    "model_for",
    "premise",
]

#: The shapes of game the proofs cover, each on every board.
CONFIGS: dict[str, Shape] = {"2p": Shape(2, 2), "3p": Shape(3, 2), "4p": Shape(4, 1)}

#: A property as the checks take it.
_Property = Invariant[Model, Vars, Step] | StepProperty[Model, Step]


def model_for(shape: Shape, mutations: frozenset[str] = frozenset()) -> Model:
    """Return the model of ``shape`` on a symbolic board, with any mutations."""
    return Model(shape, AnyBoard(shape.players), Z3, mutations)


def premise(model: Model, transition: str, me: int) -> Premise[Step]:
    """Return a solver holding the premise of ``transition`` taken by ``me``, and the step."""
    board = model.board
    assert isinstance(board, AnyBoard)
    solver = Solver()
    solver.add(*board.assumptions())
    s = model.fresh("s")
    solver.add(s.player == me, *(inv.holds(model, s) for inv in INVARIANTS))
    if transition == "move":
        choice = int_var("choice")
        moving = model.moving(s, me, choice)
        solver.add(s.phase == CHOOSE, choice >= 0, choice < len(model.choices()), moving.legal)
        step = Step(transition, me, s, model.moved(s, me, moving), moving)
    else:
        a, b = int_var("throw.a"), int_var("throw.b")
        thrown = model.thrown(s, me, a, b)
        solver.add(s.phase == THROW, a >= 1, a <= 6, b >= 1, b <= 6)
        if transition == "throw":
            solver.add(model.any_move(thrown, me))
            step = Step(transition, me, s, thrown, None)
        else:
            solver.add(model.ops.not_(model.any_move(thrown, me)))
            step = Step(transition, me, s, model.forfeited(thrown, me), None)
    return Premise(solver, step, functools.partial(step_text, model, step=step), _tidy(model, step))


def describe(model: Model, found: Outcome, s: Vars) -> str:
    """Return a state of a satisfying assignment as text: counts, steps and their fields."""
    phase = {0: "throw", 1: "choose", 2: "over"}.get(int(found.value(s.phase)), "?")
    dice = "" if phase != "choose" else f" {found.value(s.dice[0])}-{found.value(s.dice[1])}"
    parts = [f"player {found.value(s.player)} to {phase}{dice}"]
    for p in range(model.shape.players):
        steps = [
            f"{found.value(s.at[p][i])}@{found.value(model.board.field(p, s.at[p][i]))}"
            for i in range(model.shape.stones)
            if found.value(s.on[p][i])
        ]
        parts.append(
            f"p{p}: start {found.value(s.start[p])}, fields [{' '.join(steps)}], "
            f"tower {found.value(s.tower[p])}, goal {found.value(s.goal[p])}"
        )
    return "; ".join(parts)


def _board_facts(model: Model, found: Outcome) -> str:
    lengths = ", ".join(
        f"route {p} has {found.value(model.board.length(p))} steps"
        for p in range(model.shape.players)
    )
    return f"[{lengths}; the crossing is field {found.value(model.board.crossing())}; step@field]"


def step_text(model: Model, found: Outcome, step: Step) -> str:
    """Return a transition of a satisfying assignment as ``before --action--> after``."""
    if step.moving is not None:
        action = f"{found.value(step.moving.source)}+{found.value(step.moving.points)}"
    else:
        action = "throw"
    before = describe(model, found, step.before)
    after = describe(model, found, step.after)
    return f"{before} --{action} ({step.name})--> {after} {_board_facts(model, found)}"


def _tidy(model: Model, step: Step) -> list[Term]:
    """Conditions that keep a satisfying assignment readable: short routes, small numbers."""
    board = model.board
    assert isinstance(board, AnyBoard)
    terms = [*board.lengths, board.cross]
    terms += [x for row in step.before.at for x in row]
    small = [t <= 40 for t in terms] + [t >= 0 for t in terms]
    small += [board.field(p, x) <= 60 for p, row in enumerate(step.before.at) for x in row]
    small += [board.field(p, x) >= 1 for p, row in enumerate(step.before.at) for x in row]
    return small


def check_property(model: Model, transition: str, prop: _Property) -> tuple[Outcome, str]:
    """Check ``prop`` on ``transition`` for every player: the outcome and any counterexample."""
    total = 0.0
    for me in range(model.shape.players):
        asked = premise(model, transition, me)
        step = asked.subject
        goal = (
            prop.holds(model, step.after)
            if isinstance(prop, Invariant)
            else prop.holds(model, step)
        )
        outcome = asked.solver.check(model.ops.not_(goal))
        total += outcome.seconds
        if outcome.status == "sat":
            outcome = readable(asked.solver, [model.ops.not_(goal)], asked.tidy)
        if outcome.status != "unsat":
            outcome.seconds = total
            text = asked.show(outcome) if outcome.status == "sat" else outcome.reason
            return outcome, text
    return Outcome("unsat", total), ""


class Proofs(Induction[Shape, Model, Vars, Step]):
    """The proofs of Off to the Tower: every board at once, every question asked of every player."""

    mutant_name = "{mutation} | {transition} | {config}"

    def model(self, config: Shape, mutations: frozenset[str] = frozenset()) -> Model:
        """Return the model of ``config`` on a symbolic board, with any mutations."""
        return model_for(config, mutations)

    def premise(self, model: Model, transition: str) -> Premise[Step]:
        """Return the premise of ``transition`` taken by the first player (for its witness)."""
        return premise(model, transition, 0)

    def check_opening(
        self, model: Model, invariant: Invariant[Model, Vars, Any]
    ) -> tuple[Outcome, str]:
        """Check ``invariant`` in the opening state of every first player, on every board."""
        board = model.board
        assert isinstance(board, AnyBoard)
        solver = Solver()
        solver.add(*board.assumptions())
        total = 0.0
        for me in range(model.shape.players):
            outcome = solver.check(model.ops.not_(invariant.holds(model, model.initial(me))))
            total += outcome.seconds
            if outcome.status != "unsat":
                return outcome, "an opening state breaks it"
        return Outcome("unsat", total), ""

    def check_step(self, model: Model, transition: str, prop: _Property) -> tuple[Outcome, str]:
        """Check ``prop`` on ``transition`` for every player (:func:`check_property`)."""
        return check_property(model, transition, prop)

    def check_on(
        self, model: Model, transition: str, premise: Premise[Step], props: Sequence[_Property]
    ) -> Iterator[tuple[Outcome, str]]:
        """Check each of ``props`` on ``transition``, for every player, each on its own premise."""
        for prop in props:
            yield check_property(model, transition, prop)

    def witnesses(self, configs: Mapping[str, Shape] | None = None) -> Iterator[Check]:
        """For each property, a premise state of the move in which it is at stake (its focus).

        On the first configuration only, and a focus that cannot be met is a
        failure: every property here has a focus that some state meets.
        """
        config, shape = next(iter((configs or self.configs).items()))
        model = model_for(shape)
        focused: list[tuple[str, str, Callable[[Model, Step], Term]]] = [
            (prop.name, "move", prop.focus) for prop in PROPERTIES if prop.focus is not None
        ]
        focused.append(("R13.5 a move is chosen with two sorted dice", "throw", SIX_FREES))
        focused.append(
            ("R8.3 no six is chosen with the thrower's stone in the tower", "throw", SIX_FREES)
        )
        for name, transition, focus in focused:
            asked = premise(model, transition, 0)
            yield witness(
                asked.solver,
                focus(model, asked.subject),
                name,
                transition,
                config,
                asked.show,
                asked.tidy,
                premises_only=False,
            )


#: The proofs of every shape of :data:`CONFIGS`.
PROOFS = Proofs(CONFIGS, TRANSITIONS, INVARIANTS, STEP_PROPERTIES)
