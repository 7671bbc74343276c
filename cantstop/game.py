"""The rules engine: game states and the transitions between them.

This module reads top to bottom: the phases of a turn and the events a
transition reports, the decision table for playing one sum, the :class:`State`
value with its invariants, and the transitions (:meth:`State.apply`).  Rule ids
(``R5.2``) refer to the spec in ``spec/rules/``.

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
from cantstop.actions import Action, Move, Roll, Stop
from cantstop.columnmap import ColumnMap
from cantstop.dice import pairings
from cantstop.errors import IllegalAction, InvalidRules, InvalidState
from cantstop.rules import MARKERS, Rules, Variant

__all__ = [
    "Event",
    "Perft",
    "Phase",
    "Play",
    "State",
    "Step",
    "new_game",
    "perft",
]


class Phase(enum.Enum):
    """Where the active player is in their turn (R3).

    >>> new_game().phase
    <Phase.ROLL: 'roll'>
    """

    #: The turn has begun; the player must roll (R3.2).
    ROLL = "roll"
    #: The dice are on the table; the player must choose a move (R3.3).
    CHOOSE = "choose"
    #: The roll has been played; the player rolls again or stops (R3.4).
    DECIDE = "decide"
    #: Somebody has won; no action is possible (R12.3).
    OVER = "over"


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


class Play(enum.Enum):
    """What one sum does in a position: the decision table of R5.

    ``ADVANCE`` and ``PLACE`` play the sum; every other value drops it, and
    names the reason.

    >>> from cantstop import parse_state
    >>> state = parse_state('2:3/- 7:13 1d')
    >>> state.play_of(7), state.play_of(2), state.play_of(8)
    (<Play.TOP: 'top'>, <Play.WON: 'won'>, <Play.PLACE: 'place'>)
    >>> state.play_of(8).plays
    True
    """

    #: The column holds a marker below the top: it moves up (R5.1).
    ADVANCE = "advance"
    #: The column is open and holds no marker, and a marker is free: one is placed (R5.2).
    PLACE = "place"
    #: The column has been won (R9.2).
    WON = "won"
    #: The column's marker is on the top space (R8.1).
    TOP = "top"
    #: All three markers are on other columns (R5.3).
    NO_MARKER = "no marker"
    #: The board has no such column (R15.3).
    NO_COLUMN = "no column"

    @property
    def plays(self) -> bool:
        """Whether this outcome moves a marker."""
        return self in (Play.ADVANCE, Play.PLACE)


#: The rule behind each way of dropping a sum.
DROP_RULES: Mapping[Play, str] = {
    Play.WON: "R9.2",
    Play.TOP: "R8.1",
    Play.NO_MARKER: "R5.3",
    Play.NO_COLUMN: "R15.3",
}


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


_NO_MARKERS = ColumnMap()
_VARIANT_A, _VARIANT_B = Variant.A, Variant.B
#: The one- and two-step sets of a situation, without its markers.
_UNMARKED = (1 << 26) - 1


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
        _validate(self)

    def __copy__(self) -> State:
        return self  # a value: a copy is the same state

    def __deepcopy__(self, memo: dict[int, object]) -> State:
        return self

    def __reduce__(self) -> tuple[object, ...]:
        # A state pickles as plain dicts and numbers, and loads without the
        # constructor's checks, which it passed when it was made; its legal
        # moves come again from the move table.
        return State._unpickle, (
            self.rules,
            self.player,
            self.phase.value,
            self.dice,
            _plain(self.markers),
            tuple(_plain(theirs) for theirs in self.squares),
            _plain(self._won),
            self._situation,
            self._starts,
        )

    @staticmethod
    def _unpickle(
        rules: Rules,
        player: int,
        phase: str,
        dice: tuple[int, int, int, int] | None,
        markers: dict[int, int],
        squares: tuple[dict[int, int], ...],
        won: dict[int, int],
        situation: int,
        starts: tuple[int, ...] | None,
    ) -> State:
        new: State = _new_object(State)
        _set_rules(new, rules)
        _set_player(new, player)
        _set_phase(new, Phase(phase))
        _set_dice(new, dice)
        _set_markers(new, _from_sorted(markers))
        _set_squares(new, tuple(_from_sorted(theirs) for theirs in squares))
        _set_won(new, _from_sorted(won))
        _set_situation(new, situation)
        _set_moves(new, () if dice is None else _table_moves(situation, _ROLL_INDEX[dice]))
        _set_starts(new, starts)
        return new

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

    def play_of(self, column: int, markers: Mapping[int, int] | None = None) -> Play:
        """Return what a sum for ``column`` would do now (the decision table of R5).

        ``markers`` overrides the state's markers, to ask about a second sum
        after a first has been played.

        >>> from cantstop import parse_state
        >>> state = parse_state('-/- 7:2,8:1 0d')
        >>> state.play_of(7), state.play_of(9), state.play_of(9, {7: 2, 8: 1, 10: 1})
        (<Play.ADVANCE: 'advance'>, <Play.PLACE: 'place'>, <Play.NO_MARKER: 'no marker'>)
        """
        return _play(self, self.markers if markers is None else markers, column)[0]

    # -- transitions -----------------------------------------------------------

    def apply(self, action: Action) -> State:
        """Return the state after ``action``; raise :class:`~cantstop.IllegalAction` if illegal.

        >>> new_game().apply(Roll((3, 4, 5, 5))).apply(Move((8, 9)))
        State('-/- 8:1,9:1 0d')
        >>> new_game().apply(Stop())
        Traceback (most recent call last):
        ...
        cantstop.errors.IllegalAction: a stop must follow a successful roll; ...
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


