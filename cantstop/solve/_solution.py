"""Solving a solitaire board: every anchor's exact value, and the best play within a turn.

:func:`solve` takes start-of-turn positions (*anchors*) from the most
advanced to the empty board.  For each, it values every position the turn
can reach, with the anchor's own value as the unknown cost of a bust, and
finds that value as the fixed point of the turn (Newton's method, which
here is policy iteration: see ``cantstop.solve._kernel``).  A stop
leads to a more advanced anchor, already solved.

A :class:`Solution` holds the value of every anchor.  The best play in any
position of a turn follows from them: :meth:`Solution.turn` values the
anchor's turn once more, with its value known, and answers which move is
best and whether to stop.
"""

from __future__ import annotations

import resource
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from cantstop import MARKERS, Move, Phase, Rules, State, format_state
from cantstop.errors import IllegalAction, InvalidRules, InvalidState
from cantstop.solve import _kernel, _laid, _policy, _templates
from cantstop.solve.board import Board

__all__ = ["Solution", "SolveStats", "Turn", "solve"]

#: Anchors solved between two progress reports.
CHUNK = 20_000
#: Missing table entries the kernel collects before handing them to the engine.
MISS_BUFFER = 4096
#: Missing table entries found before a solve, handed to the engine at a time.
DISCOVER_BUFFER = 1 << 15
#: The bytes of the store of outcome templates: when full, it starts again empty.
TEMPLATE_BYTES = 16 << 20


@dataclass(frozen=True, slots=True)
class SolveStats:
    """What a solve cost: counts, time and memory."""

    #: Anchors solved (start-of-turn positions of a game still going on).
    anchors: int
    #: In-turn positions valued, over all anchors, each counted once.
    positions: int
    #: Passes over an anchor's turn, over all anchors (Newton's method takes two or more).
    passes: int
    #: Move-table entries asked of the engine.
    entries: int
    #: CPU seconds the solve took.
    seconds: float
    #: Of those, the seconds spent asking the engine for move-table entries.
    engine_seconds: float
    #: Bytes of the arrays the solve holds: values, tables and one turn's work.
    array_bytes: int
    #: The process's peak resident memory when the solve ended, in bytes.
    peak_bytes: int

    def to_json(self) -> dict[str, int | float]:
        """Return the stats as a JSON object."""
        return {name: getattr(self, name) for name in self.__slots__}

    @classmethod
    def from_json(cls, data: dict[str, int | float]) -> SolveStats:
        """Return the stats of a JSON object written by :meth:`to_json`."""
        known = {name: data[name] for name in cls.__slots__ if name in data}
        known.setdefault("engine_seconds", 0.0)
        return cls(**known)  # type: ignore[arg-type]


