"""Steps per second of the batched solitaire environment against one ``gymnasium.make`` environment.

Each figure replays, timed, decisions recorded beforehand, untimed, from a
uniformly random policy over the mask, so that the policy's own work is in
no figure; the replay starts from the same seed, plays the same games and
must end in the same observations (it raises otherwise).  Measured in one
run:

* one environment as ``gymnasium.make("cantstop/Solitaire-v0")`` returns it
  (with Gymnasium's checking and order-enforcing wrappers), over whole
  episodes: its steps per second are the baseline;
* the batched environment, ``gymnasium.make_vec(..., vectorization_mode=
  "vector_entry_point")``, at each number of games: a step plays one decision
  in every game, so its steps per second count ``num_envs`` a step; stepped
  by numba's compiled functions (when numba is installed: the ``rl-fast``
  extra) and by NumPy's array operations (``compiled=False``);
* for comparison, Gymnasium's ``SyncVectorEnv`` over ``gymnasium.make`` at 16
  games.

Every figure is the best of a few rounds of this process's CPU time.  Both
vector environments run in Gymnasium's default next-step autoreset mode.
"""

from __future__ import annotations

import importlib.util
from typing import Any

import numpy as np

from benchmarks.adapters import best_seconds

#: The numbers of games the batched environment is measured at.
SIZES = (1, 16, 256)


def _random_legal(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    scores = np.where(masks.astype(bool), rng.random(masks.shape), -1.0)
    actions: np.ndarray = scores.argmax(axis=1)
    return actions


def _vector(envs: Any, steps: int, rounds: int, seed: int) -> float:
    """Return the seconds of ``steps`` replayed steps of vector environment ``envs``."""
    rng = np.random.default_rng(seed)
    observations, _ = envs.reset(seed=seed)
    recorded = []
    for _ in range(steps):
        recorded.append(_random_legal(observations["action_mask"], rng))
        observations = envs.step(recorded[-1])[0]
    last = observations["observation"].copy()

    def replay() -> None:
        envs.reset(seed=seed)
        for actions in recorded:
            out = envs.step(actions)
        if not np.array_equal(out[0]["observation"], last):
            raise AssertionError("the replay did not play the recorded games")

    return best_seconds(rounds, replay)


def _single(env: Any, steps: int, rounds: int, seed: int) -> tuple[float, int]:
    """Return the seconds of whole recorded episodes of ``env`` replayed, and their steps."""
    rng = np.random.default_rng(seed)
    episodes: list[tuple[int, list[int]]] = []
    total = 0
    while total < steps:
        episode_seed = seed + len(episodes)
        observation, _ = env.reset(seed=episode_seed)
        actions: list[int] = []
        done = False
        while not done:
            actions.append(int(_random_legal(observation["action_mask"][None], rng)[0]))
            observation, _, terminated, truncated, _ = env.step(actions[-1])
            done = terminated or truncated
        episodes.append((episode_seed, actions))
        total += len(actions)
    last = observation["observation"].copy()

    def replay() -> None:
        for episode_seed, actions in episodes:
            env.reset(seed=episode_seed)
            for action in actions:
                out = env.step(action)
        if not np.array_equal(out[0]["observation"], last):
            raise AssertionError("the replay did not play the recorded games")

    return best_seconds(rounds, replay), total


def bench_batched(steps: int, rounds: int) -> dict[str, Any] | None:
    """Return the steps per second of one environment, the batched one and SyncVectorEnv.

    ``steps`` is about the number of game steps each figure times (at least
    20 batched steps).  ``None`` without Gymnasium.
    """
    try:
        import gymnasium

        from cantstop.envs.gymnasium import ENV_ID
    except ImportError:
        return None
    single = gymnasium.make(ENV_ID)
    seconds, single_steps = _single(single, steps, rounds, seed=1)
    single.close()
    one = single_steps / seconds
    out: dict[str, Any] = {"single_steps": single_steps, "single_steps_per_s": one, "batched": []}
    backends = [True, False] if importlib.util.find_spec("numba") else [False]
    for compiled in backends:
        for size in SIZES:
            envs = gymnasium.make_vec(
                ENV_ID, num_envs=size, vectorization_mode="vector_entry_point", compiled=compiled
            )
            batch_steps = max(50, steps // size)
            per_s = size * batch_steps / _vector(envs, batch_steps, rounds, seed=2)
            envs.close()
            out["batched"].append(
                {
                    "num_envs": size,
                    "compiled": compiled,
                    "steps": size * batch_steps,
                    "steps_per_s": per_s,
                    "ratio": per_s / one,
                }
            )
    sync = gymnasium.make_vec(ENV_ID, num_envs=16, vectorization_mode="sync")
    batch_steps = max(20, steps // 16)
    per_s = 16 * batch_steps / _vector(sync, batch_steps, rounds, seed=2)
    sync.close()
    out["sync_16"] = {"steps": 16 * batch_steps, "steps_per_s": per_s, "ratio": per_s / one}
    return out


def rows(figures: dict[str, Any]) -> list[tuple[str, str]]:
    """Return the figures as rows of the benchmark table: a name and a result."""
    out = [
        (
            "Gymnasium Solitaire-v0, one gymnasium.make env",
            f"{figures['single_steps_per_s']:,.0f} steps/s",
        )
    ]
    for figure in figures["batched"]:
        how = "numba" if figure["compiled"] else "NumPy"
        out.append(
            (
                f"  batched (make_vec vector_entry_point, {how}), {figure['num_envs']} envs",
                f"{figure['steps_per_s']:,.0f} steps/s, {figure['ratio']:.1f}x one env",
            )
        )
    sync = figures["sync_16"]
    out.append(
        (
            "  SyncVectorEnv over gymnasium.make, 16 envs",
            f"{sync['steps_per_s']:,.0f} steps/s, {sync['ratio']:.1f}x one env",
        )
    )
    return out
