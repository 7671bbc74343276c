"""The transitions of a game: a roll, a move and a stop, each building its successor state.

:meth:`cantstop.State.apply` hands every action to one of
:func:`apply_roll`, :func:`apply_move` and :func:`apply_stop`.  A transition
builds its successor directly, field by field, with :func:`successor` and
without the checks of the constructor: it keeps the invariants of R16 by
construction (the proofs in ``proofs/`` show which), and hands on what does
not change (the rules, the squares during a turn, the turn-start
situations).  What a roll does is decided in :mod:`cantstop.analysis`, why an
action is refused in :mod:`cantstop.refusals`, what a stop does in
:func:`cantstop.decide.decide_stop`.  :func:`successor` is also the
way the engine's other fast paths (:mod:`cantstop.playout`, unpickling) make
a state they have played the rules for.

>>> from cantstop import Move, Roll, new_game
>>> apply_move(apply_roll(new_game(), Roll((3, 4, 5, 5))), Move((7, 10)))
State('-/- 7:1,10:1 0d')
"""

from __future__ import annotations

from collections.abc import Mapping

from cantstop import _tables
from cantstop._tables import UNMARKED, compute_starts, starts_after_stop, with_column
from cantstop.actions import Action, Move, Roll, Stop
from cantstop.analysis import landing
from cantstop.columnmap import ColumnMap
from cantstop.config import Rules, Variant
from cantstop.decide import following, stop_outcome
from cantstop.errors import IllegalAction
from cantstop.phase import Phase
from cantstop.refusals import refusal, stop_blockers
from cantstop.state import State

__all__ = ["apply_move", "apply_roll", "apply_stop", "successor", "turn_starts"]

_NO_MARKERS = ColumnMap()
_VARIANT_A, _VARIANT_B = Variant.A, Variant.B
_new_object = object.__new__
_SLOT = State.__dict__
_set_rules = _SLOT["rules"].__set__
_set_player = _SLOT["player"].__set__
_set_phase = _SLOT["phase"].__set__
_set_dice = _SLOT["dice"].__set__
_set_markers = _SLOT["markers"].__set__
_set_squares = _SLOT["squares"].__set__
_set_won = _SLOT["_won"].__set__
_set_situation = _SLOT["_situation"].__set__
_set_moves = _SLOT["_moves"].__set__
_set_starts = _SLOT["_starts"].__set__

_ROLL, _CHOOSE, _DECIDE, _OVER = Phase.ROLL, Phase.CHOOSE, Phase.DECIDE, Phase.OVER
_ROLL_INDEX = _tables.ROLL_INDEX
_SORTED_ROLLS = _tables.SORTED_ROLLS
_table_moves = _tables.moves
_from_sorted = ColumnMap._from_sorted_dict


def successor(
    rules: Rules,
    player: int,
    phase: Phase,
    dice: tuple[int, int, int, int] | None,
    markers: Mapping[int, int],
    squares: tuple[Mapping[int, int], ...],
    won: ColumnMap,
    situation: int,
    moves: tuple[Move, ...],
    starts: tuple[int, ...] | None,
) -> State:
    """Return the state made of these fields, checking nothing: the caller vouches for R16.

    For the transitions below and for the engine's fast paths
    (:func:`cantstop.playout.playout`, unpickling), which play the rules
    themselves and keep the invariants of R16 by construction.  The fields are
    those of :class:`~cantstop.State` and its derived ones: ``won`` (the won
    columns), ``situation`` (what the move table needs to know),
    ``moves`` (the legal moves for ``dice``) and ``starts`` (each player's
    turn-start situation, or ``None`` to find them when needed); the maps
    must be :class:`~cantstop.ColumnMap` values.  Anything else makes a
    state the constructor would refuse.

    >>> from cantstop import ColumnMap, Phase, Rules, new_game
    >>> opening = new_game()
    >>> successor(Rules(), 1, Phase.ROLL, None, ColumnMap(), (ColumnMap(), ColumnMap()),
    ...           ColumnMap(), opening._situation, (), None)
    State('-/- - 1r')
    """
    new: State = _new_object(State)
    _set_rules(new, rules)
    _set_player(new, player)
    _set_phase(new, phase)
    _set_dice(new, dice)
    _set_markers(new, markers)
    _set_squares(new, squares)
    _set_won(new, won)
    _set_situation(new, situation)
    _set_moves(new, moves)
    _set_starts(new, starts)
    return new


def turn_starts(state: State) -> tuple[int, ...]:
    """Return each player's turn-start situation on the board of ``state``, found once.

    >>> from cantstop import new_game
    >>> len(turn_starts(new_game()))
    2
    """
    starts = state._starts
    if starts is None:
        starts = compute_starts(state)
        _set_starts(state, starts)
    return starts


