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
"""

from __future__ import annotations

import builtins
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass

import z3

from tower.proofs.model import (
    CHOOSE,
    THROW,
    Z3,
    AnyBoard,
    Model,
    Outcome,
    Shape,
    Solver,
    Term,
    Vars,
)
from tower.proofs.properties import (
    INVARIANTS,
    PROPERTIES,
    SIX_FREES,
    STEP_PROPERTIES,
    TRANSITIONS,
    Invariant,
    Step,
    StepProperty,
)

__all__ = ["CONFIGS", "Check", "check_property", "describe", "premise", "prove_all", "witnesses"]

#: The shapes of game the proofs cover, each on every board.
CONFIGS: dict[str, Shape] = {"2p": Shape(2, 2), "3p": Shape(3, 2), "4p": Shape(4, 1)}

_EXPECTED = {
    "induction": "proved",
    "non-vacuity": "witness",
    "mutation": "caught",
    "link": "agree",
}


@dataclass
class Check:
    """One line of the results: what was checked, where, and how it came out."""

    name: str
    group: str
    property: str
    transition: str | None
    config: str
    result: str
    seconds: float
    detail: str = ""

    @builtins.property
    def ok(self) -> bool:
        """Whether this result is the one expected for its group."""
        return self.result == _EXPECTED[self.group]

    def as_json(self) -> dict[str, object]:
        """Return the check as a JSON object (the format of ``tower/proofs/results.json``)."""
        data = asdict(self)
        data["seconds"] = round(self.seconds, 3)
        return data


def model_for(shape: Shape, mutations: frozenset[str] = frozenset()) -> Model:
    """Return the model of ``shape`` on a symbolic board, with any mutations."""
    return Model(shape, AnyBoard(shape.players), Z3, mutations)


def premise(model: Model, transition: str, me: int) -> tuple[Solver, Step]:
    """Return a solver holding the premise of ``transition`` taken by ``me``, and the step."""
    board = model.board
    assert isinstance(board, AnyBoard)
    solver = Solver()
    solver.add(*board.assumptions())
    s = model.fresh("s")
    solver.add(s.player == me, *(inv.holds(model, s) for inv in INVARIANTS))
    if transition == "move":
        choice = z3.Int("choice")
        moving = model.moving(s, me, choice)
        solver.add(s.phase == CHOOSE, choice >= 0, choice < len(model.choices()), moving.legal)
        return solver, Step(transition, me, s, model.moved(s, me, moving), moving)
    a, b = z3.Int("throw.a"), z3.Int("throw.b")
    thrown = model.thrown(s, me, a, b)
    solver.add(s.phase == THROW, a >= 1, a <= 6, b >= 1, b <= 6)
    if transition == "throw":
        solver.add(model.any_move(thrown, me))
        return solver, Step(transition, me, s, thrown, None)
    solver.add(model.ops.not_(model.any_move(thrown, me)))
    return solver, Step(transition, me, s, model.forfeited(thrown, me), None)


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


def readable(model: Model, solver: Solver, step: Step, *goal: Term) -> Outcome:
    """Return an assignment satisfying ``goal``, with short routes and small numbers if it can."""
    found = solver.check(*goal, *_tidy(model, step))
    return found if found.status == "sat" else solver.check(*goal)


def check_property(
    model: Model, transition: str, prop: Invariant | StepProperty
) -> tuple[Outcome, str]:
    """Check ``prop`` on ``transition`` for every player: the outcome and any counterexample."""
    total = 0.0
    for me in range(model.shape.players):
        solver, step = premise(model, transition, me)
        goal = (
            prop.holds(model, step.after)
            if isinstance(prop, Invariant)
            else prop.holds(model, step)
        )
        outcome = solver.check(model.ops.not_(goal))
        total += outcome.seconds
        if outcome.status == "sat":
            outcome = readable(model, solver, step, model.ops.not_(goal))
        if outcome.status != "unsat":
            outcome.seconds = total
            text = step_text(model, outcome, step) if outcome.status == "sat" else outcome.reason
            return outcome, text
    return Outcome("unsat", total), ""


def _initial_check(model: Model, inv: Invariant) -> Outcome:
    board = model.board
    assert isinstance(board, AnyBoard)
    solver = Solver()
    solver.add(*board.assumptions())
    total = 0.0
    for me in range(model.shape.players):
        outcome = solver.check(model.ops.not_(inv.holds(model, model.initial(me))))
        total += outcome.seconds
        if outcome.status != "unsat":
            return outcome
    return Outcome("unsat", total)


def _verdict(outcome: Outcome, text: str, rules: str) -> tuple[str, str]:
    if outcome.status == "unsat":
        return "proved", f"covers {rules}"
    if outcome.status == "sat":
        return "counterexample", text
    return "unknown", f"the solver gave up: {outcome.reason}"


def prove_all(configs: dict[str, Shape] | None = None) -> Iterator[Check]:
    """Run every induction check, and a witness of the premises of each transition."""
    for name, shape in (configs or CONFIGS).items():
        model = model_for(shape)
        for inv in INVARIANTS:
            outcome = _initial_check(model, inv)
            result, detail = _verdict(outcome, "an opening state breaks it", inv.rules)
            yield Check(
                f"{inv.name} | init | {name}", "induction", inv.name, "init", name, result,
                outcome.seconds, detail,
            )  # fmt: skip
        for transition in TRANSITIONS:
            solver, step = premise(model, transition, 0)
            found = readable(model, solver, step)
            yield Check(
                f"witness premises | {transition} | {name}", "non-vacuity", "premises",
                transition, name, "witness" if found.status == "sat" else "vacuous",
                found.seconds, step_text(model, found, step) if found.status == "sat" else "",
            )  # fmt: skip
            props: list[Invariant | StepProperty] = [*INVARIANTS]
            props += [p for p in STEP_PROPERTIES if transition in p.transitions]
            for prop in props:
                outcome, text = check_property(model, transition, prop)
                result, detail = _verdict(outcome, text, prop.rules)
                yield Check(
                    f"{prop.name} | {transition} | {name}", "induction", prop.name, transition,
                    name, result, outcome.seconds, detail,
                )  # fmt: skip


def witnesses(config: str = "2p") -> Iterator[Check]:
    """For each property, a premise state of the move in which it is at stake (its focus)."""
    model = model_for(CONFIGS[config])
    focused: list[tuple[str, str, Callable[[Model, Step], Term]]] = [
        (prop.name, "move", prop.focus) for prop in PROPERTIES if prop.focus is not None
    ]
    focused.append(("R13.5 a move is chosen with two sorted dice", "throw", SIX_FREES))
    focused.append(
        ("R8.3 no six is chosen with the thrower's stone in the tower", "throw", SIX_FREES)
    )
    for name, transition, focus in focused:
        solver, step = premise(model, transition, 0)
        found = readable(model, solver, step, focus(model, step))
        yield Check(
            f"witness {name} | {transition} | {config}", "non-vacuity", name, transition, config,
            "witness" if found.status == "sat" else "vacuous", found.seconds,
            step_text(model, found, step) if found.status == "sat" else "no such state",
        )  # fmt: skip
