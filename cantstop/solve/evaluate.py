"""Exact evaluation of any deterministic player: its expected turns to win solitaire.

Every built-in player gives its decisions as tables (:func:`policy_tables`:
the :class:`~cantstop.players.Rule28Player`, the
:class:`~cantstop.players.QuotaPlayer`, so the cautious and the bold player
too, the :class:`~cantstop.players.GreedyPlayer`, the
:class:`~cantstop.players.RandomPlayer` and the
:class:`~cantstop.solve.player.OptimalPlayer`), and is evaluated through
the solver's own tables (:func:`evaluate_on_tables`): the solver's laid-out
turns, with the player's choices in place of the best ones, at about the
cost of solving the board.  Any other player (a subclass of one of them
too, since it may decide otherwise) is walked through the engine, if it is
deterministic:
:func:`evaluate` follows the player through every roll of every turn it can
reach, asking the engine for each roll's outcome and the player for each
decision, and solves the turn's equation exactly as the solver does: a
bust starts the same turn again, so the value of a turn's start ``x``
satisfies ``x = a + b x``, where ``b`` is the chance that the player's turn
busts.  Nothing is sampled, so the answer is exact up to rounding, and can
be set beside the optimal value of a solved board.

>>> from cantstop import Rules
>>> from cantstop.players import Rule28Player
>>> rules = Rules(players=1, heights={7: 1}, columns_to_win=1)
>>> round(evaluate(Rule28Player(), rules), 6)  # it stops on the win: as good as the best play
1.553957
"""

from __future__ import annotations

import itertools
import math
import random
import sys
import time
from collections.abc import Callable
from fractions import Fraction
from typing import NamedTuple

import numpy as np

from cantstop import MARKERS, Event, Phase, Rules, State, Stop, new_game, roll_outcomes
from cantstop.dice import ORDERED_ROLLS
from cantstop.errors import IllegalAction
from cantstop.players import (
    BoldPlayer,
    CautiousPlayer,
    Decision,
    GreedyPlayer,
    Player,
    QuotaPlayer,
    RandomPlayer,
    Rule28Player,
    decide,
)
from cantstop.solve._policy import GAIN, RANDOM, SOLVED, Policy
from cantstop.solve._solution import run_kernel
from cantstop.solve.board import Board, check_solitaire
from cantstop.solve.player import OptimalPlayer, find_solution

__all__ = [
    "Evaluated",
    "PolicyTables",
    "RandomnessError",
    "evaluate",
    "evaluate_on_tables",
    "policy_tables",
]


#: The ordered rolls of four dice: chances of a roll are counts out of this many.
_ROLL_COUNT = len(ORDERED_ROLLS)

#: A turn whose chance of not busting is this small or less is taken never to end well: the
#: rounding of the chances' sum is far larger than any chance a real player leaves of winning.
_NEVER = 1e-9


class RandomnessError(RuntimeError):
    """A player drew from its generator: its play is not a function of the state."""


class _NoDraws(random.Random):
    """A generator that refuses to be drawn from, naming the player that tried."""

    def __init__(self, name: str) -> None:
        super().__init__(0)
        self.name = name

    def random(self) -> float:
        raise RandomnessError(
            f"player {self.name!r} draws from its generator, so its expected turns are "
            f"not a function of its decisions; exact evaluation needs a deterministic player"
        )


class _Evaluation:
    def __init__(self, player: Player, progress: Callable[[int], None] | None) -> None:
        self.player = player
        self.rng = _NoDraws(player.name)
        self.outcomes = [(roll, float(chance)) for roll, chance in roll_outcomes()]
        self.anchors: dict[State, float] = {}
        self.positions = 0
        self.progress = progress

    def anchor(self, start: State) -> float:
        found = self.anchors.get(start)
        if found is None:
            seen: dict[State, tuple[float, float]] = {}
            a, b = self.roll(start, seen)
            # b is the chance that the turn busts: 1 (up to rounding) if every turn does.
            found = self.anchors[start] = math.inf if 1.0 - b <= _NEVER else a / (1.0 - b)
            self.positions += len(seen) + 1
            if self.progress is not None and len(self.anchors) % 1000 == 0:
                self.progress(len(self.anchors))
        return found

    def roll(self, state: State, seen: dict[State, tuple[float, float]]) -> tuple[float, float]:
        """Return (a, b): rolling from ``state`` is worth a + b x, x the anchor's value."""
        a = b = 0.0
        for roll, chance in self.outcomes:
            step = state.step(roll)
            if step.event is Event.BUSTED:
                a += chance
                b += chance
                continue
            choosing = step.state
            moves = choosing.legal_moves()
            move = moves[0] if len(moves) == 1 else self.player.choose(choosing, self.rng)
            if move not in moves:
                raise IllegalAction(
                    f"player {self.player.name!r} chose {move!r}, not a legal move",
                    "R6.6",
                    choosing,
                    move,
                )
            after = choosing.apply(move)
            found = seen.get(after)
            if found is None:
                found = seen[after] = self.decide(after, seen)
            a += chance * found[0]
            b += chance * found[1]
        return a, b

    def decide(self, state: State, seen: dict[State, tuple[float, float]]) -> tuple[float, float]:
        if decide(self.player, state, self.rng) is Decision.STOP:
            step = state.step(Stop())
            if step.event is Event.WON:
                return 1.0, 0.0
            return 1.0 + self.anchor(step.state), 0.0
        return self.roll(state, seen)