class Turn:
    """One anchor's turn, valued: the expected turns to win from each of its positions."""

    def __init__(self, board: Board, squares: tuple[int, ...], value: float, values: np.ndarray):
        self.board = board
        #: The squares at the start of the turn, one per column.
        self.squares = squares
        #: The anchor's value: expected turns to win from the start of this turn.
        self.value = value
        size = board.largest_turn()
        self._blocks = _kernel.block_scratch(len(board.columns))
        s = np.array(squares, np.int64)
        nb = _kernel.build_blocks(s, board.h, MARKERS, self._blocks)
        self._w = np.zeros(size)
        d = np.zeros(size)
        self._roll = np.zeros(size)
        misses = np.zeros((MISS_BUFFER, 3), np.int64)
        anchor = board.number(squares)
        while True:
            found = _kernel.turn_pass(
                anchor, value, s, board.tables(), values, nb, self._blocks, self._w, d,
                self._roll, misses,
            )  # fmt: skip
            if found < 0:
                break
            board.fill(misses[:found])
        self._values = values

    def _index(self, climbs: tuple[int, ...]) -> int:
        mask = sum(1 << i for i, u in enumerate(climbs) if u)
        bcols, bn, _, boff, bstride, block_of = self._blocks
        block = int(block_of[mask])
        if block < 0:
            raise InvalidState(
                f"{bin(mask).count('1')} markers are more than the {MARKERS} a turn has", "R16.1"
            )
        position = int(boff[block])
        for j in range(int(bn[block])):
            c = int(bcols[block, j])
            position += (climbs[c] - 1) * int(bstride[block, j])
        return position

    def expected(self, climbs: tuple[int, ...]) -> float:
        """Return the expected turns to win from in-turn position ``climbs``, playing best.

        ``climbs`` gives, per column, how far its marker stands above the
        square (0 for no marker); the count includes this turn.
        """
        return float(self._w[self._index(climbs)])

    def rolling(self, climbs: tuple[int, ...]) -> float:
        """Return the expected turns to win if the player rolls (again) now, then plays best."""
        return float(self._roll[self._index(climbs)])

    def stopping(self, climbs: tuple[int, ...]) -> float:
        """Return the expected turns to win if the player stops now: this turn and what follows."""
        spaces = tuple(s + u for s, u in zip(self.squares, climbs, strict=True))
        won = sum(
            1 << i for i, (t, h) in enumerate(zip(spaces, self.board.h, strict=True)) if t == h
        )
        if self.board.over[won]:
            return 1.0
        return 1.0 + float(self._values[self.board.number(spaces)])

    def stops(self, climbs: tuple[int, ...]) -> bool:
        """Return whether stopping is best (ties stop: the turn's progress is then kept)."""
        return self.stopping(climbs) <= self.rolling(climbs)


class Solution:
    """The exact value of every anchor of a solitaire board, and the play that achieves it.

    ``values[n]`` is the expected number of turns the best play needs to win
    from anchor number ``n`` (``board.number`` numbers them), the turn about to
    start included; finished games are worth 0.
    """

    def __init__(self, rules: Rules, values: np.ndarray, stats: SolveStats | None = None):
        self.board = Board.of(rules)
        if values.shape != (self.board.anchors,):
            raise InvalidRules(
                f"{len(values)} values for a board of {self.board.anchors} anchors", "R15.3"
            )
        #: The configuration solved.
        self.rules = rules
        #: The value of each anchor, by anchor number.
        self.values = values
        #: What the solve cost, when known.
        self.stats = stats
        self._turns: dict[tuple[int, ...], Turn] = {}

    @property
    def start_value(self) -> float:
        """The expected number of turns to win from the empty board, playing optimally."""
        return float(self.values[0])

    def turn(self, squares: tuple[int, ...]) -> Turn:
        """Return the valued turn of the anchor with ``squares`` (cached: the last 64)."""
        found = self._turns.get(squares)
        if found is None:
            value = float(self.values[self.board.number(squares)])
            found = Turn(self.board, squares, value, self.values)
            if len(self._turns) >= 64:
                self._turns.pop(next(iter(self._turns)))
            self._turns[squares] = found
        return found

    def expected(self, state: State) -> float:
        """Return the expected turns to win from ``state`` under the best play, this turn included.

        ``state`` is any solitaire state of the solved board: about to roll,
        choosing (the best move's value) or deciding (the better of rolling
        and stopping); a finished game is worth 0.
        """
        if state.phase is Phase.OVER:
            return 0.0
        squares, climbs = self.board.position(state)
        turn = self.turn(squares)
        if state.phase is Phase.CHOOSE:
            return min(
                turn.expected(self.board.position(state.apply(m))[1]) for m in state.legal_moves()
            )
        if state.phase is Phase.ROLL:
            return turn.value
        return turn.expected(climbs)

    def best_move(self, state: State) -> Move:
        """Return the legal move of ``state`` (choosing) that leaves the fewest expected turns.

        Ties go to the first of :meth:`~cantstop.State.legal_moves`.
        """
        moves = state.legal_moves()
        if not moves:
            raise IllegalAction(
                "the best move needs a state that is choosing a move", "R3.3", state, None
            )
        squares, _ = self.board.position(state)
        turn = self.turn(squares)
        return min(moves, key=lambda m: turn.expected(self.board.position(state.apply(m))[1]))

    def stops(self, state: State) -> bool:
        """Return whether stopping is best in ``state`` (deciding); ties stop."""
        if state.phase is not Phase.DECIDE:
            raise IllegalAction(
                "whether to stop needs a state that has just moved", "R3.4", state, None
            )
        squares, climbs = self.board.position(state)
        return self.turn(squares).stops(climbs)

    def __repr__(self) -> str:
        return f"<Solution of {self.rules!r}: {self.start_value:.6f} turns from the start>"


