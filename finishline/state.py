"""The engine: game states as immutable values, and the transitions between them.

This module reads top to bottom: the phases and events, the :class:`State`
value with its invariants (R12), and the transitions (:meth:`State.step`).
What a roll allows is decided in :mod:`finishline.decide`; a state asks it once
for its dice and keeps the answer.  Rule ids refer to ``finishline/spec/``.

>>> from finishline.actions import Roll
>>> state = new_game().apply(Roll((5, 2)))
>>> state
State('..../..../..../..../..../.... 0/0 0c25')
>>> len(state.legal_actions())
16
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import NamedTuple

from dicekit.perft import ThrowCounts
from dicekit.turns import opening_config
from dicekit.value import Notated, unchecked
from finishline import decide
from finishline.actions import Action, Double, Play, Roll, Sideways
from finishline.board import Cell
from finishline.config import Config
from finishline.errors import IllegalAction, InvalidConfig, brief
from finishline.invariants import validate

__all__ = ["Event", "Perft", "Phase", "State", "Step", "new_game", "perft"]


class Phase(enum.Enum):
    """Where the turn stands (R3).

    >>> new_game().phase
    <Phase.ROLL: 'roll'>
    """

    #: The turn has begun; the dice must be thrown (R3.2).
    ROLL = "roll"
    #: The dice are on the table; the player takes one legal action (R3.3).
    CHOOSE = "choose"
    #: A player has won; no action is possible (R10.2).
    OVER = "over"


class Event(enum.Enum):
    """What a transition did, reported by :meth:`State.step`."""

    #: A roll that offers a legal action: the player now chooses (R3.3).
    ROLLED = "rolled"
    #: A roll that offers none: the turn passes with nothing moved (R9).
    FORFEITED = "forfeited"
    #: A play, sideways step or double advance; the turn passed (R3.4).
    PLAYED = "played"
    #: The action took the player's last counter across: the game is won (R10.1).
    WON = "won"


class Step(NamedTuple):
    """The result of :meth:`State.step`: the next state and what happened."""

    #: The state after the action.
    state: State
    #: What the action did.
    event: Event


_EMPTY_BOARD: decide.Board = (None,) * 24


@dataclass(frozen=True, slots=True, repr=False)
class State(Notated):
    """A game position: an immutable, hashable value.

    Make one with :func:`new_game`, :func:`~finishline.notation.parse_state`
    or :func:`~finishline.jsonform.state_from_json`, or directly:
    ``State(config, player, phase, dice, board, across)``, where ``board``
    (24 entries, one per :class:`~finishline.board.Cell`: a player or
    ``None``; :func:`~finishline.board.board_from` makes one from a
    mapping) left out means an empty board and ``across`` left out means
    nobody across.  The constructor checks every invariant of R12 and raises
    :class:`~finishline.errors.InvalidState` naming the one broken.

    >>> from finishline.board import board_from
    >>> State(Config(), 1, Phase.ROLL, board=board_from({Cell.C2: 0, Cell.B5: 1}))
    State('..../..0./..../..../.1../.... 0/0 1r')
    """

    #: The configuration the game is played under.
    config: Config
    #: Whose turn it is, from 0; once the game is over, the winner.
    player: int
    #: The phase of the turn.
    phase: Phase
    #: In :attr:`Phase.CHOOSE`, the dice on the table, sorted; otherwise ``None``.
    dice: tuple[int, int] | None = None
    #: For each cell, in the order of :class:`~finishline.board.Cell`, its counter's player or None.
    board: decide.Board = _EMPTY_BOARD
    #: For each player, the counters across the finish line.
    across: tuple[int, ...] = ()
    #: For each player, the counters in hand (R12.3): derived.
    hand: tuple[int, ...] = field(init=False, compare=False)
    _legal: dict[Action, decide.Outcome] | None = field(init=False, compare=False, default=None)

    def __post_init__(self) -> None:
        validate(self)

    # -- queries -------------------------------------------------------------------

    @property
    def winner(self) -> int | None:
        """The player who has won, or ``None`` while the game goes on (R10.1).

        >>> new_game().winner is None
        True
        """
        return self.player if self.phase is Phase.OVER else None

    def owner(self, cell: Cell) -> int | None:
        """Return the player whose counter stands on ``cell``, or ``None`` if it is empty."""
        return self.board[cell]

    def cells_of(self, player: int) -> tuple[Cell, ...]:
        """Return the cells holding ``player``'s counters, in cell order."""
        return tuple(Cell(c) for c, owner in enumerate(self.board) if owner == player)

    def legal_actions(self) -> tuple[Action, ...]:
        """Return the actions open to the player, in the order of N2.6 (empty unless choosing).

        >>> from finishline.notation import parse_state
        >>> parse_state('..../..../..../..../0.../.... 5/0 0c55').legal_actions()
        (Play(moves=(Move(cell=<Cell.A5: 16>, enter=False, rows=1),)), Double(cell=<Cell.A5: 16>))
        """
        return tuple(self._outcomes())

    def _outcomes(self) -> dict[Action, decide.Outcome]:
        legal = self._legal
        if legal is None:
            if self.dice is None:
                legal = {}
            else:
                me = self.player
                legal = decide.legal_actions(
                    self.board, me, self.hand[me], self.across[me], self.dice
                )
            object.__setattr__(self, "_legal", legal)
        return legal

    # -- transitions ---------------------------------------------------------------

    def apply(self, action: Action) -> State:
        """Return the state after ``action``; an illegal one raises :class:`IllegalAction`.

        >>> from finishline.notation import parse_action
        >>> new_game().apply(Roll((2, 5))).apply(parse_action('+C2,+A5'))
        State('..../..0./..../..../0.../.... 0/0 1r')
        """
        return self.step(action).state

    def step(self, action: Action) -> Step:
        """Return the state after ``action`` together with the :class:`Event` it caused.

        >>> from finishline.notation import parse_state
        >>> parse_state('..../1.../0.../..../..../.... 5/0 0r').step(Roll((3, 5))).event
        <Event.FORFEITED: 'forfeited'>
        """
        return self._decide(action, None)

    def action_rules(self, action: Action) -> tuple[str, ...]:
        """Return the ids of the rules that decide what ``action`` does: see :mod:`finishline.tags`.

        >>> from finishline.notation import parse_action, parse_state
        >>> state = parse_state('..../..../..../..../0.../0... 0/0 0c56')
        >>> state.action_rules(parse_action('A5^,A6^'))  # only the 5 first frees A5
        ('R3.4', 'R4.4', 'R6.1')
        """
        from finishline.tags import action_rules

        return action_rules(self, action)

    def choice_rules(self) -> tuple[str, ...]:
        """Return the ids of the rules that decide the legal actions: see :mod:`finishline.tags`.

        >>> new_game().choice_rules()
        ('R3.2',)
        """
        from finishline.tags import choice_rules

        return choice_rules(self)

    def _trace(self) -> decide.Trace:
        """Return the record of the rules that decide this choosing state's legal actions."""
        assert self.dice is not None
        trace = decide.Trace()
        me = self.player
        decide.legal_actions(self.board, me, self.hand[me], self.across[me], self.dice, trace)
        return trace

    def _decide(self, action: Action, why: set[str] | None) -> Step:
        """Return what :meth:`step` returns; add to ``why`` the rules that decide it."""
        if self.phase is Phase.OVER:
            raise self._refuse("the game is over", "R10.2", action)
        if isinstance(action, Roll):
            if self.phase is not Phase.ROLL:
                raise self._refuse("the dice on the table must be played first", "R3.3", action)
            a, b = action.dice
            dice = (a, b) if a <= b else (b, a)
            me = self.player
            choosing = _successor(self, me, Phase.CHOOSE, dice, self.board, self.across)
            trace = None if why is None else choosing._trace()
            if choosing._outcomes():
                if why is not None and trace is not None:
                    why.update(("R3.3", *trace.needed, *(("R4.1",) if a > b else ())))
                return Step(choosing, Event.ROLLED)
            if why is not None and trace is not None:
                why.update(("R9.1", "R9.2", *trace.refused))
            return Step(self._next_turn(self.board, self.across, why), Event.FORFEITED)
        if not isinstance(action, Play | Sideways | Double):
            raise self._refuse(
                f"{brief(action)} is not an action: use Roll, Play, Sideways or Double",
                "R3.1",
                action,
            )
        if self.phase is Phase.ROLL:
            raise self._refuse("a turn starts with a roll", "R3.2", action)
        assert self.dice is not None
        legal = self._outcomes()
        outcome = legal.get(action)
        me = self.player
        if outcome is None:
            rule, reason = decide.diagnose(
                self.board, me, self.hand[me], self.dice, action, legal, why
            )
            if why is not None and rule == "R4.5":  # what makes a play of both dice legal
                why.update(self._trace().pairs_need)
            raise self._refuse(reason, rule, action)
        if why is not None:
            why.update(self._trace().grants[action])
        board, mine = outcome
        across = (*self.across[:me], mine, *self.across[me + 1 :])
        if mine == self.config.counters:  # R10.1
            if why is not None:
                why.add("R10.1")
            return Step(_successor(self, me, Phase.OVER, None, board, across), Event.WON)
        if why is not None and mine > self.across[me] and me not in board:
            why.add("R10.1")  # all counters off the board, and still some in hand
        if why is not None:
            why.add("R3.4")
        return Step(self._next_turn(board, across, why), Event.PLAYED)

    def _next_turn(
        self, board: decide.Board, across: tuple[int, ...], why: set[str] | None = None
    ) -> State:
        """Return the next player's turn (R2.5, R3.4) on ``board``."""
        player = (self.player + 1) % self.config.players
        if why is not None and self.config.players > 2:
            why.add("R2.5")  # with two players, either way round is the same
        return _successor(self, player, Phase.ROLL, None, board, across)

    def _refuse(self, reason: str, rule: str, action: object) -> IllegalAction:
        from finishline.notation import format_state

        return IllegalAction(reason, rule, format_state(self), action)


