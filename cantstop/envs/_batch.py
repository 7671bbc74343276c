"""The batched solitaire environment's tables, every rule answer in them asked of the engine.

:class:`~cantstop.envs.vector.SolitaireVectorEnv` keeps each game as
numbers and steps all of them with array operations that only look entries
up in a :class:`BatchTables`.  The entries come from the engine: a legal
move, a marker's climb, a bust, a stop allowed or not, a column won and a
game over are each read off :meth:`cantstop.State.apply` and
:func:`cantstop.envs.legal_decisions` on a real position, never worked out
here.

**A column** of a game is one number, its *code*: the square and the
neutral marker's space in it (0 for none), ``offset[c] + square * (h + 1) +
marker`` for column index ``c`` (column ``c + 2``) of height ``h``; a column
the board lacks has the one code of an empty column.  Per code the tables
give the column after a stop, after a bust, after a climb of 1 or 2, its
part of the observation and its *class*, what the move table needs of it:
without a marker 0, 1 or 2 for the spaces above the square (2 meaning two
or more), with a marker 3, 4 or 5 for the spaces above the marker.

**The move table** is keyed, as the solver's is, by the roll (one of the
126 sorted rolls of :data:`cantstop._tables.SORTED_ROLLS`), the number of
markers on the board and the classes of the board's columns that the roll's
pairings name: all that the engine's move table looks at (see
:mod:`cantstop._tables`).  An entry is asked of the engine the first time a
game meets its key, on that game's position: the roll is applied, and the
answer is whether it busts, the legal decisions, and for each legal move the
spaces it climbs in each of its columns and the decisions open after it.
Each answer is checked against what the tables assume of it (a bust clears
the markers and keeps the squares; a move changes only its columns'
markers; the engine's own summary of the position,
:func:`cantstop._tables.situation`, agrees with the classes), and a
disagreement raises ``AssertionError`` naming the state.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from cantstop import _tables
from cantstop.actions import Move, Roll, Stop
from cantstop.board import COLUMNS, MARKERS
from cantstop.config import Rules
from cantstop.envs import NUM_ACTIONS, ROLL, STOP, decision, legal_decisions, observation_fields
from cantstop.errors import InvalidRules
from cantstop.notation import format_state
from cantstop.state import Event, Phase, State

__all__ = ["AWAITING", "DECIDING", "ENDED", "NOTHING", "OVER", "BatchTables", "tables_for"]

#: The head code of a game whose player decides after a move; codes 0 to 125
#: are a game choosing with the dice of that sorted roll.
DECIDING = 126
#: The head code of a game waiting for dice nobody throws: the turn limit was reached.
AWAITING = 127
#: The head code of a game that is won.
OVER = 128
#: The number of the mask of an ended episode: decision 0 alone (see :mod:`cantstop.envs`).
ENDED = 0
#: The number of the empty mask: nothing to decide.
NOTHING = 1
#: The kinds of a decision in a mask (``kinds``): refused, a move, a stop, roll again.
REFUSED, MOVE, STOPPING, ROLLING = 0, 1, 2, 3
#: The column operations of ``transitions``: none, a climb of 1 or 2, a stop, a bust, a new game.
KEEP, CLIMB, CLIMB_TWO, TO_SQUARE, CLEAR, RESTART = range(6)
#: The patterns of a whole board (``patterns``): nothing changes, a stop, a new game.
IDLE, STOP_ALL, RESTART_ALL = 0, 1, 2
#: The most column codes a board may have: tables of the move keys hold one entry per
#: roll and code.  Boards whose columns have up to 70 spaces each fit.
MAX_CODES = 1 << 16

_K = len(COLUMNS)
#: Each sorted roll's pairings, as the bit set of the sums they make.
_SUMS = _tables.SUM_MASK


def _column_index(column: int) -> int:
    return column - COLUMNS[0]


@dataclass(eq=False)
class _Entries:
    """The move table's distinct answers, grown as keys are met."""

    bust: npt.NDArray[np.bool_]
    choose: npt.NDArray[np.int64]
    #: The pattern of decision ``d`` of entry ``e`` (its climbs), at ``e * 79 + d``.
    pattern: npt.NDArray[np.int64]
    #: The mask number after decision ``d`` of entry ``e``, at ``e * 79 + d``.
    after: npt.NDArray[np.int64]
    used: int = 0

    @classmethod
    def empty(cls, size: int) -> _Entries:
        return cls(
            bust=np.zeros(size, np.bool_),
            choose=np.zeros(size, np.int64),
            pattern=np.zeros(size * NUM_ACTIONS, np.int64),
            after=np.zeros(size * NUM_ACTIONS, np.int64),
        )

    def grown(self) -> _Entries:
        bigger = _Entries.empty(2 * len(self.bust))
        for name, width in _WIDTHS.items():
            getattr(bigger, name)[: self.used * width] = getattr(self, name)[: self.used * width]
        bigger.used = self.used
        return bigger


