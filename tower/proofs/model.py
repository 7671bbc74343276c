"""The rules of Off to the Tower as formulas over any board, for z3 and for plain Python.

The rules are written once, in :class:`Model`, over a few operations (the
layer's :class:`~dicekit.proofs.solver.Ops`: if-then-else, and, or, not)
that two backends evaluate:
:data:`Z3` builds z3 terms, so that states and boards can be symbolic and the
solver reasons about all of them at once; :data:`PY` evaluates plain Python
values, so that the same formulas can be compared with the engine on
concrete states of a concrete board (the link).

A board is seen through a :class:`BoardView`: for each player, the field of
each step of the route and the route's length, the crossing, and which steps
give a throw again.  :class:`AnyBoard` leaves all of them symbolic (z3
functions and constants), with nothing assumed but that a route has at least
seven steps (R2.6); :class:`ShippedBoard` reads a concrete board.

A state (:class:`Vars`) counts each player's stones at the start, in the
goal and in the tower, and holds each stone on a field in a *slot*: whether
the slot is used, and the step of the route it is on.  So a stone can be
lost or doubled by a broken rule, and conservation is something to prove.

>>> from tower.config import make_config
>>> shape = Shape(2, 2)
>>> model = Model(shape, ShippedBoard(make_config('ours')), PY)
>>> s = model.initial(0)
>>> model.moves(model.thrown(s, 0, 3, 5), 0)
[(0, 3), (0, 5)]
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import NamedTuple, Protocol

from dicekit.proofs.solver import (
    PY,
    Z3,
    Ops,
    Term,
    bool_function,
    bool_var,
    int_function,
    int_var,
)
from tower.config import Config

__all__ = [
    "CHOOSE",
    "OVER",
    "PY",
    "THROW",
    "Z3",
    "AnyBoard",
    "BoardView",
    "Model",
    "Ops",
    "Shape",
    "ShippedBoard",
    "Term",
    "Vars",
]

#: The phases, numbered as the model stores them (R3.4).
THROW, CHOOSE, OVER = 0, 1, 2


@dataclass(frozen=True)
class Shape:
    """The concrete part of a configuration: the number of players and of stones each (R1.2)."""

    players: int
    stones: int


class BoardView(Protocol):
    """What the rules read of a board (R2.6)."""

    def field(self, player: int, step: Term) -> Term:
        """Return the field on ``step`` of ``player``'s route."""

    def length(self, player: int) -> Term:
        """Return the length of ``player``'s route: the step of the goal."""

    def crossing(self) -> Term:
        """Return the field of the crossing (R2.2)."""

    def again(self, player: int, step: Term) -> Term:
        """Return whether a stone of ``player`` landing on ``step`` throws again (R6.1)."""


class AnyBoard:
    """Every board at once: routes, lengths, crossing and colours are z3 symbols.

    Nothing is assumed of them but that each route has at least seven steps
    (R2.6).  The invariants proven over this view hold on every board.
    """

    def __init__(self, players: int) -> None:
        self.fields = [int_function(f"field{p}") for p in range(players)]
        self.lengths = [int_var(f"length{p}") for p in range(players)]
        self.cross = int_var("crossing")
        self.colour = [bool_function(f"again{p}") for p in range(players)]

    def field(self, player: int, step: Term) -> Term:
        """Return the symbolic field on ``step``."""
        return self.fields[player](step)

    def length(self, player: int) -> Term:
        """Return the symbolic length of the route."""
        return self.lengths[player]

    def crossing(self) -> Term:
        """Return the symbolic crossing."""
        return self.cross

    def again(self, player: int, step: Term) -> Term:
        """Return the symbolic colour test."""
        return self.colour[player](step)

    def assumptions(self) -> list[Term]:
        """Return what every board satisfies: routes of seven steps or more (R2.6)."""
        return [length >= 7 for length in self.lengths]


class ShippedBoard:
    """A concrete board, read from a configuration; for the Python backend."""

    def __init__(self, config: Config) -> None:
        self.config = config

    def field(self, player: int, step: Term) -> Term:
        """Return the field on ``step``, or a number that is no field's when off the route."""
        route = self.config.routes[player]
        return route[step] if 0 < step < len(route) else -1000 - step

    def length(self, player: int) -> Term:
        """Return the route's length."""
        return self.config.lengths[player]

    def crossing(self) -> Term:
        """Return the crossing."""
        return self.config.board.crossing

    def again(self, player: int, step: Term) -> Term:
        """Return whether the step's field has the player's colour (the goal included)."""
        return step in self.config.again_steps[player]


@dataclass(frozen=True)
class Vars:
    """A state: symbolic (z3 terms) or concrete (Python values).

    ``on[p][i]`` says whether player ``p``'s slot ``i`` holds a stone on a
    field, and ``at[p][i]`` the step it stands on.  Dice are 0 outside the
    CHOOSE phase.
    """

    player: Term
    phase: Term
    dice: tuple[Term, Term]
    start: tuple[Term, ...]
    goal: tuple[Term, ...]
    tower: tuple[Term, ...]
    on: tuple[tuple[Term, ...], ...]
    at: tuple[tuple[Term, ...], ...]

    def terms(self) -> list[Term]:
        """Every value of the state, in a fixed order."""
        out = [self.player, self.phase, *self.dice, *self.start, *self.goal, *self.tower]
        for on, at in zip(self.on, self.at, strict=True):
            out += [*on, *at]
        return out


