"""Can't Stop for 2 to 4 players as a PettingZoo AEC environment (extra ``rl``).

The agents are ``player_0`` to ``player_{n-1}``, seated in that order;
``player_0`` begins.  The agent to act (``agent_selection``) makes the
game's decisions, numbered as in :mod:`cantstop.envs`: a move when the dice
are on the table, and stop or roll again after a move.  An agent keeps
acting until its turn ends, by a stop or a bust; chance, the rolls, is the
environment's, thrown from its ``np_random`` generator, so the same seed and
the same actions give the same game.

**Observation** of each agent: a dict of ``observation`` (the vector of
:func:`cantstop.envs.observation` from that agent's seat, with the dice and
the phase) and ``action_mask`` (79 numbers: the legal decisions for the
agent to act, all 0 for the others).

**Reward**: when the game is won, 1 for the winner and ``-1 / (players - 1)``
for every other agent, so that the rewards sum to 0 (the convention of the
OpenSpiel game too); 0 before.  The game is truncated, every agent getting
0, once ``max_turns`` turns (:data:`cantstop.envs.MAX_TURNS` by default)
have ended without a win.  With ``shaping`` non-zero, every agent is also
paid ``shaping * (gamma * phi(s') - phi(s))`` for each of its transitions,
from a state where it acts to the next state where it acts or to the end
(``phi`` is the agent's own :func:`cantstop.envs.progress`, 0 once the game
is won; a column won by another takes squares away, so it can fall): a
potential-based shaping, which leaves the best policy unchanged for a
learner whose discount is ``gamma``.  An action the mask forbids ends the
game at once: the agent gets ``illegal_reward`` (-1), the others 0, and its
info ``illegal_action``.

``infos[agent]`` holds ``turns`` (turns begun);
:attr:`CantStopAEC.engine_state` is the game's :class:`~cantstop.State`, and
:meth:`CantStopAEC.action_masks` the mask of the agent to act, as booleans.
``render()`` returns the board as text (``"ansi"``) or as an SVG document
(``"svg"``); in ``"human"`` mode the board is printed after every reset and
step.

>>> env = CantStopAEC(players=2)
>>> env.reset(seed=3)
>>> env.agent_selection, env.engine_state  # dice 1 2 2 5: 3+7 or 4+6
('player_0', State('-/- - 0c1225'))
>>> observation, reward, termination, truncation, info = env.last()
>>> [int(a) for a in observation["action_mask"].nonzero()[0]]
[28, 36]
"""

from __future__ import annotations

from typing import Any, ClassVar

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv

from cantstop.config import Rules
from cantstop.envs import MAX_TURNS, NUM_ACTIONS, _table, observation, observation_size, progress
from cantstop.envs._table import _Dice, _Table, check_render_mode, dice_for, render_state
from cantstop.state import State
from dicekit.rewards import Shaping, check_max_turns, check_real, outcome_returns

__all__ = ["CantStopAEC", "env"]

Observation = dict[str, npt.NDArray[Any]]