#: The kernels :func:`solve` can run: the laid-out turns (the default), and the first kernel,
#: which values every roll of every position on each of Newton's passes (kept to compare).
KERNELS = ("laid", "reference")


class Templates:
    """The board's store of outcome templates (see ``cantstop.solve._templates``).

    Its arrays are made once, about ``nbytes`` in all (:data:`TEMPLATE_BYTES`
    unless given), and room for one template at least; the memory behind
    them is only taken as templates fill it.  When the store is full the
    kernel empties it (``_templates.empty_store``) and goes on: templates are
    remade from the move table when next needed, so that changes no value,
    only the time.
    """

    def __init__(self, nbytes: int | None = None) -> None:
        size = TEMPLATE_BYTES if nbytes is None else nbytes
        groups = max(size // 10, 256)  # 8 bytes a group, and a template has 8 groups or more
        count = max(groups // 8, 4)
        #: The template of each (markers, classes) key met, as a table of ``_templates.find``.
        self.keys = _templates.new_table(1 << (2 * count).bit_length())
        self.arrays = (
            np.zeros(count + 1, np.float64),  # bust weight of each template
            np.zeros(count + 1, np.int64),  # first group of each template
            np.zeros(groups, np.float32),  # weight of each group (a count of 1296 rolls)
            np.zeros(groups, np.int32),  # table entry of each group
            np.zeros(3, np.int64),  # templates and groups in use, most bytes in use
        )

    @property
    def used_bytes(self) -> int:
        """The most bytes of the arrays that templates have filled at once."""
        templates, groups, most = (int(x) for x in self.arrays[4])
        return max(most, 16 * templates + 8 * groups)


def entry_steps(board: Board) -> np.ndarray:
    """Return the steps of the moves of ``board``'s move table (``_templates.entry_steps``)."""
    pstep = np.zeros(len(board.pool), np.int64)
    _templates.entry_steps(board.pool, board.pool_used, board.stride, pstep)
    return pstep


def discover(board: Board, anchors: np.ndarray, policy: _policy.Policy) -> float:
    """Fill the move table with the entries the turns of ``anchors`` need; return the engine's time.

    :func:`cantstop.solve._laid.discover` lists the missing entries, many
    at a time, so that the solve (or, with a player's ``policy``, the
    evaluation) that follows meets none.
    """
    size = board.largest_turn()
    placed = (np.empty(size, np.int64), np.empty(size, np.int64), np.empty(size, np.int64),
              np.empty(size, np.int64))  # fmt: skip
    bare = np.zeros(size, np.bool_)
    misses = np.zeros((DISCOVER_BUFFER, 3), np.int64)
    checked = _templates.new_table(1 << 16)
    position = 0
    engine = 0.0
    while True:
        position, found = _laid.discover(
            anchors, position, board.tables(), MARKERS, checked, misses, policy, placed, bare
        )
        if found == -1:
            return engine
        if found == _templates.FULL:
            checked = _templates.grown(checked)
            continue
        asking = time.process_time()
        board.fill(misses[:found])
        engine += time.process_time() - asking


def run_kernel(
    board: Board,
    anchors: np.ndarray,
    values: np.ndarray,
    stats: np.ndarray,
    kernel: str = "laid",
    progress: Callable[[int, int], None] | None = None,
    policy: _policy.Policy | None = None,
) -> float:
    """Solve ``anchors`` in order into ``values``, asking the engine for table entries as needed.

    With ``policy`` (a player's tables, see :mod:`cantstop.solve._policy`),
    value them as that player plays instead; the laid-out kernel does both.
    ``stats`` accumulates anchors, in-turn positions, passes and anchors that
    did not settle.  Returns the CPU seconds spent asking the engine.
    """
    if kernel not in KERNELS:
        raise ValueError(f"no kernel {kernel!r}: one of {', '.join(KERNELS)}")
    size = board.largest_turn()
    w = np.zeros(size)
    d = np.zeros(size)
    rolling = np.zeros(size)
    misses = np.zeros((MISS_BUFFER, 3), np.int64)
    store = board.templates
    engine = 0.0
    if kernel == "laid":
        if not isinstance(store, Templates):
            store = board.templates = Templates()
        engine += discover(board, anchors, policy or _policy.optimal())
    pstep = entry_steps(board)
    position = 0
    total = len(anchors)
    while position < total:
        end = min(total, position + CHUNK)
        if kernel == "laid":
            assert isinstance(store, Templates)
            reached, found = _laid.run_anchors(
                anchors[:end], position, board.tables(), pstep, MARKERS, values, store.keys,
                store.arrays, policy or _policy.optimal(), w, d, misses, stats,
            )  # fmt: skip
        else:
            reached, found = _kernel.solve_anchors(
                anchors[:end], position, board.tables(), MARKERS, values, w, d, rolling, misses,
                stats,
            )  # fmt: skip
        position = reached
        if found >= 0:
            asking = time.process_time()
            board.fill(misses[:found])
            engine += time.process_time() - asking
            pstep = entry_steps(board)
        elif progress is not None:
            progress(position, total)
    return engine


def solve(
    rules: Rules, progress: Callable[[int, int], None] | None = None, kernel: str = "laid"
) -> Solution:
    """Solve solitaire ``rules`` exactly; return the :class:`Solution`.

    ``progress``, when given, is called with (anchors done, anchors in all)
    every few thousand anchors.  ``kernel`` is ``"laid"`` (the default: each
    anchor's turn laid out once) or ``"reference"`` (the first kernel, kept
    to compare with): both give the same values to rounding.

    >>> from cantstop import Rules
    >>> solution = solve(Rules(players=1, heights={7: 1}, columns_to_win=1))
    >>> round(solution.start_value, 6)  # win at the first 7: a roll makes one with chance 139/216
    1.553957
    """
    board = Board.of(rules)
    start_cpu = time.process_time()
    values = np.zeros(board.anchors, np.float64)
    anchors = np.arange(board.anchors - 1, -1, -1, dtype=np.int64)
    stats = np.zeros(4, np.int64)
    engine = run_kernel(board, anchors, values, stats, kernel, progress)
    if stats[3]:
        raise AssertionError(f"Newton's method did not settle at {stats[3]} anchors")
    held = values.nbytes + board.entry.nbytes + board.pool.nbytes + 3 * 8 * board.largest_turn()
    store = board.templates
    if isinstance(store, Templates):
        held += store.used_bytes
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    summary = SolveStats(
        anchors=int(stats[0]),
        positions=int(stats[1]),
        passes=int(stats[2]),
        entries=board.asked,
        seconds=round(time.process_time() - start_cpu, 3),
        engine_seconds=round(engine, 3),
        array_bytes=int(held),
        peak_bytes=int(peak),
    )
    solution = Solution(rules, values, summary)
    solution.board = board  # the filled move table serves the solution's turns too
    return solution


def describe(state: State) -> str:
    """Return ``state`` in notation, for messages."""
    return format_state(state)