class PolicyTables(NamedTuple):
    """A player's decisions as tables over a board's placings of markers (see ``_policy``)."""

    #: The tallest column's height plus 1: the radix of the climbs in a placing's number.
    width: int
    #: The slot of each placing's number (-1 where no placing has that number).
    slot_of: np.ndarray
    #: The player's score of a move that leaves each slot's placing (the highest is taken).
    choice: np.ndarray
    #: The tie-break of a move climbing in column indices ``c1`` and ``c2``: ``[c1 * k + c2]``.
    likely: np.ndarray
    #: Whether the player stops: ``[slot, open columns, stopping wins, a column claimed]``.
    stop: np.ndarray
    #: Whether the scores read a move's sums from its climbs (true of every solitaire
    #: move the engine lists, which the board checks as it fills its table).
    by_climbs: bool = False
    #: The most expected gain (spaces times 1296) at which the player stops, by the weight
    #: of the rolls that bust and the spaces climbed (the greedy player's; see ``_policy``).
    limit: np.ndarray | None = None

    def policy(self) -> Policy:
        """Return the tables as the kernel takes them (``_policy.Policy``)."""
        limit = np.zeros((1, 1), np.int64) if self.limit is None else self.limit
        return (self.width, self.slot_of, self.choice, self.likely, self.stop, limit)


#: The players whose decisions :func:`policy_tables` gives as tables (their subclasses,
#: which may decide otherwise, are walked through the engine), besides the random player
#: and the optimal one.
TABLED = (Rule28Player, QuotaPlayer, CautiousPlayer, BoldPlayer, GreedyPlayer)


