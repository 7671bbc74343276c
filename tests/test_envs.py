"""The environments of cantstop.envs, checked by the frameworks' own tools and as learners use them.

* Gymnasium: ``gymnasium.utils.env_checker.check_env`` on the registered
  environment (every render mode), and on a custom board;
* PettingZoo: ``pettingzoo.test.api_test`` for 2, 3 and 4 players, a variant
  and a custom board, ``seed_test`` and ``render_test``;
* both: the turn limit (an always-rolling policy is truncated), masks through
  ``action_masks()`` as sb3-contrib's MaskablePPO looks them up, the
  solitaire reward in turns, the zero-sum rewards of 3 and 4 players (the
  same as OpenSpiel's), discounted shaping that sums to nothing, no step
  after the end, the human render mode, reproducible seeding, and the work
  a step does (progress only when shaping, legal decisions once, no trial
  stop);
* the core package imports with none of the frameworks installed.
"""

from __future__ import annotations

import inspect
import subprocess
import sys
from typing import Any

import pytest

from tests.extras import require

gymnasium = require("gymnasium")
require("pettingzoo")

import numpy as np  # noqa: E402 - after the skip, as numpy comes with the extra
from gymnasium.error import ResetNeeded  # noqa: E402
from gymnasium.utils import seeding  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402
from gymnasium.wrappers import FlattenObservation, RecordEpisodeStatistics  # noqa: E402
from pettingzoo.test import api_test, render_test, seed_test  # noqa: E402
from pettingzoo.utils.wrappers import OrderEnforcingWrapper  # noqa: E402

import cantstop.envs  # noqa: E402
import cantstop.envs._table  # noqa: E402
import cantstop.envs.gymnasium  # noqa: E402
import cantstop.envs.pettingzoo  # noqa: E402
from cantstop import (  # noqa: E402
    Event,
    IllegalAction,
    Phase,
    Roll,
    Rules,
    State,
    Stop,
    Variant,
    format_state,
    new_game,
    parse_state,
)
from cantstop.envs import (  # noqa: E402
    MAX_TURNS,
    NUM_ACTIONS,
    ROLL,
    STOP,
    decision,
    legal_decisions,
    observation_fields,
    progress,
    stop_allowed,
)
from cantstop.envs.gymnasium import ENV_ID, CantStopEnv  # noqa: E402
from cantstop.envs.pettingzoo import CantStopAEC, env  # noqa: E402
from dicekit.protocol import CHANCE  # noqa: E402
from tests.games import CONFIGS, random_game  # noqa: E402

TINY = Rules(players=1, columns_to_win=2, heights={5: 2, 6: 1, 7: 3, 8: 2, 9: 1})


def _masked(observation: dict[str, Any], rng: np.random.Generator) -> int:
    legal = np.flatnonzero(observation["action_mask"])
    return int(rng.choice(legal))


def _gym_episode(environment: Any, seed: int) -> tuple[list[str], list[float]]:
    rng = np.random.default_rng(seed + 100)
    observation, _ = environment.reset(seed=seed)
    states, rewards = [format_state(environment.engine_state)], []
    done = False
    while not done:
        observation, reward, terminated, truncated, _info = environment.step(
            _masked(observation, rng)
        )
        assert environment.observation_space.contains(observation)
        states.append(format_state(environment.engine_state))
        rewards.append(reward)
        done = terminated or truncated
    return states, rewards