_WIDTHS = {
    "bust": 1,
    "choose": 1,
    "pattern": NUM_ACTIONS,
    "after": NUM_ACTIONS,
}


class BatchTables:
    """The tables of one solitaire configuration (see the module docstring).

    Arrays indexed by column code: ``stop``, ``bust``, ``advance`` (code
    ``* 3 + climb``), ``cls``, ``wonbit`` (the column's bit once its square
    has won it), ``progress`` (the square's space over the height) and
    ``columns[0]``, ``columns[1]``, ``columns[2]`` (the marker, square and
    won parts of the observation).
    ``over`` is indexed by the bit set of won columns, ``head`` by the head
    code of a game (its dice and phase in the observation), ``masks`` by
    mask number; ``keyweights[roll * codes + code]`` and ``rollbase[roll]``
    add up to a move key, and ``keys[key]`` is the entry number (-1 until asked).
    The entries: ``entries.bust[e]``, ``entries.choose[e]`` (a mask number),
    and at ``e * 79 + d`` for decision ``d``, ``entries.climb_first`` and
    ``entries.climb_second`` (its climbs in its columns ``first[d]`` and
    ``second[d]``) and ``entries.after`` (the mask number after it).
    """

    def __init__(self, rules: Rules) -> None:
        if not isinstance(rules, Rules):
            raise TypeError(f"rules must be a cantstop.Rules, not {rules!r}")
        if rules.players != 1:
            raise ValueError(
                f"the batched environment is solitaire, not for {rules.players} players (R15.1)"
            )
        self.rules = rules
        heights = [rules.heights.get(column, 0) for column in COLUMNS]
        self.heights = np.array(heights, np.int64)
        sizes = [(h + 1) ** 2 for h in heights]
        codes = sum(sizes)
        if codes > MAX_CODES:
            raise InvalidRules(
                f"the batched environment holds boards of at most {MAX_CODES:,} column "
                f"positions, and this board's columns {dict(rules.heights.items())} have "
                f"{codes:,}; play it with CantStopEnv",
                "R15.3",
            )
        self.offset = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64)
        self._decoded: list[tuple[int, int, int]] = [
            (index, *divmod(code, h + 1))
            for index, h in enumerate(heights)
            for code in range(sizes[index])
        ]
        #: The code of each column of the empty board.
        self.start = self.offset.copy()
        self.codes = codes
        self._layout_columns()
        self._ask_stops()
        self._ask_over()
        self.transitions = np.stack(
            [
                np.arange(codes),
                *self.advance.reshape(codes, 3)[:, 1:].T,
                self.stop,
                self.bust,
                self.restart,
            ],
            axis=1,
        ).ravel()
        self._layout_moves()
        self._layout_head()

    # -- codes -------------------------------------------------------------------------

    def code(self, index: int, square: int, marker: int) -> int:
        """Return the code of column index ``index`` with a square and a marker (0: none)."""
        return int(self.offset[index] + square * (self.heights[index] + 1) + marker)

    def column(self, code: int) -> tuple[int, int, int]:
        """Return the column index, the square and the marker (0: none) of a code."""
        return self._decoded[code]

    def _valid(self) -> list[tuple[int, int, int, int]]:
        """Return every valid code with its column index, square and marker."""
        out = []
        for index, h in enumerate(self.heights.tolist()):
            for square in range(h + 1):
                for marker in (0, *range(square + 1, h + 1)):
                    out.append((self.code(index, square, marker), index, square, marker))
        return out

    def _layout_columns(self) -> None:
        f = self.codes
        self.cls = np.zeros(f, np.int64)
        self.marked = np.zeros(f, np.bool_)
        self.advance = np.zeros(3 * f, np.int64)
        self.restart = np.zeros(f, np.int64)
        self.bust = np.arange(f, dtype=np.int64)
        self.progress = np.zeros(f, np.float64)
        for code, index, square, marker in self._valid():
            h = int(self.heights[index])
            at = marker or square
            self.cls[code] = (3 if marker else 0) + min(h - at, 2)
            self.marked[code] = marker > 0
            self.bust[code] = self.code(index, square, 0)
            self.restart[code] = self.offset[index]
            self.progress[code] = square / h if h else 0.0
            self.advance[3 * code] = code
            for climb in (1, 2):
                # A climb past the top never comes from the engine; it stays put.
                reach = at + climb if at + climb <= h else marker
                self.advance[3 * code + climb] = self.code(index, square, reach)

    # -- stops and the end of the game -------------------------------------------------

    def _ask_stops(self) -> None:
        """Ask the engine what a stop makes of every marker: the square, and the column won."""
        rules = self.rules
        f = self.codes
        self.stop = np.arange(f, dtype=np.int64)
        won_at: dict[tuple[int, int], bool] = {}
        for code, index, square, marker in self._valid():
            if not marker:
                continue
            column = COLUMNS[index]
            squares = {column: square} if square else {}
            before = State(rules, 0, Phase.DECIDE, markers={column: marker}, squares=(squares,))
            after = before.apply(Stop())
            kept = after.squares[0].get(column, 0)
            if after.markers or kept != marker:
                raise AssertionError(
                    f"stopping in {format_state(before)!r} left {format_state(after)!r}: "
                    f"not the marker's space {marker} as the square"
                )
            self.stop[code] = self.code(index, kept, 0)
            won_at[index, marker] = column in after.won
        self.wonbit = np.zeros(f, np.int64)
        self.columns = np.zeros((3, f), np.float32)
        for code, index, square, marker in self._valid():
            h = int(self.heights[index])
            won = bool(square) and won_at[index, square]
            self.wonbit[code] = 1 << index if won else 0
            self.columns[:, code] = (marker / h if marker else 0.0, square / h if h else 0.0, won)

    def _ask_over(self) -> None:
        """Fill ``over``: whether a stop that leaves a set of columns won ends the game."""
        rules = self.rules
        board = [i for i, h in enumerate(self.heights.tolist()) if h]
        self.over = np.zeros(1 << _K, np.bool_)
        for size in range(1, len(board) + 1):
            for won in itertools.combinations(board, size):
                mask = sum(1 << i for i in won)
                topped, kept = won[-MARKERS:], won[:-MARKERS]
                base = sum(1 << i for i in kept)
                if self.over[base]:
                    self.over[mask] = True  # a game already won: no stop reaches this set
                    continue
                top = {COLUMNS[i]: int(self.heights[i]) for i in won}
                squares = {c: top[c] for c in map(COLUMNS.__getitem__, kept)}
                markers = {c: top[c] for c in map(COLUMNS.__getitem__, topped)}
                step = State(rules, 0, Phase.DECIDE, markers=markers, squares=(squares,)).step(
                    Stop()
                )
                self.over[mask] = step.event is Event.WON

    # -- the move table ----------------------------------------------------------------

    def _layout_moves(self) -> None:
        board = sum(1 << c for c in COLUMNS if self.heights[_column_index(c)])
        rolls = len(_tables.SORTED_ROLLS)
        keyweights = np.zeros((rolls, self.codes), np.int64)
        self.rollbase = np.zeros(rolls, np.int64)
        valid = self._valid()
        base = 0
        for roll in range(rolls):
            named = [c for c in COLUMNS if (_SUMS[roll] & board) >> c & 1]
            weight = {_column_index(c): 6**j for j, c in enumerate(named)}
            per_marker = 6 ** len(named)
            row = keyweights[roll]
            for code, index, _, marker in valid:
                row[code] = self.cls[code] * weight.get(index, 0) + (per_marker if marker else 0)
            self.rollbase[roll] = base
            base += (MARKERS + 1) * per_marker
        # Column 2's codes carry the roll's base, so that a key is the sum of the weights.
        keyweights[:, : self.offset[1]] += self.rollbase[:, None]
        #: The key weights of roll ``r`` and code ``c`` at ``r * codes + c``.
        self.keyweights = keyweights.ravel()
        self.keys = np.full(base, -1, np.int32)
        self.first = np.zeros(NUM_ACTIONS, np.int64)
        self.second = np.zeros(NUM_ACTIONS, np.int64)
        for d in range(NUM_ACTIONS):
            chosen = decision(d)
            if isinstance(chosen, Move):
                columns = chosen.columns
                self.first[d] = _column_index(columns[0])
                self.second[d] = _column_index(columns[-1])
        self._masks: dict[tuple[int, ...], int] = {}
        self.masks = np.zeros((0, NUM_ACTIONS), np.int8)
        self.kinds = np.zeros(0, np.int64)
        self._patterns: dict[tuple[int, ...], int] = {}
        self.patterns = np.zeros((0, _K), np.int64)
        for ops in (KEEP, TO_SQUARE, RESTART):  # IDLE, STOP_ALL, RESTART_ALL
            self._pattern((ops,) * _K)
        self.mask_number((STOP,))  # ENDED
        self.mask_number(())  # NOTHING
        self.entries = _Entries.empty(256)
        self._found: dict[tuple[object, ...], int] = {}

    def mask_number(self, legal: tuple[int, ...]) -> int:
        """Return the number of the mask of the decisions ``legal``, adding it if new."""
        number = self._masks.get(legal)
        if number is None:
            number = self._masks[legal] = len(self._masks)
            row = np.zeros((1, NUM_ACTIONS), np.int8)
            row[0, list(legal)] = 1
            self.masks = np.concatenate([self.masks, row])
            kinds = np.zeros(NUM_ACTIONS, np.int64)
            if number != ENDED:  # an ended episode plays nothing
                for d in legal:
                    kinds[d] = STOPPING if d == STOP else ROLLING if d == ROLL else MOVE
            self.kinds = np.concatenate([self.kinds, kinds])
        return number

    def _pattern(self, ops: tuple[int, ...]) -> int:
        """Return the number of a board's column operations, adding it if new."""
        number = self._patterns.get(ops)
        if number is None:
            number = self._patterns[ops] = len(self._patterns)
            self.patterns = np.concatenate([self.patterns, np.array([ops], np.int64)])
        return number

    def _layout_head(self) -> None:
        """Lay out the observation's player, phase and dice fields for every head code."""
        fields = observation_fields(1)
        current, phase, dice = (fields[n].start for n in ("current", "phase", "dice"))
        self.head = np.zeros((OVER + 1, dice + 24), np.float32)
        for roll, faces in enumerate(_tables.SORTED_ROLLS):
            self.head[roll, [current, phase + 1]] = 1
            for j, face in enumerate(faces):
                self.head[roll, dice + 6 * j + face - 1] = 1
        self.head[DECIDING, [current, phase + 2]] = 1
        self.head[AWAITING, [current, phase]] = 1
        self.head[OVER, phase + 3] = 1
        self.board = np.array([1.0 if h else 0.0 for h in self.heights.tolist()], np.float32)

    # -- asking the engine -------------------------------------------------------------

    def state(self, codes: npt.NDArray[np.int64], head: int) -> State:
        """Return the engine's state of a game: its column codes and head code."""
        squares: dict[int, int] = {}
        markers: dict[int, int] = {}
        for code in codes.tolist():
            index, square, marker = self.column(code)
            if square:
                squares[COLUMNS[index]] = square
            if marker:
                markers[COLUMNS[index]] = marker
        if head == OVER:
            return State(self.rules, 0, Phase.OVER, squares=(squares,))
        if head == AWAITING:
            return State(self.rules, 0, Phase.ROLL, squares=(squares,))
        if head == DECIDING:
            return State(self.rules, 0, Phase.DECIDE, markers=markers, squares=(squares,))
        dice = _tables.SORTED_ROLLS[head]
        return State(self.rules, 0, Phase.CHOOSE, dice, markers=markers, squares=(squares,))

    def ask(self, codes: npt.NDArray[np.int64], roll: int, key: int) -> int:
        """Ask the engine the entry of ``key``: sorted roll ``roll`` thrown on a game's columns."""
        found = self.keys[key]
        if found >= 0:
            return int(found)
        before = self.state(codes, DECIDING if self.marked[codes].any() else AWAITING)
        self._check_classes(before, codes)
        step = before.step(Roll(_tables.SORTED_ROLLS[roll]))
        after = step.state
        climbs: dict[int, tuple[int, int]] = {}
        nexts: dict[int, int] = {}
        if step.event is Event.BUSTED:
            if after.markers or after.squares != before.squares or after.phase is not Phase.ROLL:
                raise AssertionError(
                    f"the bust in {format_state(before)!r} left {format_state(after)!r}, "
                    f"not its squares without markers"
                )
            answer: tuple[object, ...] = (True,)
            choose = NOTHING
        else:
            if after.dice != _tables.SORTED_ROLLS[roll]:
                raise AssertionError(f"rolling {roll} in {format_state(before)!r} gave {after}")
            legal = tuple(legal_decisions(after))
            choose = self.mask_number(legal)
            for d in legal:
                climbs[d], nexts[d] = self._ask_move(before, after, d)
            answer = (False, choose, tuple(sorted(climbs.items())), tuple(sorted(nexts.items())))
        number = self._found.get(answer)
        if number is None:
            number = self._found[answer] = self._add(answer[0] is True, choose, climbs, nexts)
        self.keys[key] = number
        return number

    def _ask_move(self, before: State, choosing: State, d: int) -> tuple[tuple[int, int], int]:
        """Return the climbs of move ``d`` in its two columns, and the mask after it."""
        moved = choosing.apply(decision(d))  # type: ignore[arg-type]
        first, second = COLUMNS[self.first[d]], COLUMNS[self.second[d]]
        own = before.squares[0]
        start = {c: before.markers.get(c, own.get(c, 0)) for c in (first, second)}
        climb_first = moved.markers.get(first, start[first]) - start[first]
        climb_second = moved.markers.get(second, start[second]) - start[second]
        if first == second:
            climb_second = 0
        others = {c: s for c, s in moved.markers.items() if c not in (first, second)}
        unchanged = {c: s for c, s in before.markers.items() if c not in (first, second)}
        if (
            others != unchanged
            or moved.squares != before.squares
            or not 0 < climb_first <= 2
            or not (0 < climb_second <= 2 or first == second)
        ):
            raise AssertionError(
                f"the move {d} from {format_state(choosing)!r} to {format_state(moved)!r} "
                f"is not a climb of one or two spaces in its own columns"
            )
        return (climb_first, climb_second), self.mask_number(tuple(legal_decisions(moved)))

    def _check_classes(self, state: State, codes: npt.NDArray[np.int64]) -> None:
        """Raise ``AssertionError`` unless the engine's summary of ``state`` matches the classes."""
        situation = _tables.situation(state)
        for index, code in enumerate(codes.tolist()):
            cls = int(self.cls[code])
            room, marked = cls % 3, cls >= 3
            bit = 1 << COLUMNS[index]
            engine = (
                bool(situation & bit),
                bool(situation >> 13 & bit),
                bool(situation >> 26 & bit),
            )
            if engine != (room >= 1, room >= 2, marked):
                raise AssertionError(
                    f"column {COLUMNS[index]} of {format_state(state)!r} has class {cls}, "
                    f"but the engine's situation says {engine}"
                )

    def _add(
        self,
        bust: bool,
        choose: int,
        climbs: dict[int, tuple[int, int]],
        nexts: dict[int, int],
    ) -> int:
        entries = self.entries
        if entries.used == len(entries.bust):
            entries = self.entries = entries.grown()
        number = entries.used
        entries.bust[number] = bust
        entries.choose[number] = choose
        for d, (a, b) in climbs.items():
            ops = [KEEP] * _K
            ops[self.first[d]] = a  # a climb of a spaces is operation a (CLIMB, CLIMB_TWO)
            if b:
                ops[self.second[d]] = b
            entries.pattern[number * NUM_ACTIONS + d] = self._pattern(tuple(ops))
            entries.after[number * NUM_ACTIONS + d] = nexts[d]
        entries.used += 1
        return number


_CACHE: dict[Rules, BatchTables] = {}


def tables_for(rules: Rules) -> BatchTables:
    """Return the tables of solitaire ``rules``, made once per configuration and shared."""
    found = _CACHE.get(rules)
    if found is None:
        if len(_CACHE) >= 8:
            _CACHE.clear()
        found = _CACHE[rules] = BatchTables(rules)
    return found