class CantStopAEC(AECEnv[str, Observation, int]):  # type: ignore[misc]
    """Can't Stop for 2 to 4 agents (see the module docstring).

    Give ``players`` for the standard board, or ``rules`` for any
    configuration of 2 to 4 players; ``shaping``, ``gamma``,
    ``illegal_reward`` and ``max_turns`` are described in the module
    docstring; ``render_mode`` is ``None``, ``"human"``, ``"ansi"`` or
    ``"svg"``.
    """

    metadata: ClassVar[dict[str, Any]] = {
        "name": "cantstop_v0",
        "render_modes": ["human", "ansi", "svg"],
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self,
        render_mode: str | None = None,
        *,
        players: int = 2,
        rules: Rules | None = None,
        shaping: float = 0.0,
        gamma: float = 1.0,
        illegal_reward: float = -1.0,
        max_turns: int = MAX_TURNS,
    ) -> None:
        super().__init__()
        rules = Rules(players=players) if rules is None else rules
        if not isinstance(rules, Rules):
            raise TypeError(f"rules must be a cantstop.Rules, not {rules!r}")
        if not 2 <= rules.players <= 4:
            raise ValueError(
                f"the PettingZoo environment has 2 to 4 players, not {rules.players}; "
                f"for solitaire use cantstop.envs.gymnasium"
            )
        check_render_mode(render_mode, self.metadata["render_modes"])
        self.rules = rules
        self.render_mode = render_mode
        self.shaping = check_real("shaping", shaping)
        self.gamma = check_real("gamma", gamma, 0.0, 1.0)
        self.illegal_reward = check_real("illegal_reward", illegal_reward)
        self.max_turns = check_max_turns(max_turns)
        self.possible_agents = [f"player_{p}" for p in range(rules.players)]
        self.agents = self.possible_agents[:]
        size = observation_size(rules.players)
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(0.0, 1.0, (size,), np.float32),
                    "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(NUM_ACTIONS) for agent in self.possible_agents}
        self.np_random, _ = seeding.np_random(None)
        self._table: _Table | None = None
        self._dice: _Dice | None = None
        self._shaping = Shaping(self.shaping, self.gamma, [0.0] * rules.players)

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        """Return the observation space of ``agent``."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        """Return the action space of ``agent``."""
        return self.action_spaces[agent]

    @property
    def engine_state(self) -> State:
        """The engine's state of the game being played; :meth:`reset` starts a game."""
        return self._running.state

    @property
    def _running(self) -> _Table:
        return _table.running(
            self._table, RuntimeError, "step(), observe(), action_masks() or render()"
        )

    def _acting(self, seat: int) -> bool:
        """Whether ``seat`` has a decision to make now."""
        table = self._running
        return table.state.player == seat and not self.terminations[self.possible_agents[seat]]

    def observe(self, agent: str) -> Observation:
        """Return what ``agent`` sees: the observation vector and its action mask."""
        table = self._running
        seat = self.possible_agents.index(agent)
        mask = table.mask() if self._acting(seat) else np.zeros(NUM_ACTIONS, dtype=np.int8)
        return {"observation": observation(table.state, seat), "action_mask": mask}

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """Return the legal decisions of the agent to act as 79 booleans (all false once over)."""
        table = self._running
        mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
        if self._acting(table.state.player):
            mask[table.legal] = True
        return mask

    def _set_infos(self) -> None:
        turns = self._running.turns
        self.infos: dict[str, dict[str, Any]] = {agent: {"turns": turns} for agent in self.agents}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game; ``seed`` seeds the dice."""
        if seed is not None:
            self.np_random, _ = seeding.np_random(seed)
        self._dice = dice_for(self._dice, self.np_random)
        table = self._table = _Table(self.rules, self._dice, self.max_turns)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self._set_infos()
        if self.shaping:
            start = [progress(table.state, p) for p in range(self.rules.players)]
            self._shaping = Shaping(self.shaping, self.gamma, start)
        self.agent_selection = self.possible_agents[table.state.player]
        if self.render_mode == "human":
            self.render()

    def step(self, action: int | None) -> None:
        """Play decision number ``action`` for the agent to act."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        table = self._running
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if action is None or not table.play(int(action)):
            self.rewards[agent] = self.illegal_reward
            self.terminations = dict.fromkeys(self.agents, True)
            self._set_infos()
            self.infos[agent]["illegal_action"] = action
            self._accumulate_rewards()
            return
        state = table.state
        agents = self.possible_agents
        if table.over:
            returns = outcome_returns(len(agents), state.winner, table.ended, "turns")
            for p, agent_p in enumerate(agents):
                self.rewards[agent_p] = returns[p]
                if self.shaping:  # the game is over: the potential is 0
                    self.rewards[agent_p] += self._shaping.pay(p, 0.0)
            self.terminations = dict.fromkeys(self.agents, True)
        elif table.cut_short:
            if self.shaping:
                for p, agent_p in enumerate(agents):
                    self.rewards[agent_p] += self._shaping.pay(p, progress(state, p))
            self.truncations = dict.fromkeys(self.agents, True)
        elif self.shaping:  # the agent to act next ends a transition of its own
            self.rewards[agents[state.player]] += self._shaping.pay(
                state.player, progress(state, state.player)
            )
        self._set_infos()
        self._accumulate_rewards()
        self.agent_selection = agents[state.player]
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """Return the board as text (``"ansi"``) or SVG (``"svg"``); print it (``"human"``)."""
        return render_state(self.render_mode, lambda: self._running.state)

    def close(self) -> None:
        """Nothing to release."""


def env(**kwargs: Any) -> CantStopAEC:
    """Return a new :class:`CantStopAEC` (PettingZoo's usual constructor name)."""
    return CantStopAEC(**kwargs)
