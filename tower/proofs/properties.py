"""What is proven: the state invariants and the properties of single transitions.

An :class:`Invariant` is a statement about one state, proven by induction: it
holds in every opening state, and every transition keeps it.  A
:class:`StepProperty` is a statement about one transition, from a state that
satisfies all invariants to the state after it.  Each names the spec rules it
covers (``tower/spec/rules/``) and a *focus*: a condition on a step under
which it has something to say, for the non-vacuity witnesses.  Both classes
are the layer's (:mod:`dicekit.proofs.properties`).

The invariants are proven together: the premise of each induction step is
the conjunction of all of them.  Two are there to support the others: the
dice are two numbers from 1 to 6 while a move is chosen (so a move passes at
most five steps), and no two players' stones share a field (so a landing
captures at most one stone, and the tower takes at most one).
"""

from __future__ import annotations

from dataclasses import dataclass

from dicekit.proofs.properties import Invariant, StepProperty
from tower.proofs.model import CHOOSE, OVER, THROW, Model, Moving, Term, Vars

__all__ = ["INVARIANTS", "PROPERTIES", "STEP_PROPERTIES", "Invariant", "Step", "StepProperty"]

#: The transitions of the model, in the order the reports list them.
TRANSITIONS = ("throw", "forfeit", "move")


@dataclass(frozen=True)
class Step:
    """A transition taken by player ``me``: the state before, the move's facts, the state after."""

    name: str
    me: int
    before: Vars
    after: Vars
    moving: Moving | None


def _conserved(model: Model, s: Vars) -> Term:
    o, k = model.ops, model.shape.stones
    return o.all(
        o.all(
            [
                s.start[p] >= 0,
                s.goal[p] >= 0,
                s.tower[p] >= 0,
                s.start[p] + s.goal[p] + s.tower[p] + sum(o.ite(x, 1, 0) for x in s.on[p]) == k,
            ]
        )
        for p in range(model.shape.players)
    )


def _tower(model: Model, s: Vars) -> Term:
    return sum(s.tower) <= 1


def _on_route(model: Model, s: Vars) -> Term:
    o = model.ops
    return o.all(
        o.ite(s.on[p][i], o.all([s.at[p][i] >= 1, s.at[p][i] < model.board.length(p)]), True)
        for p in range(model.shape.players)
        for i in range(model.shape.stones)
    )


def _pairs(model: Model, same: bool) -> list[tuple[int, int, int, int]]:
    n, k = model.shape.players, model.shape.stones
    stones = [(p, i) for p in range(n) for i in range(k)]
    return [
        (p, i, q, j)
        for x, (p, i) in enumerate(stones)
        for (q, j) in stones[x + 1 :]
        if (p == q) == same
    ]


def _apart(model: Model, s: Vars, same: bool) -> Term:
    o = model.ops
    return o.all(
        o.ite(
            o.all([s.on[p][i], s.on[q][j]]),
            model.spot(s, p, i) != model.spot(s, q, j),
            True,
        )
        for p, i, q, j in _pairs(model, same)
    )


def _turn(model: Model, s: Vars) -> Term:
    o = model.ops
    d1, d2 = s.dice
    return o.all(
        [
            s.player >= 0,
            s.player < model.shape.players,
            s.phase >= THROW,
            s.phase <= OVER,
            o.ite(s.phase == CHOOSE, o.all([d1 >= 1, d1 <= d2, d2 <= 6]), True),
        ]
    )


def _of_player(model: Model, s: Vars, values: tuple[Term, ...]) -> Term:
    """Return the value of the player to move, for a possibly symbolic player."""
    return sum(model.ops.ite(s.player == p, values[p], 0) for p in range(model.shape.players))


def _six_in_hand(model: Model, s: Vars) -> Term:
    o = model.ops
    six = o.any([s.dice[0] == 6, s.dice[1] == 6])
    return o.ite(o.all([s.phase == CHOOSE, six]), _of_player(model, s, s.tower) == 0, True)


def _over(model: Model, s: Vars) -> Term:
    o, k = model.ops, model.shape.stones
    done = o.any(goal == k for goal in s.goal)
    return o.all(
        [
            (s.phase == OVER) == done,
            o.ite(s.phase == OVER, _of_player(model, s, s.goal) == k, True),
        ]
    )


def _wins(model: Model, step: Step) -> Term:
    return step.after.goal[step.me] == model.shape.stones


def _captures(model: Model, step: Step) -> Term:
    """Whether the move lands on a field where another player's stone stands."""
    o, m, s = model.ops, step.moving, step.before
    assert m is not None
    lands = m.target < model.board.length(step.me)
    return o.all(
        [
            lands,
            o.any(
                o.all([s.on[q][i], model.spot(s, q, i) == model.board.field(step.me, m.target)])
                for q in range(model.shape.players)
                if q != step.me
                for i in range(model.shape.stones)
            ),
        ]
    )