def _engine_turn_ends(seed: int, decisions: list[int]) -> list[int]:
    """Replay a solitaire episode on the engine alone: the turns each decision's step ended.

    The dice are the draws of a generator seeded as the environment's; as the
    environment does, every roll due (the first of each turn) is thrown at
    once.  A turn ends at the engine's events ``busted``, ``stopped`` and
    ``won``.
    """
    dice, _ = seeding.np_random(seed)
    ending = {Event.BUSTED, Event.STOPPED, Event.WON}

    def throw() -> Roll:
        a, b, c, d = dice.integers(1, 7, size=4).tolist()
        return Roll((a, b, c, d))

    def rolls_due(state: State) -> tuple[State, int]:
        ended = 0
        while state.phase is Phase.ROLL:
            state, event = state.step(throw())
            ended += event in ending
        return state, ended

    state, _ = rolls_due(new_game(Rules(players=1)))
    out = []
    for index in decisions:
        chosen = decision(index)
        state, event = state.step(throw() if chosen is CHANCE else chosen)
        state, more = rolls_due(state)
        out.append(int(event in ending) + more)
    return out


# -- Gymnasium ---------------------------------------------------------------------


def test_check_env_on_the_registered_environment() -> None:
    made = gymnasium.make(ENV_ID)
    check_env(made.unwrapped)  # also makes it in each render mode through its spec
    made.close()


def test_check_env_on_a_custom_board_with_shaping() -> None:
    made = gymnasium.make(ENV_ID, rules=TINY, shaping=0.5, gamma=0.9, render_mode="ansi")
    check_env(made.unwrapped)
    made.close()


def test_gymnasium_make_by_module_and_id_imports_the_module() -> None:
    made = gymnasium.make("cantstop.envs.gymnasium:cantstop/Solitaire-v0")
    assert isinstance(made.unwrapped, CantStopEnv)
    made.close()


def test_gym_same_seed_same_game_other_seed_other_game() -> None:
    one = _gym_episode(CantStopEnv(), seed=11)
    two = _gym_episode(CantStopEnv(), seed=11)
    three = _gym_episode(CantStopEnv(), seed=12)
    assert one == two
    assert one[0] != three[0]


def test_gym_episode_is_a_legal_game_that_returns_minus_its_turns() -> None:
    environment = CantStopEnv()
    rng = np.random.default_rng(5)
    observation, info = environment.reset(seed=5)
    rewards = []
    decisions = []
    while True:
        state = environment.engine_state
        mask = observation["action_mask"]
        assert list(np.flatnonzero(mask)) == legal_decisions(state)
        phase = observation["observation"][observation_fields(1)["phase"]]
        assert phase[1 if state.dice is not None else 2] == 1  # choosing or deciding
        decisions.append(_masked(observation, rng))
        observation, reward, terminated, truncated, info = environment.step(decisions[-1])
        rewards.append(reward)
        if terminated:
            break
        assert not truncated
    assert environment.engine_state.winner == 0
    ends = _engine_turn_ends(5, decisions)
    assert rewards == [-float(n) for n in ends]
    assert sum(rewards) == -info["turns"]
    assert info["turns"] >= 3  # three columns take at least three turns to claim
    assert len(decisions) > 10


def test_gym_win_reward_is_the_former_reward() -> None:
    states, rewards = _gym_episode(CantStopEnv(reward="win"), seed=5)
    assert rewards[-1] == 1.0
    assert set(rewards[:-1]) == {0.0}
    # The reward does not change the game.
    assert _gym_episode(CantStopEnv(), seed=5)[0] == states


@pytest.mark.parametrize("gamma", [1.0, 0.9, 0.5])
def test_gym_shaping_is_discounted_and_sums_to_nothing_over_an_episode(gamma: float) -> None:
    """Shaping ``gamma * phi(s') - phi(s)`` with ``phi = 0`` at the end sums, discounted, to 0."""
    plain = CantStopEnv(reward="win")
    shaped = CantStopEnv(reward="win", shaping=2.0, gamma=gamma)
    rng = np.random.default_rng(9)
    observation, _ = plain.reset(seed=9)
    shaped.reset(seed=9)
    discounted = 0.0
    t = 0
    terminated = False
    while not terminated:
        before = progress(plain.engine_state, 0)
        action = _masked(observation, rng)
        observation, reward, terminated, _, _ = plain.step(action)
        _, shaped_reward, _, _, _ = shaped.step(action)
        assert shaped.engine_state == plain.engine_state
        after = 0.0 if terminated else progress(plain.engine_state, 0)
        shaping = shaped_reward - reward
        assert shaping == pytest.approx(2.0 * (gamma * after - before))
        discounted += gamma**t * shaping
        t += 1
    assert t > 10
    assert discounted == pytest.approx(0.0, abs=1e-9)


