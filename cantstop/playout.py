"""Random playouts: whole games under a simple random policy, fast.

The policy (:func:`random_action`): roll when a roll is due; choose a legal
move uniformly at random; in :attr:`~cantstop.Phase.DECIDE`, roll again with
probability ``roll_again`` (0.7 by default), otherwise stop, and roll instead
when Variant B forbids the stop (R14.2).  Its random draws are fixed, so that
a seed determines the game: one ``rng.random()`` per roll, picking ordered roll
number ``int(r * 1296)`` of :data:`~cantstop.ORDERED_ROLLS`; one per move,
picking index ``int(r * len(moves))`` of :meth:`~cantstop.State.legal_moves`;
and one per decision, rolling again when it is below ``roll_again``.

:func:`playout` plays a game out under that policy with the engine's move
table (:mod:`cantstop._tables`) and plain lists instead of :class:`~cantstop.State`
values; it returns exactly the state, and records exactly the actions, that
folding :meth:`~cantstop.State.apply` over :func:`random_action` gives for the
same generator (``tests/test_fast.py`` checks this).  It is meant for
simulations that need many games; :func:`random_action` is the readable
statement of the policy.

>>> import random
>>> from cantstop import Rules, new_game
>>> actions = []
>>> end = playout(new_game(Rules()), random.Random(7), actions=actions)
>>> end.winner in (0, 1), len(actions) > 10
(True, True)
"""

from __future__ import annotations

import random

from cantstop import _tables
from cantstop.actions import Action, Stop
from cantstop.columnmap import ColumnMap
from cantstop.dice import ORDERED_ROLLS
from cantstop.errors import IllegalAction
from cantstop.game import Phase, State, _make
from cantstop.rules import Variant

__all__ = ["ROLL_AGAIN", "playout", "random_action"]

#: The policy's default chance of rolling again in the DECIDE phase.
ROLL_AGAIN = 0.7

_STOP = Stop()
_N_ROLLS = len(ORDERED_ROLLS)


def random_action(state: State, rng: random.Random, roll_again: float = ROLL_AGAIN) -> Action:
    """Return the random policy's action in ``state`` (see the module docstring).

    >>> from cantstop import new_game
    >>> random_action(new_game(), random.Random(1))
    Roll(dice=(1, 5, 6, 1))
    """
    if state.phase is Phase.CHOOSE:
        moves = state.legal_moves()
        return moves[int(rng.random() * len(moves))]
    if state.phase is Phase.DECIDE and rng.random() >= roll_again:
        if state.rules.variant is not Variant.B:
            return _STOP
        try:
            state.apply(_STOP)
        except IllegalAction:  # Variant B may forbid the stop (R14.2)
            pass
        else:
            return _STOP
    if state.phase is Phase.OVER:
        raise IllegalAction("the game is over", "R12.3", state, None)
    return ORDERED_ROLLS[int(rng.random() * _N_ROLLS)]


