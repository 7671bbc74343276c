"""One game as the environments run it: seeded dice, decisions by number, its board drawn."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import numpy.typing as npt

from cantstop.actions import Action, Roll
from cantstop.config import Rules
from cantstop.dice import ORDERED_ROLLS
from cantstop.envs import NUM_ACTIONS, ROLL, decision, legal_decisions
from cantstop.state import Phase, State, new_game
from cantstop.svg import state_svg
from cantstop.text import render_board
from dicekit.protocol import Chance

_ROLL, _OVER = Phase.ROLL, Phase.OVER
#: The engine action of each decision number but roll again (which is chance's).
_ACTIONS: dict[int, Action] = {
    i: chosen for i in range(NUM_ACTIONS) if not isinstance(chosen := decision(i), Chance)
}
#: The place value of each die in the index of an ordered roll.
_PLACES = np.array([216, 36, 6, 1])


class _Dice:
    """Rolls of four dice drawn from a NumPy generator, 64 rolls at a time.

    NumPy fills an array of draws in order, so a batch holds the very rolls
    that 64 draws of four dice would give, one after the other, at a small
    part of the cost of a call each.  The generator runs ahead by the rest
    of a batch; what is left of it serves the next game of an environment
    that is reset without a new seed.
    """

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng
        self._rolls: list[int] = []

    def roll(self) -> Roll:
        """Return the next roll."""
        if not self._rolls:
            batch = (self.rng.integers(1, 7, size=(64, 4)) - 1) @ _PLACES
            self._rolls = batch[::-1].tolist()
        return ORDERED_ROLLS[self._rolls.pop()]


class _Table:
    """A game in which chance throws the dice and the players make the decisions.

    The dice come from a NumPy generator (the environment's ``np_random``,
    through :class:`_Dice`), so a seed fixes the game for given decisions.
    After every call the game waits for a decision (choosing or deciding), is
    over, or has reached its turn limit: once ``max_turns`` turns have ended,
    no new turn starts and the game stays where it is, waiting for dice
    nobody throws.

    ``turns`` counts the turns begun and ``ended`` those ended, by a stop, a
    bust or the win; ``legal`` holds the legal decisions of ``state``, found
    once per state.
    """

    def __init__(self, rules: Rules, dice: _Dice, max_turns: int) -> None:
        self.dice = dice
        self.max_turns = max_turns
        self.state: State = new_game(rules)
        self.turns = 0
        self.ended = 0
        self.legal: list[int] = []
        self._roll_while_due()

    @property
    def over(self) -> bool:
        """Whether somebody has won."""
        return self.state.phase is _OVER

    @property
    def cut_short(self) -> bool:
        """Whether the turn limit has ended the game without a winner."""
        return self.ended >= self.max_turns and self.state.phase is not _OVER

    def _throw(self) -> Roll:
        return self.dice.roll()

    def _take(self, state: State) -> None:
        """Take ``state`` as the game's; reaching a turn's start or the game's end ends a turn."""
        phase = state.phase
        if phase is _ROLL or phase is _OVER:
            self.ended += 1
        self.state = state

    def _roll_while_due(self) -> None:
        while self.state.phase is _ROLL and self.ended < self.max_turns:
            self.turns += 1  # a turn starts with a roll (R3.2)
            self._take(self.state.apply(self._throw()))
        self.legal = legal_decisions(self.state)

    def play(self, index: int) -> bool:
        """Play decision number ``index``; return ``False``, changing nothing, if illegal."""
        if index not in self.legal:
            return False
        action = self._throw() if index == ROLL else _ACTIONS[index]
        self._take(self.state.apply(action))
        self._roll_while_due()
        return True

    def mask(self) -> npt.NDArray[np.int8]:
        """Return the mask of legal decisions: 1 for each legal number."""
        mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
        for index in self.legal:  # a few: cheaper one by one than as an index array
            mask[index] = 1
        return mask


def running(table: _Table | None, refuse: Callable[[str], Exception], calls: str) -> _Table:
    """Return the game being played; before the first reset, raise ``refuse`` naming ``calls``."""
    if table is None:
        raise refuse(f"call reset() before {calls}")
    return table


def check_render_mode(render_mode: str | None, modes: Sequence[str]) -> None:
    """Raise ``ValueError`` unless ``render_mode`` is ``None`` or one of ``modes``."""
    if render_mode not in (None, *modes):
        raise ValueError(f"render_mode must be None, 'human', 'ansi' or 'svg', not {render_mode!r}")


def dice_for(dice: _Dice | None, rng: np.random.Generator) -> _Dice:
    """Return ``dice`` if they are ``rng``'s, else new dice that ``rng`` throws.

    An environment keeps its dice from game to game until it is given a new seed.
    """
    return dice if dice is not None and dice.rng is rng else _Dice(rng)


def render_state(render_mode: str | None, running: Callable[[], State]) -> str | None:
    """Return the board as text (``"ansi"``) or SVG (``"svg"``); print it (``"human"``).

    The state is asked of ``running`` only when there is a board to draw, so
    that without a render mode there is nothing to draw, before a reset too.
    """
    if render_mode == "ansi":
        return render_board(running())
    if render_mode == "svg":
        return state_svg(running())
    if render_mode == "human":
        print(render_board(running()), end="\n\n")
    return None