# -- the decision table for one sum (R5, R7, R8, R9, R14.1) --------------------


def _play(state: State, markers: Mapping[int, int], column: int) -> tuple[Play, int]:
    """Return what a sum for ``column`` does, and where its marker lands."""
    height = state.rules.heights.get(column)
    if height is None:
        return Play.NO_COLUMN, 0
    if column in state._won:
        return Play.WON, 0
    position = markers.get(column)
    if position is not None:
        if position >= height:
            return Play.TOP, 0
        return Play.ADVANCE, _landing(state, column, position + 1)
    if len(markers) >= MARKERS:
        return Play.NO_MARKER, 0
    return Play.PLACE, _landing(state, column, state.squares[state.player].get(column, 0) + 1)


def _landing(state: State, column: int, position: int) -> int:
    """Under Variant A, skip spaces holding another player's square (R14.1)."""
    if state.rules.variant is Variant.A:
        taken = {
            squares[column]
            for p, squares in enumerate(state.squares)
            if p != state.player and column in squares
        }
        while position in taken:
            position += 1
    return position


# -- the situation of a position, which the move table reads (R5, R6, R7) -------


def _moves_for(state: State, dice: tuple[int, int, int, int]) -> tuple[Move, ...]:
    """Every distinct legal move for ``dice`` in ``state`` (R6), from the move table."""
    return _tables.moves(state._situation, _tables.ROLL_INDEX[dice])


def _plain(mapping: Mapping[int, int]) -> Mapping[int, int]:
    """Return a column map's own dict, for fast lookups; other mappings as they are."""
    return mapping._dict if isinstance(mapping, ColumnMap) else mapping


def _room(state: State, column: int, start: int) -> int:
    """How many spaces a marker in open ``column`` above space ``start`` can still climb.

    Under Variant A, spaces holding another player's square do not count,
    since a marker skips them (R14.1).
    """
    return _room_of(state.rules, state.squares, state.player, column, start)


def _room_of(
    rules: Rules, squares: tuple[Mapping[int, int], ...], player: int, column: int, start: int
) -> int:
    """:func:`_room` for ``player`` on a board with ``squares``."""
    height = _plain(rules.heights)[column]
    if rules.variant is not _VARIANT_A:
        return height - start
    taken = {theirs[column] for p, theirs in enumerate(squares) if p != player and column in theirs}
    return sum(1 for space in range(start + 1, height + 1) if space not in taken)


