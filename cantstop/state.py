"""The states of a game, their queries and their transitions (R2, R3, R5, R9-R12).

This module reads top to bottom: the events a transition reports, the
:class:`State` value with its queries (the legal moves, every decision open
to the player, what a sum would do) and its transitions (:meth:`State.apply`,
carried out by :mod:`cantstop.transitions`), the opening and the whole-roll
counts.  What a roll does is decided in :mod:`cantstop.analysis`, why an action is
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
from cantstop.actions import Action, Move, Roll, Stop
from cantstop.analysis import DROP_RULES as DROP_RULES
from cantstop.analysis import Play, SumPlay, decide_sum
from cantstop.columnmap import ColumnMap
from cantstop.config import Rules, Variant
from cantstop.errors import IllegalAction, InvalidRules
from cantstop.invariants import validate
from cantstop.phase import Phase
from cantstop.refusals import stop_blockers
from dicekit.quote import brief
from dicekit.turns import opening_config
from dicekit.value import Notated

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
_VARIANT_B = Variant.B
_ROLL, _CHOOSE, _DECIDE, _OVER = Phase.ROLL, Phase.CHOOSE, Phase.DECIDE, Phase.OVER
_from_sorted = ColumnMap._from_sorted_dict


@dataclass(frozen=True, slots=True, repr=False)
class State(Notated):
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

    def __reduce__(self) -> tuple[object, ...]:
        # A state pickles as plain dicts (its column maps' own) and numbers,
        # and loads without the constructor's checks, which it passed when it
        # was made; its legal moves come again from the move table.
        return State._unpickle, (
            self.rules,
            self.player,
            self.phase.value,
            self.dice,
            self.markers._dict,  # type: ignore[attr-defined]
            tuple(theirs._dict for theirs in self.squares),  # type: ignore[attr-defined]
            self._won._dict,
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
        moves = () if dice is None else _tables.moves(situation, _tables.ROLL_INDEX[dice])
        return successor(
            rules,
            player,
            Phase(phase),
            dice,
            _from_sorted(markers),
            tuple(_from_sorted(theirs) for theirs in squares),
            _from_sorted(won),
            situation,
            moves,
            starts,
        )

    @property
    def won(self) -> ColumnMap:
        """Column to the player who won it (R9.1).

        >>> from cantstop import parse_state
        >>> parse_state('2:3/12:3 - 0r').won
        ColumnMap({2: 0, 12: 1})
        """
        return self._won

    @property
    def config(self) -> Rules:
        """The configuration, :attr:`rules`, under the name every game's states give it.

        >>> state = new_game(Rules(players=3))
        >>> state.config is state.rules, state.config.players
        (True, 3)
        """
        return self.rules

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
            return apply_roll(self, action)  # type: ignore[arg-type]
        if kind is Move:
            return apply_move(self, action)  # type: ignore[arg-type]
        if kind is Stop:
            return apply_stop(self, action)  # type: ignore[arg-type]
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
            new = apply_roll(self, action)
            return Step(new, Event.ROLLED if new.phase is Phase.CHOOSE else Event.BUSTED)
        if isinstance(action, Move):
            return Step(apply_move(self, action), Event.MOVED)
        if isinstance(action, Stop):
            new = apply_stop(self, action)
            return Step(new, Event.WON if new.phase is Phase.OVER else Event.STOPPED)
        raise IllegalAction(
            f"{action!r} is not an action: use Roll, Move or Stop", "R3.1", self, action
        )


def new_game(rules: Rules | None = None, first_player: int = 0) -> State:
    """Return the opening state: an empty board, ``first_player`` to roll (R2).

    >>> new_game(Rules(players=3), first_player=2)
    State('-/-/- - 2r')
    """
    rules = opening_config(rules, first_player, Rules, InvalidRules, ("R15.1", "R2.2"), brief)
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


# The transitions build states of this module's State class, so they are imported last.
from cantstop.transitions import (  # noqa: E402
    apply_move,
    apply_roll,
    apply_stop,
    successor,
)