def _capture_with_tower_full(model: Model, step: Step) -> Term:
    return model.ops.all([_captures(model, step), sum(step.before.tower) >= 1])


def _lands_last(model: Model, step: Step) -> Term:
    assert step.moving is not None
    return step.moving.target == model.board.length(step.me) - 1


def _lands_with_twin(model: Model, step: Step) -> Term:
    o, m, s = model.ops, step.moving, step.before
    assert m is not None
    twin = o.any(
        o.all([s.on[step.me][i], o.not_(m.from_slot[i])]) for i in range(model.shape.stones)
    )
    return o.all([twin, m.target < model.board.length(step.me)])


def _six_frees(model: Model, step: Step) -> Term:
    s = step.before
    return model.ops.all([s.tower[step.me] >= 1, step.after.start[step.me] > s.start[step.me]])


def _no_passing(model: Model, step: Step) -> Term:
    o, m = model.ops, step.moving
    assert m is not None
    return o.ite(
        model.obstacle_held(step.before, step.me),
        o.all(
            o.ite(
                m.source + k < m.target,
                model.board.field(step.me, m.source + k) != model.board.crossing(),
                True,
            )
            for k in range(1, 6)
        ),
        True,
    )


def _at_the_obstacle(model: Model, step: Step) -> Term:
    o, m = model.ops, step.moving
    assert m is not None
    return o.all(
        [
            model.obstacle_held(step.before, step.me),
            model.board.field(step.me, m.target) == model.board.crossing(),
        ]
    )


def _exact_goal(model: Model, step: Step) -> Term:
    o, s, t = model.ops, step.before, step.after
    others = o.all(t.goal[q] == s.goal[q] for q in range(model.shape.players) if q != step.me)
    if step.moving is None:
        return o.all([others, t.goal[step.me] == s.goal[step.me]])
    exact = o.all(
        [
            step.moving.target == model.board.length(step.me),
            t.goal[step.me] == s.goal[step.me] + 1,
        ]
    )
    return o.all([others, o.any([t.goal[step.me] == s.goal[step.me], exact])])


def _enters_goal(model: Model, step: Step) -> Term:
    return step.after.goal[step.me] > step.before.goal[step.me]


#: The invariants, proven together by induction.
INVARIANTS: tuple[Invariant[Model, Vars, Step], ...] = (
    Invariant(
        "R13.1 stones are conserved",
        "R13.1 R1.2 R7.1 R8.2 R8.3 R10.3",
        _conserved,
        _capture_with_tower_full,
    ),
    Invariant(
        "R8.1 the tower holds at most one stone",
        "R8.1 R8.2 R13.3",
        _tower,
        _capture_with_tower_full,
    ),
    Invariant(
        "R13.2 stones on fields stand on their routes",
        "R13.2 R5.1 R10.2",
        _on_route,
        _lands_last,
    ),
    Invariant(
        "R5.4 no two stones of a player share a field",
        "R5.4 R13.4",
        lambda model, s: _apart(model, s, True),
        _lands_with_twin,
    ),
    Invariant(
        "R7.4 no two players' stones share a field",
        "R7.4 R7.1 R13.4",
        lambda model, s: _apart(model, s, False),
        _captures,
    ),
    Invariant(
        "R13.5 a move is chosen with two sorted dice",
        "R13.5 R4.1",
        _turn,
        None,
    ),
    Invariant(
        "R8.3 no six is chosen with the thrower's stone in the tower",
        "R8.3 R13.5",
        _six_in_hand,
        None,
    ),
    Invariant(
        "R11.1 the game is over exactly when a player has every stone home",
        "R11.1 R11.3 R13.5",
        _over,
        _wins,
    ),
)

#: The properties of single transitions.
STEP_PROPERTIES: tuple[StepProperty[Model, Step], ...] = (
    StepProperty(
        "R9.1 no stone passes another player's obstacle",
        "R9.1 R9.2 R9.3",
        ("move",),
        _no_passing,
        _at_the_obstacle,
    ),
    StepProperty(
        "R10.2 a goal is entered only by an exact throw",
        "R10.2 R10.1 R11.1",
        TRANSITIONS,
        _exact_goal,
        _enters_goal,
    ),
)

#: Every property, invariants first.
PROPERTIES: tuple[Invariant[Model, Vars, Step] | StepProperty[Model, Step], ...] = (
    *INVARIANTS,
    *STEP_PROPERTIES,
)

#: The focus of a six that frees a stone, for the throw transition's witness.
SIX_FREES = _six_frees
