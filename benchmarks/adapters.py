"""What the framework adapters cost per action, measured against the engine alone.

For each adapter (the OpenSpiel game, the Gymnasium and the PettingZoo
environments) a few games are played through it by a uniformly random
policy over its legal actions, seeded, and timed.  The engine actions those
games made (rolls, moves, stops) are recorded and then replayed with
:meth:`State.apply() <cantstop.State.apply>` (and ``legal_moves()`` before
each) alone, and timed too.  The overhead per action is::

    (adapter time - engine replay time) / adapter actions

An adapter action is one call that advances the game: ``apply_action`` for
OpenSpiel (chance outcomes included), ``step`` for the environments (whose
rolls happen inside a step).  Adapters whose framework is not installed are
left out.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from cantstop import Roll, Rules, State, new_game
from cantstop.actions import Action


def _replay_seconds(rules: Rules, games: list[list[Action]], rounds: int) -> float:
    best = float("inf")
    for _ in range(rounds):
        start = time.process_time()
        for actions in games:
            state: State = new_game(rules)
            for action in actions:
                state.legal_moves()
                state = state.apply(action)
        best = min(best, time.process_time() - start)
    return best


def _figure(
    name: str,
    rules: Rules,
    play: Callable[[int], tuple[int, list[Action]]],
    games: int,
    rounds: int,
) -> dict[str, Any]:
    """Time ``play(seed)`` for ``games`` seeds against replaying its engine actions."""
    best = float("inf")
    steps = 0
    recorded: list[list[Action]] = []
    for _ in range(rounds):
        recorded = []
        steps = 0
        start = time.process_time()
        for seed in range(games):
            count, actions = play(seed)
            steps += count
            recorded.append(actions)
        best = min(best, time.process_time() - start)
    engine = _replay_seconds(rules, recorded, rounds)
    engine_actions = sum(len(a) for a in recorded)
    return {
        "adapter": name,
        "games": games,
        "adapter_actions": steps,
        "engine_actions": engine_actions,
        "adapter_us_per_action": 1e6 * best / steps,
        "engine_us_per_action": 1e6 * engine / engine_actions,
        "overhead_us_per_action": 1e6 * (best - engine) / steps,
    }


def _openspiel(games: int, rounds: int) -> dict[str, Any] | None:
    try:
        import pyspiel

        from cantstop.dice import ORDERED_ROLLS
        from cantstop.envs import decision
        from cantstop.openspiel import GAME_NAME, roll_action
    except ImportError:
        return None
    game = pyspiel.load_game(GAME_NAME)
    outcomes = [roll_action(roll.dice) for roll in ORDERED_ROLLS]  # ordered roll to outcome

    def play(seed: int) -> tuple[int, list[Action]]:
        rng = random.Random(seed)
        state = game.new_initial_state()
        actions: list[Action] = []
        steps = 0
        while not state.is_terminal():
            if state.is_chance_node():
                number = int(rng.random() * 1296)
                state.apply_action(outcomes[number])
                actions.append(ORDERED_ROLLS[number])
            else:
                legal = state.legal_actions()
                action = legal[int(rng.random() * len(legal))]
                state.apply_action(action)
                chosen = decision(action)
                if not isinstance(chosen, str):
                    actions.append(chosen)
            steps += 1
        return steps, actions

    return _figure("OpenSpiel python_cant_stop", Rules(), play, games, rounds)


def _recording_table() -> Any:
    """Return a table class that logs the engine actions it plays, for the replay."""
    from cantstop.envs import _Table, decision, legal_decisions

    class Recording(_Table):
        log: list[Action]

        def _throw(self) -> Roll:
            roll = super()._throw()
            self.log.append(roll)
            return roll

        def play(self, index: int) -> bool:
            chosen = decision(index)
            if index in legal_decisions(self.state) and not isinstance(chosen, str):
                self.log.append(chosen)
            return super().play(index)

    return Recording


def _environments(games: int, rounds: int) -> list[dict[str, Any]]:
    try:
        import numpy as np

        import cantstop.envs.gymnasium as gym_module
        import cantstop.envs.pettingzoo as zoo_module
    except ImportError:
        return []
    recording = _recording_table()
    figures = []

    def run_gym(seed: int) -> tuple[int, list[Action]]:
        recording.log = []
        environment = gym_module.CantStopEnv()
        rng = random.Random(seed)
        observation, _ = environment.reset(seed=seed)
        steps = 0
        done = False
        while not done:
            legal = np.flatnonzero(observation["action_mask"])
            action = int(legal[int(rng.random() * len(legal))])
            observation, _, done, _, _ = environment.step(action)
            steps += 1
        return steps, list(recording.log)

    def run_zoo(seed: int) -> tuple[int, list[Action]]:
        recording.log = []
        environment = zoo_module.CantStopAEC(players=2)
        rng = random.Random(seed)
        environment.reset(seed=seed)
        steps = 0
        for _ in environment.agent_iter():
            observation, _, termination, truncation, _ = environment.last()
            if termination or truncation:
                environment.step(None)
                continue
            legal = np.flatnonzero(observation["action_mask"])
            environment.step(int(legal[int(rng.random() * len(legal))]))
            steps += 1
        return steps, list(recording.log)

    # The environments make their tables from the name _Table in their modules.
    modules = (gym_module, zoo_module)
    saved = [module._Table for module in modules]
    for module in modules:
        setattr(module, "_Table", recording)  # noqa: B010
    try:
        figures.append(_figure("Gymnasium Solitaire-v0", Rules(players=1), run_gym, games, rounds))
        figures.append(_figure("PettingZoo AEC, 2 players", Rules(), run_zoo, games, rounds))
    finally:
        for module, table in zip(modules, saved, strict=True):
            setattr(module, "_Table", table)  # noqa: B010
    return figures


def bench_adapters(games: int, rounds: int) -> list[dict[str, Any]]:
    """Return the overhead figures of every adapter whose framework is installed."""
    figures = []
    openspiel = _openspiel(games, rounds)
    if openspiel is not None:
        figures.append(openspiel)
    figures += _environments(games, rounds)
    return figures
