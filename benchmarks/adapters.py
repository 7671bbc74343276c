"""What the framework adapters cost per step, measured against the engine alone.

For each adapter (the OpenSpiel game, the Gymnasium and the PettingZoo
environments) a few games are first played through it by a uniformly random
policy over its legal actions, seeded, untimed, recording two things: the
adapter actions taken, and the engine actions (rolls, moves, stops) the game
made.  Then both are replayed and timed: the adapter actions through the
adapter (for OpenSpiel, asking ``legal_actions()`` at each decision, as a
player does; the environments' steps return the mask), and the engine
actions with :meth:`State.apply() <cantstop.State.apply>` alone (and
``legal_moves()`` before each).  The policy's own work is in neither.  An
adapter step is one call that advances the game: ``apply_action`` for
OpenSpiel (chance outcomes included), ``step`` for the environments (whose
rolls happen inside a step).  The figures:

* ``adapter_us_per_step``: the adapter's time per step;
* ``engine_us_per_step``: the engine's time for the same games, per adapter
  step: the engine's own part of a step;
* ``overhead_us_per_step``: the difference, what the adapter adds;
* ``overhead_ratio``: the overhead over the engine's part of a step (the
  target for Gymnasium is at most 2);
* ``engine_us_per_action``: the engine's time per engine action.

The Gymnasium environment is timed twice: alone, and as ``gymnasium.make``
returns it (with Gymnasium's checking and order-enforcing wrappers).
OpenSpiel's ``clone()`` is timed on states of random games, and so is a
pickle round trip of the engine's state.  Adapters whose framework is not
installed are left out.
"""

from __future__ import annotations

import pickle
import random
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from cantstop import Roll, Rules, State, new_game
from cantstop.actions import Action

#: A recorded game: the adapter's actions, and the engine actions they made.
Recorded = tuple[list[int], list[Action]]


def best_seconds(rounds: int, run: Callable[[], None]) -> float:
    """Return the least CPU time of ``rounds`` calls of ``run``, in seconds (never quite 0).

    The benchmarks of the adapters and of the batched environment time their
    rounds with it.
    """
    best = float("inf")
    for _ in range(rounds):
        start = time.process_time()
        run()
        best = min(best, time.process_time() - start)
    return max(best, 1e-9)


def _replay_engine(rules: Rules, games: list[list[Action]]) -> None:
    for actions in games:
        state: State = new_game(rules)
        for action in actions:
            state.legal_moves()
            state = state.apply(action)


def _figure(
    name: str,
    rules: Rules,
    record: Callable[[int], Recorded],
    replay: Callable[[int, list[int]], None],
    games: int,
    rounds: int,
) -> dict[str, Any]:
    """Time ``replay(seed, actions)`` for ``games`` recorded games against the engine alone."""
    recorded = [record(seed) for seed in range(games)]

    def adapter() -> None:
        for seed, (actions, _) in enumerate(recorded):
            replay(seed, actions)

    seconds = best_seconds(rounds, adapter)
    engine_games = [engine for _, engine in recorded]
    engine = best_seconds(rounds, lambda: _replay_engine(rules, engine_games))
    steps = sum(len(actions) for actions, _ in recorded)
    engine_actions = sum(len(actions) for actions in engine_games)
    return {
        "adapter": name,
        "games": games,
        "adapter_steps": steps,
        "engine_actions": engine_actions,
        "adapter_us_per_step": 1e6 * seconds / steps,
        "engine_us_per_step": 1e6 * engine / steps,
        "overhead_us_per_step": 1e6 * (seconds - engine) / steps,
        "overhead_ratio": (seconds - engine) / engine,
        "engine_us_per_action": 1e6 * engine / engine_actions,
    }


def _per_call(rounds: int, calls: list[Callable[[], object]], repeat: int = 20) -> float:
    """Return the best time per call, in microseconds, of ``repeat`` calls of each of ``calls``."""

    def run() -> None:
        for call in calls:
            for _ in range(repeat):
                call()

    return 1e6 * best_seconds(rounds, run) / (len(calls) * repeat)


def _openspiel(games: int, rounds: int) -> list[dict[str, Any]]:
    try:
        import pyspiel

        from cantstop.dice import ORDERED_ROLLS
        from cantstop.envs import decision
        from cantstop.openspiel import GAME_NAME, roll_action
        from dicekit.protocol import Chance
    except ImportError:
        return []
    game = pyspiel.load_game(GAME_NAME)
    outcomes = [roll_action(roll.dice) for roll in ORDERED_ROLLS]  # ordered roll to outcome
    seen: list[Any] = []

    def record(seed: int) -> Recorded:
        rng = random.Random(seed)
        state = game.new_initial_state()
        actions: list[int] = []
        engine: list[Action] = []
        while not state.is_terminal():
            if state.is_chance_node():
                number = int(rng.random() * 1296)
                action = outcomes[number]
                engine.append(ORDERED_ROLLS[number])
            else:
                legal = state.legal_actions()
                action = legal[int(rng.random() * len(legal))]
                chosen = decision(action)
                if not isinstance(chosen, Chance):
                    engine.append(chosen)
            state.apply_action(action)
            actions.append(action)
            if seed < 5 and len(actions) % 7 == 0:
                seen.append(state.clone())
        return actions, engine

    def replay(seed: int, actions: list[int]) -> None:
        state = game.new_initial_state()
        for action in actions:
            if not state.is_chance_node():
                state.legal_actions()
            state.apply_action(action)

    figure = _figure("OpenSpiel python_cant_stop", Rules(), record, replay, games, rounds)
    clones = _per_call(rounds, [s.clone for s in seen])
    pickles = _per_call(rounds, [_pickle_round_trip(s.engine_state) for s in seen])
    return [
        figure,
        {
            "adapter": "OpenSpiel clone() and engine State pickle round trip",
            "states": len(seen),
            "clone_us": clones,
            "engine_state_pickle_us": pickles,
        },
    ]


