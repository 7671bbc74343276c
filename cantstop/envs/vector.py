"""Many solitaire games stepped at once: Gymnasium's native vector environment (extra ``rl``).

:class:`SolitaireVectorEnv` is what ``gymnasium.make_vec("cantstop/Solitaire-v0",
num_envs=N, vectorization_mode="vector_entry_point")`` returns (after
``import cantstop.envs.gymnasium``; with ``vectorization_mode`` left out,
``make_vec`` takes it too).  It plays ``N`` solitaire games, each the game
that one :class:`~cantstop.envs.gymnasium.CantStopEnv` would play: the same
decisions, observation, mask, rewards, turn limit and shaping, and the same
dice, since game ``i`` throws them from its own generator, seeded with
``seed + i`` by ``reset(seed=seed)`` (or ``seed[i]`` for a list), as
Gymnasium's ``SyncVectorEnv`` seeds its copies.  With the same seed and
actions it gives what ``gymnasium.make_vec(..., vectorization_mode="sync")``
gives, many times faster: the games are arrays of numbers, stepped together
by looking entries up in tables (``cantstop.envs._batch``) whose every
rule answer was asked of the engine on a real position.  No rule is decided
here.

**Two ways of stepping**, the same games: with numba installed (the
``rl-fast`` extra: ``pip install -e '.[rl-fast]'``) compiled functions
(``cantstop.envs._kernel``) walk the games one by one; without it, NumPy's
array operations step them all together, a few times slower at hundreds
of games (``python -m benchmarks`` measures both).  ``compiled=False``
asks for the array operations; ``compiled=True`` refuses to start without
numba.  The first compiled step of a process may take some seconds while
numba compiles or loads its cache.

**In and out**: ``step`` takes an array of ``N`` decision numbers and
returns the observations as a dict of two arrays, ``observation`` (``N`` by
73, ``float32``) and ``action_mask`` (``N`` by 79, ``int8``), then the
rewards (``float64``), terminations and truncations (``bool``), and
``info``, in Gymnasium's vector form: ``info["turns"]`` holds each game's
turns begun and ``info["_turns"]`` says which games report it;
``info["illegal_action"]`` (with ``info["_illegal_action"]``) the decision
refused, for the games that played one.  :meth:`SolitaireVectorEnv.action_masks`
returns the masks as booleans and :meth:`SolitaireVectorEnv.engine_state`
a game's :class:`~cantstop.State`.

**Autoreset** (``autoreset_mode``, also in ``metadata["autoreset_mode"]``)
is any of Gymnasium's three modes:

* ``AutoresetMode.NEXT_STEP``, the default, as in Gymnasium's own vector
  environments: the step that ends a game returns its last observation; the
  next step starts a new game there, ignores that game's action and returns
  reward 0, not terminated, not truncated.  The last observation's mask
  holds decision 0 alone (see :mod:`cantstop.envs`), so a masked policy can
  still pick the action that is then ignored;
* ``AutoresetMode.SAME_STEP``: the step that ends a game starts the next at
  once and returns its first observation; the last one is in
  ``info["final_obs"]`` (one dict per game, ``None`` for the others) and its
  info in ``info["final_info"]``;
* ``AutoresetMode.DISABLED``: a game that has ended stays ended until
  ``reset(options={"reset_mask": games})`` starts the games marked in the
  boolean array ``games``; a step before that raises
  ``gymnasium.error.ResetNeeded``.

A new game continues its generator's dice; only ``reset`` with a seed
reseeds it.

>>> import gymnasium
>>> import cantstop.envs.gymnasium
>>> envs = gymnasium.make_vec("cantstop/Solitaire-v0", num_envs=3,
...                           vectorization_mode="vector_entry_point")
>>> observations, info = envs.reset(seed=7)
>>> envs.unwrapped.engine_state(0)  # the game CantStopEnv plays with seed 7
State('- - 0c4566')
>>> observations["observation"].shape, observations["action_mask"].shape
((3, 73), (3, 79))
>>> from cantstop.envs import legal_decisions
>>> games = [envs.unwrapped.engine_state(i) for i in range(3)]
>>> [list(np.flatnonzero(mask)) == legal_decisions(game)
...  for mask, game in zip(observations["action_mask"], games)]
[True, True, True]
>>> actions = np.array([74] + [legal_decisions(game)[0] for game in games[1:]])
>>> observations, rewards, terminated, truncated, info = envs.step(actions)
>>> envs.unwrapped.engine_state(0), rewards.tolist(), info["turns"].tolist()
(State('- 10:1,11:1 0d'), [0.0, 0.0, 0.0], [1, 1, 1])
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.error import ResetNeeded
from gymnasium.utils import seeding
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from cantstop import _tables
from cantstop.config import Rules
from cantstop.envs import MAX_TURNS, NUM_ACTIONS, _batch, observation_size
from cantstop.envs._batch import BatchTables, tables_for
from cantstop.envs._table import check_render_mode
from cantstop.state import State
from cantstop.text import render_board
from dicekit.rewards import check_max_turns, check_real, check_solitaire_reward

try:  # numba compiles the step when it is installed; array operations do it otherwise
    from cantstop.envs import _kernel
except ImportError:  # pragma: no cover - CI installs numba
    _kernel = None  # type: ignore[assignment]

__all__ = ["SolitaireVectorEnv"]

Observation = dict[str, npt.NDArray[Any]]
Ints = npt.NDArray[np.int64]
Flags = npt.NDArray[np.bool_]

#: How many rolls each game draws from its generator at a time.
_BATCH = 512
#: The place value of each die in the number of an ordered roll.
_PLACES = np.array([216, 36, 6, 1])
#: The sorted roll of each ordered roll.
_ORDERED_TO_SORTED = np.array(_tables.ORDERED_INDEX, np.int64)


class _ResetNeeded(ResetNeeded, RuntimeError):
    """Gymnasium's error for a step that needs a reset first; also a ``RuntimeError``."""


