"""The batched environment's step compiled by numba: the same table lookups, game by game.

:class:`~cantstop.envs.vector.SolitaireVectorEnv` steps its games with these
functions when numba is installed (the ``solve`` extra brings it), and with
array operations otherwise; both read the same tables
(:mod:`cantstop.envs._batch`) and give the same games.  Nothing here decides
a rule: a decision's kind, a move's climbs, a stop, a bust, a won column, the
end of the game and every legal decision are entries of those tables.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from cantstop.envs import observation_size
from cantstop.envs._batch import (
    AWAITING,
    CLEAR,
    DECIDING,
    ENDED,
    MOVE,
    NOTHING,
    OVER,
    REFUSED,
    RESTART,
    STOPPING,
    TO_SQUARE,
)

_DECISIONS = 79
_OPERATIONS = 6


@njit(cache=True)
def decide(  # pragma: no cover - compiled
    actions: np.ndarray,
    restart: np.ndarray,
    codes: np.ndarray,
    head: np.ndarray,
    entry: np.ndarray,
    mask: np.ndarray,
    ended: np.ndarray,
    turns: np.ndarray,
    kinds: np.ndarray,
    patterns: np.ndarray,
    pattern_of: np.ndarray,
    after: np.ndarray,
    transitions: np.ndarray,
    wonbit: np.ndarray,
    over: np.ndarray,
    max_turns: int,
    throwing: np.ndarray,
    won: np.ndarray,
    illegal: np.ndarray,
    ended_before: np.ndarray,
) -> int:
    """Play each game's decision; write the games that throw next into ``throwing``; count them."""
    count = 0
    columns = codes.shape[1]
    for i in range(codes.shape[0]):
        ended_before[i] = ended[i]
        won[i] = False
        illegal[i] = False
        if restart[i]:
            for c in range(columns):
                codes[i, c] = transitions[codes[i, c] * _OPERATIONS + RESTART]
            turns[i] = 1
            ended[i] = 0
            throwing[count] = i
            count += 1
            continue
        a = actions[i]
        kind = kinds[mask[i] * _DECISIONS + a]
        if kind == REFUSED:
            illegal[i] = True
        elif kind == MOVE:
            decided = entry[i] * _DECISIONS + a
            pattern = pattern_of[decided]
            for c in range(columns):
                codes[i, c] = transitions[codes[i, c] * _OPERATIONS + patterns[pattern, c]]
            mask[i] = after[decided]
            head[i] = DECIDING
        elif kind == STOPPING:
            bits = 0
            for c in range(columns):
                code = transitions[codes[i, c] * _OPERATIONS + TO_SQUARE]
                codes[i, c] = code
                bits += wonbit[code]
            ended[i] += 1
            if over[bits]:
                head[i] = OVER
                won[i] = True
            else:
                head[i] = AWAITING
                if ended[i] < max_turns:
                    turns[i] += 1
                    throwing[count] = i
                    count += 1
        else:
            throwing[count] = i
            count += 1
    return count


@njit(cache=True)
def throw(  # pragma: no cover - compiled
    games: np.ndarray,
    count: int,
    codes: np.ndarray,
    head: np.ndarray,
    entry: np.ndarray,
    mask: np.ndarray,
    ended: np.ndarray,
    turns: np.ndarray,
    drawn: np.ndarray,
    rolls: np.ndarray,
    keyweights: np.ndarray,
    keys: np.ndarray,
    bust: np.ndarray,
    choose: np.ndarray,
    transitions: np.ndarray,
    max_turns: int,
    pending_keys: np.ndarray,
) -> int:
    """Throw the dice of ``games[:count]`` until each waits; keep the ones that need Python.

    A game whose next roll's key has no entry yet (``pending_keys`` gets the
    key), or whose rolls ran out (key -1), is moved to the front of
    ``games``, that roll not thrown; the count of those is returned.
    """
    left = 0
    columns = codes.shape[1]
    batch = rolls.shape[1]
    for j in range(count):
        i = games[j]
        while True:
            if drawn[i] >= batch:
                games[left] = i
                pending_keys[left] = -1
                left += 1
                break
            roll = rolls[i, drawn[i]]
            key = 0
            for c in range(columns):
                key += keyweights[roll, codes[i, c]]
            e = keys[key]
            if e < 0:
                games[left] = i
                pending_keys[left] = key
                left += 1
                break
            drawn[i] += 1
            if bust[e]:
                for c in range(columns):
                    codes[i, c] = transitions[codes[i, c] * _OPERATIONS + CLEAR]
                ended[i] += 1
                if ended[i] >= max_turns:
                    head[i] = AWAITING
                    mask[i] = NOTHING
                    break
                turns[i] += 1
                continue
            head[i] = roll
            entry[i] = e
            mask[i] = choose[e]
            break
    return left