def playout(
    state: State,
    rng: random.Random,
    roll_again: float = ROLL_AGAIN,
    actions: list[Action] | None = None,
) -> State:
    """Play ``state`` to the end under the random policy; return the final state.

    Gives the same game as applying :func:`random_action` until the game is
    over, only faster.  When ``actions`` is a list, every action played is
    appended to it.
    """
    if state.phase is Phase.OVER:
        return state
    rules = state.rules
    n_players = rules.players
    heights = [0] * 13
    for column, height in rules.heights.items():
        heights[column] = height
    columns = rules.columns
    variant_a = rules.variant is Variant.A
    variant_b = rules.variant is Variant.B
    squares = [[0] * 13 for _ in range(n_players)]
    for row, theirs in zip(squares, state.squares, strict=True):
        for column, space in theirs.items():
            row[column] = space
    won = [-1] * 13
    for column, owner in state.won.items():
        won[column] = owner
    held = [sum(1 for owner in won if owner == p) for p in range(n_players)]
    table = _tables.MOVES
    compute = _tables.moves_of_key
    sum_mask = _tables.SUM_MASK
    every = _tables.ALL_COLUMNS
    ordered_index = _tables.ORDERED_INDEX
    draw = rng.random
    record = actions.append if actions is not None else None

    def landing(player: int, column: int, space: int) -> int:
        """Under Variant A, skip spaces holding another player's square (R14.1)."""
        taken = {squares[p][column] for p in range(n_players) if p != player}
        while space in taken:
            space += 1
        return space

    def climb(player: int, column: int, start: int) -> int:
        """How many spaces a marker of ``player`` above space ``start`` could still climb."""
        if not variant_a:
            return heights[column] - start
        taken = {squares[p][column] for p in range(n_players) if p != player}
        return sum(1 for s in range(start + 1, heights[column] + 1) if s not in taken)

    def column_bits(player: int, column: int) -> int:
        """Return the situation bits of ``column`` for ``player`` at the start of a turn."""
        if won[column] >= 0:
            return 0
        room = climb(player, column, squares[player][column])
        bit = 1 << column
        return (bit if room >= 1 else 0) | (bit << 13 if room >= 2 else 0)

    # Each player's situation at the start of their turn, kept up to date.
    base = [sum(column_bits(p, c) for c in columns) for p in range(n_players)]

    player = state.player
    mine = squares[player]
    markers = dict(state.markers)
    situation = state._situation
    # Where the first turn resumes: 0 roll, 1 choose, 2 decide.
    entry = {Phase.ROLL: 0, Phase.CHOOSE: 1, Phase.DECIDE: 2}[state.phase]
    moves = state.legal_moves()
    while True:  # one turn per pass
        while True:  # one roll per pass
            if entry == 0:
                number = int(draw() * _N_ROLLS)
                if record:
                    record(ORDERED_ROLLS[number])
                index = ordered_index[number]
                # The move-table key of the roll, as _tables.moves makes it.
                marked = situation >> 26
                count = marked.bit_count()
                play = situation & sum_mask[index] & (marked if count >= 3 else every)
                if not play:
                    break  # R10.2: a bust; the markers come off
                key = (
                    index
                    | play << 7
                    | (marked & play) << 20
                    | (situation >> 13 & play) << 33
                    | (count <= 1) << 46
                )
                found = table.get(key)
                if found is None:
                    found = table[key] = compute(key)
                moves = found
            if entry <= 1:
                move = moves[int(draw() * len(moves))]
                if record:
                    record(move)
                for column in move.columns:
                    at = markers.get(column)
                    space = (mine[column] if at is None else at) + 1
                    if variant_a:
                        space = landing(player, column, space)
                    markers[column] = space
                    bit = 1 << column
                    room = climb(player, column, space) if variant_a else heights[column] - space
                    situation = (
                        situation & ~(bit | bit << 13)
                        | bit << 26
                        | (bit if room >= 1 else 0)
                        | (bit << 13 if room >= 2 else 0)
                    )
            entry = 0
            if draw() < roll_again:
                continue
            if variant_b and any(
                squares[p][column] == space
                for column, space in markers.items()
                for p in range(n_players)
                if p != player
            ):
                continue  # R14.2 forbids the stop: roll instead
            if record:
                record(_STOP)
            for column, space in markers.items():
                mine[column] = space  # R11.2
                if space == heights[column]:  # R11.3, R9.3
                    won[column] = player
                    held[player] += 1
                    for p in range(n_players):
                        if p != player:
                            squares[p][column] = 0
            for column in markers:
                # A column changes for the others only when won, or under Variant A.
                bit = 1 << column
                for p in range(n_players) if variant_a or won[column] >= 0 else (player,):
                    base[p] = base[p] & ~(bit | bit << 13) | column_bits(p, column)
            if held[player] >= rules.columns_to_win:  # R12.1
                return _final(state, player, squares, won, base[player])
            break
        markers.clear()
        player = (player + 1) % n_players
        mine = squares[player]
        situation = base[player]


def _final(
    state: State, winner: int, squares: list[list[int]], won: list[int], situation: int
) -> State:
    """Return the finished game's state, built from the playout's lists."""
    columns = state.rules.columns
    final = tuple(
        ColumnMap._from_sorted_dict({c: row[c] for c in columns if row[c]}) for row in squares
    )
    won_map = ColumnMap._from_sorted_dict({c: won[c] for c in columns if won[c] >= 0})
    return _make(
        state,
        player=winner,
        phase=Phase.OVER,
        squares=final,
        won=won_map,
        situation=situation,
    )