def new_game(config: Config | None = None, first_player: int = 0) -> State:
    """Return the opening state: an empty board, every counter in hand, ``first_player`` to roll.

    >>> new_game(Config(players=3), first_player=2)
    State('..../..../..../..../..../.... 0/0/0 2r')
    """
    config = opening_config(config, first_player, Config, InvalidConfig, ("R11.1", "R2.4"), brief)
    return State(config, first_player, Phase.ROLL)


class Perft(ThrowCounts):
    """Whole-roll counts of a state about to roll: see :func:`perft`.

    ``choices`` sums the legal actions over the 36 ordered rolls, and
    ``forfeits`` counts the ordered rolls that forfeit the turn.
    """

    __slots__ = ()


def perft(state: State) -> Perft:
    """Count the legal actions and the forfeits over the 36 ordered rolls of a state about to roll.

    >>> perft(new_game())
    Perft(choices=540, forfeits=0)
    """
    if state.phase is not Phase.ROLL:
        raise state._refuse("whole-roll counts need a state that is about to roll", "R3.2", None)
    choices = forfeits = 0
    for a in range(1, 7):
        for b in range(a, 7):
            count = len(
                _successor(
                    state, state.player, Phase.CHOOSE, (a, b), state.board, state.across
                )._outcomes()
            )
            weight = 1 if a == b else 2
            choices += weight * count
            forfeits += weight * (count == 0)
    return Perft(choices, forfeits)


def _successor(
    state: State,
    player: int,
    phase: Phase,
    dice: tuple[int, int] | None,
    board: decide.Board,
    across: tuple[int, ...],
) -> State:
    """Build a state that the rules produced, without checking R12 again."""
    counters = state.config.counters
    hand = tuple(counters - across[p] - board.count(p) for p in range(state.config.players))
    new = unchecked(State, state.config, player, phase, dice)
    set_ = object.__setattr__
    set_(new, "board", board)
    set_(new, "across", across)
    set_(new, "hand", hand)
    set_(new, "_legal", None)
    return new
