"""Masks in Gymnasium's vector environments: every autoreset mode hands the policy a usable mask.

A vector environment asks its policy for an action for every game at every
step, including a game whose episode has just ended: in next-step mode
(Gymnasium's default) that action is taken and ignored while the game
restarts, and in disabled mode the policy acts before the caller resets.
A masked policy cannot draw from an all-zero mask (its distribution is
undefined), so an ended episode's mask holds decision 0 (stop) alone, the
same in the observation and in ``action_masks()``.  Checked here for
``SyncVectorEnv`` and ``AsyncVectorEnv`` over ``gymnasium.make`` and for the
batched environment, in every autoreset mode, with episodes ending by a
win, by the turn limit and by an illegal decision; and that a masked
softmax over every mask they hand out is a distribution.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.extras import require

gymnasium = require("gymnasium")

import numpy as np  # noqa: E402 - after the skip, as numpy comes with the extra
from gymnasium.vector import AutoresetMode  # noqa: E402

import cantstop.envs.gymnasium  # noqa: E402, F401 - registers the environment
from cantstop.envs import NUM_ACTIONS, ROLL, STOP, legal_decisions  # noqa: E402
from cantstop.envs.gymnasium import ENV_ID, CantStopEnv  # noqa: E402

#: The mask of an ended episode: decision 0 alone.
_ENDED = np.zeros(NUM_ACTIONS, np.int8)
_ENDED[STOP] = 1


def _masked_softmax(logits: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """Return a masked policy's distribution as learners compute it: -inf outside the mask."""
    masked = np.where(masks.astype(bool), logits, -np.inf)
    shifted = masked - masked.max(axis=1, keepdims=True)
    weights = np.exp(shifted)
    with np.errstate(invalid="ignore"):
        distribution: np.ndarray = weights / weights.sum(axis=1, keepdims=True)
    return distribution


def _play(envs: Any, mode: AutoresetMode, steps: int, seed: int) -> dict[str, int]:
    """Play ``steps`` steps with a masked softmax policy; check every mask; count the endings."""
    rng = np.random.default_rng(seed)
    observations, _ = envs.reset(seed=seed)
    counts = {"won": 0, "truncated": 0, "illegal": 0, "ignored": 0}
    ended = np.zeros(envs.num_envs, bool)
    for _ in range(steps):
        masks = observations["action_mask"]
        assert masks.shape == (envs.num_envs, NUM_ACTIONS)
        assert (masks.sum(axis=1) >= 1).all(), "a game was handed an all-zero mask"
        assert np.array_equal(masks[ended], np.broadcast_to(_ENDED, masks[ended].shape))
        probabilities = _masked_softmax(rng.normal(size=masks.shape), masks)
        assert np.isfinite(probabilities).all()
        assert np.allclose(probabilities.sum(axis=1), 1.0)
        actions = np.array([rng.choice(NUM_ACTIONS, p=p) for p in probabilities])
        naughty = rng.random(envs.num_envs) < 0.02
        actions[naughty] = np.array(
            [np.flatnonzero(m == 0)[0] for m in masks[naughty]], dtype=actions.dtype
        )
        if mode is AutoresetMode.DISABLED and ended.any():
            observations, _ = envs.reset(options={"reset_mask": ended.copy()})
            counts["ignored"] += int(ended.sum())
            ended[:] = False
            continue
        observations, _, terminated, truncated, info = envs.step(actions)
        if mode is AutoresetMode.NEXT_STEP:
            counts["ignored"] += int(ended.sum())
            # A game that had ended has restarted and ignored its action.
            assert not terminated[ended].any()
            assert not truncated[ended].any()
        illegal = info.get("_illegal_action", np.zeros(envs.num_envs, bool))
        if mode is AutoresetMode.SAME_STEP and "_final_info" in info:
            final = info["final_info"]
            illegal = final.get("_illegal_action", np.zeros(envs.num_envs, bool))
            for game in np.flatnonzero(info["_final_obs"]).tolist():
                last = info["final_obs"][game]["action_mask"]
                assert np.array_equal(last, _ENDED), "the last mask of an ended episode"
        counts["illegal"] += int(illegal.sum())
        counts["won"] += int((terminated & ~illegal).sum())
        counts["truncated"] += int(truncated.sum())
        ended = terminated | truncated
        if mode is AutoresetMode.SAME_STEP:
            ended[:] = False  # restarted within the step
    return counts


@pytest.mark.parametrize("mode", list(AutoresetMode), ids=lambda m: m.value)
@pytest.mark.parametrize("vectorization", ["sync", "async", "vector_entry_point"])
def test_every_mask_a_vector_env_hands_out_has_a_decision(
    vectorization: str, mode: AutoresetMode
) -> None:
    kwargs: dict[str, Any] = {"max_turns": 6}  # short episodes: many end by the turn limit
    if vectorization == "vector_entry_point":
        kwargs["autoreset_mode"] = mode
    else:
        kwargs["vector_kwargs"] = {"autoreset_mode": mode}
    envs = gymnasium.make_vec(ENV_ID, num_envs=4, vectorization_mode=vectorization, **kwargs)
    try:
        assert envs.metadata["autoreset_mode"] is mode
        counts = _play(envs, mode, steps=400, seed=3)
    finally:
        envs.close()
    assert counts["illegal"] > 0
    assert counts["truncated"] > 0
    if mode is not AutoresetMode.SAME_STEP:
        assert counts["ignored"] > 0


def test_wins_end_with_the_one_decision_mask_too() -> None:
    """A won episode's last observation carries the ended mask (the game itself has none left)."""
    environment = CantStopEnv()
    observation, _ = environment.reset(seed=5)
    rng = np.random.default_rng(5)
    terminated = False
    while not terminated:
        mask = observation["action_mask"]
        assert list(np.flatnonzero(mask)) == legal_decisions(environment.engine_state)
        action = STOP if mask[STOP] and rng.random() < 0.5 else int(np.flatnonzero(mask)[-1])
        observation, _, terminated, truncated, _ = environment.step(action)
        assert not truncated
    assert environment.engine_state.winner == 0
    assert legal_decisions(environment.engine_state) == []
    assert np.array_equal(observation["action_mask"], _ENDED)
    assert np.array_equal(environment.action_masks(), _ENDED.astype(bool))


def test_an_illegal_decision_ends_with_the_one_decision_mask_in_both_places() -> None:
    environment = CantStopEnv()
    observation, _ = environment.reset(seed=3)
    before = observation["action_mask"].copy()
    assert not before[ROLL]
    observation, reward, terminated, _, info = environment.step(ROLL)
    assert (reward, terminated, info["illegal_action"]) == (-1.0, True, ROLL)
    assert np.array_equal(observation["action_mask"], _ENDED)
    assert np.array_equal(environment.action_masks(), _ENDED.astype(bool))
