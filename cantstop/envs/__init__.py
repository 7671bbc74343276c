"""Reinforcement-learning environments, and the action numbering and observation they share.

The environments live in submodules, each behind the ``rl`` extra
(``pip install 'cantstop[rl]'``) and each importing its framework only
inside itself:

* :mod:`cantstop.envs.gymnasium`: :class:`~cantstop.envs.gymnasium.CantStopEnv`,
  solitaire Can't Stop as a Gymnasium environment;
* :mod:`cantstop.envs.pettingzoo`: :class:`~cantstop.envs.pettingzoo.CantStopAEC`,
  the game for 2 to 4 players as a PettingZoo AEC environment.

This module needs NumPy only.  It holds what they and the OpenSpiel game
(:mod:`cantstop.openspiel`) have in common: the numbering of the decisions,
the legal decisions of a state, and the observation vector.  None of it
decides a rule: the legal moves, whether a stop is allowed and every next
state come from the engine (:meth:`cantstop.State.legal_moves`,
:meth:`cantstop.State.apply`).

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
(Move(columns=(7, 10)), 'roll')

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
from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import Literal

import numpy as np
import numpy.typing as npt

from cantstop.actions import Move, Roll, Stop
from cantstop.errors import IllegalAction
from cantstop.game import Phase, State, new_game
from cantstop.rules import COLUMNS, Rules

__all__ = [
    "NUM_ACTIONS",
    "ROLL",
    "STOP",
    "Decision",
    "action_index",
    "decision",
    "legal_decisions",
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

#: A decision: a move, a stop, or ``'roll'`` for rolling again.
Decision = Move | Stop | Literal["roll"]


def action_index(action: Move | Stop) -> int:
    """Return the number of a move or a stop (see the module docstring).

    >>> action_index(Move((2, 2))), action_index(Move((12, 12)))
    (13, 78)
    """
    if isinstance(action, Stop):
        return STOP
    return _INDEX[action.columns]


def decision(index: int) -> Decision:
    """Return the decision numbered ``index``: a :class:`~cantstop.Move`, a stop or ``'roll'``.

    >>> decision(0), decision(12)
    (Stop(), Move(columns=(12,)))
    """
    if not 0 <= index < NUM_ACTIONS:
        raise ValueError(f"decisions are numbered 0 to {NUM_ACTIONS - 1}, not {index}")
    if index == STOP:
        return _STOP
    if index == ROLL:
        return "roll"
    move = _MOVES[index]
    assert move is not None
    return move


def legal_decisions(state: State) -> list[int]:
    """Return the numbers of the decisions open to the player to act, in increasing order.

    Choosing: the legal moves.  Deciding: roll again, and stop unless the
    engine refuses the stop (Variant B, R14.2).  Otherwise (dice awaited, game
    over) there is no decision.

    >>> from cantstop import parse_state
    >>> legal_decisions(parse_state('-/- 7:2,8:1 0c1256'))  # 3, 6+8, 7+7, 11
    [3, 11, 53, 58]
    >>> legal_decisions(parse_state('-/7:3 7:3 0d B'))  # no stop on their square
    [1]
    """
    if state.phase is Phase.CHOOSE:
        return sorted(_INDEX[move.columns] for move in state.legal_moves())
    if state.phase is Phase.DECIDE:
        return [STOP, ROLL] if stop_allowed(state) else [ROLL]
    return []


def stop_allowed(state: State) -> bool:
    """Return whether the engine accepts a stop in ``state``."""
    try:
        state.apply(_STOP)
    except IllegalAction:
        return False
    return True


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


_PHASE_NUMBER = {Phase.ROLL: 0, Phase.CHOOSE: 1, Phase.DECIDE: 2, Phase.OVER: 3}


def _items(mapping: Mapping[int, int]) -> Iterable[tuple[int, int]]:
    """Return the items of a column map, from its dict when it has one (a state's maps do)."""
    plain: Mapping[int, int] = getattr(mapping, "_dict", mapping)
    return plain.items()


def observation(
    state: State, observer: int, *, awaiting_dice: bool = False
) -> npt.NDArray[np.float32]:
    """Return the observation vector of ``state`` as player ``observer`` sees it.

    ``awaiting_dice`` marks a state whose player has chosen to roll again and
    waits for the dice (the phase is then "dice awaited", as at the start of
    a turn).
    """
    rules = state.rules
    n = rules.players
    heights = dict(_items(rules.heights))
    fields = observation_fields(n)
    vector = np.zeros(observation_size(n), dtype=np.float32)
    phase = state.phase
    if phase is not Phase.OVER:
        vector[fields["current"].start + (state.player - observer) % n] = 1
    vector[fields["phase"].start + (0 if awaiting_dice else _PHASE_NUMBER[phase])] = 1
    if state.dice is not None:
        start = fields["dice"].start - 1
        for i, die in enumerate(state.dice):
            vector[start + 6 * i + die] = 1
    start = fields["markers"].start - 2
    for column, space in _items(state.markers):
        vector[start + column] = space / heights[column]
    squares = fields["squares"].start - 2
    for p in range(n):
        start = squares + 11 * ((p - observer) % n)
        for column, space in _items(state.squares[p]):
            vector[start + column] = space / heights[column]
    start = fields["won"].start - 2
    for column, owner in _items(state.won):
        vector[start + 11 * ((owner - observer) % n) + column] = 1
    start = fields["board"].start - 2
    for column in heights:
        vector[start + column] = 1
    return vector


def progress(state: State, player: int) -> float:
    """Return the shaping potential of ``player``: the fraction of the board their squares climb.

    The sum, over the board's columns, of the player's square space over the
    column's height, divided by the number of columns to win: 1.0 means as
    much climbing as winning needs.  Environments that shape rewards pay the
    change of this potential.

    >>> from cantstop import parse_state
    >>> progress(parse_state('2:3,12:3/- - 0r'), 0)  # two whole columns of three to win
    0.666...
    """
    heights = dict(_items(state.rules.heights))
    climbed = sum(space / heights[column] for column, space in _items(state.squares[player]))
    return climbed / state.rules.columns_to_win


class _Table:
    """One game as the environments run it: chance throws the dice, players decide.

    The dice come from a NumPy generator (the environment's ``np_random``), so
    a seed fixes the game for given decisions.  After every call the game
    waits for a decision (choosing or deciding) or is over.  ``turns`` counts
    the turns begun, as :func:`cantstop.simulate.play_game` does.
    """

    def __init__(self, rules: Rules, rng: np.random.Generator) -> None:
        self.rng = rng
        self.state = new_game(rules)
        self.turns = 1
        self._roll_while_due()

    def _throw(self) -> Roll:
        a, b, c, d = (int(die) for die in self.rng.integers(1, 7, size=4))
        return Roll((a, b, c, d))

    def _after(self, state: State) -> None:
        """Take ``state`` as the game's; a turn that passed without a win starts another."""
        if state.phase is Phase.ROLL:
            self.turns += 1
        self.state = state

    def _roll_while_due(self) -> None:
        while self.state.phase is Phase.ROLL:  # a turn starts with a roll (R3.2)
            self._after(self.state.apply(self._throw()))

    def play(self, index: int) -> bool:
        """Play decision number ``index``; return ``False``, changing nothing, if illegal."""
        if index not in legal_decisions(self.state):
            return False
        chosen = decision(index)
        if chosen == "roll":
            self._after(self.state.apply(self._throw()))
        else:
            assert not isinstance(chosen, str)
            self._after(self.state.apply(chosen))
        self._roll_while_due()
        return True

    def mask(self) -> npt.NDArray[np.int8]:
        """Return the mask of legal decisions: 1 for each legal number."""
        mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
        mask[legal_decisions(self.state)] = 1
        return mask
