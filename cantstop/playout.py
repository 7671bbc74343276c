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
table (:mod:`cantstop._tables`), the engine's decisions (:mod:`cantstop.decide`)
and plain values instead of :class:`~cantstop.State`
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
from collections.abc import Mapping

from cantstop import _tables
from cantstop.actions import Action, Stop
from cantstop.analysis import landing
from cantstop.columnmap import ColumnMap
from cantstop.config import Variant
from cantstop.decide import following, play_stop
from cantstop.dice import ORDERED_ROLLS
from cantstop.errors import IllegalAction
from cantstop.refusals import stop_blockers
from cantstop.state import Phase, State
from cantstop.transitions import successor, turn_starts

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
    phase = state.phase
    if phase is Phase.CHOOSE:
        moves = state.legal_moves()
        return moves[int(rng.random() * len(moves))]
    if phase is Phase.DECIDE and rng.random() >= roll_again and state.decisions().may_stop:
        return _STOP  # a stop that Variant B forbids (R14.2) is a roll instead
    if phase is Phase.OVER:
        raise IllegalAction("the game is over, so there is no action to take", "R12.3", state, None)
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
    appended to it.  The rules are the engine's: the move table and the
    situations of :mod:`cantstop._tables`, the landing of
    :func:`cantstop.analysis.landing`, the stop rule of
    :func:`cantstop.refusals.stop_blockers` and what a stop does,
    :func:`cantstop.decide.play_stop`.
    """
    if state.phase is Phase.OVER:
        return state
    rules = state.rules
    heights = dict(rules.heights)
    target = rules.columns_to_win
    variant_a = rules.variant is Variant.A
    variant_b = rules.variant is Variant.B
    squares: list[Mapping[int, int]] = [dict(theirs.items()) for theirs in state.squares]
    won: Mapping[int, int] = dict(state._won.items())
    table_moves = _tables.moves
    room = _tables.room
    with_column = _tables.with_column
    ordered_index = _tables.ORDERED_INDEX
    draw = rng.random
    record = actions.append if actions is not None else None

    # Each player's situation at the start of their turn (the engine's, found once
    # per state), kept up to date.
    base = turn_starts(state)

    player = state.player
    mine = squares[player]
    markers = dict(state.markers)
    situation = _tables.situation(state)
    # Where the first turn resumes: 0 roll, 1 choose, 2 decide.
    entry = {Phase.ROLL: 0, Phase.CHOOSE: 1, Phase.DECIDE: 2}[state.phase]
    moves = state.legal_moves()
    while True:  # one turn per pass
        while True:  # one roll per pass
            if entry == 0:
                number = int(draw() * _N_ROLLS)
                if record:
                    record(ORDERED_ROLLS[number])
                moves = table_moves(situation, ordered_index[number])
                if not moves:
                    break  # R10.2: a bust; the markers come off
            if entry <= 1:
                move = moves[int(draw() * len(moves))]
                if record:
                    record(move)
                for column in move.columns:
                    at = markers.get(column)
                    start = mine.get(column, 0) if at is None else at
                    if variant_a:
                        space = landing(rules, squares, player, column, start)[0]
                        spaces = room(rules, squares, player, column, space)
                        situation = with_column(situation, column, spaces, True)
                    else:
                        space = start + 1
                        bit = 1 << column
                        left = heights[column] - space
                        situation = (
                            situation & ~(bit | bit << 13)
                            | bit << 26
                            | (bit if left >= 1 else 0)
                            | (bit << 13 if left >= 2 else 0)
                        )
                    markers[column] = space
            entry = 0
            if draw() < roll_again:
                continue
            if variant_b and stop_blockers(rules, markers, squares, player):
                continue  # R14.2 forbids the stop: roll instead
            if record:
                record(_STOP)
            claimed, wins, won = play_stop(heights, target, player, markers, squares, won)
            base = _tables.starts_after_stop(
                base, rules, squares, won, player, markers, claimed, situation
            )
            if wins:
                return _final(state, player, squares, won, base)
            break
        markers.clear()
        player = following(rules, player)
        mine = squares[player]
        situation = base[player]


def _final(
    state: State,
    winner: int,
    squares: list[Mapping[int, int]],
    won: Mapping[int, int],
    starts: tuple[int, ...],
) -> State:
    """Return the finished game's state, built from the playout's dicts.

    The playout has played every rule, so the state is built without the
    constructor's checks (:func:`cantstop.transitions.successor`).
    """
    final = tuple(ColumnMap(theirs) for theirs in squares)
    return successor(
        state.rules,
        winner,
        Phase.OVER,
        None,
        ColumnMap(),
        final,
        ColumnMap(won),
        starts[winner],
        (),
        starts,
    )