class SolitaireVectorEnv(VectorEnv[Observation, Ints, npt.NDArray[Any]]):
    """``num_envs`` solitaire games stepped at once (see the module docstring).

    ``rules``, ``reward``, ``shaping``, ``gamma``, ``illegal_reward`` and
    ``max_turns`` are those of :class:`~cantstop.envs.gymnasium.CantStopEnv`,
    for every game; ``autoreset_mode`` is an ``AutoresetMode`` or its value
    (``"NextStep"``, ``"SameStep"``, ``"Disabled"``); ``render_mode`` is
    ``None``, ``"ansi"`` or ``"svg"``, and ``render()`` then returns one
    board per game; ``compiled`` chooses how the games are stepped (``None``:
    compiled when numba is installed).
    """

    def __init__(
        self,
        num_envs: int = 1,
        render_mode: str | None = None,
        *,
        rules: Rules | None = None,
        reward: str = "turns",
        shaping: float = 0.0,
        gamma: float = 1.0,
        illegal_reward: float = -1.0,
        max_turns: int = MAX_TURNS,
        autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
        compiled: bool | None = None,
    ) -> None:
        if not isinstance(num_envs, int) or isinstance(num_envs, bool) or num_envs < 1:
            raise ValueError(f"num_envs must be a whole number from 1, not {num_envs!r}")
        rules = Rules(players=1) if rules is None else rules
        check_render_mode(render_mode, ("ansi", "svg"))
        if render_mode == "human":
            raise ValueError("render_mode must be None, 'ansi' or 'svg', not 'human'")
        try:
            mode = AutoresetMode(autoreset_mode)
        except ValueError:
            raise ValueError(
                f"autoreset_mode must be one of {[m.value for m in AutoresetMode]}, "
                f"not {autoreset_mode!r}"
            ) from None
        if compiled and _kernel is None:
            raise ValueError("compiled=True needs numba: pip install -e '.[solve]'")
        #: Whether numba's compiled functions step the games (else array operations do).
        self.compiled = _kernel is not None if compiled is None else bool(compiled)
        self.tables: BatchTables = tables_for(rules)
        self.rules = rules
        self.num_envs = num_envs
        self.render_mode = render_mode
        self.autoreset_mode = mode
        self.metadata = {"render_modes": ["ansi", "svg"], "autoreset_mode": mode}
        self.reward = check_solitaire_reward(reward)
        self.shaping = check_real("shaping", shaping)
        self.gamma = check_real("gamma", gamma, 0.0, 1.0)
        self.illegal_reward = check_real("illegal_reward", illegal_reward)
        self.max_turns = check_max_turns(max_turns)
        self.single_observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, (observation_size(1),), np.float32),
                "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.int8),
            }
        )
        self.single_action_space = spaces.Discrete(NUM_ACTIONS)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        n = num_envs
        columns = len(self.tables.start)
        self._codes = np.zeros((n, columns), np.int64)
        self._head = np.full(n, _batch.AWAITING, np.int64)
        self._mask = np.full(n, _batch.NOTHING, np.int64)
        self._entry = np.zeros(n, np.int64)
        self._turns = np.zeros(n, np.int64)
        self._ended = np.zeros(n, np.int64)
        self._reference = np.zeros(n, np.float64)
        #: The games whose episode has ended (and, in next-step mode, restart at the next step).
        self._done = np.zeros(n, np.bool_)
        self._rngs: list[np.random.Generator | None] = [None] * n
        self._rolls = np.zeros((n, _BATCH), np.int64)
        self._drawn = np.zeros(n, np.int64)
        self._started = False
        self._everyone = np.ones(n, np.bool_)
        self._nobody = np.zeros(n, np.bool_)

    # -- games and dice ----------------------------------------------------------------

    def _refill(self, game: int) -> None:
        rng = self._rngs[game]
        assert rng is not None
        ordered = (rng.integers(1, 7, size=(_BATCH, 4)) - 1) @ _PLACES
        self._rolls[game] = _ORDERED_TO_SORTED[ordered]
        self._drawn[game] = 0

    def _clear(self, games: Ints) -> None:
        """Set up new games in ``games``: an empty board, the first turn begun, no dice yet."""
        self._codes[games] = self.tables.start
        self._turns[games] = 1  # a turn starts with a roll (R3.2), thrown by _throw
        self._ended[games] = 0
        self._done[games] = False

    def _new_games(self, games: Ints) -> None:
        """Start new games in ``games`` and throw their first dice."""
        self._clear(games)
        self._throw(games)
        if self.shaping:
            self._reference[games] = self._progress(games)

    def _throw(self, games: Ints) -> None:
        """Throw the dice in ``games``, each starting or going on with a turn, until each waits.

        A game that busts ends its turn and, below the turn limit, throws for
        the next; at the limit it waits for dice nobody throws.
        """
        t = self.tables
        codes, drawn, rolls_of = self._codes, self._drawn, self._rolls.ravel()
        while games.size:
            at = drawn[games]
            if at.max() == _BATCH:  # a game whose rolls ran out draws more first
                for game in games[at == _BATCH].tolist():
                    self._refill(game)
                at = drawn[games]
            rolls = rolls_of[games * _BATCH + at]
            drawn[games] = at + 1
            where = (rolls * t.codes)[:, None] + codes[games]
            keys = np.take(t.keyweights, where, mode="clip").sum(1)
            entries = t.keys[keys]
            if entries.min() < 0:
                for j in np.flatnonzero(entries < 0).tolist():
                    entries[j] = t.ask(codes[games[j]], int(rolls[j]), int(keys[j]))
            busts = t.entries.bust[entries]
            if not busts.any():
                self._head[games] = rolls
                self._entry[games] = entries
                self._mask[games] = t.entries.choose[entries]
                return
            going = ~busts
            chosen = games[going]
            self._head[chosen] = rolls[going]
            self._entry[chosen] = entries[going]
            self._mask[chosen] = t.entries.choose[entries[going]]
            busted = games[busts]
            codes[busted] = t.bust[codes[busted]]
            self._ended[busted] += 1
            below = self._ended[busted] < self.max_turns
            stuck = busted[~below]
            self._head[stuck] = _batch.AWAITING
            self._mask[stuck] = _batch.NOTHING
            games = busted[below]
            self._turns[games] += 1

    def _progress(self, games: Ints) -> npt.NDArray[np.float64]:
        """Return :func:`cantstop.envs.progress` of ``games``, summed column by column as it is."""
        part = self.tables.progress[self._codes[games]]
        total = part[:, 0].copy()
        for column in range(1, part.shape[1]):
            total += part[:, column]
        return total / self.rules.columns_to_win

    # -- the Gymnasium interface -------------------------------------------------------

    def reset(
        self,
        *,
        seed: int | Sequence[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[Observation, dict[str, Any]]:
        """Start new games; ``seed`` (an int for ``seed + i``, or one per game) seeds the dice.

        ``options={"reset_mask": games}`` starts only the games marked in the
        boolean array ``games`` (as Gymnasium's vector environments do).
        """
        n = self.num_envs
        seeds: list[int | None]
        if seed is None:
            seeds = [None] * n
        elif isinstance(seed, bool) or not isinstance(seed, int | np.integer | Sequence):
            raise ValueError(f"seed must be an int, one per game or None, not {seed!r}")
        elif isinstance(seed, int | np.integer):
            super().reset(seed=int(seed))
            seeds = [int(seed) + i for i in range(n)]
        else:
            seeds = list(seed)
            if len(seeds) != n:
                raise ValueError(f"give one seed per game ({n}), not {len(seeds)}")
        chosen = self._everyone
        if options is not None and "reset_mask" in options:
            chosen = _reset_mask(options["reset_mask"], n)
        games = np.flatnonzero(chosen)
        for game in games.tolist():
            if seeds[game] is not None or self._rngs[game] is None:
                self._rngs[game] = seeding.np_random(seeds[game])[0]
                self._refill(game)
        self._started = True
        self._new_games(games)
        info = {"turns": np.where(chosen, self._turns, 0), "_turns": chosen.copy()}
        return self._observe(), info

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[Observation, npt.NDArray[np.float64], Flags, Flags, dict[str, Any]]:
        """Play one decision in every game; return the five arrays of a Gymnasium step.

        They are the observations, rewards, terminations, truncations and
        info (see the module docstring for the autoreset modes).
        """
        if not self._started:
            raise _ResetNeeded("call reset() before step()")
        a = self._actions(actions)
        mode = self.autoreset_mode
        if mode is AutoresetMode.DISABLED and self._done.any():
            games = np.flatnonzero(self._done).tolist()
            raise _ResetNeeded(
                f"the episodes of games {games} have ended; reset them with "
                f"reset(options={{'reset_mask': ...}}) before stepping"
            )
        restart = self._done.copy() if mode is AutoresetMode.NEXT_STEP else self._nobody
        if self.compiled:
            observations, rewards, terminated, truncated, illegal = _kernel.step(self, a, restart)
        else:
            observations, rewards, terminated, truncated, illegal = self._step_arrays(a, restart)
        done = terminated | truncated
        self._done = done.copy()
        info: dict[str, Any] = {"turns": self._turns.copy(), "_turns": self._everyone.copy()}
        if illegal.any():
            info["illegal_action"] = np.where(illegal, a, 0)
            info["_illegal_action"] = illegal
        if mode is AutoresetMode.SAME_STEP and done.any():
            info = self._restart_same_step(done, observations, info)
            observations = self._observe()
        return observations, rewards, terminated, truncated, info

    def _step_arrays(
        self, a: Ints, restart: Flags
    ) -> tuple[Observation, npt.NDArray[np.float64], Flags, Flags, Flags]:
        """Step every game with array operations; return the arrays of the step and the refusals."""
        t = self.tables
        head, codes, ended = self._head, self._codes, self._ended
        # What each decision is: refused, a move, a stop or roll again (an ended game's: refused).
        kind = np.take(t.kinds, self._mask * NUM_ACTIONS + a, mode="clip")
        moving = kind == _batch.MOVE
        stopping = kind == _batch.STOPPING
        illegal = kind == _batch.REFUSED
        illegal &= ~restart
        # Every board changes at once, column by column: the climbs the engine gave a move,
        # markers to squares for a stop, the start for a new game.
        decided = self._entry * NUM_ACTIONS + a
        pattern = np.take(t.entries.pattern, decided, mode="clip")
        pattern *= moving
        pattern[stopping] = _batch.STOP_ALL
        restarting = np.flatnonzero(restart)
        if restarting.size:
            pattern[restarting] = _batch.RESTART_ALL
        ops = np.take(t.patterns, pattern, axis=0, mode="clip")
        ops += codes * 6
        np.take(t.transitions, ops, out=codes, mode="clip")
        np.copyto(self._mask, np.take(t.entries.after, decided, mode="clip"), where=moving)
        np.copyto(head, _batch.DECIDING, where=moving)
        ended_before = ended.copy()
        # Stops end a turn, and maybe the game.
        stopped = np.flatnonzero(stopping)
        won = np.zeros(self.num_envs, np.bool_)
        throwing = [np.flatnonzero(kind == _batch.ROLLING)]
        if stopped.size:
            ended[stopped] += 1
            over = t.over[t.wonbit[codes[stopped]].sum(1)]
            head[stopped] = np.where(over, _batch.OVER, _batch.AWAITING)
            won[stopped[over]] = True
            going = stopped[~over]
            going = going[ended[going] < self.max_turns]
            self._turns[going] += 1
            throwing.append(going)
        if restarting.size:
            self._turns[restarting] = 1  # a turn starts with a roll (R3.2)
            ended[restarting] = 0
            throwing.append(restarting)
        self._throw(np.concatenate(throwing))
        if restarting.size and self.shaping:
            self._reference[restarting] = self._progress(restarting)
        ok = ~(illegal | restart)
        terminated = won | illegal
        truncated = ok & (ended >= self.max_turns) & ~won
        if self.reward == "turns":
            rewards = (ended_before - ended).astype(np.float64)
        else:
            rewards = won.astype(np.float64)
        if self.shaping:
            played = np.flatnonzero(ok)
            potential = np.where(won[played], 0.0, self._progress(played))
            rewards[played] += self.shaping * (self.gamma * potential - self._reference[played])
            self._reference[played] = potential
        rewards[illegal] = self.illegal_reward
        rewards[restart] = 0.0
        self._mask[terminated | truncated] = _batch.ENDED
        return self._observe(), rewards, terminated, truncated, illegal

    def _restart_same_step(
        self, done: Flags, last: Observation, info: dict[str, Any]
    ) -> dict[str, Any]:
        """Start new games where ``done``; return the info with the last observations and infos.

        As Gymnasium's ``SyncVectorEnv`` words it: ``final_obs`` holds each
        ended game's last observation (``None`` for the others) and
        ``final_info`` its info; ``turns`` is the new game's.
        """
        final_obs = np.full(self.num_envs, None, dtype=object)
        games = np.flatnonzero(done)
        for game in games.tolist():
            final_obs[game] = {key: value[game] for key, value in last.items()}
        final_info: dict[str, Any] = {"turns": np.where(done, info["turns"], 0), "_turns": done}
        if "illegal_action" in info:  # every game that played an illegal decision has ended
            final_info["illegal_action"] = info["illegal_action"]
            final_info["_illegal_action"] = info["_illegal_action"]
        self._new_games(games)
        return {
            "turns": self._turns.copy(),
            "_turns": self._everyone.copy(),
            "final_obs": final_obs,
            "_final_obs": done.copy(),
            "final_info": final_info,
            "_final_info": done.copy(),
        }

    def _actions(self, actions: npt.ArrayLike) -> Ints:
        a = np.asarray(actions)
        if a.shape != (self.num_envs,) or a.dtype.kind not in "iu":
            raise ValueError(
                f"actions must be {self.num_envs} whole decision numbers, one per game, "
                f"not an array of shape {a.shape} and type {a.dtype}"
            )
        if a.dtype != np.int64:
            a = a.astype(np.int64)
        if (a.view(np.uint64) >= NUM_ACTIONS).any():  # negative numbers are huge unsigned
            raise ValueError(f"decisions are numbered 0 to {NUM_ACTIONS - 1}, not {a.tolist()}")
        return a

    def _observe(self) -> Observation:
        t, codes = self.tables, self._codes
        observations = np.empty((self.num_envs, observation_size(1)), np.float32)
        heads = t.head.shape[1]
        np.take(t.head, self._head, axis=0, out=observations[:, :heads], mode="clip")
        for j, part in enumerate(t.columns):
            start = heads + j * codes.shape[1]
            np.take(part, codes, out=observations[:, start : start + codes.shape[1]], mode="clip")
        observations[:, heads + 3 * codes.shape[1] :] = t.board
        masks = np.take(t.masks, self._mask, axis=0, mode="clip")
        return {"observation": observations, "action_mask": masks}

    def action_masks(self) -> Flags:
        """Return every game's mask as booleans, ``num_envs`` rows of 79."""
        masks: Flags = np.take(self.tables.masks, self._mask, axis=0) != 0
        return masks

    def engine_state(self, game: int) -> State:
        """Return the engine's :class:`~cantstop.State` of game number ``game``."""
        if not self._started:
            raise _ResetNeeded("call reset() before engine_state()")
        if not 0 <= game < self.num_envs:
            raise IndexError(f"games are numbered 0 to {self.num_envs - 1}, not {game}")
        return self.tables.state(self._codes[game], int(self._head[game]))

    def render(self) -> tuple[str, ...] | None:
        """Return every game's board as text (``"ansi"``) or SVG (``"svg"``)."""
        if self.render_mode is None:
            return None
        from cantstop.svg import state_svg

        draw = render_board if self.render_mode == "ansi" else state_svg
        return tuple(draw(self.engine_state(game)) for game in range(self.num_envs))

    def __repr__(self) -> str:
        return f"SolitaireVectorEnv(num_envs={self.num_envs}, rules={self.rules!r})"


def _reset_mask(mask: object, n: int) -> Flags:
    if not isinstance(mask, np.ndarray) or mask.dtype != np.bool_ or mask.shape != (n,):
        raise ValueError(
            f"options['reset_mask'] must be a boolean array of {n} games, not {mask!r}"
        )
    if not mask.any():
        raise ValueError("options['reset_mask'] marks no game to reset")
    return mask