def policy_tables(player: Player, board: Board) -> PolicyTables | None:
    """Return ``player``'s decisions on ``board`` as tables, or ``None`` if it gives none.

    Every number in them is the player's own answer, asked of every placing
    of up to three markers:

    - the :class:`~cantstop.players.Rule28Player` is asked its
      :meth:`~cantstop.players.Rule28Player.choice_points`,
      :meth:`~cantstop.players.Rule28Player.count` and
      :meth:`~cantstop.players.Rule28Player.stop_rule`, and its
      :meth:`~cantstop.players.Rule28Player.likeliness` of every pair of
      columns; its :meth:`~cantstop.players.Rule28Player.choose` and
      :meth:`~cantstop.players.Rule28Player.stops` read the same methods;
    - a :class:`~cantstop.players.QuotaPlayer` (and so the cautious and the
      bold player) is asked its :meth:`~cantstop.players.QuotaPlayer.score`
      of the sums that would make the placing from no marker at all (each
      column once per space climbed, every marker new) and its
      :meth:`~cantstop.players.QuotaPlayer.stop_rule`.  A move's score
      differs from that of the placing it leaves by the same amount for
      every move of a roll, so the two order the moves alike, as long as a
      move's sums are its climbs: in solitaire they are, and the board
      checks each move it asks of the engine (``Board.sums_are_climbs``).
      Moves of equal score go to the first, as ``max`` does.

    - the :class:`~cantstop.players.RandomPlayer` is asked its
      :meth:`~cantstop.players.RandomPlayer.stop_chance`; it plays each
      legal move with the same chance, and needs no other table (its width
      is ``_policy.RANDOM``).  Its value is the mean over its own draws as
      well as the dice's;
    - the :class:`~cantstop.players.GreedyPlayer` is asked its
      :meth:`~cantstop.players.GreedyPlayer.score` of every move of one or
      two sums (ranked, so that the kernel compares exactly the keys the
      player compares), its
      :meth:`~cantstop.players.GreedyPlayer.stops_outright` and its
      :meth:`~cantstop.players.GreedyPlayer.gain_limit` for every bust
      weight out of 1296 and every progress a turn can make (its width is
      ``_policy.GAIN``).  The kernel reads a position's expected gain off
      the moves the engine listed, as the spaces the longest move of each
      roll climbs, which is :func:`cantstop.odds.expected_gain` as long as
      a move's sums are its climbs.

    - the :class:`~cantstop.solve.player.OptimalPlayer` gives its solution
      (the one it holds, or the board's in the solutions folder, as its
      play finds it): its decisions are the least value among a roll's
      moves and a stop worth no more than rolling, which a pass of the
      solve takes from the solution's values (``_policy.solved_pass``).
      Where two choices tie, the pass may take the other one than the
      player's (whose values sum the rolls in another order), and the two
      are then worth the same to rounding.  A solution with a value below
      0 gives none: the player might roll on where a stop wins.

    Other players (and subclasses, which may decide otherwise) give none,
    and so does a board with a column taller than 15 spaces.
    """
    if type(player) is OptimalPlayer:
        solution = player.solution
        if solution is None or solution.rules != board.rules:
            solution = find_solution(board.rules)
        values = np.asarray(solution.values, np.float64)
        if len(values) != board.anchors or not bool((values >= 0).all()):
            return None
        empty = np.zeros(1, np.int64)
        return PolicyTables(SOLVED, empty, empty, values, np.zeros((1, 1, 1, 1), np.bool_))
    if type(player) is RandomPlayer:
        empty = np.zeros(1, np.int64)
        return PolicyTables(
            RANDOM, empty, empty, np.array([player.stop_chance()]), np.zeros((1, 1, 1, 1), np.bool_)
        )
    heights = [int(x) for x in board.h]
    if type(player) not in TABLED or max(heights) > 15:  # climbs are packed in 4 bits
        return None
    if type(player) is GreedyPlayer:
        return _gain_tables(player, board)
    columns = board.columns
    k = len(columns)
    width = max(heights) + 1
    cube = width**3
    slot_of = np.full((1 << k) * cube, -1, np.int64)
    scores: list[object] = []
    stop: list[list[list[list[bool]]]] = []
    for n in range(1, MARKERS + 1):
        for chosen in itertools.combinations(range(k), n):
            mask = sum(1 << c for c in chosen)
            for climbs in itertools.product(*(range(1, heights[c] + 1) for c in chosen)):
                index = sum(u * width**j for j, u in enumerate(climbs))
                slot_of[mask * cube + index] = len(scores)
                placing = {columns[c]: u for c, u in zip(chosen, climbs, strict=True)}
                if isinstance(player, Rule28Player):
                    scores.append(player.choice_points(placing))
                    count = player.count(placing)
                    rule = [
                        [player.stop_rule(count, n, open_columns, wins) for wins in (False, True)]
                        for open_columns in range(k + 1)
                    ]
                    stop.append([[[wants, wants] for wants in row] for row in rule])
                else:
                    assert isinstance(player, QuotaPlayer)
                    sums = [c for c, u in placing.items() for _ in range(u)]
                    scores.append(player.score(sums, n))
                    wants = [player.stop_rule(sum(climbs), claims) for claims in (False, True)]
                    stop.append([[wants, wants] for _ in range(k + 1)])
    if isinstance(player, Rule28Player):
        likely = [player.likeliness({columns[a], columns[b]}) for a in range(k) for b in range(k)]
        choice = np.array(scores, np.int64)
    else:
        likely = [0.0] * (k * k)  # no tie-break: the first of equal moves
        ranks = {score: rank for rank, score in enumerate(sorted(set(scores)))}  # type: ignore[type-var]
        choice = np.array([ranks[score] for score in scores], np.int64)
    return PolicyTables(
        width,
        slot_of,
        choice,
        np.array(likely, np.float64),
        np.array(stop, np.bool_),
        by_climbs=not isinstance(player, Rule28Player),
    )


