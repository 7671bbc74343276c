"""Reinforcement-learning environments, and the action numbering and observation they share.

The environments live in submodules, each behind the ``rl`` extra (from a
clone of the repository: ``pip install -e '.[rl]'``) and each importing its
framework only inside itself:

* :mod:`cantstop.envs.gymnasium`: :class:`~cantstop.envs.gymnasium.CantStopEnv`,
  solitaire Can't Stop as a Gymnasium environment, registered as
  ``cantstop/Solitaire-v0`` when that module is imported;
* :mod:`cantstop.envs.pettingzoo`: :class:`~cantstop.envs.pettingzoo.CantStopAEC`,
  the game for 2 to 4 players as a PettingZoo AEC environment.

This module needs NumPy only.  It holds what is particular to Can't Stop in
them and in the OpenSpiel game (:mod:`cantstop.openspiel`): the numbering of
the decisions, the legal decisions of a state, the observation vector, the
potential that shaping pays and the bound on a turn's length.  None of it
decides a rule: the legal moves, whether a stop is allowed and every next
state come from the engine (:meth:`cantstop.State.legal_moves`,
:meth:`cantstop.State.decisions`, :meth:`cantstop.State.apply`).  What does
not depend on the game (the rewards of an outcome, the turn limit, shaping)
is written once, in the layer (:mod:`dicekit.rewards`), apart from the
frameworks' glue.

Every game the adapters run ends: after :data:`MAX_TURNS` turns (all
players' turns counted) without a winner, by default, the game is cut short,
which the environments report as truncation and OpenSpiel as a terminal
state where every player's return is 0 (see the documentation page "Use with
OpenSpiel, Gymnasium and PettingZoo" for the rewards).

**Decisions** are numbered once for all adapters (:data:`NUM_ACTIONS` = 79):

====================  ===================================================
number                decision
====================  ===================================================
0 (:data:`STOP`)      stop and keep the turn's progress (R11)
1 (:data:`ROLL`)      roll again (R3.4); the dice are chance's to throw
2 to 12               the move that plays the one sum ``n``: ``Move((n,))``
13 to 78              the move that plays two sums ``a+b`` (a <= b), in
                      the order 2+2, 2+3, ... 2+12, 3+3, ... 12+12
====================  ===================================================

>>> action_index(Move((7, 10))), action_index(Move((5,))), action_index(Stop())
(61, 5, 0)
>>> decision(61), decision(ROLL)
(Move(columns=(7, 10)), <Chance.ACT: 'chance'>)

**The mask** of a state marks its legal decisions (:func:`legal_decisions`).
Once an episode has ended (won, cut short by the turn limit, or ended by an
illegal decision), the Gymnasium environments mark decision 0 alone
(:func:`ended_mask`), though nothing is legal any more.  A vector
environment asks its policy for an action for every game at every step, an
ended game included: in Gymnasium's default next-step autoreset mode that
action is taken and ignored while the game starts again.  A masked policy
cannot draw from an all-zero mask (a softmax over no decision is undefined,
and learners turn it into NaN or an error), while over one decision it is
certain: the ignored step is well defined and, having a single choice,
gives a policy-gradient learner no gradient.

**The observation** (:func:`observation`) is a flat ``float32`` vector of
``50 + 23 * players`` numbers, made of these fields in this order (``n`` is
the number of players; players are counted from the observer, who is
player 0 of the vector, then the next to play after them, and so on;
columns run from 2 to 12):

=========  =========  =======================================================
field      size       content
=========  =========  =======================================================
current    n          1 for the player to act (or to roll); all 0 once over
phase      4          one-hot: dice awaited, choosing, deciding, over
dice       24         while choosing: the four sorted dice, each one-hot of 6
markers    11         the space of the column's neutral marker / its height
squares    11 * n     each player's square in the column: space / height
won        11 * n     1 where the player has won the column
board      11         1 where the board has the column (custom boards)
=========  =========  =======================================================

>>> from cantstop import parse_state
>>> vector = observation(parse_state('7:2/- 7:4 0c1256'), observer=0)
>>> len(vector), observation_size(2)
(96, 96)
>>> fields = observation_fields(2)
>>> list(fields)[:4], fields['dice'].stop - fields['dice'].start
(['current', 'phase', 'dice', 'markers'], 24)
>>> float(vector[fields['markers']][7 - 2])  # marker on space 4 of 13 in column 7
0.3076923...
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from types import MappingProxyType

import numpy as np
import numpy.typing as npt

from cantstop.actions import Move, Stop
from cantstop.board import COLUMNS, MARKERS
from cantstop.config import Rules
from cantstop.state import Phase, State
from dicekit.protocol import CHANCE, Chance

__all__ = [
    "MAX_TURNS",
    "NUM_ACTIONS",
    "ROLL",
    "STOP",
    "Decision",
    "action_index",
    "decision",
    "ended_mask",
    "legal_decisions",
    "max_moves_per_turn",
    "observation",
    "observation_fields",
    "observation_size",
    "progress",
    "stop_allowed",
]

#: The decision to stop.
STOP = 0
#: The decision to roll again.
ROLL = 1
#: Every column pair a move can name, in the order of their numbers from 13.
_PAIRS: tuple[tuple[int, int], ...] = tuple((a, b) for a in COLUMNS for b in COLUMNS if a <= b)
#: How many decisions are numbered.
NUM_ACTIONS = 13 + len(_PAIRS)

#: The turn limit of every adapter, unless given: a game that has run this
#: many turns (all players' turns counted) without a winner is cut short.  It
#: is far above the length of games that end in a win, even between random
#: players (``python -m benchmarks.lengths``).
MAX_TURNS = 1000

_MOVES: tuple[Move | None, ...] = (
    None,
    None,
    *(Move((column,)) for column in COLUMNS),
    *(Move(pair) for pair in _PAIRS),
)
_INDEX: dict[tuple[int, ...], int] = {
    move.columns: i for i, move in enumerate(_MOVES) if move is not None
}
_STOP = Stop()

#: A decision: a move, a stop, or :data:`dicekit.protocol.CHANCE` for rolling again.
Decision = Move | Stop | Chance


def action_index(action: Move | Stop) -> int:
    """Return the number of a move or a stop (see the module docstring).

    >>> action_index(Move((2, 2))), action_index(Move((12, 12)))
    (13, 78)
    """
    if isinstance(action, Stop):
        return STOP
    return _INDEX[action.columns]


def decision(index: int) -> Decision:
    """Return the decision numbered ``index``: a :class:`~cantstop.Move`, a stop or ``CHANCE``.

    >>> decision(0), decision(12)
    (Stop(), Move(columns=(12,)))
    """
    if not 0 <= index < NUM_ACTIONS:
        raise ValueError(f"decisions are numbered 0 to {NUM_ACTIONS - 1}, not {index}")
    if index == STOP:
        return _STOP
    if index == ROLL:
        return CHANCE
    move = _MOVES[index]
    assert move is not None
    return move


def ended_mask() -> npt.NDArray[np.int8]:
    """Return the mask of an ended episode: 79 numbers, 1 for decision 0 (:data:`STOP`) alone.

    See the module docstring for why an ended episode's mask is not all zero.

    >>> [int(d) for d in np.flatnonzero(ended_mask())]
    [0]
    """
    mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
    mask[STOP] = 1
    return mask


def legal_decisions(state: State) -> list[int]:
    """Return the numbers of the decisions open to the player to act, in increasing order.

    Choosing: the legal moves.  Deciding: roll again, and stop unless the
    rules forbid the stop (Variant B, R14.2).  Otherwise (dice awaited, game
    over) there is no decision.

    >>> from cantstop import parse_state
    >>> legal_decisions(parse_state('-/- 7:2,8:1 0c1256'))  # 3, 6+8, 7+7, 11
    [3, 11, 53, 58]
    >>> legal_decisions(parse_state('-/7:3 7:3 0d B'))  # no stop on their square
    [1]
    """
    phase = state.phase
    if phase is _CHOOSE:
        return sorted([_INDEX[move.columns] for move in state.legal_moves()])
    if phase is _DECIDE:
        return [STOP, ROLL] if state.decisions().may_stop else [ROLL]
    return []


def stop_allowed(state: State) -> bool:
    """Return whether the rules allow a stop in ``state``: after a move, unless R14.2 forbids it.

    >>> from cantstop import parse_state
    >>> stop_allowed(parse_state('-/- 7:1 0d')), stop_allowed(parse_state('-/7:3 7:3 0d B'))
    (True, False)
    >>> stop_allowed(parse_state('-/- - 0r'))  # a turn starts with a roll (R11.1)
    False
    """
    return state.decisions().may_stop


def max_moves_per_turn(rules: Rules) -> int:
    """Return the most moves one turn can hold: the spaces of the three tallest columns.

    Every move lifts a neutral marker by at least one space (R5), a turn has
    three markers (R1.4) and none climbs past its column's top, so a turn
    has at most that many moves, each followed by one decision to stop or
    roll again.  The OpenSpiel game's ``max_game_length`` is built on it.

    >>> max_moves_per_turn(Rules())  # columns 7, 6 and 8: 13 + 11 + 11
    35
    >>> max_moves_per_turn(Rules(heights={7: 2, 8: 1}, columns_to_win=1))
    3
    """
    return sum(sorted(rules.heights.values(), reverse=True)[:MARKERS])


@functools.cache
def observation_fields(players: int) -> Mapping[str, slice]:
    """Return where each field of the observation lies, by name (see the module docstring)."""
    sizes = {
        "current": players,
        "phase": 4,
        "dice": 24,
        "markers": 11,
        "squares": 11 * players,
        "won": 11 * players,
        "board": 11,
    }
    fields = {}
    start = 0
    for name, size in sizes.items():
        fields[name] = slice(start, start + size)
        start += size
    return MappingProxyType(fields)


def observation_size(players: int) -> int:
    """Return the length of the observation vector for ``players`` players."""
    return 50 + 23 * players


_ROLL, _CHOOSE, _DECIDE, _OVER = Phase.ROLL, Phase.CHOOSE, Phase.DECIDE, Phase.OVER


class _Layout:
    """Where the observation of a configuration puts each field, worked out once per rules.

    Each offset is the index of column 0 of its field, so that column ``c``
    is at ``offset + c``; the squares and the won columns of the player
    ``k`` seats after the observer are ``11 * k`` further.  The squares of a
    game change only when a turn ends, and the engine hands the same tuple of
    them from state to state within a turn, so the part of the vector they
    fill is kept for the last tuple seen by each observer.
    """

    def __init__(self, rules: Rules) -> None:
        n = rules.players
        fields = observation_fields(n)
        self.players = n
        self.heights = dict(rules.heights.items())
        self.current = fields["current"].start
        self.phase = fields["phase"].start
        self.dice = fields["dice"].start - 1
        self.markers = fields["markers"].start - 2
        self.squares = fields["squares"].start - 2
        self.won = fields["won"].start - 2
        self.blank = np.zeros(observation_size(n), dtype=np.float32)
        for column in self.heights:
            self.blank[fields["board"].start - 2 + column] = 1
        self._boards: dict[int, tuple[tuple[Mapping[int, int], ...], npt.NDArray[np.float32]]] = {}

    def board(self, state: State, observer: int) -> npt.NDArray[np.float32]:
        """Return a vector with the board, the squares and the won columns filled in; keep it."""
        squares = state.squares
        kept = self._boards.get(observer)
        if kept is not None and kept[0] is squares:
            return kept[1]
        n = self.players
        heights = self.heights
        vector = self.blank.copy()
        for p, theirs in enumerate(squares):
            start = self.squares + 11 * ((p - observer) % n)
            for column, space in theirs.items():
                vector[start + column] = space / heights[column]
        for column, owner in state.won.items():
            vector[self.won + 11 * ((owner - observer) % n) + column] = 1
        self._boards[observer] = (squares, vector)
        return vector


#: Layouts by the identity of their rules, which each entry keeps alive: the
#: environments ask with the same rules at every step, and an identity
#: lookup is cheaper than hashing the rules.
_LAYOUTS: dict[int, tuple[Rules, _Layout]] = {}


def _layout(rules: Rules) -> _Layout:
    """Return the layout of ``rules``, made once per rules object."""
    entry = _LAYOUTS.get(id(rules))
    if entry is not None and entry[0] is rules:
        return entry[1]
    if len(_LAYOUTS) >= 64:
        _LAYOUTS.clear()
    layout = _Layout(rules)
    _LAYOUTS[id(rules)] = (rules, layout)
    return layout


def observation(
    state: State, observer: int, *, awaiting_dice: bool = False
) -> npt.NDArray[np.float32]:
    """Return the observation vector of ``state`` as player ``observer`` sees it.

    ``awaiting_dice`` marks a state whose player has chosen to roll again and
    waits for the dice (the phase is then "dice awaited", as at the start of
    a turn).
    """
    layout = _layout(state.rules)
    vector = layout.board(state, observer).copy()
    phase = state.phase
    if phase is _OVER:
        number = 3
    else:
        vector[layout.current + (state.player - observer) % layout.players] = 1
        number = 0 if awaiting_dice or phase is _ROLL else 1 if phase is _CHOOSE else 2
    vector[layout.phase + number] = 1
    dice = state.dice
    if dice is not None:
        start = layout.dice
        vector[start + dice[0]] = 1
        vector[start + 6 + dice[1]] = 1
        vector[start + 12 + dice[2]] = 1
        vector[start + 18 + dice[3]] = 1
    start = layout.markers
    heights = layout.heights
    for column, space in state.markers.items():
        vector[start + column] = space / heights[column]
    return vector


def progress(state: State, player: int) -> float:
    """Return the shaping potential of ``player``: the fraction of the board their squares climb.

    The sum, over the board's columns, of the player's square space over the
    column's height, divided by the number of columns to win: 1.0 means as
    much climbing as winning needs.  Environments that shape rewards pay the
    discounted change of this potential.

    >>> from cantstop import parse_state
    >>> progress(parse_state('2:3,12:3/- - 0r'), 0)  # two whole columns of three to win
    0.666...
    """
    heights = _layout(state.rules).heights
    climbed = sum(space / heights[column] for column, space in state.squares[player].items())
    return climbed / state.rules.columns_to_win