def _pickle_round_trip(state: State) -> Callable[[], object]:
    return lambda: pickle.loads(pickle.dumps(state))


@contextmanager
def _recording() -> Iterator[list[Action]]:
    """Make the environments' games log the engine actions they play; yield the log."""
    import cantstop.envs.gymnasium as gym_module
    import cantstop.envs.pettingzoo as zoo_module
    from cantstop.envs import ROLL, decision
    from cantstop.envs._table import _Table

    log: list[Action] = []

    class Recording(_Table):
        def _throw(self) -> Roll:
            roll = super()._throw()
            log.append(roll)
            return roll

        def play(self, index: int) -> bool:
            if index in self.legal and index != ROLL:
                log.append(decision(index))  # type: ignore[arg-type]
            return super().play(index)

    # The environments make their games from the name _Table in their modules.
    modules = (gym_module, zoo_module)
    for module in modules:
        setattr(module, "_Table", Recording)  # noqa: B010
    try:
        yield log
    finally:
        for module in modules:
            setattr(module, "_Table", _Table)  # noqa: B010


def _environments(games: int, rounds: int) -> list[dict[str, Any]]:
    try:
        import gymnasium
        import numpy as np

        from cantstop.envs.gymnasium import ENV_ID, CantStopEnv
        from cantstop.envs.pettingzoo import CantStopAEC
    except ImportError:
        return []

    def record_gym(seed: int) -> Recorded:
        environment = CantStopEnv()
        rng = random.Random(seed)
        actions = []
        with _recording() as log:
            observation, _ = environment.reset(seed=seed)
            done = False
            while not done:
                legal = np.flatnonzero(observation["action_mask"])
                actions.append(int(legal[int(rng.random() * len(legal))]))
                observation, _, terminated, truncated, _ = environment.step(actions[-1])
                done = terminated or truncated
        return actions, log

    def gym_replay(environment: Any) -> Callable[[int, list[int]], None]:
        def replay(seed: int, actions: list[int]) -> None:
            environment.reset(seed=seed)
            for action in actions:
                environment.step(action)

        return replay

    def record_zoo(seed: int) -> Recorded:
        environment = CantStopAEC(players=2)
        rng = random.Random(seed)
        actions = []
        with _recording() as log:
            environment.reset(seed=seed)
            for _ in environment.agent_iter():
                observation, _, termination, truncation, _ = environment.last()
                if termination or truncation:
                    environment.step(None)
                    continue
                legal = np.flatnonzero(observation["action_mask"])
                actions.append(int(legal[int(rng.random() * len(legal))]))
                environment.step(actions[-1])
        return actions, log

    zoo = CantStopAEC(players=2)

    def replay_zoo(seed: int, actions: list[int]) -> None:
        # As an agent loop does: each agent observes (last), then acts.
        zoo.reset(seed=seed)
        for action in actions:
            zoo.last()
            zoo.step(action)

    solitaire = Rules(players=1)
    return [
        _figure(
            "Gymnasium Solitaire-v0",
            solitaire,
            record_gym,
            gym_replay(CantStopEnv()),
            games,
            rounds,
        ),
        _figure(
            "Gymnasium Solitaire-v0 through gymnasium.make",
            solitaire,
            record_gym,
            gym_replay(gymnasium.make(ENV_ID)),
            games,
            rounds,
        ),
        _figure("PettingZoo AEC, 2 players", Rules(), record_zoo, replay_zoo, games, rounds),
    ]


def bench_adapters(games: int, rounds: int) -> list[dict[str, Any]]:
    """Return the figures of every adapter whose framework is installed."""
    return _openspiel(games, rounds) + _environments(games, rounds)


def rows(figures: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """Return the figures as rows of the benchmark table: a name and a result."""
    out = []
    for figure in figures:
        if "clone_us" in figure:
            out.append(("OpenSpiel state.clone()", f"{figure['clone_us']:.1f} us"))
            out.append(
                ("engine State pickle round trip", f"{figure['engine_state_pickle_us']:.1f} us")
            )
            continue
        out.append(
            (
                f"{figure['adapter']}: overhead per step",
                f"{figure['overhead_us_per_step']:.1f} us, {figure['overhead_ratio']:.2f}x "
                f"the engine's {figure['engine_us_per_step']:.1f} us "
                f"({figure['adapter_us_per_step']:.1f} us a step, "
                f"{1e6 / figure['adapter_us_per_step']:,.0f} steps/s)",
            )
        )
    return out