def apply_roll(state: State, roll: Roll) -> State:
    """Return the state after ``roll`` (R3.3, R10); an illegal one raises ``IllegalAction``."""
    phase = state.phase
    if phase is _CHOOSE or phase is _OVER:
        raise _refused(state, roll)
    index = _ROLL_INDEX[roll.dice]
    moves = _table_moves(state._situation, index)
    if not moves:
        # R10.2: the markers come off, the squares stay, the turn passes (R2.3).
        player = following(state.rules, state.player)
        starts = turn_starts(state)
        return successor(
            state.rules,
            player,
            _ROLL,
            None,
            _NO_MARKERS,
            state.squares,
            state._won,
            starts[player],
            (),
            starts,
        )
    # The most frequent transitions, rolls and moves, write successor out.
    new: State = _new_object(State)
    _set_rules(new, state.rules)
    _set_player(new, state.player)
    _set_phase(new, _CHOOSE)
    _set_dice(new, _SORTED_ROLLS[index])
    _set_markers(new, state.markers)
    _set_squares(new, state.squares)
    _set_won(new, state._won)
    _set_situation(new, state._situation)
    _set_moves(new, moves)
    _set_starts(new, state._starts)
    return new


def apply_move(state: State, move: Move) -> State:
    """Return the state after ``move`` (R5); an illegal one raises ``IllegalAction``."""
    if move not in state._moves:  # empty outside Phase.CHOOSE
        raise _refused(state, move)
    # The move is legal, so each sum advances its column's marker or places one (R5).
    # A state's column maps are ColumnMap values (the constructor converts them),
    # so their dicts are read directly.
    rules = state.rules
    old: dict[int, int] = state.markers._dict  # type: ignore[attr-defined]
    markers = old.copy()
    own: dict[int, int] = state.squares[state.player]._dict  # type: ignore[attr-defined]
    situation = state._situation
    if rules.variant is _VARIANT_A:
        squares, me = state.squares, state.player
        for column in move.columns:
            start = markers.get(column, own.get(column, 0))
            space = landing(rules, squares, me, column, start)[0]
            markers[column] = space
            spaces = _tables.room(rules, squares, me, column, space)
            situation = with_column(situation, column, spaces, True)
        if len(markers) != len(old):  # a marker was placed: keep the columns in order
            markers = dict(sorted(markers.items()))
    else:
        heights: dict[int, int] = rules.heights._dict  # type: ignore[attr-defined]
        top = next(reversed(old)) if old else 0  # the highest column with a marker
        unsorted = False
        for column in move.columns:
            at = markers.get(column)
            if at is None:  # a marker is placed above the player's square (R5.2)
                at = own.get(column, 0)
                if column < top:
                    unsorted = True
                else:
                    top = column
            space = at + 1
            markers[column] = space
            room = heights[column] - space
            bit = 1 << column
            situation = (
                situation & ~(bit | bit << 13)
                | bit << 26
                | (bit if room >= 1 else 0)
                | (bit << 13 if room >= 2 else 0)
            )
        if unsorted:  # keep the columns in order
            markers = dict(sorted(markers.items()))
    new: State = _new_object(State)
    _set_rules(new, rules)
    _set_player(new, state.player)
    _set_phase(new, _DECIDE)
    _set_dice(new, None)
    _set_markers(new, _from_sorted(markers))
    _set_squares(new, state.squares)
    _set_won(new, state._won)
    _set_situation(new, situation)
    _set_moves(new, ())
    _set_starts(new, state._starts)
    return new


def apply_stop(state: State, stop: Stop) -> State:
    """Return the state after ``stop`` (R11, R12); an illegal one raises ``IllegalAction``."""
    if state.phase is not _DECIDE:
        raise _refused(state, stop)
    me = state.player
    rules = state.rules
    markers = state.markers
    if rules.variant is _VARIANT_B and stop_blockers(rules, markers, state.squares, me):
        raise _refused(state, stop)  # R14.2
    squares, won, claimed, wins, player = stop_outcome(
        rules, me, markers, state.squares, state._won
    )
    if rules.variant is _VARIANT_A:
        starts = starts_after_stop(
            turn_starts(state), rules, squares, won, me, markers, claimed, state._situation
        )
    else:  # starts_after_stop's other case, written out: the most frequent stop
        new_starts = list(turn_starts(state))
        new_starts[me] = state._situation & UNMARKED
        for column in claimed:  # a won column has no room for anybody
            bit = 1 << column
            for p in range(rules.players):
                new_starts[p] &= ~(bit | bit << 13)
        starts = tuple(new_starts)
    phase = _OVER if wins else _ROLL
    return successor(
        rules, player, phase, None, _NO_MARKERS, squares, won, starts[player], (), starts
    )


def _refused(state: State, action: Action) -> IllegalAction:
    """Return the error that refuses ``action``, worded by :mod:`cantstop.refusals`."""
    found = refusal(state, action)
    assert found is not None, "a transition refuses an action that the refusals allow"
    return found.error()