def test_gym_shaping_of_a_truncated_episode_sums_to_the_last_potential() -> None:
    gamma = 0.8
    environment = CantStopEnv(shaping=1.0, gamma=gamma, max_turns=3, reward="win")
    environment.reset(seed=2)
    discounted = 0.0
    t = 0
    truncated = terminated = False
    while not (truncated or terminated):
        mask = environment.action_masks()
        action = STOP if mask[STOP] else int(np.flatnonzero(mask)[0])
        _, reward, terminated, truncated, _ = environment.step(action)
        discounted += gamma**t * reward
        t += 1
    assert truncated
    last = progress(environment.engine_state, 0)
    assert last > 0
    assert discounted == pytest.approx(gamma**t * last)


def test_gym_illegal_action_ends_the_episode_and_leaves_the_game() -> None:
    environment = CantStopEnv()
    observation, info = environment.reset(seed=3)
    before = environment.engine_state
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    observation, reward, terminated, truncated, after = environment.step(illegal)
    assert (reward, terminated, truncated) == (-1.0, True, False)
    assert after["illegal_action"] == illegal
    assert after["turns"] == info["turns"]
    assert environment.engine_state == before
    # Ended: decision 0 alone, for a vector environment's policy (see test_envs_autoreset.py).
    assert list(np.flatnonzero(environment.action_masks())) == [STOP]
    assert list(np.flatnonzero(observation["action_mask"])) == [STOP]


def test_gym_refuses_a_step_after_the_episode_ended() -> None:
    environment = CantStopEnv()
    observation, _ = environment.reset(seed=3)
    legal = int(np.flatnonzero(observation["action_mask"])[0])
    environment.step(int(np.flatnonzero(observation["action_mask"] == 0)[0]))
    with pytest.raises(ResetNeeded, match=r"decision \d+ was not legal.*call reset\(\)"):
        environment.step(legal)
    # After a win too, and after truncation.
    _gym_episode(environment, seed=4)
    assert environment.engine_state.winner == 0
    with pytest.raises(ResetNeeded, match=r"\(the game is won\) in state '.* 0x'"):
        environment.step(STOP)
    limited = CantStopEnv(max_turns=1)
    limited.reset(seed=1)
    limited.step(int(np.flatnonzero(limited.action_masks())[0]))
    _, _, terminated, truncated, _ = limited.step(STOP)
    assert (terminated, truncated) == (False, True)
    with pytest.raises(ResetNeeded, match="turn limit of 1 turns"):
        limited.step(ROLL)
    # And a new episode plays again.
    limited.reset(seed=1)
    assert limited.action_masks().any()


def test_gym_truncates_after_max_turns() -> None:
    environment = CantStopEnv(max_turns=2)
    observation, _ = environment.reset(seed=1)
    truncated = terminated = False
    rewards = []
    while not (truncated or terminated):
        # Always stop when allowed: every turn ends after one move.
        mask = observation["action_mask"]
        action = STOP if mask[STOP] else int(np.flatnonzero(mask)[0])
        observation, reward, terminated, truncated, info = environment.step(action)
        rewards.append(reward)
    assert truncated
    assert not terminated
    assert info["turns"] == 2
    assert rewards == [0.0, -1.0, 0.0, -1.0]
    # The next turn does not start: no dice, no decision; the mask is the ended one.
    assert environment.engine_state.phase is Phase.ROLL
    assert legal_decisions(environment.engine_state) == []
    assert list(np.flatnonzero(observation["action_mask"])) == [STOP]