def _with_column(situation: int, column: int, room: int, marked: bool) -> int:
    """Return ``situation`` with the bits of ``column`` set for ``room`` spaces and a marker."""
    bit = 1 << column
    return (
        situation & ~(bit | bit << 13 | bit << 26)
        | (bit if room >= 1 else 0)
        | (bit << 13 if room >= 2 else 0)
        | (bit << 26 if marked else 0)
    )


def _situation_of(state: State) -> int:
    """Return the situation of ``state``: all that the move table needs to know of it."""
    start = dict(_plain(state.squares[state.player]))
    markers = _plain(state.markers)
    start.update(markers)
    won = _plain(state._won)
    variant_a = state.rules.variant is Variant.A
    one = two = marked = 0
    for column, height in _plain(state.rules.heights).items():
        if column in won:
            continue
        at = start.get(column, 0)
        room = _room(state, column, at) if variant_a else height - at
        bit = 1 << column
        one |= bit if room >= 1 else 0
        two |= bit if room >= 2 else 0
        marked |= bit if column in markers else 0
    return one | two << 13 | marked << 26


def _start_bits(
    rules: Rules,
    squares: tuple[Mapping[int, int], ...],
    won: Mapping[int, int],
    player: int,
    column: int,
) -> int:
    """Return the situation bits of ``column`` for ``player`` at the start of a turn."""
    if column in won:
        return 0
    room = _room_of(rules, squares, player, column, squares[player].get(column, 0))
    bit = 1 << column
    return (bit if room >= 1 else 0) | (bit << 13 if room >= 2 else 0)


def _starts_of(state: State) -> tuple[int, ...]:
    """Return each player's situation at the start of a turn on the board of ``state``."""
    rules, squares, won = state.rules, state.squares, state._won
    return tuple(
        sum(_start_bits(rules, squares, won, p, column) for column in rules.heights)
        for p in range(rules.players)
    )


# -- transitions ---------------------------------------------------------------
#
# A transition builds its successor directly, field by field, without the
# checks of the constructor: each transition keeps the invariants of R16 by
# construction (the proofs in proofs/ show which), and hands on what does not
# change (the rules, the squares during a turn, the turn-start situations).

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


def _make(
    state: State,
    *,
    player: int,
    phase: Phase,
    dice: tuple[int, int, int, int] | None = None,
    markers: Mapping[int, int] = _NO_MARKERS,
    squares: tuple[Mapping[int, int], ...] | None = None,
    won: ColumnMap | None = None,
    situation: int | None = None,
    moves: tuple[Move, ...] = (),
) -> State:
    """Build a successor state without re-checking invariants the transition keeps.

    ``situation`` is the successor's situation when the transition
    knows it; otherwise it is computed here.  ``moves`` are the legal moves
    of a successor in :attr:`Phase.CHOOSE`.
    """
    same_board = squares is None and won is None
    new = _successor(
        state,
        player,
        phase,
        dice,
        markers,
        state.squares if squares is None else squares,
        state._won if won is None else won,
        0,
        moves,
        state._starts if same_board else None,
    )
    _set_situation(new, _situation_of(new) if situation is None else situation)
    return new


def _turn_starts(state: State) -> tuple[int, ...]:
    """Return the turn-start situations of the board of ``state``, finding them once."""
    starts = state._starts
    if starts is None:
        starts = _starts_of(state)
        _set_starts(state, starts)
    return starts


