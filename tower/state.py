"""The rules engine: states of Off to the Tower and the transitions between them.

This module reads top to bottom: the actions, phases and events; the
:class:`State` value; the legal moves (R5.5); and the transitions, a throw
(R4, R8.3) and a move (R5 to R11).  States are immutable: a transition
returns a new one.  The dice are an explicit action, so a game replays
exactly from its actions.  Rule ids (``R5.3``) refer to ``tower/spec/``.

A state's stones are, for each player, the sorted *places* of the stones not
in the tower: 0 for the start, a step of the route for a field, and the
route's length for the goal.  The tower holds at most one stone, named by
its owner.

>>> from tower import Move, Throw, make_config, new_game
>>> state = new_game(make_config()).apply(Throw((5, 3)))
>>> state
State('R0,0/B0,0 - 0c35 @ours')
>>> state.legal_moves()
(Move(step=0, points=3), Move(step=0, points=5))
>>> state.apply(Move(0, 5))
State('R0,5/B0,0 - 1t @ours')
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import NamedTuple

from dicekit.dice import ORDERED_THROWS
from dicekit.perft import ThrowCounts
from dicekit.turns import is_player, next_player
from dicekit.value import Notated, unchecked
from tower.actions import Action, Move, Throw
from tower.config import Config
from tower.decide import judge, natural, prioritised, settle, throw_outcome, view
from tower.errors import IllegalAction, InvalidConfig, shown

__all__ = [
    "Event",
    "Perft",
    "Phase",
    "State",
    "Step",
    "candidates",
    "new_game",
    "perft",
]


class Phase(enum.Enum):
    """Where the player is in their turn (R3.4)."""

    #: The dice are to be thrown.
    THROW = "throw"
    #: The dice are on the table; the player chooses a move.
    CHOOSE = "choose"
    #: A player has won; nothing more happens (R11.2).
    OVER = "over"


class Event(enum.Enum):
    """What an action did, reported by :meth:`State.step`."""

    #: A throw with a legal move: the player chooses one (R3.4).
    THROWN = "thrown"
    #: A throw without one: the turn passes (R4.4).
    FORFEITED = "forfeited"
    #: A move after which the turn passes (R3.3).
    MOVED = "moved"
    #: A move onto the player's own colour: the player throws again (R6).
    AGAIN = "again"
    #: A move that brings the player's last stone home (R11.1).
    WON = "won"


class Step(NamedTuple):
    """The result of :meth:`State.step`: the next state and the event."""

    state: State
    event: Event


@dataclass(frozen=True, slots=True, repr=False)
class State(Notated):
    """A game position: an immutable, hashable value.

    Make one with :func:`new_game`, :func:`~tower.parse_state` or
    :func:`~tower.state_from_json`, or directly:
    ``State(config, player, phase, dice, stones, tower)``, where ``stones``
    holds each player's sorted places (0 the start, a step, the route's
    length for the goal) of the stones not in the tower, and ``tower`` the
    owner of the stone in the tower or ``None``.  The constructor checks every
    invariant of R13 and raises :class:`~dicekit.errors.InvalidState` naming
    the rule broken.
    """

    config: Config
    player: int
    phase: Phase
    dice: tuple[int, int] | None
    stones: tuple[tuple[int, ...], ...]
    tower: int | None = None
    _moves: tuple[Move, ...] = field(default=(), compare=False)

    def __post_init__(self) -> None:
        from tower.invariants import check_state

        check_state(self)
        object.__setattr__(self, "_moves", _legal_moves(self) if self.dice is not None else ())

    @property
    def winner(self) -> int | None:
        """The winner once the game is over (R11.1), else ``None``."""
        return self.player if self.phase is Phase.OVER else None

    def legal_moves(self) -> tuple[Move, ...]:
        """Return the legal moves for the dice, in order (R5.5); empty outside CHOOSE.

        >>> from tower import parse_state
        >>> parse_state('R8,20/B0,10 - 0c35 @ours').legal_moves()  # the obstacle on 10
        (Move(step=20, points=3),)
        """
        return self._moves

    def apply(self, action: Action) -> State:
        """Return the state after ``action``; an illegal one raises ``IllegalAction`` (its rule)."""
        return self.step(action).state

    def step(self, action: Action) -> Step:
        """Return the state after ``action`` and the :class:`Event` it caused.

        >>> from tower import parse_state
        >>> parse_state('R3,9/B0,0 - 0c34 @ours').step(Move(3, 4))  # red field 7
        Step(state=State('R7,9/B0,0 - 0t @ours'), event=<Event.AGAIN: 'again'>)
        """
        if isinstance(action, Throw):
            return _throw(self, action)
        if isinstance(action, Move):
            return _move(self, action)
        raise _illegal(self, f"{shown(action)} is not an action: use Throw or Move", "R3.4", action)


def new_game(config: Config, first_player: int = 0) -> State:
    """Return the opening state: every stone at the start, ``first_player`` to throw (R3.1, R3.2).

    >>> from tower import make_config
    >>> new_game(make_config(players=4), first_player=3)
    State('R0/B0/G0/Y0 - 3t @ours')
    """
    if not isinstance(config, Config):
        raise InvalidConfig(f"config must be a Config, not {shown(config)}", "R12.3")
    if not is_player(first_player, config.players):
        raise InvalidConfig(
            f"the first player is a number from 0 to {config.players - 1}, "
            f"not {shown(first_player)}",
            "R3.2",
        )
    start = (0,) * config.stones
    return State(config, first_player, Phase.THROW, None, (start,) * config.players)


class Perft(ThrowCounts):
    """Whole-throw counts of a state about to throw: see :func:`perft`.

    ``choices`` sums the legal moves over the 36 ordered throws, and
    ``forfeits`` counts the ordered throws that are forfeited.
    """

    __slots__ = ()


def perft(state: State) -> Perft:
    """Count legal moves and forfeits over the 36 ordered throws of a state about to throw.

    >>> from tower import parse_state
    >>> perft(parse_state('R31,32/B0,0 - 0t @ours'))
    Perft(choices=22, forfeits=16)
    """
    if state.phase is not Phase.THROW:
        raise _illegal(state, "whole-throw counts need a state about to throw", "R3.4", None)
    choices = forfeits = 0
    for a, b in ORDERED_THROWS:
        thrown = throw_outcome(state.config, state.player, state.stones, state.tower, (a, b))
        choices += len(thrown.moves)
        forfeits += not thrown.moves
    return Perft(choices, forfeits)


# -- legal moves (R5.5) -------------------------------------------------------------


def candidates(
    config: Config, me: int, stones: tuple[tuple[int, ...], ...], dice: tuple[int, int]
) -> tuple[Move, ...]:
    """Return player ``me``'s legal moves for ``dice`` with these stones (R5.5), in order.

    Each stone that may move is judged with the points of each die by the
    tests of R5.5 (:func:`tower.decide.judge`); of those that pass, stones at
    the start go first (R5.3).
    """
    v = view(config, me, stones, None)
    return tuple(
        Move(j.step, j.points) for j in prioritised(j for j in natural(v, dice) if j.passes)
    )


def _legal_moves(state: State) -> tuple[Move, ...]:
    assert state.dice is not None
    return candidates(state.config, state.player, state.stones, state.dice)


# -- transitions ------------------------------------------------------------------


def _illegal(state: State, reason: str, rule: str, action: object) -> IllegalAction:
    from tower.notation import format_state

    return IllegalAction(reason, rule, format_state(state), action)


def _make(
    state: State,
    player: int,
    phase: Phase,
    dice: tuple[int, int] | None,
    stones: tuple[tuple[int, ...], ...],
    tower: int | None,
) -> State:
    """Build a successor without re-checking the invariants each transition keeps."""
    new = unchecked(State, state.config, player, phase, dice)
    set_ = object.__setattr__
    set_(new, "stones", stones)
    set_(new, "tower", tower)
    set_(new, "_moves", ())
    if dice is not None:
        set_(new, "_moves", _legal_moves(new))
    return new


def _throw(state: State, action: Throw) -> Step:
    if state.phase is Phase.CHOOSE:
        raise _illegal(
            state, "the dice on the table must be used before throwing again", "R3.4", action
        )
    if state.phase is Phase.OVER:
        raise _illegal(state, "the game is over", "R11.2", action)
    thrown = throw_outcome(state.config, state.player, state.stones, state.tower, action.dice)
    if not thrown.moves:  # R4.4
        player = next_player(state.player, state.config.players, again=False)
        return Step(
            _make(state, player, Phase.THROW, None, thrown.stones, thrown.tower), Event.FORFEITED
        )
    new = _make(state, state.player, Phase.CHOOSE, None, thrown.stones, thrown.tower)
    object.__setattr__(new, "dice", thrown.dice)
    object.__setattr__(new, "_moves", tuple(Move(j.step, j.points) for j in thrown.moves))
    return Step(new, Event.THROWN)


def _move(state: State, move: Move) -> Step:
    if move not in state._moves:
        rule, reason = _why_illegal(state, move)
        raise _illegal(state, reason, rule, move)
    me = state.player
    done = settle(state.config, me, state.stones, state.tower, move.step, move.points)
    if done.won:  # R11.1
        return Step(_make(state, me, Phase.OVER, None, done.stones, done.tower), Event.WON)
    player = next_player(me, state.config.players, again=done.again)  # R3.3, R6
    return Step(
        _make(state, player, Phase.THROW, None, done.stones, done.tower),
        Event.AGAIN if done.again else Event.MOVED,
    )


def _why_illegal(state: State, move: Move) -> tuple[str, str]:
    """Return the rule and reason that refuse ``move``: the first test of R5.5 it fails, or R5.3."""
    from tower.notation import format_action

    text = format_action(move)
    if state.phase is Phase.THROW:
        return "R3.4", f"{text} needs dice: the player must throw first"
    if state.phase is Phase.OVER:
        return "R11.2", "the game is over"
    assert state.dice is not None
    config = state.config
    me = state.player
    length = config.lengths[me]
    legal = ", ".join(format_action(m) for m in state._moves)
    judged = judge(view(config, me, state.stones, state.tower), state.dice, move.step, move.points)
    rule = judged.reasons[0].rule if judged.reasons else "R5.3"
    if rule == "R5.2":
        where = "at the start" if move.step == 0 else f"on step {move.step}"
        return rule, f"{text}: the player has no stone {where} that can move; legal: {legal}"
    if rule == "R4.2":
        dice = "-".join(map(str, state.dice))
        return rule, f"{text}: the dice show {dice}, and one die's points are used; legal: {legal}"
    if rule == "R10.2":
        return (
            rule,
            f"{text} would pass the goal: it needs exactly {length - move.step}; legal: {legal}",
        )
    if rule == "R5.4":
        return rule, f"{text} would land on the player's own stone; legal: {legal}"
    if rule == "R9.1":
        return (
            rule,
            f"{text} would pass another player's stone on the crossing, "
            f"field {config.board.crossing}; legal: {legal}",
        )
    return rule, f"{text}: a stone at the start must move first; legal: {legal}"
