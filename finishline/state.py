"""The engine: game states as immutable values, and the transitions between them.

This module reads top to bottom: the phases and events, the :class:`State`
value with its invariants (R12), and the transitions (:meth:`State.step`).
What a roll allows is decided in :mod:`finishline.rules`; a state asks it once
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
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from finishline import rules
from finishline.actions import Action, Double, Play, Roll, Sideways
from finishline.board import Cell
from finishline.config import Config
from finishline.errors import IllegalAction, InvalidConfig, InvalidState, brief

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


class Perft(NamedTuple):
    """Whole-roll counts of a state about to roll: see :func:`perft`."""

    #: Legal actions summed over the 36 ordered rolls.
    choices: int
    #: Ordered rolls that forfeit the turn.
    forfeits: int


_EMPTY_BOARD: rules.Board = (None,) * 24


@dataclass(frozen=True, slots=True, repr=False)
class State:
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
    board: rules.Board = _EMPTY_BOARD
    #: For each player, the counters across the finish line.
    across: tuple[int, ...] = ()
    #: For each player, the counters in hand (R12.3): derived.
    hand: tuple[int, ...] = field(init=False, compare=False)
    _legal: dict[Action, rules.Outcome] | None = field(init=False, compare=False, default=None)

    def __post_init__(self) -> None:
        _validate(self)

    def __copy__(self) -> State:
        return self  # a value: a copy is the same state

    def __deepcopy__(self, memo: dict[int, object]) -> State:
        return self

    def __repr__(self) -> str:
        from finishline.notation import format_state

        return f"State({format_state(self)!r})"

    def _repr_svg_(self) -> str:
        """Return the picture of :func:`finishline.svg.state_svg`, for notebooks."""
        from finishline.svg import state_svg

        return state_svg(self)

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

    def _outcomes(self) -> dict[Action, rules.Outcome]:
        legal = self._legal
        if legal is None:
            if self.dice is None:
                legal = {}
            else:
                me = self.player
                legal = rules.legal_actions(
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
        """Return the ids of the rules that decide what ``action`` does, in the spec's order.

        They are the rules the engine applies when it decides the action:
        for an illegal action, the rule that refuses it comes first, the one
        :class:`IllegalAction` names.

        >>> from finishline.notation import parse_action, parse_state
        >>> state = parse_state('..../..../..../..../0.../0... 0/0 0c56')
        >>> state.action_rules(parse_action('A5^,A6^'))  # only the 5 first frees A5
        ('R3.4', 'R4.4', 'R6.1')
        >>> state.action_rules(parse_action('+A4'))
        ('R4.2',)
        """
        why: set[str] = set()
        try:
            self._decide(action, why)
        except IllegalAction as refusal:
            return (refusal.rule, *_in_spec_order(why - {refusal.rule}))
        return _in_spec_order(why)

    def choice_rules(self) -> tuple[str, ...]:
        """Return the ids of the rules that decide which actions are legal, in the spec's order.

        >>> from finishline.notation import parse_state
        >>> parse_state('..../..../..../0.../0.../.... 4/0 0c25').choice_rules()
        ('R4.2', 'R5.1', 'R6.4', 'R7.1', 'R7.4', 'R8.3', 'N2.6')
        >>> new_game().choice_rules()
        ('R3.2',)
        """
        if self.phase is Phase.OVER:
            return ("R10.2",)
        if self.phase is Phase.ROLL:
            return ("R3.2",)
        return _in_spec_order(self._trace().choice)

    def _trace(self) -> rules.Trace:
        """Return the record of the rules that decide this choosing state's legal actions."""
        assert self.dice is not None
        trace = rules.Trace()
        me = self.player
        rules.legal_actions(self.board, me, self.hand[me], self.across[me], self.dice, trace)
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
            rule, reason = rules.diagnose(
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
        self, board: rules.Board, across: tuple[int, ...], why: set[str] | None = None
    ) -> State:
        """Return the next player's turn (R2.5, R3.4) on ``board``."""
        player = (self.player + 1) % self.config.players
        if why is not None and self.config.players > 2:
            why.add("R2.5")  # with two players, either way round is the same
        return _successor(self, player, Phase.ROLL, None, board, across)

    def _refuse(self, reason: str, rule: str, action: object) -> IllegalAction:
        from finishline.notation import format_state

        return IllegalAction(reason, rule, format_state(self), action)


def _in_spec_order(ids: set[str]) -> tuple[str, ...]:
    """Return rule ids in the order of the spec: chapters R before N, then by number."""

    def key(rule: str) -> tuple[bool, tuple[int, ...]]:
        return rule[0] != "R", tuple(int(part) for part in rule[1:].split("."))

    return tuple(sorted(ids, key=key))


