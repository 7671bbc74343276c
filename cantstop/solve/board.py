"""The solver's view of a board, with every rule answer in it asked of the engine.

A :class:`Board` numbers the anchors of a solitaire configuration and holds
three tables that the kernel (``cantstop.solve._kernel``) reads:

* the rolls: the 126 distinct rolls of :func:`cantstop.roll_outcomes`, each
  with its weight out of 1296 and the board's columns its pairings
  (:func:`cantstop.pairings`) name;
* ``over``: for each set of won columns, whether holding them ends the game,
  found by playing a stop in the engine;
* the move table: for a roll, the number of markers in use and the classes of
  the columns the roll names (see the kernel's docstring), the engine's legal
  moves and the spaces each move climbs in each column.  Entries are asked of
  the engine when the kernel first needs them, on the position at hand.

That a roll's answer depends on nothing else is how the engine describes its
own move table (:mod:`cantstop._tables`); the solver relies on it and the
agreement check (a plain value iteration over every state, built from the
engine alone) tests it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from cantstop.actions import Roll, Stop
from cantstop.board import MARKERS
from cantstop.config import Rules
from cantstop.dice import pairings, roll_outcomes
from cantstop.errors import InvalidRules
from cantstop.notation import format_state
from cantstop.phase import Phase
from cantstop.players import may_stop
from cantstop.solve._kernel import REQUESTED, UNKNOWN
from cantstop.state import Event, State

#: The most anchors a board may have: their values are held in memory, 8 bytes each.
MAX_ANCHORS = 2**31
#: The classes a column can be in (see the kernel's docstring).
CLASSES = 6


class BoardTooLarge(InvalidRules):
    """A board with more anchors than one machine's solver holds (:data:`MAX_ANCHORS`)."""


def check_solitaire(rules: Rules) -> None:
    """Raise :class:`~cantstop.InvalidRules` unless ``rules`` are for one player (R15.1)."""
    if not isinstance(rules, Rules):
        raise InvalidRules(f"the solver needs a Rules value, not {rules!r}", "R15.1")
    if rules.players != 1:
        raise InvalidRules(
            f"the solver plays solitaire: rules for 1 player, not {rules.players}", "R15.1"
        )


