"""The rules of the finish-line race as formulas, over z3 terms or Python values.

The rules are written once, in :class:`Model`, over a few operations (the
layer's :class:`~dicekit.proofs.solver.Ops`: if-then-else, and, or, not,
sum).  Two backends evaluate them:
:data:`Z3` builds z3 terms, so that a state can be symbolic and a proof
covers every state at once; :data:`PY` evaluates plain Python values, so that
the very same formulas can be compared with the engine on concrete states.

A state of the model (:class:`Vars`) counts, for each player and each cell of
a *grid*, the player's counters there: the 24 cells of the board, and around
them cells that are not on the board (a row 0 beyond the finish line, and a
column on each side of every row).  A correct transition never puts a counter
off the board, so the invariant "positions lie on the board" (R12.1) says
something: a broken transition that moves a counter past row 1 instead of
across, or sideways past cell A, puts it on such a cell.  A cell may hold any
number of counters, so that "one counter per cell" (R12.2) says something
too.  The hand and the counters across are numbers of their own, so that
conservation (R12.3) does.  Besides the game's own state, each player has a
ghost flag, *played*: whether they have finished a turn, which the proof of
R7.3 needs and the engine does not.

>>> m = Model(Config(2, 6), PY)
>>> s = m.initial(0)
>>> m.has_action(s, 2, 5), m.can_use_both(s, 2, 5)
(True, True)
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from dicekit.proofs.solver import PY, Z3, Ops, Term, bool_var, int_var

__all__ = [
    "BOARD",
    "CHOOSE",
    "GRID",
    "OVER",
    "PY",
    "ROLL",
    "TRANSITIONS",
    "Z3",
    "Config",
    "Model",
    "Ops",
    "PlayChoice",
    "Term",
    "Transition",
    "Vars",
]

#: The cells, hand and across left by a step of a play.
_Moved = tuple[tuple[dict[tuple[int, int], Term], ...], Term, Term]
#: The phases, numbered as the model stores them (R3).
ROLL, CHOOSE, OVER = 0, 1, 2
#: The transitions of the model, in the order the reports list them.
TRANSITIONS = ("roll", "forfeit", "play", "sideways", "double")
#: The kinds of a step of a play: no step, a placement (R5), a move forward (R6).
NONE, PLACE, MOVE = 0, 1, 2

#: The cells of the board: (row, column), rows 1 to 6 and columns 0 to 3 for A to D (R1.1).
BOARD: tuple[tuple[int, int], ...] = tuple((r, c) for r in range(1, 7) for c in range(4))
#: The grid: the board, row 0 beyond the line, and a column on each side of every row.
GRID: tuple[tuple[int, int], ...] = (
    BOARD + tuple((0, c) for c in range(4)) + tuple((r, c) for r in range(1, 7) for c in (-1, 4))
)


@dataclass(frozen=True)
class Config:
    """A configuration as the model sees it: players and counters each (R11), always concrete."""

    players: int
    counters: int


@dataclass(frozen=True)
class Vars:
    """A state of the model: symbolic (z3 terms) or concrete (Python values)."""

    #: Whose turn it is (the winner once the game is over).
    player: Term
    #: :data:`ROLL`, :data:`CHOOSE` or :data:`OVER`.
    phase: Term
    #: The dice, low first, during CHOOSE; 0 and 0 otherwise.
    dice: tuple[Term, Term]
    #: For each player, grid cell to the number of that player's counters on it.
    cells: tuple[dict[tuple[int, int], Term], ...]
    #: For each player, the counters in hand.
    hand: tuple[Term, ...]
    #: For each player, the counters across the line.
    across: tuple[Term, ...]
    #: For each player, the ghost flag: whether they have finished a turn.
    played: tuple[Term, ...]

    def terms(self) -> list[Term]:
        """Every value of the state, in a fixed order."""
        out = [self.player, self.phase, *self.dice]
        for own in self.cells:
            out += [own[g] for g in GRID]
        return [*out, *self.hand, *self.across, *self.played]

    def map(self, value: Callable[[Term], Term]) -> Vars:
        """Return the state with ``value`` applied to every value (such as a solver's answer)."""
        return Vars(
            player=value(self.player),
            phase=value(self.phase),
            dice=(value(self.dice[0]), value(self.dice[1])),
            cells=tuple({g: value(v) for g, v in own.items()} for own in self.cells),
            hand=tuple(value(h) for h in self.hand),
            across=tuple(value(a) for a in self.across),
            played=tuple(value(f) for f in self.played),
        )


class Transition(NamedTuple):
    """One transition: when it can be taken, and the state after it."""

    name: str
    guard: Term
    after: Vars


@dataclass(frozen=True)
class PlayChoice:
    """The choices of a play: which die goes first, and each step's kind and cell."""

    #: 0: the low die first; 1: the high die first.
    order: Term
    kind1: Term
    row1: Term
    col1: Term
    kind2: Term
    row2: Term
    col2: Term


@dataclass
class Model:
    """The rules for one configuration, over one backend.

    ``mutations`` names deliberate mistakes (:data:`finishline.proofs.mutations.MUTANTS`)
    that make a broken model, which the checks must then refute.
    """

    config: Config
    ops: Ops
    mutations: frozenset[str] = field(default_factory=frozenset)
    _memo: dict[tuple[object, ...], Term] = field(default_factory=dict, repr=False)

    def broken(self, mutation: str) -> bool:
        """Whether this model carries ``mutation``."""
        return mutation in self.mutations

    def forget(self) -> None:
        """Empty the cache of formulas built for earlier states."""
        self._memo.clear()

    # -- states ----------------------------------------------------------------------

    def fresh(self, name: str) -> Vars:
        """Return a state of fresh z3 variables named after ``name``."""
        n = self.config.players
        return Vars(
            player=int_var(f"{name}.player"),
            phase=int_var(f"{name}.phase"),
            dice=(int_var(f"{name}.d1"), int_var(f"{name}.d2")),
            cells=tuple({g: int_var(f"{name}.p{p}.{g[0]}{g[1]}") for g in GRID} for p in range(n)),
            hand=tuple(int_var(f"{name}.hand{p}") for p in range(n)),
            across=tuple(int_var(f"{name}.across{p}") for p in range(n)),
            played=tuple(bool_var(f"{name}.played{p}") for p in range(n)),
        )

    def initial(self, player: Term) -> Vars:
        """Return the opening state, ``player`` to roll (R2.3)."""
        n, counters = self.config.players, self.config.counters
        return Vars(
            player=player,
            phase=ROLL,
            dice=(0, 0),
            cells=tuple(dict.fromkeys(GRID, 0) for _ in range(n)),
            hand=(counters,) * n,
            across=(0,) * n,
            played=(False,) * n,
        )

    def equal(self, s: Vars, t: Vars) -> Term:
        """Return that ``s`` and ``t`` are the same state."""
        return self.ops.all(a == b for a, b in zip(s.terms(), t.terms(), strict=True))

    def per_player(self, player: Term, value: Callable[[int], Term], default: Term = 0) -> Term:
        """Return ``value(player)`` for a possibly symbolic player number."""
        if isinstance(player, int):
            return value(player) if 0 <= player < self.config.players else default
        result = default
        for p in reversed(range(self.config.players)):
            result = self.ops.ite(player == p, value(p), result)
        return result

    def next_player(self, s: Vars) -> Term:
        """Return the player after the one to move, clockwise (R2.5)."""
        return self.ops.ite(s.player >= self.config.players - 1, 0, s.player + 1)

    def occupied(self, cells: Sequence[dict[tuple[int, int], Term]], g: tuple[int, int]) -> Term:
        """How many counters stand on grid cell ``g``."""
        return self.ops.sum(own[g] for own in cells)

    def mine(
        self, s: Vars, cells: Sequence[dict[tuple[int, int], Term]], g: tuple[int, int]
    ) -> Term:
        """How many of the moving player's counters stand on ``g``."""
        return self.per_player(s.player, lambda p: cells[p][g])

    # -- one step of a play, on concrete cells (R5, R6) -------------------------------

    def _step_ok(
        self,
        s: Vars,
        cells: Sequence[dict[tuple[int, int], Term]],
        hand: Term,
        kind: int,
        g: tuple[int, int],
    ) -> Term:
        """Whether a step of ``kind`` on board cell ``g`` can be taken (R5.1, R5.2, R6.1, R6.4)."""
        o = self.ops
        r, c = g
        if kind == PLACE:
            empty = True if self.broken("place-on-occupied") else self.occupied(cells, g) == 0
            return o.all([hand >= 1, empty])
        ahead = (
            True
            if r == 1 or self.broken("ignore-blocking")
            else (self.occupied(cells, (r - 1, c)) == 0)
        )
        return o.all([self.mine(s, cells, g) >= 1, ahead])

    def _options(self, row: int) -> list[tuple[int, tuple[int, int]]]:
        return [(kind, (row, c)) for kind in (PLACE, MOVE) for c in range(4)]

    def _hand(self, s: Vars) -> Term:
        return self.per_player(s.player, lambda p: s.hand[p])

    def _across(self, s: Vars) -> Term:
        return self.per_player(s.player, lambda p: s.across[p])

    def row_usable(self, s: Vars, row: int) -> Term:
        """Whether a die of ``row`` can place or move anything (R4.2, R5, R6)."""
        key = ("row", id(s), row)
        if key not in self._memo:
            hand = self._hand(s)
            self._memo[key] = (
                s,
                self.ops.any(
                    self._step_ok(s, s.cells, hand, kind, g) for kind, g in self._options(row)
                ),
            )
        return self._memo[key][1]

    def _pair_ok(self, s: Vars, first: int, second: int) -> Term:
        """Whether some step of a ``first`` die and then one of a ``second`` die can be taken."""
        o = self.ops
        key = ("steps", id(s), first)  # each row's first steps serve every second die
        if key not in self._memo:
            hand, across = self._hand(s), self._across(s)
            steps = []
            for kind1, g1 in self._options(first):
                ok1 = self._step_ok(s, s.cells, hand, kind1, g1)
                if ok1 is not False:
                    steps.append((ok1, self._moved(s, s.cells, hand, across, kind1, *g1)))
            self._memo[key] = (s, steps)
        options = []
        for ok1, (cells1, hand1, _) in self._memo[key][1]:
            ok2 = o.any(self._step_ok(s, cells1, hand1, k, g) for k, g in self._options(second))
            options.append(o.all([ok1, ok2]))
        return o.any(options)

    def can_use_both(self, s: Vars, d1: Term, d2: Term) -> Term:
        """Whether some play uses both dice (R4.5), for dice ``d1 <= d2``."""
        key = ("both", id(s), id(d1), id(d2))
        if key not in self._memo:
            o = self.ops
            cases = []
            for a, b in itertools.combinations_with_replacement(range(1, 7), 2):
                match = o.all([d1 == a, d2 == b])
                if match is False:
                    continue
                orders = [(a, b)] if a == b else [(a, b), (b, a)]
                cases.append(o.all([match, o.any(self._pair_ok(s, x, y) for x, y in orders)]))
            self._memo[key] = (s, d1, d2, o.any(cases))
        return self._memo[key][-1]

    def can_step_sideways(self, s: Vars) -> Term:
        """Whether one of the moving player's counters has an empty neighbour (R7.1)."""
        o = self.ops
        return o.any(
            o.all([self.mine(s, s.cells, (r, c)) >= 1, self.occupied(s.cells, (r, n)) == 0])
            for r, c in BOARD
            for n in (c - 1, c + 1)
            if 0 <= n <= 3
        )

    def can_advance(self, s: Vars) -> Term:
        """Whether one of the moving player's counters can move forward (R8.3, R6.4)."""
        o = self.ops
        return o.any(
            o.all(
                [
                    self.mine(s, s.cells, g) >= 1,
                    True if g[0] == 1 else (self.occupied(s.cells, (g[0] - 1, g[1])) == 0),
                ]
            )
            for g in BOARD
        )

    def has_action(self, s: Vars, d1: Term, d2: Term) -> Term:
        """Whether the dice ``d1 <= d2`` offer any legal action, that is, do not forfeit (R9.1)."""
        o = self.ops
        one = o.any(o.all([o.any([d1 == r, d2 == r]), self.row_usable(s, r)]) for r in range(1, 7))
        return o.any(
            [
                one,
                o.all([d1 + d2 == 7, self.can_step_sideways(s)]),
                o.all([d1 == d2, self.can_advance(s)]),
            ]
        )

    def valid_dice(self, d1: Term, d2: Term) -> Term:
        """Whether ``d1`` and ``d2`` are two dice, low first (R4.1)."""
        return self.ops.all([d1 >= 1, d1 <= d2, d2 <= 6])

    # -- the transitions ---------------------------------------------------------------

    def _end_turn(
        self,
        s: Vars,
        cells: tuple[dict[tuple[int, int], Term], ...],
        hand: Term,
        across: Term,
        keep_turn: Term = False,
    ) -> Vars:
        """Return the state after the moving player's action: a win, or the next player's turn."""
        o = self.ops
        n = self.config.players
        target = self.config.counters - (1 if self.broken("win-one-early") else 0)
        done = across >= target
        if self.broken("win-on-board"):  # the game ends once the hand is empty
            done = hand == 0
        hands = tuple(o.ite(s.player == p, hand, s.hand[p]) for p in range(n))
        acrosses = tuple(o.ite(s.player == p, across, s.across[p]) for p in range(n))
        played = tuple(o.any([s.played[p], s.player == p]) for p in range(n))
        stay = o.any([done, keep_turn])
        return Vars(
            o.ite(stay, s.player, self.next_player(s)),
            o.ite(done, OVER, ROLL),
            (0, 0),
            cells,
            hands,
            acrosses,
            played,
        )

    def roll(self, s: Vars, dice: tuple[Term, Term]) -> Transition:
        """Return a roll that offers an action: the dice, sorted, go on the table (R3.3, R4.1)."""
        o = self.ops
        d1, d2 = dice
        offer = True if self.broken("roll-without-action") else self.has_action(s, d1, d2)
        guard = o.all([s.phase == ROLL, self.valid_dice(d1, d2), offer])
        return Transition(
            "roll", guard, Vars(s.player, CHOOSE, dice, s.cells, s.hand, s.across, s.played)
        )

    def forfeit(self, s: Vars, dice: tuple[Term, Term]) -> Transition:
        """Return a roll that offers nothing: the turn passes and nothing moves (R9)."""
        o = self.ops
        d1, d2 = dice
        guard = o.all(
            [s.phase == ROLL, self.valid_dice(d1, d2), o.not_(self.has_action(s, d1, d2))]
        )
        played = tuple(o.any([s.played[p], s.player == p]) for p in range(self.config.players))
        return Transition(
            "forfeit",
            guard,
            Vars(self.next_player(s), ROLL, (0, 0), s.cells, s.hand, s.across, played),
        )

    def _moved(
        self,
        s: Vars,
        cells: tuple[dict[tuple[int, int], Term], ...],
        hand: Term,
        across: Term,
        kind: Term,
        row: Term,
        col: Term,
    ) -> _Moved:
        """Take the step ``kind`` on cell (``row``, ``col``), which may all be symbolic.

        Each cell's count changes by the steps that leave or reach it, written
        as sums of 0-or-1 terms rather than nested choices, which keeps the
        formulas flat for the solver.
        """
        o = self.ops
        place = kind == PLACE
        move = kind == MOVE
        placer = self.next_player(s) if self.broken("place-for-next-player") else s.player
        new_cells = []
        for p, own in enumerate(cells):
            mover = s.player == p
            updated = {}
            for g in GRID:
                r, c = g
                terms = [own[g]]
                if g in BOARD:
                    at = o.all([row == r, col == c])
                    terms.append(o.ite(o.all([place, placer == p, at]), 1, 0))
                    terms.append(o.ite(o.all([move, mover, at]), -1, 0))
                    if r < 6:  # a counter arriving from the row behind
                        terms.append(o.ite(o.all([move, mover, row == r + 1, col == c]), 1, 0))
                elif r == 0 and self.broken("cross-to-row-0"):
                    terms.append(o.ite(o.all([move, mover, row == 1, col == c]), 1, 0))
                updated[g] = o.sum(terms)
            new_cells.append(updated)
        taken = 0 if self.broken("place-keeps-hand") else 1
        crossed = 0 if self.broken("cross-to-row-0") else 1
        return (
            tuple(new_cells),
            o.ite(place, hand - taken, hand),
            o.ite(o.all([move, row == 1]), across + crossed, across),
        )

    def _chosen_ok(
        self,
        s: Vars,
        cells: Sequence[dict[tuple[int, int], Term]],
        hand: Term,
        kind: Term,
        row: Term,
        col: Term,
        die: Term,
    ) -> Term:
        """Whether the step ``kind`` on (``row``, ``col``) is a legal use of ``die``."""
        o = self.ops
        return o.any(
            o.all(
                [
                    kind == k,
                    row == g[0],
                    col == g[1],
                    die == g[0],
                    self._step_ok(s, cells, hand, k, g),
                ]
            )
            for k in (PLACE, MOVE)
            for g in BOARD
        )

    def _step_one(self, s: Vars, choice: PlayChoice, die: Term) -> tuple[Term, _Moved]:
        """Return whether a play's first step is a legal use of ``die``, and what it leaves.

        A concrete first step is kept until :meth:`forget`: the plays that
        share it differ only in their second step.
        """
        step = (choice.order, choice.kind1, choice.row1, choice.col1)
        key = ("first", id(s), *step) if all(isinstance(v, int) for v in step) else None
        if key is not None and key in self._memo:
            return self._memo[key][1]  # type: ignore[no-any-return]
        hand, across = self._hand(s), self._across(s)
        ok1 = self._chosen_ok(s, s.cells, hand, choice.kind1, choice.row1, choice.col1, die)
        moved = self._moved(s, s.cells, hand, across, choice.kind1, choice.row1, choice.col1)
        if key is not None:
            self._memo[key] = (s, (ok1, moved))
        return ok1, moved

    def _first_step(self, s: Vars, choice: PlayChoice) -> tuple[Term, _Moved]:
        """Return the guard of a play, and the cells, hand and across after its first step."""
        o = self.ops
        d1, d2 = s.dice
        first = o.ite(choice.order == 0, d1, d2)
        second = o.ite(choice.order == 0, d2, d1)
        ok1, (cells1, hand1, across1) = self._step_one(s, choice, first)
        two = o.any([choice.kind2 == PLACE, choice.kind2 == MOVE])
        ok2 = o.ite(
            two,
            self._chosen_ok(s, cells1, hand1, choice.kind2, choice.row2, choice.col2, second),
            choice.kind2 == NONE,
        )
        most = o.ite(two, True, o.not_(self.can_use_both(s, d1, d2)))
        guard = o.all([s.phase == CHOOSE, choice.order >= 0, choice.order <= 1, ok1, ok2, most])
        return guard, (cells1, hand1, across1)

    def play_guard(self, s: Vars, choice: PlayChoice) -> Term:
        """Return the guard of :meth:`play` alone, without building the state after it."""
        return self._first_step(s, choice)[0]

    def play(self, s: Vars, choice: PlayChoice) -> Transition:
        """Return a play of one or both dice (R4 to R6, R8.1, R8.2), its steps as chosen."""
        guard, (cells1, hand1, across1) = self._first_step(s, choice)
        cells2, hand2, across2 = self._moved(
            s, cells1, hand1, across1, choice.kind2, choice.row2, choice.col2
        )
        return Transition("play", guard, self._end_turn(s, cells2, hand2, across2))

    def sideways_guard(self, s: Vars, row: Term, col: Term, to: Term) -> Term:
        """Return the guard of :meth:`sideways` alone, without building the state after it."""
        o = self.ops
        d1, d2 = s.dice
        seven = True if self.broken("sideways-any-roll") else d1 + d2 == 7
        any_counter = self.broken("sideways-any-counter")
        oks = []
        for r, c in BOARD:
            for n in (c - 1, c + 1):
                if not 0 <= n <= 3 and not self.broken("sideways-off-the-board"):
                    continue
                mine = (
                    self.occupied(s.cells, (r, c)) if any_counter else self.mine(s, s.cells, (r, c))
                ) >= 1
                oks.append(
                    o.all([row == r, col == c, to == n, mine, self.occupied(s.cells, (r, n)) == 0])
                )
        return o.all([s.phase == CHOOSE, seven, o.any(oks)])

    def sideways(self, s: Vars, row: Term, col: Term, to: Term) -> Transition:
        """Return the step of a counter to the empty cell beside it, on a 7 (R7.1, R7.2)."""
        o = self.ops
        any_counter = self.broken("sideways-any-counter")
        cells = []
        for p, own in enumerate(s.cells):
            if any_counter:  # the counter moved is whoever's stands there
                moved = o.any(o.all([row == r, col == c, own[(r, c)] >= 1]) for r, c in BOARD)
            else:
                moved = s.player == p
            updated = {}
            for g in GRID:
                r, c = g
                leave = o.ite(o.all([moved, row == r, col == c]), -1, 0) if g in BOARD else 0
                arrive = o.ite(o.all([moved, row == r, to == c]), 1, 0) if 1 <= r <= 6 else 0
                updated[g] = o.sum([own[g], leave, arrive])
            cells.append(updated)
        return Transition(
            "sideways",
            self.sideways_guard(s, row, col, to),
            self._end_turn(s, tuple(cells), self._hand(s), self._across(s)),
        )

    def double(self, s: Vars, row: Term, col: Term) -> Transition:
        """Return the double advance: one counter forward one row, whatever its row (R8.3)."""
        o = self.ops
        d1, d2 = s.dice
        hand, across = self._hand(s), self._across(s)
        ok = o.any(
            o.all([row == g[0], col == g[1], self._step_ok(s, s.cells, hand, MOVE, g)])
            for g in BOARD
        )
        cells, _, across1 = self._moved(s, s.cells, hand, across, MOVE, row, col)
        guard = o.all([s.phase == CHOOSE, d1 == d2, ok])
        keep = self.broken("double-rolls-again")
        return Transition("double", guard, self._end_turn(s, cells, hand, across1, keep))