@pytest.mark.parametrize("factory", [CantStopEnv, lambda: gymnasium.make(ENV_ID)])
def test_gym_an_always_rolling_policy_is_truncated_by_the_default_turn_limit(
    factory: Any,
) -> None:
    environment = factory()
    observation, info = environment.reset(seed=0)
    steps = 0
    truncated = terminated = False
    while not (truncated or terminated):
        mask = observation["action_mask"]
        action = ROLL if mask[ROLL] else int(np.flatnonzero(mask)[0])
        observation, _, terminated, truncated, info = environment.step(action)
        steps += 1
    assert truncated
    assert not terminated
    assert info["turns"] == MAX_TURNS
    # A turn has at most 35 moves on this board, each with a decision after it.
    assert steps <= 70 * MAX_TURNS


def test_gym_action_masks_through_the_wrappers_maskable_ppo_sees() -> None:
    """sb3-contrib's MaskablePPO asks ``env.get_wrapper_attr("action_masks")()``."""
    made = RecordEpisodeStatistics(FlattenObservation(gymnasium.make(ENV_ID)))
    made.reset(seed=7)
    rng = np.random.default_rng(0)
    for _ in range(40):
        masks = made.get_wrapper_attr("action_masks")()
        assert masks.dtype == np.bool_
        assert masks.shape == (NUM_ACTIONS,)
        state = made.unwrapped.engine_state  # type: ignore[attr-defined]
        assert list(np.flatnonzero(masks)) == legal_decisions(state)
        _, _, terminated, truncated, _ = made.step(int(rng.choice(np.flatnonzero(masks))))
        if terminated or truncated:
            made.reset()
    made.close()


def test_gym_renders_text_svg_and_to_a_human(capsys: pytest.CaptureFixture[str]) -> None:
    text_env = CantStopEnv(render_mode="ansi")
    text_env.reset(seed=2)
    text = text_env.render()
    assert text is not None
    assert "12" in text.splitlines()[0]
    svg_env = CantStopEnv(render_mode="svg")
    svg_env.reset(seed=2)
    picture = svg_env.render()
    assert picture is not None
    assert picture.startswith("<svg")
    assert CantStopEnv().render() is None
    human = CantStopEnv(render_mode="human")
    capsys.readouterr()
    human.reset(seed=2)
    assert capsys.readouterr().out == text + "\n\n"
    human.step(int(np.flatnonzero(human.action_masks())[0]))
    shown = capsys.readouterr().out
    assert format_state(human.engine_state) in shown
    assert human.render() is None


def test_gym_refuses_bad_settings() -> None:
    with pytest.raises(ValueError, match="solitaire"):
        CantStopEnv(rules=Rules(players=2))
    with pytest.raises(ValueError, match="render_mode"):
        CantStopEnv(render_mode="rgb_array")
    with pytest.raises(ValueError, match="max_turns"):
        CantStopEnv(max_turns=0)
    with pytest.raises(ValueError, match="max_turns"):
        CantStopEnv(max_turns=None)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="gamma"):
        CantStopEnv(gamma=1.5)
    with pytest.raises(ValueError, match="'turns' or 'win'"):
        CantStopEnv(reward="speed")


# -- the work of a step --------------------------------------------------------------