def _roll(state: State, roll: Roll) -> State:
    phase = state.phase
    if phase is _CHOOSE:
        raise IllegalAction(
            "the dice on the table must be played before rolling again", "R3.3", state, roll
        )
    if phase is _OVER:
        raise IllegalAction("the game is over", "R12.3", state, roll)
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
        if state.dice is None:
            rule, reason = {
                Phase.ROLL: ("R3.2", "a move needs dice: the turn starts with a roll"),
                Phase.DECIDE: ("R3.4", "the roll has been played: roll again or stop"),
                Phase.OVER: ("R12.3", "the game is over"),
            }[state.phase]
            raise IllegalAction(reason, rule, state, move)
        message, rule = _why_illegal(state, state.dice, move)
        raise IllegalAction(message, rule, state, move)
    # The move is legal, so each sum advances its column's marker or places one (R5).
    # A state's column maps are ColumnMap values (the constructor converts them),
    # so their dicts are read directly.
    rules = state.rules
    old: dict[int, int] = state.markers._dict  # type: ignore[attr-defined]
    markers = old.copy()
    own: dict[int, int] = state.squares[state.player]._dict  # type: ignore[attr-defined]
    situation = state._situation
    if rules.variant is _VARIANT_A:
        for column in move.columns:
            space = _landing(state, column, markers.get(column, own.get(column, 0)) + 1)
            markers[column] = space
            situation = _with_column(situation, column, _room(state, column, space), True)
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
        rule, reason = {
            Phase.ROLL: (
                "R11.1",
                "a stop must follow a successful roll; the turn starts with a roll",
            ),
            Phase.CHOOSE: ("R3.3", "the dice on the table must be played before stopping"),
            Phase.OVER: ("R12.3", "the game is over"),
        }[state.phase]
        raise IllegalAction(reason, rule, state, stop)
    me = state.player
    rules = state.rules
    if rules.variant is _VARIANT_B:
        for column, position in state.markers.items():
            for p, theirs in enumerate(state.squares):
                if p != me and theirs.get(column) == position:
                    raise IllegalAction(
                        f"under Variant B a player may not stop while the marker in "
                        f"column {column} shares space {position} with player {p}'s square",
                        "R14.2",
                        state,
                        stop,
                    )
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
    starts = list(_turn_starts(state))
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
    won_now: dict[int, int] = won._dict
    if rules.variant is _VARIANT_A:
        # A square changes where the others' markers land (R14.1): recompute its columns.
        for column in markers:
            bit = 1 << column
            for p in range(rules.players):
                starts[p] = starts[p] & ~(bit | bit << 13) | _start_bits(
                    rules, new_squares, won_now, p, column
                )
    else:
        # Each marker's column has the room its marker had, and a won column none:
        # the player's next turn starts from this turn's situation without markers.
        starts[me] = state._situation & _UNMARKED
        for column in topped:
            bit = 1 << column
            for p in range(rules.players):
                starts[p] &= ~(bit | bit << 13)
    new_starts = tuple(starts)
    if topped:
        held = sum(1 for owner in won_now.values() if owner == me)
        if held >= rules.columns_to_win:  # R12.1
            return _successor(
                state,
                me,
                _OVER,
                None,
                _NO_MARKERS,
                new_squares,
                won,
                new_starts[me],
                (),
                new_starts,
            )
    player = (me + 1) % rules.players  # R2.3
    return _successor(
        state,
        player,
        _ROLL,
        None,
        _NO_MARKERS,
        new_squares,
        won,
        new_starts[player],
        (),
        new_starts,
    )


def _without(squares: Mapping[int, int], columns: list[int]) -> Mapping[int, int]:
    """Return ``squares`` without ``columns``: the squares a won column takes off (R9.3)."""
    if not any(column in squares for column in columns):
        return squares
    return _from_sorted({c: v for c, v in squares.items() if c not in columns})