class Moving(NamedTuple):
    """What a move does, worked out from the state and the choice (R5.5)."""

    from_start: Term
    from_slot: tuple[Term, ...]
    source: Term
    points: Term
    target: Term
    exists: Term
    legal: Term


@dataclass
class Model:
    """The rules for one shape of game over one board view and backend.

    ``mutations`` names deliberate mistakes (:mod:`tower.proofs.mutations`);
    the checks must then find a counterexample.
    """

    shape: Shape
    board: BoardView
    ops: Ops
    mutations: frozenset[str] = field(default_factory=frozenset)

    def broken(self, mutation: str) -> bool:
        """Whether this model carries ``mutation``."""
        return mutation in self.mutations

    # -- states -----------------------------------------------------------------

    def fresh(self, name: str) -> Vars:
        """Return a state of fresh z3 variables."""
        n, k = self.shape.players, self.shape.stones
        return Vars(
            player=int_var(f"{name}.player"),
            phase=int_var(f"{name}.phase"),
            dice=(int_var(f"{name}.d1"), int_var(f"{name}.d2")),
            start=tuple(int_var(f"{name}.start{p}") for p in range(n)),
            goal=tuple(int_var(f"{name}.goal{p}") for p in range(n)),
            tower=tuple(int_var(f"{name}.tower{p}") for p in range(n)),
            on=tuple(tuple(bool_var(f"{name}.on{p}.{i}") for i in range(k)) for p in range(n)),
            at=tuple(tuple(int_var(f"{name}.at{p}.{i}") for i in range(k)) for p in range(n)),
        )

    def initial(self, player: Term) -> Vars:
        """Return the opening state: every stone at the start, ``player`` to throw (R3.1)."""
        n, k = self.shape.players, self.shape.stones
        return Vars(
            player=player,
            phase=THROW,
            dice=(0, 0),
            start=(k,) * n,
            goal=(0,) * n,
            tower=(0,) * n,
            on=((False,) * k,) * n,
            at=((0,) * k,) * n,
        )

    def spot(self, s: Vars, player: int, slot: int) -> Term:
        """Return the field of ``player``'s stone in ``slot``."""
        return self.board.field(player, s.at[player][slot])

    def obstacle_held(self, s: Vars, me: int) -> Term:
        """Whether a stone of a player other than ``me`` stands on the crossing (R9.1)."""
        o = self.ops
        return o.any(
            o.all([s.on[q][i], self.spot(s, q, i) == self.board.crossing()])
            for q in range(self.shape.players)
            if q != me
            for i in range(self.shape.stones)
        )

    # -- a move (R5.5) -------------------------------------------------------------

    def choices(self) -> range:
        """Return the choice numbers of a move: source ``c // 2`` (0 the start), die ``c % 2``."""
        return range(2 * (self.shape.stones + 1))

    def moving(self, s: Vars, me: int, choice: Term) -> Moving:
        """Return what choice ``choice`` of player ``me`` does in ``s``, and whether it is legal."""
        o = self.ops
        k = self.shape.stones
        from_start = o.any([choice == 0, choice == 1])
        from_slot = tuple(o.any([choice == 2 + 2 * i, choice == 3 + 2 * i]) for i in range(k))
        points = o.ite(o.any(choice == c for c in self.choices() if c % 2 == 0), *s.dice)
        source = 0
        for i in range(k):
            source = o.ite(from_slot[i], s.at[me][i], source)
        exists = o.ite(
            from_start,
            s.start[me] >= 1,
            o.any(o.all([from_slot[i], s.on[me][i]]) for i in range(k)),
        )
        target = source + points
        legal = o.all([exists, self._allowed(s, me, from_slot, source, points)])
        start_moves = o.any(
            o.all([s.start[me] >= 1, self._allowed(s, me, (False,) * k, 0, d)]) for d in s.dice
        )
        legal = o.all([legal, o.any([from_start, o.not_(start_moves)])])  # R5.3
        return Moving(from_start, from_slot, source, points, target, exists, legal)

    def _allowed(
        self, s: Vars, me: int, from_slot: tuple[Term, ...], source: Term, points: Term
    ) -> Term:
        """Return the tests of R5.5 but R5.2 and R5.3: a stone on ``source`` moving ``points``."""
        o = self.ops
        target = source + points
        length = self.board.length(me)
        within = (
            True if self.broken("overshoot") or self.broken("past-the-goal") else target <= length
        )
        own = o.any(
            o.all(
                [
                    s.on[me][i],
                    o.not_(from_slot[i]),
                    self.spot(s, me, i) == self.board.field(me, target),
                ]
            )
            for i in range(self.shape.stones)
        )
        clash = False if self.broken("land-on-own") else o.all([target < length, own])  # R5.4
        passes = o.any(
            o.all([source + m < target, self.board.field(me, source + m) == self.board.crossing()])
            for m in range(1, 6)
        )
        blocked = (
            False if self.broken("pass-obstacle") else o.all([self.obstacle_held(s, me), passes])
        )
        return o.all([within, o.not_(clash), o.not_(blocked)])  # R10.2, R5.4, R9.1

    def moves(self, s: Vars, me: int) -> list[tuple[int, int]]:
        """Return the legal moves (step, points) of a concrete state, in order (Python backend)."""
        found = set()
        for c in self.choices():
            m = self.moving(s, me, c)
            if m.legal:
                found.add((m.source, m.points))
        return sorted(found)

    def any_move(self, s: Vars, me: int) -> Term:
        """Whether player ``me`` has a legal move for the dice of ``s`` (R4.4)."""
        return self.ops.any(self.moving(s, me, c).legal for c in self.choices())

    # -- transitions -------------------------------------------------------------

    def thrown(self, s: Vars, me: int, a: Term, b: Term) -> Vars:
        """Return ``s`` with dice ``a`` and ``b`` on the table, sorted; a six frees (R8.3)."""
        o = self.ops
        six = o.any([a == 6, b == 6])
        freed = False if self.broken("six-frees-nothing") else o.all([s.tower[me] >= 1, six])
        extra = 2 if self.broken("free-into-two") else 1
        start = tuple(o.ite(freed, x + extra, x) if p == me else x for p, x in enumerate(s.start))
        tower = tuple(o.ite(freed, x - 1, x) if p == me else x for p, x in enumerate(s.tower))
        dice = (
            (a, b) if self.broken("unsorted-dice") else (o.ite(a <= b, a, b), o.ite(a <= b, b, a))
        )
        return replace(s, phase=CHOOSE, dice=dice, start=start, tower=tower)

    def forfeited(self, s: Vars, me: int) -> Vars:
        """Return the state after a throw that cannot be used: the next player throws (R4.4)."""
        return replace(s, player=(me + 1) % self.shape.players, phase=THROW, dice=(0, 0))

    def moved(self, s: Vars, me: int, m: Moving) -> Vars:
        """Return the state after move ``m`` of player ``me`` (R5.1, R7, R8.2, R6, R10, R11)."""
        o = self.ops
        n, k = self.shape.players, self.shape.stones
        length = self.board.length(me)
        home = m.target >= length if self.broken("overshoot") else m.target == length
        lands = o.not_(home)
        spot = self.board.field(me, m.target)
        # The stone leaves its place, and lands in a slot unless it reached the goal.
        free = [o.all([o.not_(s.on[me][i]), *(s.on[me][j] for j in range(i))]) for i in range(k)]
        lands_in = [
            o.all([lands, o.any([m.from_slot[i], o.all([m.from_start, free[i]])])])
            for i in range(k)
        ]
        on = [list(row) for row in s.on]
        at = [list(row) for row in s.at]
        for i in range(k):
            on[me][i] = o.ite(m.from_slot[i], lands_in[i], o.any([s.on[me][i], lands_in[i]]))
            at[me][i] = o.ite(lands_in[i], m.target, s.at[me][i])
        # A stone of another player on the field it lands on is captured (R7.1).
        captured = [[False] * k for _ in range(n)]
        if not self.broken("no-capture"):
            for q in range(n):
                for i in range(k):
                    if q != me:
                        captured[q][i] = o.all([lands, s.on[q][i], self.spot(s, q, i) == spot])
                        on[q][i] = o.all([on[q][i], o.not_(captured[q][i])])
        any_captured = o.any(c for row in captured for c in row)
        released = [
            False if self.broken("keep-tower") else o.all([any_captured, s.tower[q] >= 1])
            for q in range(n)
        ]  # R8.2
        tower = []
        start = []
        for q in range(n):
            taken = sum(o.ite(c, 1, 0) for c in captured[q])
            kept = 0 if self.broken("lose-captured") else taken
            tower.append(s.tower[q] + kept - o.ite(released[q], 1, 0))
            leaving = o.ite(m.from_start, 1, 0) if q == me else 0
            start.append(s.start[q] + o.ite(released[q], 1, 0) - leaving)
        goal = tuple(o.ite(home, x + 1, x) if q == me else x for q, x in enumerate(s.goal))
        won = goal[me] == k + (1 if self.broken("win-needs-more") else 0)  # R11.1
        again = o.any([home, self.board.again(me, m.target)])  # R6.1, R6.6
        return Vars(
            player=o.ite(o.any([won, again]), me, (me + 1) % n),
            phase=o.ite(won, OVER, THROW),
            dice=(0, 0),
            start=tuple(start),
            goal=goal,
            tower=tuple(tower),
            on=tuple(tuple(row) for row in on),
            at=tuple(tuple(row) for row in at),
        )
