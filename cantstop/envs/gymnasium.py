"""Solitaire Can't Stop as a Gymnasium environment (extra ``rl``).

Importing this module registers it as ``cantstop/Solitaire-v0``:
``gymnasium.make("cantstop/Solitaire-v0")`` makes a :class:`CantStopEnv`
(``gymnasium.make("cantstop.envs.gymnasium:cantstop/Solitaire-v0")`` imports
the module itself).

One episode is one solitaire game.  The agent makes the game's decisions
(numbered as in :mod:`cantstop.envs`): a move when the dice are on the
table, and stop or roll again after a move.  Chance, the rolls, is the
environment's: it throws the dice from its ``np_random`` generator whenever
a roll is due, so the same seed and the same actions give the same game.
A bust passes the turn (to the same player, in solitaire) and the
environment rolls for the new turn at once.

**Observation**: a dict of ``observation`` (the vector of
:func:`cantstop.envs.observation`, with the dice and the phase) and
``action_mask`` (79 numbers, 1 for each legal decision; once the episode
has ended, 1 for decision 0 alone, :func:`cantstop.envs.ended_mask`, so that
a masked policy in a vector environment always has a decision to draw).
:meth:`CantStopEnv.action_masks` returns the same mask as booleans, where
sb3-contrib's ``MaskablePPO`` looks for it.

**Reward** (``reward``): with ``"turns"``, the default, -1 for every turn
that ends (by a stop, a bust or the win), so that an episode returns minus
the number of turns the game took and the best policy wins in the fewest
turns; with ``"win"``, 1 when the game is won and 0 otherwise.  The episode
terminates when the game is won, and is truncated once ``max_turns`` turns
(:data:`cantstop.envs.MAX_TURNS` by default) have ended without a win.
With ``shaping`` non-zero, each step also pays
``shaping * (gamma * phi(s') - phi(s))``, where ``phi`` is
:func:`cantstop.envs.progress` and is 0 once the game is won: a
potential-based shaping, off by default, which leaves the best policy
unchanged for a learner whose discount is ``gamma``.  An action the mask
forbids ends the episode with ``illegal_reward`` (-1) alone and
``info["illegal_action"]``; the game is left as it was.  A step after the
episode has ended raises ``gymnasium.error.ResetNeeded``.

``info`` holds ``turns``, the turns begun; :attr:`CantStopEnv.engine_state`
is the game's :class:`~cantstop.State`.  ``render()`` returns the board as
text (``"ansi"``) or as an SVG document (``"svg"``); in ``"human"`` mode the
board is printed after every reset and step.

>>> env = CantStopEnv()
>>> observation, info = env.reset(seed=7)
>>> env.engine_state, info  # the dice 4 5 6 6 make 9+12 or 10+11
(State('- - 0c4566'), {'turns': 1})
>>> [int(a) for a in env.action_masks().nonzero()[0]]
[72, 74]
>>> observation, reward, terminated, truncated, info = env.step(74)
>>> env.engine_state, reward, terminated
(State('- 10:1,11:1 0d'), 0.0, False)
>>> observation, reward, terminated, truncated, info = env.step(0)  # stop: a turn ends
>>> reward, info
(-1.0, {'turns': 2})
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.error import ResetNeeded

from cantstop.config import Rules
from cantstop.envs import (
    MAX_TURNS,
    NUM_ACTIONS,
    ended_mask,
    observation,
    observation_size,
    progress,
)
from cantstop.envs._table import _Dice, _Table, check_render_mode, dice_for, render_state, running
from cantstop.notation import format_state
from cantstop.state import State
from dicekit.rewards import (
    Shaping,
    check_max_turns,
    check_real,
    check_solitaire_reward,
)

__all__ = ["ENV_ID", "CantStopEnv"]

#: The id the environment is registered under.
ENV_ID = "cantstop/Solitaire-v0"

Observation = dict[str, npt.NDArray[Any]]


class _ResetNeeded(ResetNeeded, RuntimeError):
    """Gymnasium's error for a step that needs a reset first; also a ``RuntimeError``."""