@njit(cache=True)
def finish(  # pragma: no cover - compiled
    restart: np.ndarray,
    won: np.ndarray,
    illegal: np.ndarray,
    ended_before: np.ndarray,
    codes: np.ndarray,
    head: np.ndarray,
    mask: np.ndarray,
    ended: np.ndarray,
    max_turns: int,
    turns_reward: bool,
    illegal_reward: float,
    shaping: float,
    gamma: float,
    columns_to_win: int,
    progress: np.ndarray,
    reference: np.ndarray,
    rewards: np.ndarray,
    terminated: np.ndarray,
    truncated: np.ndarray,
    done: np.ndarray,
    heads: np.ndarray,
    fields: np.ndarray,
    board: np.ndarray,
    masks: np.ndarray,
    observations: np.ndarray,
    mask_rows: np.ndarray,
) -> None:
    """Write each game's reward, flags, observation and mask after its throws."""
    columns = codes.shape[1]
    width = heads.shape[1]
    for i in range(codes.shape[0]):
        played = not (illegal[i] or restart[i])
        terminated[i] = won[i] or illegal[i]
        truncated[i] = played and ended[i] >= max_turns and not won[i]
        if turns_reward:
            rewards[i] = float(ended_before[i] - ended[i])
        else:
            rewards[i] = 1.0 if won[i] else 0.0
        if shaping != 0.0 and (played or restart[i]):
            potential = 0.0
            if not won[i]:
                potential = progress[codes[i, 0]]
                for c in range(1, columns):
                    potential += progress[codes[i, c]]
                potential /= columns_to_win
            if played:
                rewards[i] += shaping * (gamma * potential - reference[i])
            reference[i] = potential
        if illegal[i]:
            rewards[i] = illegal_reward
        if restart[i]:
            rewards[i] = 0.0
        done[i] = terminated[i] or truncated[i]
        if done[i]:
            mask[i] = ENDED
        for k in range(width):
            observations[i, k] = heads[head[i], k]
        for f in range(3):
            for c in range(columns):
                observations[i, width + f * columns + c] = fields[f, codes[i, c]]
        for c in range(board.shape[0]):
            observations[i, width + 3 * columns + c] = board[c]
        for d in range(masks.shape[1]):
            mask_rows[i, d] = masks[mask[i], d]


def step(env: Any, actions: np.ndarray, restart: np.ndarray) -> tuple[Any, ...]:
    """Step every game of ``env`` (a ``SolitaireVectorEnv``) with the compiled functions.

    Return the observations, rewards, terminations, truncations and the
    games that played an illegal decision.  Positions the tables have not
    met yet are asked of the engine here, between compiled passes.
    """
    t = env.tables
    n = env.num_envs
    won = np.zeros(n, np.bool_)
    illegal = np.zeros(n, np.bool_)
    ended_before = np.zeros(n, np.int64)
    throwing = np.zeros(n, np.int64)
    count = decide(
        actions,
        restart,
        env._codes,
        env._head,
        env._entry,
        env._mask,
        env._ended,
        env._turns,
        t.kinds,
        t.patterns,
        t.entries.pattern,
        t.entries.after,
        t.transitions,
        t.wonbit,
        t.over,
        env.max_turns,
        throwing,
        won,
        illegal,
        ended_before,
    )
    pending = np.zeros(n, np.int64)
    keyweights = t.keyweights.reshape(-1, t.codes)
    while count:
        count = throw(
            throwing,
            count,
            env._codes,
            env._head,
            env._entry,
            env._mask,
            env._ended,
            env._turns,
            env._drawn,
            env._rolls,
            keyweights,
            t.keys,
            t.entries.bust,
            t.entries.choose,
            t.transitions,
            env.max_turns,
            pending,
        )
        for j in range(count):
            game, key = int(throwing[j]), int(pending[j])
            if key < 0:
                env._refill(game)
            else:
                roll = int(env._rolls[game, env._drawn[game]])
                t.ask(env._codes[game], roll, key)
    rewards = np.zeros(n, np.float64)
    terminated = np.zeros(n, np.bool_)
    truncated = np.zeros(n, np.bool_)
    done = np.zeros(n, np.bool_)
    observations = np.empty((n, observation_size(1)), np.float32)
    masks = np.empty((n, t.masks.shape[1]), np.int8)
    finish(
        restart,
        won,
        illegal,
        ended_before,
        env._codes,
        env._head,
        env._mask,
        env._ended,
        env.max_turns,
        env.reward == "turns",
        env.illegal_reward,
        env.shaping,
        env.gamma,
        env.rules.columns_to_win,
        t.progress,
        env._reference,
        rewards,
        terminated,
        truncated,
        done,
        t.head,
        t.columns,
        t.board,
        t.masks,
        observations,
        masks,
    )
    return (
        {"observation": observations, "action_mask": masks},
        rewards,
        terminated,
        truncated,
        illegal,
    )