def _why_illegal(state: State, dice: tuple[int, int, int, int], move: Move) -> tuple[str, str]:
    """Explain, with a rule id, why ``move`` is not legal for ``dice``."""
    from cantstop.notation import format_action

    text = format_action(move)
    options = ", ".join(format_action(m) for m in _moves_for(state, dice))
    cols = move.columns
    matching = [
        pair
        for pair in pairings(dice)
        if (len(cols) == 2 and pair == cols) or (len(cols) == 1 and cols[0] in pair)
    ]
    if not matching:
        sums = ", ".join(f"{a}+{b}" for a, b in dict.fromkeys(pairings(dice)))
        return (
            f"{text} does not come from one pairing of the dice; "
            f"the pairings give {sums}; legal moves: {options}",
            "R4.3",
        )
    for a, b in matching:
        markers = dict(state.markers)
        play_a, at_a = _play(state, markers, a)
        if len(cols) == 2:
            if not play_a.plays:
                return (
                    f"{text} cannot play {a}: {_reason(play_a, a)}; legal moves: {options}",
                    DROP_RULES[play_a],
                )
            markers[a] = at_a
            play_b = _play(state, markers, b)[0]
            if a == b:
                return (
                    f"{text} cannot play {a} twice: {_reason(play_b, a)}, so the second "
                    f"step is forfeit; legal moves: {options}",
                    "R7.3",
                )
            if _play(state, dict(state.markers), b)[0].plays:
                return (
                    f"{text} needs two markers but only one is free: play one of "
                    f"the sums; legal moves: {options}",
                    "R6.3",
                )
            return (
                f"{text} cannot play {b}: {_reason(play_b, b)}; legal moves: {options}",
                DROP_RULES[play_b],
            )
    # A single sum from a pairing whose other sum (or second step) also plays.
    single = cols[0]
    a, b = matching[0]
    other = b if a == single else a
    play = _play(state, dict(state.markers), single)[0]
    if not play.plays:
        return (
            f"{text} cannot play {single}: {_reason(play, single)}; legal moves: {options}",
            DROP_RULES[play],
        )
    if other == single:
        return (
            f"{text} uses one step of equal sums {single}+{single}, but both steps can "
            f"be played; legal moves: {options}",
            "R7.1",
        )
    return (
        f"{text} drops {other}, which can be played together with {single}; legal moves: {options}",
        "R6.1",
    )


def _reason(play: Play, column: int) -> str:
    return {
        Play.WON: f"column {column} has been won",
        Play.TOP: f"the marker in column {column} is on the top space",
        Play.NO_MARKER: "all three markers are on other columns",
        Play.NO_COLUMN: f"the board has no column {column}",
        Play.ADVANCE: "it plays",
        Play.PLACE: "it plays",
    }[play]


# -- invariants (R16) ----------------------------------------------------------


