"""The rules of Can't Stop as formulas, written once for both backends of the layer's solver.

:class:`Model` states the rules for one configuration over the operations of
:class:`~dicekit.proofs.solver.Ops`.  With :data:`~dicekit.proofs.solver.Z3` its
states are symbolic and the solver reasons about every state at once (the
proofs); with :data:`~dicekit.proofs.solver.PY` the very same formulas are
evaluated on concrete states and compared with the engine (the link).  The
state and configuration it works on are those of :mod:`proofs.state`.  Rule
ids refer to ``spec/rules/``.

>>> from cantstop import Rules
>>> from dicekit.proofs.solver import PY
>>> m = Model(Config.of(Rules()), PY)
>>> s = m.initial(player=0)
>>> sorted(m.legal_moves(s, (3, 4, 5, 5)))
[(7, 10), (8, 9)]
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from cantstop.board import MARKERS
from dicekit.proofs.solver import Ops, Term, int_var
from proofs.state import CHOOSE, DECIDE, OVER, ROLL, Config, Transition, Vars

__all__ = ["Model"]


@dataclass
class Model:
    """The rules for one configuration, over one backend.

    ``mutations`` names deliberate mistakes (see :data:`proofs.mutations.MUTANTS`)
    that turn this into a broken model; the checker must then find a
    counterexample.
    """

    config: Config
    ops: Ops
    mutations: frozenset[str] = field(default_factory=frozenset)
    _memo: dict[tuple[object, ...], tuple[tuple[object, ...], Term]] = field(
        default_factory=dict, repr=False, compare=False
    )

    def _shared(self, what: str, parts: tuple[object, ...], make: Callable[[], Term]) -> Term:
        """Build a z3 term once per distinct set of ``parts`` (by identity) and reuse it.

        Building terms in Python is the slow part of a proof; the same
        subformula (the marker count of one marker map, say) is needed many
        times.  With the Python backend the cache saves re-evaluation; call
        :meth:`forget` between unrelated states so that it does not grow.
        """
        key = (what, *map(id, parts))
        hit = self._memo.get(key)
        if hit is None:
            hit = (parts, make())  # keeping ``parts`` alive keeps their ids unique
            self._memo[key] = hit
        return hit[1]

    def forget(self) -> None:
        """Empty the cache of built terms (see :meth:`_shared`)."""
        self._memo.clear()

    def broken(self, mutation: str) -> bool:
        """Whether this model carries ``mutation``."""
        return mutation in self.mutations

    # -- making states ---------------------------------------------------------

    def fresh(self, name: str) -> Vars:
        """Return a state of fresh z3 variables named after ``name``."""
        cols = self.config.columns
        return Vars(
            player=int_var(f"{name}.player"),
            phase=int_var(f"{name}.phase"),
            dice=(
                int_var(f"{name}.d1"),
                int_var(f"{name}.d2"),
                int_var(f"{name}.d3"),
                int_var(f"{name}.d4"),
            ),
            markers={c: int_var(f"{name}.m{c}") for c in cols},
            squares=tuple(
                {c: int_var(f"{name}.p{p}.s{c}") for c in cols} for p in range(self.config.players)
            ),
        )

    def initial(self, player: Term = 0) -> Vars:
        """Return the opening state with ``player`` to roll (R2.1)."""
        cols = self.config.columns
        return Vars(
            player=player,
            phase=ROLL,
            dice=(0, 0, 0, 0),
            markers=dict.fromkeys(cols, 0),
            squares=tuple(dict.fromkeys(cols, 0) for _ in range(self.config.players)),
        )

    def equal(self, s: Vars, t: Vars) -> Term:
        """Return that ``s`` and ``t`` are the same state."""
        return self.ops.all(a == b for a, b in zip(s.terms(), t.terms(), strict=True))

    # -- derived facts ---------------------------------------------------------

    def height(self, column: int) -> int:
        """Return the height of ``column`` (R1.1)."""
        return self.config.heights[column]

    def won_by(self, s: Vars, player: int, column: int) -> Term:
        """Whether ``player``'s square is on the top space of ``column`` (R9.1)."""
        return s.squares[player][column] == self.height(column)

    def won(self, s: Vars, column: int) -> Term:
        """Whether ``column`` has been won by anybody (R9.1)."""
        return self._shared(
            f"won{column}",
            (s.squares,),
            lambda: self.ops.any(self.won_by(s, p, column) for p in range(self.config.players)),
        )

    def held(self, s: Vars, player: int) -> Term:
        """How many columns ``player`` has won (R9.1, R12.1)."""
        return self.ops.count(self.won_by(s, player, c) for c in self.config.columns)

    def held_by_active(self, s: Vars) -> Term:
        """How many columns the player to move has won."""
        return self.per_player(s.player, lambda p: self.held(s, p))

    def has_target(self, s: Vars, player: int) -> Term:
        """Whether ``player`` holds at least the target number of columns (R12.1)."""
        return self.held(s, player) >= self.config.target

    def per_player(self, player: Term, value: Callable[[int], Term]) -> Term:
        """Return ``value(player)`` for a possibly symbolic player number."""
        return self.ops.case(
            player, {p: functools.partial(value, p) for p in range(self.config.players)}, 0
        )

    def own_square(self, s: Vars, column: int) -> Term:
        """Return the space of the active player's square in ``column``, 0 if none."""
        return self._shared(
            f"own{column}",
            (s.player, s.squares),
            lambda: self.per_player(s.player, lambda p: s.squares[p][column]),
        )

    def others_square_on(self, s: Vars, column: int, space: Term) -> Term:
        """Whether a player other than the active one has a square on ``space`` of ``column``."""
        o = self.ops
        return o.any(
            o.all([s.player != p, s.squares[p][column] == space])
            for p in range(self.config.players)
        )

    def marker_count(self, markers: Mapping[int, Term]) -> Term:
        """How many markers are on the board (R1.4)."""
        return self._shared(
            "markers", (markers,), lambda: self.ops.count(m > 0 for m in markers.values())
        )

    def next_player(self, s: Vars) -> Term:
        """Return the player after the active one, clockwise (R2.3)."""
        return self.ops.ite(s.player >= self.config.players - 1, 0, s.player + 1)

    # -- one sum: the decision table of R5 --------------------------------------

    def landing(self, s: Vars, column: int, space: Term) -> Term:
        """Where a marker sent to ``space`` comes to rest (R5.1, R5.2; Variant A: R14.1).

        Under Variant A it skips spaces holding another player's square.  There
        are at most ``players - 1`` such squares in a column, so that many
        skips suffice.
        """
        if self.config.variant != "A" or self.broken("no-skip"):
            return space
        for _ in range(self.config.players - 1):
            space = self.ops.ite(self.others_square_on(s, column, space), space + 1, space)
        return space

    def column_plays(self, s: Vars, markers: Mapping[int, Term], column: int) -> Term:
        """Whether a sum for ``column`` (on the board) advances or places a marker (R5.3).

        The column must not be won (R9.2); a marker in it must be below the top
        space (R5.1, R8.1, R5.4); without a marker, one must be free (R5.2).
        """
        return self._shared(
            f"plays{column}",
            (s.player, s.squares, markers),
            lambda: self._column_plays(s, markers, column),
        )

    def _column_plays(self, s: Vars, markers: Mapping[int, Term], column: int) -> Term:
        o = self.ops
        top = self.height(column) + (1 if self.broken("past-the-top") else 0)
        limit = MARKERS + (1 if self.broken("fourth-marker") else 0)
        open_ = True if self.broken("place-on-won") else o.not_(self.won(s, column))
        return o.all(
            [
                open_,
                o.ite(
                    markers[column] > 0, markers[column] < top, self.marker_count(markers) < limit
                ),
            ]
        )

    def column_lands(self, s: Vars, markers: Mapping[int, Term], column: int) -> Term:
        """Return the space a sum for ``column`` takes its marker to, when it plays (R5.1, R5.2)."""
        return self._shared(
            f"lands{column}",
            (s.player, s.squares, markers),
            lambda: self._column_lands(s, markers, column),
        )

    def _column_lands(self, s: Vars, markers: Mapping[int, Term], column: int) -> Term:
        base = 0 if self.broken("marker-below-square") else self.own_square(s, column)
        start = self.ops.ite(markers[column] > 0, markers[column] + 1, base + 1)
        return self.landing(s, column, start)

    def plays(self, s: Vars, markers: Mapping[int, Term], total: Term) -> Term:
        """Whether the sum ``total`` can be played; a column the board lacks never can (R15.3)."""
        return self._shared(
            "plays", (s.player, s.squares, markers, total), lambda: self._plays(s, markers, total)
        )

    def _plays(self, s: Vars, markers: Mapping[int, Term], total: Term) -> Term:
        cases = {
            c: functools.partial(self.column_plays, s, markers, c) for c in self.config.columns
        }
        return self.ops.case(total, cases, False)

    def after(self, s: Vars, markers: Mapping[int, Term], total: Term) -> dict[int, Term]:
        """Return the markers after playing the sum ``total`` (unchanged if it cannot be played)."""
        result: dict[int, Term] = self._shared(
            "after", (s.player, s.squares, markers, total), lambda: self._after(s, markers, total)
        )
        return result

    def _after(self, s: Vars, markers: Mapping[int, Term], total: Term) -> dict[int, Term]:
        o = self.ops

        def played(c: int) -> Term:
            return o.ite(
                self.column_plays(s, markers, c), self.column_lands(s, markers, c), markers[c]
            )

        if isinstance(total, int):  # a concrete sum: the case split picks one column
            result = dict(markers)
            if total in result:
                result[total] = played(total)
            return result
        return {
            c: o.case(total, {c: functools.partial(played, c)}, markers[c])
            for c in self.config.columns
        }

    # -- a roll: pairings and moves (R4, R6, R7) ---------------------------------

    @staticmethod
    def pairings_of(dice: Sequence[Term]) -> tuple[tuple[Term, Term], ...]:
        """Return the two sums of each of the three pairings of the dice (R4.2).

        >>> Model.pairings_of((1, 3, 3, 4))
        ((4, 7), (4, 7), (5, 6))
        """
        d1, d2, d3, d4 = dice
        return ((d1 + d2, d3 + d4), (d1 + d3, d2 + d4), (d1 + d4, d2 + d3))

    def pairings(self, dice: Sequence[Term]) -> tuple[tuple[Term, Term], ...]:
        """:meth:`pairings_of`, built once per dice for z3."""
        result: tuple[tuple[Term, Term], ...] = self._shared(
            "pairings", (dice,), lambda: self.pairings_of(dice)
        )
        return result

    def both(self, s: Vars, a: Term, b: Term) -> Term:
        """Whether ``a`` can be played and then ``b`` in the position it leaves (R6.1, R7.1)."""
        o = self.ops
        return self._shared(
            "both",
            (s.player, s.squares, s.markers, a, b),
            lambda: o.all(
                [self.plays(s, s.markers, a), self.plays(s, self.after(s, s.markers, a), b)]
            ),
        )

    def offers(self, s: Vars, a: Term, b: Term, use_a: Term, use_b: Term) -> Term:
        """Whether the pairing ``a``, ``b`` offers the move playing the sums chosen (R6.6).

        ``use_a`` and ``use_b`` say which of the two sums (for equal sums: the
        first and the second step) the move plays.  Both, if both can be played
        together (R6.1, R7.1); otherwise either one that can be played alone
        (R6.2, R6.3, R7.3); a move that plays nothing is never offered (R6.5).
        """
        o = self.ops
        both = self.both(s, a, b)
        if use_a is True and use_b is True:  # concrete choices: skip what cannot matter
            return both
        only_one_ok = True if self.broken("drop-playable-sum") else o.not_(both)
        return o.any(
            [
                o.all([use_a, use_b, both]),
                o.all([use_a, o.not_(use_b), only_one_ok, self.plays(s, s.markers, a)]),
                o.all([o.not_(use_a), use_b, only_one_ok, a != b, self.plays(s, s.markers, b)]),
                o.all([o.not_(use_a), o.not_(use_b)]) if self.broken("empty-move") else False,
            ]
        )

    def has_move(self, s: Vars, dice: Sequence[Term]) -> Term:
        """Whether the dice have a legal move, that is the roll does not bust (R10.1)."""
        return self._shared(
            "has_move", (s.player, s.squares, s.markers, dice), lambda: self._has_move(s, dice)
        )

    def _has_move(self, s: Vars, dice: Sequence[Term]) -> Term:
        o = self.ops
        if self.broken("bust-despite-move"):
            return o.any(self.both(s, a, b) for a, b in self.pairings(dice))
        return o.any(
            self.offers(s, a, b, ua, ub)
            for a, b in self.pairings(dice)
            for ua, ub in ((True, True), (True, False), (False, True))
        )

    def move_sums(self, dice: Sequence[Term], pairing: Term) -> tuple[Term, Term]:
        """Return the two sums of pairing number ``pairing`` (0, 1 or 2)."""
        pairs = self.pairings(dice)
        o = self.ops
        result: tuple[Term, Term] = self._shared(
            "sums",
            (dice, pairing),
            lambda: (
                o.case(pairing, {i: functools.partial(_first, pairs[i]) for i in range(3)}, 0),
                o.case(pairing, {i: functools.partial(_second, pairs[i]) for i in range(3)}, 0),
            ),
        )
        return result

    def legal_moves(self, s: Vars, dice: Sequence[int]) -> set[tuple[int, ...]]:
        """Return the legal moves for concrete ``dice``, as sorted tuples of sums.

        For the Python backend: the sums must be concrete.
        """
        moves: set[tuple[int, ...]] = set()
        for a, b in self.pairings(dice):
            for ua, ub in ((True, True), (True, False), (False, True)):
                if self.offers(s, a, b, ua, ub):
                    moves.add(tuple(sorted([a] * ua + [b] * ub)))
        return moves

    # -- the transitions -------------------------------------------------------

    def valid_roll(self, dice: Sequence[Term]) -> Term:
        """Whether ``dice`` are four values 1 to 6 in non-decreasing order (R4.1)."""
        d1, d2, d3, d4 = dice
        return self.ops.all([d1 >= 1, d1 <= d2, d2 <= d3, d3 <= d4, d4 <= 6])

    def roll(self, s: Vars, dice: tuple[Term, Term, Term, Term]) -> Transition:
        """Return a roll with a legal move: the dice go on the table (R3.3, R4.1)."""
        o = self.ops
        guard = o.all(
            [
                o.any([s.phase == ROLL, s.phase == DECIDE]),
                self.valid_roll(dice),
                self.has_move(s, dice),
            ]
        )
        return Transition("roll", guard, Vars(s.player, CHOOSE, dice, s.markers, s.squares))

    def bust(self, s: Vars, dice: tuple[Term, Term, Term, Term]) -> Transition:
        """Return a roll without a legal move: markers off, squares kept, turn passes (R10)."""
        o = self.ops
        guard = o.all(
            [
                o.any([s.phase == ROLL, s.phase == DECIDE]),
                self.valid_roll(dice),
                o.not_(self.has_move(s, dice)),
            ]
        )
        keep = self.broken("bust-keeps-markers")
        markers = {c: (m if keep else 0) for c, m in s.markers.items()}
        squares = self._scored(s) if self.broken("bust-scores") else s.squares
        player = s.player if self.broken("bust-keeps-turn") else self.next_player(s)
        return Transition("bust", guard, Vars(player, ROLL, (0, 0, 0, 0), markers, squares))

    def move(self, s: Vars, pairing: Term, use_a: Term, use_b: Term) -> Transition:
        """Play the chosen sums of pairing ``pairing`` of the dice (R5, R6, R7)."""
        o = self.ops
        a, b = self.move_sums(s.dice, pairing)
        guard = o.all(
            [
                s.phase == CHOOSE,
                pairing >= 0,
                pairing <= 2,
                self.offers(s, a, b, use_a, use_b),
            ]
        )
        first = {c: o.ite(use_a, m, s.markers[c]) for c, m in self.after(s, s.markers, a).items()}
        second = {c: o.ite(use_b, m, first[c]) for c, m in self.after(s, first, b).items()}
        return Transition("move", guard, Vars(s.player, DECIDE, (0, 0, 0, 0), second, s.squares))

    def sharing(self, s: Vars) -> Term:
        """Whether a marker shares its space with another player's square (R13.1, R14.2)."""
        o = self.ops
        return o.any(
            o.all([s.markers[c] > 0, self.others_square_on(s, c, s.markers[c])])
            for c in self.config.columns
        )

    def _scored(self, s: Vars) -> tuple[dict[int, Term], ...]:
        """Return the squares after the active player stops (R11.2, R11.3, R9.3)."""
        o = self.ops
        squares = []
        for p in range(self.config.players):
            own: dict[int, Term] = {}
            for c in self.config.columns:
                mine = o.ite(s.markers[c] > 0, s.markers[c], s.squares[p][c])
                wins_now = s.markers[c] == self.height(c)
                if self.broken("keep-other-squares"):
                    theirs = s.squares[p][c]
                else:
                    theirs = o.ite(wins_now, 0, s.squares[p][c])
                own[c] = o.ite(s.player == p, mine, theirs)
            squares.append(own)
        return tuple(squares)

    def _stop(self, s: Vars, winning: bool) -> Transition:
        o = self.ops
        squares = self._scored(s)
        scored = Vars(s.player, s.phase, s.dice, s.markers, squares)
        held = self.held_by_active(scored)
        wins = (
            held > self.config.target
            if self.broken("win-needs-more")
            else held >= self.config.target
        )
        may_stop = o.all(
            [
                s.phase == DECIDE,
                True
                if self.config.variant != "B" or self.broken("stop-while-sharing")
                else o.not_(self.sharing(s)),
            ]
        )
        markers = dict.fromkeys(self.config.columns, 0)
        if winning:
            return Transition(
                "win",
                o.all([may_stop, wins]),
                Vars(s.player, OVER, (0, 0, 0, 0), markers, squares),
            )
        return Transition(
            "stop",
            o.all([may_stop, o.not_(wins)]),
            Vars(self.next_player(s), ROLL, (0, 0, 0, 0), markers, squares),
        )

    def stop(self, s: Vars) -> Transition:
        """Return a stop that does not win: squares replace markers, the turn passes (R11)."""
        return self._stop(s, winning=False)

    def win(self, s: Vars) -> Transition:
        """Return a stop that reaches the target: the game is over (R12.1)."""
        return self._stop(s, winning=True)


def _first(pair: tuple[Term, Term]) -> Term:
    return pair[0]


def _second(pair: tuple[Term, Term]) -> Term:
    return pair[1]