def test_stop_allowed_asks_the_rules_and_agrees_with_the_engine(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    states = [s for name in ("2p", "3p-B", "tiny-4p-A") for s in random_game(CONFIGS[name], 1)]
    expected = []
    for state in states:
        try:
            state.apply(Stop())
            expected.append(True)
        except IllegalAction:
            expected.append(False)
    assert True in expected
    assert False in expected

    def no_trial(state: State, action: object) -> State:
        raise AssertionError("stop_allowed must not try the stop")

    monkeypatch.setattr(State, "apply", no_trial)
    assert [stop_allowed(state) for state in states] == expected


def test_a_step_without_shaping_computes_no_progress_and_each_legal_list_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def no_progress(state: State, player: int) -> float:
        raise AssertionError("progress() runs only when shaping")

    monkeypatch.setattr(cantstop.envs.gymnasium, "progress", no_progress)
    monkeypatch.setattr(cantstop.envs.pettingzoo, "progress", no_progress)
    calls: list[str] = []

    def counted(state: State) -> list[int]:
        calls.append(format_state(state))
        return legal_decisions(state)

    monkeypatch.setattr(cantstop.envs._table, "legal_decisions", counted)
    environment = CantStopEnv()
    environment.reset(seed=4)
    assert len(calls) == 1
    for _ in range(30):
        calls.clear()
        environment.action_masks()
        action = int(np.flatnonzero(environment.action_masks())[0])
        _, _, terminated, _, _ = environment.step(action)
        assert calls == [format_state(environment.engine_state)]
        if terminated:
            break
    aec = CantStopAEC(players=3)
    aec.reset(seed=4)
    for _ in range(30):
        calls.clear()
        aec.step(int(np.flatnonzero(aec.action_masks())[0]))
        assert calls == [format_state(aec.engine_state)]


def test_the_adapters_read_column_maps_through_their_public_api() -> None:
    for module in (
        cantstop.envs,
        cantstop.envs._table,
        cantstop.envs.gymnasium,
        cantstop.envs.pettingzoo,
    ):
        assert "_dict" not in inspect.getsource(module)


# -- PettingZoo --------------------------------------------------------------------


# Dict observations with an action mask are PettingZoo's own convention for
# masked actions (its classic games use it); api_test warns about any dict
# observation of an environment it does not know by name.
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array:UserWarning")
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably:UserWarning")
@pytest.mark.parametrize(
    "rules",
    [
        Rules(players=2),
        Rules(players=3),
        Rules(players=4),
        Rules(players=3, variant=Variant.B),
        Rules(players=2, variant=Variant.A, columns_to_win=2, heights={5: 2, 6: 1, 7: 3, 8: 2}),
    ],
)
def test_pettingzoo_api_test(rules: Rules) -> None:
    api_test(CantStopAEC(rules=rules), num_cycles=200, verbose_progress=False)


@pytest.mark.parametrize("players", [2, 4])
def test_pettingzoo_seed_test(players: int) -> None:
    seed_test(lambda: CantStopAEC(players=players, shaping=0.5, gamma=0.9), num_cycles=200)


def test_pettingzoo_render_test(capsys: pytest.CaptureFixture[str]) -> None:
    render_test(lambda render_mode=None: CantStopAEC(players=3, render_mode=render_mode))
    # The human mode printed the board after the reset and after each step.
    assert capsys.readouterr().out.count("\nposition: ") >= 5


def _aec_game(environment: Any, seed: int) -> tuple[list[str], dict[str, float], list[int]]:
    rng = np.random.default_rng(seed + 100)
    environment.reset(seed=seed)
    states = []
    decisions = []
    totals = dict.fromkeys(environment.possible_agents, 0.0)
    for agent in environment.agent_iter():
        observation, reward, termination, truncation, _info = environment.last()
        totals[agent] += reward
        states.append(format_state(environment.engine_state))
        if termination or truncation:
            environment.step(None)
            continue
        assert agent == f"player_{environment.engine_state.player}"
        action = _masked(observation, rng)
        decisions.append(action)
        environment.step(action)
    return states, totals, decisions


def test_pettingzoo_same_seed_same_game() -> None:
    one = _aec_game(env(players=3), seed=4)
    two = _aec_game(env(players=3), seed=4)
    assert one == two
    assert one[0] != _aec_game(env(players=3), seed=5)[0]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_pettingzoo_rewards_are_zero_sum_as_in_openspiel(players: int) -> None:
    """The winner gets 1 and each other agent -1/(n-1); OpenSpiel returns the same for that game."""
    seed = 20 + players
    states, totals, decisions = _aec_game(env(players=players), seed=seed)
    final = parse_state(states[-1])
    assert final.winner is not None
    loss = -1 / (players - 1)
    assert totals == pytest.approx(
        {f"player_{p}": 1.0 if p == final.winner else loss for p in range(players)}
    )
    assert sum(totals.values()) == pytest.approx(0.0)
    pyspiel = require("pyspiel")
    from cantstop.openspiel import roll_action

    # The environment's dice are the draws of a generator seeded alike.
    dice, _ = seeding.np_random(seed)
    state = pyspiel.load_game("python_cant_stop", {"players": players}).new_initial_state()
    moves = iter(decisions)
    while not state.is_terminal():
        if state.is_chance_node():
            a, b, c, d = dice.integers(1, 7, size=4).tolist()
            state.apply_action(roll_action((a, b, c, d)))
        else:
            state.apply_action(next(moves))
    assert str(state) == states[-1]
    assert state.returns() == pytest.approx([totals[f"player_{p}"] for p in range(players)])


def test_pettingzoo_truncates_at_the_turn_limit_with_nothing_won() -> None:
    environment = CantStopAEC(players=3, max_turns=7)
    environment.reset(seed=1)
    totals = dict.fromkeys(environment.possible_agents, 0.0)
    truncated = []
    for agent in environment.agent_iter():
        observation, reward, termination, truncation, info = environment.last()
        totals[agent] += reward
        if termination or truncation:
            assert truncation
            assert not termination
            truncated.append(agent)
            environment.step(None)
            continue
        mask = observation["action_mask"]
        environment.step(ROLL if mask[ROLL] else int(np.flatnonzero(mask)[0]))
    assert sorted(truncated) == environment.possible_agents
    assert set(totals.values()) == {0.0}
    assert info["turns"] == 7


def test_pettingzoo_an_always_rolling_policy_is_truncated_by_the_default_turn_limit() -> None:
    environment = CantStopAEC(players=4)
    environment.reset(seed=0)
    steps = 0
    for _ in environment.agent_iter():
        observation, _, termination, truncation, info = environment.last()
        if termination or truncation:
            assert truncation
            assert not termination
            environment.step(None)
            continue
        mask = observation["action_mask"]
        environment.step(ROLL if mask[ROLL] else int(np.flatnonzero(mask)[0]))
        steps += 1
    assert environment.engine_state.winner is None
    assert info["turns"] == MAX_TURNS
    assert steps <= 70 * MAX_TURNS


def test_pettingzoo_action_masks_and_observed_masks() -> None:
    environment = CantStopAEC(players=2)
    environment.reset(seed=8)
    acting = environment.agent_selection
    other = "player_1" if acting == "player_0" else "player_0"
    assert environment.observe(other)["action_mask"].sum() == 0
    mask = environment.observe(acting)["action_mask"]
    assert mask.shape == (NUM_ACTIONS,)
    assert list(np.flatnonzero(mask)) == legal_decisions(environment.engine_state)
    wrapped = OrderEnforcingWrapper(environment)
    masks = wrapped.action_masks()
    assert masks.dtype == np.bool_
    assert list(np.flatnonzero(masks)) == list(np.flatnonzero(mask))
    # Seen from either seat, the current-player field points at the agent to act.
    current = observation_fields(2)["current"]
    assert list(environment.observe(acting)["observation"][current]) == [1.0, 0.0]
    assert list(environment.observe(other)["observation"][current]) == [0.0, 1.0]
    # After an illegal action ends the game, nobody has a decision.
    environment.step(int(np.flatnonzero(mask == 0)[0]))
    assert not environment.action_masks().any()
    assert environment.observe(acting)["action_mask"].sum() == 0


def test_pettingzoo_turn_passes_on_stop() -> None:
    environment = CantStopAEC(players=2)
    environment.reset(seed=8)
    first = environment.agent_selection
    observation = environment.observe(first)
    environment.step(int(np.flatnonzero(observation["action_mask"])[0]))  # a move
    assert environment.agent_selection == first
    assert list(np.flatnonzero(environment.observe(first)["action_mask"])) == [STOP, ROLL]
    environment.step(STOP)
    assert environment.agent_selection != first


def test_pettingzoo_illegal_action() -> None:
    environment = CantStopAEC(players=2)
    environment.reset(seed=6)
    agent = environment.agent_selection
    mask = environment.observe(agent)["action_mask"]
    environment.step(int(np.flatnonzero(mask == 0)[0]))
    assert environment.rewards[agent] == -1.0
    assert all(environment.terminations.values())
    assert "illegal_action" in environment.infos[agent]


@pytest.mark.parametrize("gamma", [1.0, 0.9])
def test_pettingzoo_shaping_pays_each_agent_its_own_discounted_transitions(gamma: float) -> None:
    """Per agent, over its own decisions, shaping sums (discounted) to nothing by the end."""
    seed = 12
    plain = CantStopAEC(players=3)
    shaped = CantStopAEC(players=3, shaping=1.5, gamma=gamma)
    plain.reset(seed=seed)
    shaped.reset(seed=seed)
    rng = np.random.default_rng(3)
    received: dict[str, list[float]] = {agent: [] for agent in plain.possible_agents}
    potentials: dict[str, list[float]] = {agent: [] for agent in plain.possible_agents}
    for agent in plain.agent_iter():
        observation, reward, termination, truncation, _ = plain.last()
        _, shaped_reward, _, _, _ = shaped.last()
        received[agent].append(shaped_reward - reward)
        seat = int(agent[-1])
        over = termination or truncation
        potentials[agent].append(0.0 if over else progress(plain.engine_state, seat))
        if over:
            plain.step(None)
            shaped.step(None)
            continue
        action = _masked(observation, rng)
        plain.step(action)
        shaped.step(action)
    assert plain.engine_state.winner is not None
    for agent, payments in received.items():
        # Each payment after the first is shaping * (gamma * phi(now) - phi(at the last decision)).
        phis = [0.0, *potentials[agent]]
        for k, paid in enumerate(payments):
            assert paid == pytest.approx(1.5 * (gamma * phis[k + 1] - phis[k]))
        discounted = sum(gamma**k * paid for k, paid in enumerate(payments[1:]))
        assert discounted == pytest.approx(0.0, abs=1e-9)
        assert len(payments) > 5


def test_pettingzoo_refuses_bad_settings() -> None:
    with pytest.raises(ValueError, match="2 to 4"):
        CantStopAEC(players=1)
    with pytest.raises(ValueError, match="max_turns"):
        CantStopAEC(max_turns=-5)
    with pytest.raises(ValueError, match="render_mode"):
        CantStopAEC(render_mode="rgb_array")


def test_pettingzoo_renders() -> None:
    environment = CantStopAEC(players=2, render_mode="ansi")
    environment.reset(seed=1)
    assert "player 0" in (environment.render() or "")
    svg = CantStopAEC(players=2, render_mode="svg")
    svg.reset(seed=1)
    assert (svg.render() or "").startswith("<svg")


# -- the core stays free of the frameworks ------------------------------------------


def test_core_imports_without_any_framework() -> None:
    blocker = (
        "import sys\n"
        "class Block:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.split('.')[0] in {'numpy', 'pyspiel', 'open_spiel', 'gymnasium',"
        " 'pettingzoo'}:\n"
        "            raise ImportError(name)\n"
        "sys.meta_path.insert(0, Block())\n"
        "import cantstop, cantstop.players, cantstop.playout, cantstop.simulate, cantstop.odds\n"
        "from cantstop import new_game, Roll\n"
        "print(new_game().apply(Roll((1, 2, 3, 4))))\n"
        "try:\n"
        "    import cantstop.openspiel\n"
        "except ImportError as error:\n"
        "    print('adapter:', error)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", blocker], capture_output=True, text=True, check=True
    ).stdout
    assert out.splitlines() == ["State('-/- - 0c1234')", "adapter: numpy"]