def _gain_tables(player: GreedyPlayer, board: Board) -> PolicyTables:
    """Return the greedy player's tables (``_policy.GAIN``), each number its own answer."""
    columns = board.columns
    k = len(columns)
    heights = board.rules.heights
    keys: dict[int, tuple[float, int]] = {}
    for first in range(k):
        for second in range(first, k + 1):  # k: a move of one sum
            sums = [columns[first]] if second == k else [columns[first], columns[second]]
            for new in range(len(set(sums)) + 1):
                keys[(first * (k + 1) + second) * 3 + new] = player.score(sums, new, heights)
    ranks = {key: rank for rank, key in enumerate(sorted(set(keys.values())))}
    choice = np.full(k * (k + 1) * 3, -1, np.int64)
    for index, key in keys.items():
        choice[index] = ranks[key]
    both = (False, True)
    outright = [[player.stops_outright(wins, claims) for claims in both] for wins in both]
    stop = np.array([[outright]], np.bool_)
    most = sum(sorted(heights.values())[-MARKERS:])  # the most spaces a turn's markers climb
    limit = np.empty((_ROLL_COUNT + 1, most + 1), np.int64)
    for weight in range(_ROLL_COUNT + 1):
        bust = Fraction(weight, _ROLL_COUNT)
        for progress in range(most + 1):
            limit[weight, progress] = math.floor(player.gain_limit(bust, progress) * _ROLL_COUNT)
    empty = np.zeros(1, np.int64)
    return PolicyTables(GAIN, empty, choice, np.zeros(1), stop, by_climbs=True, limit=limit)


class Evaluated(NamedTuple):
    """What :func:`evaluate_on_tables` found and what it cost."""

    #: The player's expected turns to win from each anchor (``math.inf`` where it never wins).
    values: np.ndarray
    #: The anchors valued.
    anchors: int
    #: The in-turn positions valued.
    positions: int
    #: CPU seconds in all, the player's tables included, and of them the engine's (filling
    #: the move table).
    seconds: float
    engine_seconds: float


def evaluate_on_tables(
    player: Player, rules: Rules, board: Board | None = None
) -> Evaluated | None:
    """Evaluate ``player`` on every anchor of solitaire ``rules`` through the solver's tables.

    Returns ``None`` when the player gives no tables (:func:`policy_tables`),
    or gives tables that read a move's sums from its climbs on a board where
    some move's are not.
    ``board`` may be one whose move table is already filled (a solution's).

    >>> from cantstop import Rules
    >>> rules = Rules(players=1, heights={7: 1}, columns_to_win=1)
    >>> found = evaluate_on_tables(Rule28Player(), rules)
    >>> round(float(found.values[0]), 6)  # as the engine's walk gives
    1.553957
    """
    check_solitaire(rules)
    if board is None:
        board = Board.of(rules)
    begun = time.process_time()  # as the solve counts: from the board made, tables included
    tables = policy_tables(player, board)
    if tables is None:
        return None
    values = np.zeros(board.anchors, np.float64)
    anchors = np.arange(board.anchors - 1, -1, -1, dtype=np.int64)
    stats = np.zeros(4, np.int64)
    engine = run_kernel(
        board, anchors, values, stats,
        policy=tables.policy(),
    )  # fmt: skip
    if tables.by_climbs and not board.sums_are_climbs:
        return None
    return Evaluated(
        values,
        int(stats[0]),
        int(stats[1]),
        round(time.process_time() - begun, 3),
        round(engine, 3),
    )


def evaluate(
    player: Player,
    rules: Rules,
    start: State | None = None,
    progress: Callable[[int], None] | None = None,
    *,
    tables: bool = True,
) -> float:
    """Return the exact expected number of turns ``player`` needs to win solitaire ``rules``.

    The count starts at ``start`` (by default the empty board; a state about
    to roll) and includes its turn.  The player must be deterministic: one
    that draws from its generator raises :class:`RandomnessError`.
    ``progress`` is called with the number of anchors valued, every thousand.
    A player that never wins (every turn it plays ends in a bust, as when it
    never stops) is worth ``math.inf``.  A player that gives its decisions
    as tables (:func:`policy_tables`) is evaluated through the solver's
    tables (:func:`evaluate_on_tables`; ``progress`` is then not called),
    unless ``tables`` is false; the two ways agree to rounding.
    """
    check_solitaire(rules)
    state = new_game(rules) if start is None else start
    if state.phase is Phase.OVER:
        return 0.0
    if state.phase is not Phase.ROLL or state.rules != rules:
        raise IllegalAction(
            "exact evaluation starts from a turn's start of the given rules", "R3.2", state, None
        )
    if tables:
        board = Board.of(rules)
        found = evaluate_on_tables(player, rules, board)
        if found is not None:
            squares, _ = board.position(state)
            return float(found.values[board.number(squares)])
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 100_000))
    try:
        return _Evaluation(player, progress).anchor(state)
    finally:
        sys.setrecursionlimit(limit)
