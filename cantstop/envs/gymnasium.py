"""Solitaire Can't Stop as a Gymnasium environment (extra ``rl``).

Importing this module registers it as ``cantstop/Solitaire-v0``:
``gymnasium.make("cantstop/Solitaire-v0")`` makes a :class:`CantStopEnv`.

One episode is one solitaire game.  The agent makes the game's decisions
(numbered as in :mod:`cantstop.envs`): a move when the dice are on the
table, and stop or roll again after a move.  Chance, the rolls, is the
environment's: it throws the dice from its ``np_random`` generator whenever
a roll is due, so the same seed and the same actions give the same game.
A bust passes the turn (to the same player, in solitaire) and the
environment rolls for the new turn at once.

**Observation**: a dict of ``observation`` (the vector of
:func:`cantstop.envs.observation`, with the dice and the phase) and
``action_mask`` (79 numbers, 1 for each legal decision).

**Reward**: 1 when the game is won (the episode then terminates) and 0
otherwise.  With ``shaping`` non-zero, every step also pays ``shaping``
times the change of :func:`cantstop.envs.progress` (the share of the
columns to win that the squares climb): a potential-based shaping, off by
default.  An action the mask forbids ends the episode with
``illegal_reward`` (-1) and ``info["illegal_action"]``; the game is left
as it was.  With ``max_turns``, the episode is truncated once that many
turns have ended without a win.

``info`` holds ``turns``, the turns begun; :attr:`CantStopEnv.engine_state`
is the game's :class:`~cantstop.State`.  ``render()`` returns the board as
text (``"ansi"``) or as an SVG document (``"svg"``).

>>> env = CantStopEnv()
>>> observation, info = env.reset(seed=7)
>>> env.engine_state, info  # the dice 4 5 6 6 make 9+12 or 10+11
(State('- - 0c4566'), {'turns': 1})
>>> [int(a) for a in observation["action_mask"].nonzero()[0]]
[72, 74]
>>> observation, reward, terminated, truncated, info = env.step(74)
>>> env.engine_state, reward, terminated
(State('- 10:1,11:1 0d'), 0.0, False)
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from cantstop.envs import NUM_ACTIONS, _Table, observation, observation_size, progress
from cantstop.game import Phase, State
from cantstop.rules import Rules
from cantstop.svg import state_svg
from cantstop.text import render_board

__all__ = ["ENV_ID", "CantStopEnv"]

#: The id the environment is registered under.
ENV_ID = "cantstop/Solitaire-v0"

Observation = dict[str, npt.NDArray[Any]]


class CantStopEnv(gymnasium.Env[Observation, np.int64]):
    """Solitaire Can't Stop (see the module docstring).

    ``rules`` must be a one-player :class:`~cantstop.Rules` (the default is the
    standard board); ``shaping``, ``illegal_reward`` and ``max_turns`` are
    described in the module docstring; ``render_mode`` is ``None``,
    ``"ansi"`` or ``"svg"``.
    """

    metadata = {"render_modes": ["ansi", "svg"], "render_fps": 1}  # noqa: RUF012 (gymnasium's own attribute)

    def __init__(
        self,
        render_mode: str | None = None,
        *,
        rules: Rules | None = None,
        shaping: float = 0.0,
        illegal_reward: float = -1.0,
        max_turns: int | None = None,
    ) -> None:
        rules = Rules(players=1) if rules is None else rules
        if rules.players != 1:
            raise ValueError(
                f"the Gymnasium environment is solitaire; for {rules.players} players "
                f"use cantstop.envs.pettingzoo"
            )
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(f"render_mode must be None, 'ansi' or 'svg', not {render_mode!r}")
        self.rules = rules
        self.render_mode = render_mode
        self.shaping = shaping
        self.illegal_reward = illegal_reward
        self.max_turns = max_turns
        self.observation_space = spaces.Dict(  # type: ignore[assignment]
            {
                "observation": spaces.Box(0.0, 1.0, (observation_size(1),), np.float32),
                "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.int8),
            }
        )
        self.action_space = spaces.Discrete(NUM_ACTIONS)
        self._table: _Table | None = None

    @property
    def engine_state(self) -> State:
        """The engine's state of the game being played; :meth:`reset` starts a game."""
        return self._running.state

    @property
    def _running(self) -> _Table:
        if self._table is None:
            raise RuntimeError("call reset() before step() or render()")
        return self._table

    def _observe(self) -> Observation:
        table = self._running
        return {"observation": observation(table.state, 0), "action_mask": table.mask()}

    def _info(self) -> dict[str, Any]:
        return {"turns": self._running.turns}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """Start a new game; ``seed`` seeds the dice."""
        super().reset(seed=seed)
        self._table = _Table(self.rules, self.np_random)
        return self._observe(), self._info()

    def step(self, action: np.int64 | int) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        """Play decision ``action``; return observation, reward, terminated, truncated, info."""
        table = self._running
        before = progress(table.state, 0)
        if not table.play(int(action)):
            info = self._info() | {"illegal_action": int(action)}
            return self._observe(), float(self.illegal_reward), True, False, info
        over = table.state.phase is Phase.OVER
        reward = (1.0 if over else 0.0) + self.shaping * (progress(table.state, 0) - before)
        truncated = not over and self.max_turns is not None and table.turns > self.max_turns
        return self._observe(), float(reward), over, truncated, self._info()

    def render(self) -> str | None:
        """Return the board as text (``"ansi"``) or SVG (``"svg"``); ``None`` without a mode."""
        if self.render_mode == "ansi":
            return render_board(self._running.state)
        if self.render_mode == "svg":
            return state_svg(self._running.state)
        return None


gymnasium.register(id=ENV_ID, entry_point="cantstop.envs.gymnasium:CantStopEnv")