def _validate(state: State) -> None:
    """Normalise the fields of a newly constructed state and check R16."""
    set_ = object.__setattr__
    rules = state.rules
    if not isinstance(rules, Rules):
        raise InvalidState(f"rules must be a Rules value, not {rules!r}", "R15.1")
    n = rules.players
    heights = rules.heights
    if not isinstance(state.phase, Phase):
        raise InvalidState(f"phase must be a Phase, not {state.phase!r}", "R16.5")
    player = state.player
    if not isinstance(player, int) or isinstance(player, bool) or not 0 <= player < n:
        raise InvalidState(f"player must be from 0 to {n - 1}, not {player!r}", "R16.5")

    squares = state.squares if state.squares != () else tuple({} for _ in range(n))
    if not isinstance(squares, tuple) or len(squares) != n:
        raise InvalidState(f"squares must hold one mapping for each of {n} players", "R16.2")
    normal: list[ColumnMap] = []
    for p, theirs in enumerate(squares):
        if not isinstance(theirs, Mapping):
            raise InvalidState(f"player {p}'s squares must be a mapping, not {theirs!r}", "R16.2")
        theirs_map = _column_map(theirs, f"player {p}'s square", heights)
        normal.append(theirs_map)
    set_(state, "squares", tuple(normal))
    if not isinstance(state.markers, Mapping):
        raise InvalidState(f"markers must be a mapping, not {state.markers!r}", "R16.1")
    markers = _column_map(state.markers, "marker", heights)
    set_(state, "markers", markers)

    won: dict[int, int] = {}
    for column, height in heights.items():
        owners = [p for p in range(n) if normal[p].get(column) == height]
        if len(owners) > 1:
            raise InvalidState(
                f"column {column} has squares of players {owners[0]} and {owners[1]} "
                f"on its top space; a won column has one owner",
                "R9.1",
            )
        if owners:
            won[column] = owners[0]
            others = [p for p in range(n) if p != owners[0] and column in normal[p]]
            if others:
                raise InvalidState(
                    f"player {others[0]} has a square in column {column}, "
                    f"which player {owners[0]} has won",
                    "R9.3",
                )
    won_map = ColumnMap(won)
    set_(state, "_won", won_map)
    holders = sorted(
        {p for p in won.values() if sum(o == p for o in won.values()) >= rules.columns_to_win}
    )
    if len(holders) > 1:
        raise InvalidState(f"players {holders} both hold enough columns to win", "R12.1")
    winner = holders[0] if holders else None

    if len(markers) > MARKERS:
        raise InvalidState(f"{len(markers)} markers are on the board; there are 3", "R16.1")
    for column, position in markers.items():
        if column in won:
            raise InvalidState(f"a marker is in column {column}, which has been won", "R9.2")
        own = normal[player].get(column, 0)
        if position <= own:
            raise InvalidState(
                f"the marker in column {column} is on space {position}, not above "
                f"player {player}'s square on space {own}",
                "R16.3",
            )
        if rules.variant is Variant.A:
            for p, theirs in enumerate(normal):
                if p != player and theirs.get(column) == position:
                    raise InvalidState(
                        f"under Variant A the marker in column {column} cannot share "
                        f"space {position} with player {p}'s square",
                        "R14.1",
                    )

    phase = state.phase
    dice = state.dice
    if phase is Phase.CHOOSE:
        if (
            not isinstance(dice, tuple | list)
            or len(dice) != 4
            or not all(isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= 6 for d in dice)
        ):
            raise InvalidState(f"a state choosing a move needs four dice 1-6, not {dice!r}", "R4.1")
        set_(state, "dice", tuple(sorted(dice)))
    elif dice is not None:
        raise InvalidState(f"only a state choosing a move has dice, not {phase.name}", "R16.5")
    if phase is Phase.OVER:
        if winner is None:
            raise InvalidState(
                f"the game is over only when a player holds {rules.columns_to_win} columns",
                "R12.1",
            )
        if player != winner:
            raise InvalidState(f"a finished game's player is its winner, {winner}", "R16.5")
    elif winner is not None:
        raise InvalidState(
            f"player {winner} holds {rules.columns_to_win} columns, so the game is over",
            "R12.1",
        )
    if phase in (Phase.ROLL, Phase.OVER) and markers:
        raise InvalidState(f"no marker is on the board in phase {phase.name}", "R16.5")
    if phase is Phase.DECIDE and not markers:
        raise InvalidState("after a move at least one marker is on the board", "R16.5")
    set_(state, "_situation", _situation_of(state))
    set_(state, "_starts", None)
    set_(state, "_moves", _moves_for(state, state.dice) if state.dice is not None else ())
    if phase is Phase.CHOOSE and not state._moves:
        raise InvalidState("these dice have no legal move: the roll was a bust", "R10.1")


def _column_map(values: Mapping[int, int], what: str, heights: Mapping[int, int]) -> ColumnMap:
    for column, position in values.items():
        if column not in heights:
            raise InvalidState(f"a {what} is in column {column!r}, which the board lacks", "R16.2")
        if (
            not isinstance(position, int)
            or isinstance(position, bool)
            or not 1 <= position <= heights[column]
        ):
            raise InvalidState(
                f"a {what} in column {column} is on space {position!r}; "
                f"the column has spaces 1 to {heights[column]}",
                "R16.2",
            )
    return values if isinstance(values, ColumnMap) else ColumnMap(values)
