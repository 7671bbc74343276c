"""The states of a game and the transitions between them (R2, R3, R5, R9-R12).

This module reads top to bottom: the events a transition reports, the
:class:`State` value with its queries (the legal moves, every decision open
to the player, what a sum would do), and the transitions (:meth:`State.apply`).
What a roll does is decided in :mod:`cantstop.analysis`, why an action is
refused in :mod:`cantstop.refusals`, and what a state must satisfy (R16) in
:mod:`cantstop.invariants`.  Rule ids (``R5.2``) refer to ``spec/rules/``.

Legal moves come from a precomputed table (:mod:`cantstop._tables`): each state
carries its *situation*, the little the table needs to know (per column, a
marker or not and the spaces left to climb, up to two), which a transition
updates for the columns it touches.  States stay immutable values; the table
and the situation only spare recomputing R6 and R7 for every roll.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import NamedTuple

from cantstop import _tables
from cantstop._tables import UNMARKED, compute_starts, starts_after_stop, with_column
from cantstop.actions import Action, Move, Roll, Stop
from cantstop.analysis import DROP_RULES as DROP_RULES
from cantstop.analysis import Play, SumPlay, decide_sum, landing
from cantstop.columnmap import ColumnMap
from cantstop.errors import IllegalAction, InvalidRules
from cantstop.invariants import validate
from cantstop.phase import Phase
from cantstop.refusals import refusal, stop_blockers
from cantstop.rules import Rules, Variant

# DROP_RULES can be imported from here too; it is documented in cantstop.analysis.
__all__ = [
    "Decisions",
    "Event",
    "Perft",
    "Phase",
    "Play",
    "State",
    "Step",
    "new_game",
    "perft",
]


class Event(enum.Enum):
    """What a transition did, reported by :meth:`State.step`.

    >>> from cantstop import parse_state
    >>> parse_state('-/- 2:1,3:1,12:1 0d').step(Roll((1, 3, 3, 5))).event  # 4+8 or 6+6
    <Event.BUSTED: 'busted'>
    """

    #: A roll that can be played: the player now chooses a move (R3.3).
    ROLLED = "rolled"
    #: A roll that no pairing can play: the turn's progress is lost (R10).
    BUSTED = "busted"
    #: A move was played (R5).
    MOVED = "moved"
    #: The player stopped and kept their progress; the turn passed (R11).
    STOPPED = "stopped"
    #: The player stopped and so won the game (R12).
    WON = "won"


class Step(NamedTuple):
    """The result of :meth:`State.step`: the next state and what happened.

    >>> new_game().step(Roll((1, 2, 3, 4)))
    Step(state=State('-/- - 0c1234'), event=<Event.ROLLED: 'rolled'>)
    """

    #: The state after the action.
    state: State
    #: What the action did; a bust is :attr:`Event.BUSTED`.
    event: Event


class Perft(NamedTuple):
    """Whole-roll counts for a position: see :func:`perft`.

    >>> from cantstop import parse_state
    >>> perft(parse_state('-/- 2:1,3:1,12:1 0d')).busts  # no pairing makes 2, 3 or 12
    728
    """

    #: Legal moves summed over all 1296 ordered rolls.
    choices: int
    #: Ordered rolls that have no legal move.
    busts: int


class Decisions(NamedTuple):
    """Every decision open to the player to act: the result of :meth:`State.decisions`.

    Outside :attr:`Phase.CHOOSE` there are no moves; in a finished game
    nothing is open.

    >>> from cantstop import parse_state
    >>> parse_state('-/- - 0c3455').decisions().moves
    (Move(columns=(7, 10)), Move(columns=(8, 9)))
    >>> parse_state('-/7:3 7:3 0d B').decisions()  # the marker shares player 1's space
    Decisions(moves=(), may_roll=True, may_stop=False)
    """

    #: The legal moves for the dice on the table (R6.6); empty outside :attr:`Phase.CHOOSE`.
    moves: tuple[Move, ...]
    #: Whether the player may roll: to start the turn (R3.2) or after a move (R3.4).
    may_roll: bool
    #: Whether the rules allow a stop now: after a move (R11.1), unless Variant B
    #: forbids it (R14.2).
    may_stop: bool


_ROLL_ONLY = Decisions((), True, False)
_ROLL_OR_STOP = Decisions((), True, True)
_NOTHING = Decisions((), False, False)

_NO_MARKERS = ColumnMap()
_VARIANT_A, _VARIANT_B = Variant.A, Variant.B


@dataclass(frozen=True, slots=True, repr=False)
class State:
    """A game position: an immutable, hashable value.

    Make one with :func:`new_game`, :func:`~cantstop.parse_state` or
    :func:`~cantstop.state_from_json`, or build one directly:
    ``State(rules, player, phase, dice, markers, squares)``, where ``squares``
    left out means an empty board and mappings are converted to
    :class:`~cantstop.ColumnMap`.  The constructor checks every invariant of
    R16 and raises :class:`~cantstop.InvalidState` naming the one broken.
    ``won`` and ``winner`` are derived from the squares: a square on a top space
    means its owner won that column.

    >>> from cantstop import Roll, Move, new_game
    >>> s = new_game(Rules()).apply(Roll((3, 4, 5, 5)))
    >>> s
    State('-/- - 0c3455')
    >>> s.legal_moves()
    (Move(columns=(7, 10)), Move(columns=(8, 9)))
    >>> s.apply(Move((7, 10)))
    State('-/- 7:1,10:1 0d')
    """

    #: The configuration this game is played under.
    rules: Rules
    #: Whose turn it is, from 0; once the game is over, the winner.
    player: int
    #: The phase of the turn.
    phase: Phase
    #: During :attr:`Phase.CHOOSE`, the dice being played, sorted; otherwise ``None``.
    dice: tuple[int, int, int, int] | None = None
    #: Column to the position of its neutral marker this turn (R1.4).
    markers: Mapping[int, int] = field(default=_NO_MARKERS)
    #: For each player, column to the position of their square (R1.3).
    squares: tuple[Mapping[int, int], ...] = ()
    _won: ColumnMap = field(init=False, compare=False)
    #: What the move table needs to know of the position (see :mod:`cantstop._tables`).
    _situation: int = field(init=False, compare=False)
    #: The legal moves, found once: empty outside :attr:`Phase.CHOOSE`.
    _moves: tuple[Move, ...] = field(init=False, compare=False)
    #: Each player's situation at the start of a turn on this board (no markers),
    #: found when first needed and handed on while the squares stay the same.
    _starts: tuple[int, ...] | None = field(init=False, compare=False)

    def __post_init__(self) -> None:
        validate(self)

    def __copy__(self) -> State:
        return self  # a value: a copy is the same state

    def __deepcopy__(self, memo: dict[int, object]) -> State:
        return self

    @property
    def won(self) -> ColumnMap:
        """Column to the player who won it (R9.1).

        >>> from cantstop import parse_state
        >>> parse_state('2:3/12:3 - 0r').won
        ColumnMap({2: 0, 12: 1})
        """
        return self._won

    @property
    def winner(self) -> int | None:
        """The player who has won the game, or ``None`` while it goes on (R12.1).

        >>> from cantstop import parse_state
        >>> parse_state('2:3,3:5,4:7/- - 0x').winner, new_game().winner
        (0, None)
        """
        # The game is over exactly when a player holds enough columns, and then
        # its player is the winner (R12.1, R16.5): the constructor checks both.
        return self.player if self.phase is _OVER else None

    def __repr__(self) -> str:
        from cantstop.notation import format_state

        return f"State({format_state(self)!r})"

    def _repr_svg_(self) -> str:
        """Return the board picture of :func:`cantstop.svg.state_svg`, for notebooks."""
        from cantstop.svg import state_svg

        return state_svg(self)

    # -- queries ---------------------------------------------------------------

    def legal_moves(self) -> tuple[Move, ...]:
        """Return every distinct legal move for the dice, sorted (R6).

        Outside :attr:`Phase.CHOOSE` there is nothing to choose and the result
        is empty.

        >>> from cantstop import parse_state
        >>> parse_state('-/- 7:2,8:1 0c1256').legal_moves()  # 3+11, 6+8, 7+7
        (Move(columns=(3,)), Move(columns=(6, 8)), Move(columns=(7, 7)), Move(columns=(11,)))
        >>> new_game().legal_moves()
        ()
        """
        return self._moves

    def decisions(self) -> Decisions:
        """Return every decision open to the player now: the moves, a roll, a stop.

        In :attr:`Phase.CHOOSE` the legal moves (R6.6); in :attr:`Phase.ROLL`
        a roll (R3.2); in :attr:`Phase.DECIDE` a roll (R3.4) and a stop
        (R11.1), unless Variant B forbids the stop (R14.2); in
        :attr:`Phase.OVER` nothing (R12.3).  Every action the decisions allow
        is accepted by :meth:`apply`, and no other.

        >>> from cantstop import parse_state
        >>> new_game().decisions()
        Decisions(moves=(), may_roll=True, may_stop=False)
        >>> parse_state('-/- 7:1 0d').decisions()
        Decisions(moves=(), may_roll=True, may_stop=True)
        """
        phase = self.phase
        if phase is _CHOOSE:
            return Decisions(self._moves, False, False)
        if phase is _DECIDE:
            if self.rules.variant is _VARIANT_B and stop_blockers(
                self.rules, self.markers, self.squares, self.player
            ):
                return _ROLL_ONLY
            return _ROLL_OR_STOP
        return _ROLL_ONLY if phase is _ROLL else _NOTHING

    def sum_play(self, column: int, markers: Mapping[int, int] | None = None) -> SumPlay:
        """Return what a sum for ``column`` would do now, and where its marker would land (R5).

        ``markers`` overrides the state's markers, to ask about a second sum
        after a first has been played.  The decision is
        :func:`cantstop.analysis.decide_sum`'s.

        >>> from cantstop import parse_state
        >>> found = parse_state('7:2/- 7:4 0d').sum_play(7)
        >>> found.play, found.start, found.landing, found.plays
        (<Play.ADVANCE: 'advance'>, 4, 5, True)
        >>> parse_state('-/7:13 - 0r').sum_play(7).drop_rule
        'R9.2'
        """
        return decide_sum(self, markers, column)

    def play_of(self, column: int, markers: Mapping[int, int] | None = None) -> Play:
        """Return what a sum for ``column`` would do now: :meth:`sum_play`'s ``play``.

        >>> from cantstop import parse_state
        >>> state = parse_state('-/- 7:2,8:1 0d')
        >>> state.play_of(7), state.play_of(9), state.play_of(9, {7: 2, 8: 1, 10: 1})
        (<Play.ADVANCE: 'advance'>, <Play.PLACE: 'place'>, <Play.NO_MARKER: 'no marker'>)
        """
        return decide_sum(self, markers, column).play

    # -- transitions -----------------------------------------------------------

    def apply(self, action: Action) -> State:
        """Return the state after ``action``; raise :class:`~cantstop.IllegalAction` if illegal.

        >>> new_game().apply(Roll((3, 4, 5, 5))).apply(Move((8, 9)))
        State('-/- 8:1,9:1 0d')
        >>> new_game().apply(Stop())
        Traceback (most recent call last):
        ...
        cantstop.errors.IllegalAction: stop is not legal: a player must roll at least once ...
        """
        kind = type(action)
        if kind is Roll:
            return _roll(self, action)  # type: ignore[arg-type]
        if kind is Move:
            return _move(self, action)  # type: ignore[arg-type]
        if kind is Stop:
            return _stop(self, action)  # type: ignore[arg-type]
        return self.step(action).state

    def step(self, action: Action) -> Step:
        """Return the state after ``action`` together with the :class:`Event` it caused.

        A roll that no pairing can play is a bust (R10.1): the markers come off,
        the squares stay and the turn passes, and the event is
        :attr:`Event.BUSTED`.

        >>> from cantstop import parse_state
        >>> parse_state('7:3/- 7:5 0d').step(Stop())
        Step(state=State('7:5/- - 1r'), event=<Event.STOPPED: 'stopped'>)
        """
        if isinstance(action, Roll):
            new = _roll(self, action)
            return Step(new, Event.ROLLED if new.phase is Phase.CHOOSE else Event.BUSTED)
        if isinstance(action, Move):
            return Step(_move(self, action), Event.MOVED)
        if isinstance(action, Stop):
            new = _stop(self, action)
            return Step(new, Event.WON if new.phase is Phase.OVER else Event.STOPPED)
        raise IllegalAction(
            f"{action!r} is not an action: use Roll, Move or Stop", "R3.1", self, action
        )


def new_game(rules: Rules | None = None, first_player: int = 0) -> State:
    """Return the opening state: an empty board, ``first_player`` to roll (R2).

    >>> new_game(Rules(players=3), first_player=2)
    State('-/-/- - 2r')
    """
    if rules is None:
        rules = Rules()
    if not isinstance(rules, Rules):
        raise InvalidRules(f"rules must be a Rules value, not {rules!r}", "R15.1")
    if (
        not isinstance(first_player, int)
        or isinstance(first_player, bool)
        or not 0 <= first_player < rules.players
    ):
        raise InvalidRules(
            f"first_player must be a player from 0 to {rules.players - 1}, not {first_player!r}",
            "R2.2",
        )
    return State(rules, first_player, Phase.ROLL)


def perft(state: State) -> Perft:
    """Count legal moves and busts over all 1296 ordered rolls from ``state``.

    ``state`` must be about to roll (:attr:`Phase.ROLL` or :attr:`Phase.DECIDE`).
    The "perft" counts for Can't Stop: two implementations that agree on them
    agree on every roll of that position.

    >>> perft(new_game())
    Perft(choices=2826, busts=0)
    """
    if state.phase not in (Phase.ROLL, Phase.DECIDE):
        raise IllegalAction(
            "whole-roll counts need a state that is about to roll", "R3.3", state, None
        )
    choices = busts = 0
    for roll, weight in enumerate(_tables.ROLL_WEIGHT):
        moves = _tables.moves(state._situation, roll)
        choices += weight * len(moves)
        busts += weight * (not moves)
    return Perft(choices, busts)


# -- transitions ---------------------------------------------------------------
# A transition builds its successor directly, field by field, without the checks
# of the constructor: it keeps the invariants of R16 by construction (the proofs
# in proofs/ show which), and hands on what does not change (the rules, the
# squares during a turn, the turn-start situations).

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


def _successor(
    state: State,
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
    """Build a state from all its fields, checking nothing: see the comment above."""
    new: State = _new_object(State)
    _set_rules(new, state.rules)
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


def _turn_starts(state: State) -> tuple[int, ...]:
    """Return the turn-start situations of the board of ``state``, finding them once."""
    starts = state._starts
    if starts is None:
        starts = compute_starts(state)
        _set_starts(state, starts)
    return starts


def _roll(state: State, roll: Roll) -> State:
    phase = state.phase
    if phase is _CHOOSE or phase is _OVER:
        raise _refused(state, roll)
    index = _ROLL_INDEX[roll.dice]
    moves = _table_moves(state._situation, index)
    if not moves:
        # R10.2: the markers come off, the squares stay, the turn passes (R2.3).
        player = (state.player + 1) % state.rules.players
        starts = _turn_starts(state)
        return _successor(
            state,
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
    # The most frequent transitions, rolls and moves, write _successor out.
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


def _move(state: State, move: Move) -> State:
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


def _stop(state: State, stop: Stop) -> State:
    if state.phase is not _DECIDE:
        raise _refused(state, stop)
    me = state.player
    rules = state.rules
    if rules.variant is _VARIANT_B and stop_blockers(rules, state.markers, state.squares, me):
        raise _refused(state, stop)  # R14.2
    heights: dict[int, int] = rules.heights._dict  # type: ignore[attr-defined]
    markers: dict[int, int] = state.markers._dict  # type: ignore[attr-defined]
    squares = state.squares
    own: dict[int, int] = squares[me]._dict  # type: ignore[attr-defined]
    mine = own.copy()
    top = next(reversed(own)) if own else 0  # the player's highest column with a square
    unsorted = False
    topped = []
    for column, position in markers.items():  # in increasing column order
        if column not in own:
            if column < top:
                unsorted = True
            else:
                top = column
        mine[column] = position  # R11.2
        if position == heights[column]:
            topped.append(column)  # R11.3
    mine_map = _from_sorted(dict(sorted(mine.items())) if unsorted else mine)
    won = state._won
    if topped:
        won_dict: dict[int, int] = won._dict.copy()
        for column in topped:
            won_dict[column] = me
        won = _from_sorted(dict(sorted(won_dict.items())))
        new_squares = tuple(
            mine_map if p == me else _without(theirs, topped)  # R9.3
            for p, theirs in enumerate(squares)
        )
    else:
        new_squares = (*squares[:me], mine_map, *squares[me + 1 :])
    if rules.variant is _VARIANT_A:
        starts = starts_after_stop(
            _turn_starts(state), rules, new_squares, won, me, markers, topped, state._situation
        )
    else:  # starts_after_stop's other case, written out: the most frequent stop
        new_starts = list(_turn_starts(state))
        new_starts[me] = state._situation & UNMARKED
        for column in topped:  # a won column has no room for anybody
            bit = 1 << column
            for p in range(rules.players):
                new_starts[p] &= ~(bit | bit << 13)
        starts = tuple(new_starts)
    if topped and sum(owner == me for owner in won._dict.values()) >= rules.columns_to_win:
        return _successor(
            state, me, _OVER, None, _NO_MARKERS, new_squares, won, starts[me], (), starts
        )
    player = (me + 1) % rules.players  # R2.3
    return _successor(
        state, player, _ROLL, None, _NO_MARKERS, new_squares, won, starts[player], (), starts
    )


def _without(squares: Mapping[int, int], columns: list[int]) -> Mapping[int, int]:
    """Return ``squares`` without ``columns``: the squares a won column takes off (R9.3)."""
    if not any(column in squares for column in columns):
        return squares
    return _from_sorted({c: v for c, v in squares.items() if c not in columns})


def _refused(state: State, action: Action) -> IllegalAction:
    """Return the error that refuses ``action``, worded by :mod:`cantstop.refusals`."""
    found = refusal(state, action)
    assert found is not None, "a transition refuses an action that the refusals allow"
    return found.error()