@dataclass(eq=False)
class Board:
    """The anchors of a solitaire board, numbered, and the tables the kernel reads."""

    rules: Rules
    #: The board's columns, in increasing order.
    columns: tuple[int, ...]
    h: np.ndarray
    stride: np.ndarray
    #: How many anchors (square positions) the board has, won or not.
    anchors: int
    over: np.ndarray
    roll_dice: tuple[tuple[int, int, int, int], ...]
    roll_cols: np.ndarray
    roll_ncols: np.ndarray
    roll_base: np.ndarray
    roll_weight: np.ndarray
    entry: np.ndarray
    pool: np.ndarray
    pool_used: int = 1
    #: Table entries asked of the engine so far.
    asked: int = 0
    _bases: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    _stored: dict[tuple[int, ...], int] = field(default_factory=dict)
    #: Each column's stride and radix (its height plus 1), as Python integers.
    _radices: list[tuple[int, int]] = field(default_factory=list)
    #: The outcome templates made from the move table so far (the solver's store), if any.
    templates: object = None
    #: Whether every move asked of the engine so far plays one sum per space it climbs
    #: (its sums can then be read from its climbs, as some players' tables do).
    sums_are_climbs: bool = True

    @classmethod
    def of(cls, rules: Rules) -> Board:
        """Return the board of solitaire ``rules``, with empty move tables."""
        check_solitaire(rules)
        columns = rules.columns
        h = np.array([rules.heights[c] for c in columns], np.int64)
        k = len(columns)
        stride = np.ones(k, np.int64)
        for i in range(k - 2, -1, -1):
            stride[i] = stride[i + 1] * (h[i + 1] + 1)
        anchors = math.prod(int(x) + 1 for x in h)
        if anchors > MAX_ANCHORS:
            raise BoardTooLarge(
                f"the board has {anchors:,} anchors; one machine's solver holds at most "
                f"{MAX_ANCHORS:,} (see the plan for the full board)",
                "R15.3",
            )
        outcomes = roll_outcomes()
        dice = tuple(roll.dice for roll, _ in outcomes)
        weights = []
        for _, chance in outcomes:
            weight = chance * 1296
            if weight.denominator != 1:
                raise AssertionError(f"a roll's chance {chance} is not a count of 1296 rolls")
            weights.append(float(weight))
        index = {c: i for i, c in enumerate(columns)}
        named = [
            sorted({index[s] for pair in pairings(d) for s in pair if s in index}) for d in dice
        ]
        roll_cols = np.full((len(dice), 6), -1, np.int64)
        roll_ncols = np.zeros(len(dice), np.int64)
        roll_base = np.zeros(len(dice) + 1, np.int64)
        for r, cols in enumerate(named):
            roll_cols[r, : len(cols)] = cols
            roll_ncols[r] = len(cols)
            roll_base[r + 1] = roll_base[r] + (MARKERS + 1) * CLASSES ** len(cols)
        board = cls(
            rules=rules,
            columns=columns,
            h=h,
            stride=stride,
            anchors=anchors,
            over=np.zeros(1 << k, np.bool_),
            roll_dice=dice,
            roll_cols=roll_cols,
            roll_ncols=roll_ncols,
            roll_base=roll_base[:-1].copy(),
            roll_weight=np.array(weights, np.float64),
            entry=np.full(int(roll_base[-1]), UNKNOWN, np.int32),
            pool=np.zeros(1 << 16, np.int64),
            _bases=roll_base,
        )
        board._radices = [(int(st), int(hi) + 1) for st, hi in zip(stride, h, strict=True)]
        board._find_over()
        return board

    # -- anchors and positions ---------------------------------------------------

    def squares_of(self, anchor: int) -> tuple[int, ...]:
        """Return the square in each column of anchor number ``anchor`` (0 for none)."""
        anchor = int(anchor)
        return tuple(anchor // st % radix for st, radix in self._radices)

    def number(self, spaces: tuple[int, ...]) -> int:
        """Return the anchor number of a square (or marker) position per column."""
        return int(sum(int(x) * int(st) for x, st in zip(spaces, self.stride, strict=True)))

    def state(self, squares: tuple[int, ...], climbs: tuple[int, ...] | None = None) -> State:
        """Return the engine's state: squares, markers ``climbs`` above them, the turn going on.

        Without markers the turn is about to start (phase roll), otherwise the
        player has just moved (phase decide).
        """
        own = {c: s for c, s in zip(self.columns, squares, strict=True) if s}
        markers = {}
        if climbs is not None:
            markers = {c: s + u for c, s, u in zip(self.columns, squares, climbs, strict=True) if u}
        phase = Phase.DECIDE if markers else Phase.ROLL
        return State(self.rules, 0, phase, markers=markers, squares=(own,))

    def position(self, state: State) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """Return the squares and the markers' climbs of a solitaire ``state`` on this board."""
        if state.rules != self.rules:
            raise InvalidRules(
                f"state {format_state(state)!r} is played under {state.rules!r}, "
                f"not the solved {self.rules!r}",
                "R15.3",
            )
        own = state.squares[0]
        squares = tuple(own.get(c, 0) for c in self.columns)
        climbs = tuple(
            state.markers.get(c, s) - s for c, s in zip(self.columns, squares, strict=True)
        )
        return squares, climbs

    # -- rule answers from the engine ------------------------------------------------

    def _find_over(self) -> None:
        """Fill ``over``: whether a stop that leaves a set of columns won ends the game."""
        k = len(self.columns)
        for mask in range(1, 1 << k):
            won = [i for i in range(k) if mask >> i & 1]
            topped = won[-MARKERS:]
            kept = won[: len(won) - len(topped)]
            base = sum(1 << i for i in kept)
            if self.over[base]:
                self.over[mask] = True  # no stop from a game still going on leaves these
                continue
            squares = tuple(int(self.h[i]) if i in kept else 0 for i in range(k))
            climbs = tuple(int(self.h[i]) if i in topped else 0 for i in range(k))
            step = self.state(squares, climbs).step(Stop())
            held = {self.columns[i] for i in won}
            if set(step.state.won) != held:
                raise AssertionError(
                    f"stopping in {format_state(self.state(squares, climbs))} won "
                    f"{sorted(step.state.won)}, not the columns of its top spaces {sorted(held)}"
                )
            self.over[mask] = step.event is Event.WON

    def fill(self, misses: np.ndarray) -> None:
        """Ask the engine for the table entries in ``misses`` (key, anchor, in-turn position).

        The entries of one position come one after another (its rolls), so
        the position's state is made once for them.
        """
        at: tuple[int, int] | None = None
        index = {c: i for i, c in enumerate(self.columns)}
        rolls = [Roll(dice) for dice in self.roll_dice]
        # The roll of each entry key: the last roll whose keys start at or before it.
        rolls_of = (np.searchsorted(self._bases, misses[:, 0], side="right") - 1).tolist()
        for (key, anchor, inturn), roll in zip(misses.tolist(), rolls_of, strict=True):
            if self.entry[key] != REQUESTED:
                continue
            if at != (anchor, inturn):
                at = (anchor, inturn)
                squares = self.squares_of(anchor)
                spaces = self.squares_of(inturn)
                climbs = tuple(t - s for t, s in zip(spaces, squares, strict=True))
                state = self.state(squares, climbs)
                if state.phase is Phase.DECIDE and not may_stop(state):
                    raise AssertionError(
                        f"the solver assumes solitaire always allows a stop, "
                        f"but not in {format_state(state)}"
                    )
                before = {c: state.markers.get(c, squares[i]) for i, c in enumerate(self.columns)}
            step = state.step(rolls[roll])
            moves = step.state.legal_moves() if step.event is Event.ROLLED else ()
            codes: list[int] = [len(moves)]
            for move in moves:
                after = step.state.apply(move)
                changed = []
                sums = []
                # A move never takes a marker away: only columns with one can have climbed.
                for c, space in sorted(after.markers.items()):
                    i = index[c]
                    climb = space - before[c]
                    if climb:
                        if not 0 < climb < 8:
                            raise AssertionError(f"a move that climbs {climb} spaces in one column")
                        changed.append(i * 8 + climb)
                        sums += [c] * climb
                if sums != sorted(move.columns):
                    self.sums_are_climbs = False
                if not 1 <= len(changed) <= 2:
                    raise AssertionError(f"a move that climbs in {len(changed)} columns")
                codes.extend(changed + [-1] * (2 - len(changed)))
            self._store(key, codes)
            self.asked += 1

    def _store(self, key: int, codes: list[int]) -> None:
        # Entries that list the same moves share their place in the pool, so that the
        # kernel knows two rolls alike by their entries alone.
        known = self._stored.get(tuple(codes))
        if known is not None:
            self.entry[key] = known
            return
        self._stored[tuple(codes)] = self.pool_used
        end = self.pool_used + len(codes)
        if end > len(self.pool):
            grown = np.zeros(max(end, 2 * len(self.pool)), np.int64)
            grown[: self.pool_used] = self.pool[: self.pool_used]
            self.pool = grown
        self.pool[self.pool_used : end] = codes
        self.entry[key] = self.pool_used
        self.pool_used = end

    def tables(self) -> tuple[np.ndarray, ...]:
        """Return the tables as the kernels take them: heights, strides, wins, rolls, entries, pool.

        That is ``(h, stride, over, roll_cols, roll_ncols, roll_base,
        roll_weight, entry, pool)``; ask again after :meth:`fill`, which may
        grow the pool.
        """
        return (self.h, self.stride, self.over, self.roll_cols, self.roll_ncols, self.roll_base,
                self.roll_weight, self.entry, self.pool)  # fmt: skip

    def largest_turn(self) -> int:
        """Return the number of in-turn positions of the empty board's turn, the most of any."""
        # Elementary symmetric sums of the heights, up to three markers.
        e = [1, 0, 0, 0]
        for hi in self.h:
            for j in range(MARKERS, 0, -1):
                e[j] += e[j - 1] * int(hi)
        return sum(e[: MARKERS + 1])