class CantStopEnv(gymnasium.Env[Observation, np.int64]):
    """Solitaire Can't Stop (see the module docstring).

    ``rules`` must be a one-player :class:`~cantstop.Rules` (the default is the
    standard board); ``reward`` (``"turns"`` or ``"win"``), ``shaping``,
    ``gamma``, ``illegal_reward`` and ``max_turns`` are described in the
    module docstring; ``render_mode`` is ``None``, ``"human"``, ``"ansi"`` or
    ``"svg"``.
    """

    metadata = {"render_modes": ["human", "ansi", "svg"], "render_fps": 1}  # noqa: RUF012 (gymnasium's own attribute)

    def __init__(
        self,
        render_mode: str | None = None,
        *,
        rules: Rules | None = None,
        reward: str = "turns",
        shaping: float = 0.0,
        gamma: float = 1.0,
        illegal_reward: float = -1.0,
        max_turns: int = MAX_TURNS,
    ) -> None:
        rules = Rules(players=1) if rules is None else rules
        if not isinstance(rules, Rules):
            raise TypeError(f"rules must be a cantstop.Rules, not {rules!r}")
        if rules.players != 1:
            raise ValueError(
                f"the Gymnasium environment is solitaire; for {rules.players} players "
                f"use cantstop.envs.pettingzoo"
            )
        check_render_mode(render_mode, self.metadata["render_modes"])
        self.rules = rules
        self.render_mode = render_mode
        self.reward = check_solitaire_reward(reward)
        self.shaping = check_real("shaping", shaping)
        self.gamma = check_real("gamma", gamma, 0.0, 1.0)
        self.illegal_reward = check_real("illegal_reward", illegal_reward)
        self.max_turns = check_max_turns(max_turns)
        self.observation_space = spaces.Dict(  # type: ignore[assignment]
            {
                "observation": spaces.Box(0.0, 1.0, (observation_size(1),), np.float32),
                "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.int8),
            }
        )
        self.action_space = spaces.Discrete(NUM_ACTIONS)
        self._table: _Table | None = None
        self._dice: _Dice | None = None
        self._shaping = Shaping(self.shaping, self.gamma, [0.0])
        #: Why the episode ended, once it has: None while it runs.
        self._ended: str | None = None

    @property
    def engine_state(self) -> State:
        """The engine's state of the game being played; :meth:`reset` starts a game."""
        return self._running.state

    @property
    def _running(self) -> _Table:
        return running(self._table, _ResetNeeded, "step(), action_masks() or render()")

    def _observe(self) -> Observation:
        table = self._table
        assert table is not None
        mask = table.mask() if self._ended is None else ended_mask()
        return {"observation": observation(table.state, 0), "action_mask": mask}

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """Return the mask as 79 booleans: the legal decisions, or decision 0 alone once ended."""
        if self._ended is not None:
            return ended_mask().astype(np.bool_)
        mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
        mask[self._running.legal] = True
        return mask

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """Start a new game; ``seed`` seeds the dice."""
        super().reset(seed=seed)
        self._dice = dice_for(self._dice, self.np_random)
        table = self._table = _Table(self.rules, self._dice, self.max_turns)
        self._ended = None
        if self.shaping:
            self._shaping = Shaping(self.shaping, self.gamma, [progress(table.state, 0)])
        if self.render_mode == "human":
            self.render()
        return self._observe(), {"turns": table.turns}

    def step(self, action: np.int64 | int) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        """Play decision ``action``; return observation, reward, terminated, truncated, info."""
        table = self._running
        if self._ended is not None:
            raise _ResetNeeded(
                f"the episode has ended ({self._ended}) in state "
                f"{format_state(table.state)!r}; call reset() to start another"
            )
        index = int(action)
        ended = table.ended
        if not table.play(index):
            self._ended = f"decision {index} was not legal"
            info = {"turns": table.turns, "illegal_action": index}
            return self._observe(), self.illegal_reward, True, False, info
        over = table.over
        # -1 for each turn that ended, or 1 for the win.
        reward = float(ended - table.ended) if self.reward == "turns" else float(over)
        if self.shaping:
            reward += self._shaping.pay(0, 0.0 if over else progress(table.state, 0))
        truncated = table.cut_short
        if over:
            self._ended = "the game is won"
        elif truncated:
            self._ended = f"the turn limit of {self.max_turns} turns was reached"
        if self.render_mode == "human":
            self.render()
        return self._observe(), reward, over, truncated, {"turns": table.turns}

    def render(self) -> str | None:
        """Return the board as text (``"ansi"``) or SVG (``"svg"``); print it (``"human"``)."""
        return render_state(self.render_mode, lambda: self._running.state)


gymnasium.register(
    id=ENV_ID,
    entry_point="cantstop.envs.gymnasium:CantStopEnv",
    vector_entry_point="cantstop.envs.vector:SolitaireVectorEnv",
)