def new_game(config: Config | None = None, first_player: int = 0) -> State:
    """Return the opening state: an empty board, every counter in hand, ``first_player`` to roll.

    >>> new_game(Config(players=3), first_player=2)
    State('..../..../..../..../..../.... 0/0/0 2r')
    """
    if config is None:
        config = Config()
    if not isinstance(config, Config):
        raise InvalidConfig(f"config must be a Config value, not {brief(config)}", "R11.1")
    if (
        not isinstance(first_player, int)
        or isinstance(first_player, bool)
        or not 0 <= first_player < config.players
    ):
        raise InvalidConfig(
            f"first_player must be a player from 0 to {config.players - 1}, "
            f"not {brief(first_player)}",
            "R2.4",
        )
    return State(config, first_player, Phase.ROLL)


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
    board: rules.Board,
    across: tuple[int, ...],
) -> State:
    """Build a state that the rules produced, without checking R12 again."""
    new: State = object.__new__(State)
    set_ = object.__setattr__
    set_(new, "config", state.config)
    set_(new, "player", player)
    set_(new, "phase", phase)
    set_(new, "dice", dice)
    set_(new, "board", board)
    set_(new, "across", across)
    counters = state.config.counters
    set_(
        new,
        "hand",
        tuple(counters - across[p] - board.count(p) for p in range(state.config.players)),
    )
    set_(new, "_legal", None)
    return new


# -- invariants (R12) --------------------------------------------------------------


def _validate(state: State) -> None:
    """Normalise the fields of a new state and check the invariants of R12."""
    set_ = object.__setattr__
    config = state.config
    if not isinstance(config, Config):
        raise InvalidState(f"config must be a Config value, not {brief(config)}", "R11.1")
    n = config.players
    board = _read_board(state.board, n)
    set_(state, "board", board)
    across = state.across if state.across != () else (0,) * n
    if not isinstance(across, tuple | list) or len(across) != n:
        raise InvalidState(f"across must hold one count for each of {n} players", "R12.3")
    for p, count in enumerate(across):
        if not isinstance(count, int) or isinstance(count, bool) or count < 0:
            raise InvalidState(
                f"player {p}'s counters across must be a number from 0, not {brief(count)}",
                "R12.3",
            )
    across = tuple(across)
    set_(state, "across", across)
    hand = []
    for p in range(n):
        on_board = board.count(p)
        if on_board + across[p] > config.counters:
            raise InvalidState(
                f"player {p} has {on_board} counters on the board and {across[p]} across, "
                f"more than {config.counters}",
                "R12.3",
            )
        hand.append(config.counters - on_board - across[p])
    set_(state, "hand", tuple(hand))
    player = state.player
    if not isinstance(player, int) or isinstance(player, bool) or not 0 <= player < n:
        raise InvalidState(f"player must be from 0 to {n - 1}, not {brief(player)}", "R12.4")
    phase = state.phase
    if not isinstance(phase, Phase):
        raise InvalidState(f"phase must be a Phase, not {brief(phase)}", "R12.4")
    finished = [p for p in range(n) if across[p] == config.counters]
    if len(finished) > 1:
        raise InvalidState(
            f"players {finished[0]} and {finished[1]} both have every counter across; "
            "the game ends with the first",
            "R10.1",
        )
    if phase is Phase.OVER:
        if not finished:
            raise InvalidState(
                "the game is over only when a player has all counters across", "R10.1"
            )
        if finished[0] != player:
            raise InvalidState(
                f"a finished game's player is its winner, {finished[0]}, not {player}", "R10.1"
            )
    elif finished:
        raise InvalidState(
            f"player {finished[0]} has every counter across, so the game is over", "R10.1"
        )
    dice = state.dice
    if phase is Phase.CHOOSE:
        if (
            not isinstance(dice, tuple | list)
            or len(dice) != 2
            or not all(isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= 6 for d in dice)
        ):
            raise InvalidState(f"a state choosing needs two dice 1 to 6, not {brief(dice)}", "R4.1")
        a, b = dice
        set_(state, "dice", (a, b) if a <= b else (b, a))
        set_(state, "_legal", None)
        if not state._outcomes():
            raise InvalidState(
                "these dice offer no legal action: the roll forfeits the turn", "R9.1"
            )
    elif dice is not None:
        raise InvalidState(
            f"only a state choosing has dice, not one in phase {phase.name}", "R12.4"
        )
    else:
        set_(state, "_legal", None)


def _read_board(board: object, players: int) -> rules.Board:
    """Return a board from a sequence of 24 owners, checking each (R12.1)."""
    if isinstance(board, Sequence) and not isinstance(board, str) and len(board) == 24:
        cells: list[object] = list(board)
    else:
        raise InvalidState(f"a board has 24 cells, not {brief(board)}", "R12.1")
    for c, owner in enumerate(cells):
        if owner is not None and (
            not isinstance(owner, int) or isinstance(owner, bool) or not 0 <= owner < players
        ):
            raise InvalidState(
                f"{Cell(c)} names player {brief(owner)}; the players are 0 to {players - 1}",
                "R12.1",
            )
    return tuple(cells)  # type: ignore[arg-type]  # each entry was checked above
