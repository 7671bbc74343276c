"""The environments of cantstop.envs, checked with the frameworks' own tools.

* Gymnasium: ``gymnasium.utils.env_checker.check_env`` on the registered
  environment (both render modes), and on a custom board;
* PettingZoo: ``pettingzoo.test.api_test`` for 2, 3 and 4 players, a variant
  and a custom board;
* both: reproducible seeding, rewards (win/loss, shaping, illegal actions,
  truncation), masks equal to the engine's legal decisions, rendering;
* the core package imports with none of the frameworks installed.
"""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import numpy as np
import pytest

from tests.extras import require

gymnasium = require("gymnasium")
require("pettingzoo")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test  # noqa: E402

from cantstop import Rules, Variant, format_state, parse_state  # noqa: E402
from cantstop.envs import (  # noqa: E402
    NUM_ACTIONS,
    ROLL,
    STOP,
    legal_decisions,
    observation_fields,
    progress,
)
from cantstop.envs.gymnasium import ENV_ID, CantStopEnv  # noqa: E402
from cantstop.envs.pettingzoo import CantStopAEC, env  # noqa: E402

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


# -- Gymnasium ---------------------------------------------------------------------


def test_check_env_on_the_registered_environment() -> None:
    made = gymnasium.make(ENV_ID)
    check_env(made.unwrapped)  # also makes it in each render mode through its spec
    made.close()


def test_check_env_on_a_custom_board_with_shaping() -> None:
    made = gymnasium.make(ENV_ID, rules=TINY, shaping=0.5, render_mode="ansi")
    check_env(made.unwrapped)
    made.close()


def test_gym_same_seed_same_game_other_seed_other_game() -> None:
    one = _gym_episode(CantStopEnv(), seed=11)
    two = _gym_episode(CantStopEnv(), seed=11)
    three = _gym_episode(CantStopEnv(), seed=12)
    assert one == two
    assert one[0] != three[0]


def test_gym_episode_is_a_legal_game_won_once() -> None:
    environment = CantStopEnv()
    rng = np.random.default_rng(5)
    observation, info = environment.reset(seed=5)
    total = 0.0
    steps = 0
    while True:
        state = environment.engine_state
        mask = observation["action_mask"]
        assert list(np.flatnonzero(mask)) == legal_decisions(state)
        phase = observation["observation"][observation_fields(1)["phase"]]
        assert phase[1 if state.dice is not None else 2] == 1  # choosing or deciding
        observation, reward, terminated, truncated, info = environment.step(
            _masked(observation, rng)
        )
        total += reward
        steps += 1
        if terminated:
            break
        assert reward == 0.0
        assert not truncated
    assert total == reward == 1.0
    assert environment.engine_state.winner == 0
    assert info["turns"] >= 3  # three columns take at least three turns to claim
    assert steps > 10


def test_gym_shaping_pays_the_change_of_progress() -> None:
    environment = CantStopEnv(shaping=2.0)
    rng = np.random.default_rng(9)
    observation, _ = environment.reset(seed=9)
    total = 0.0
    terminated = False
    while not terminated:
        before = progress(environment.engine_state, 0)
        observation, reward, terminated, _, _ = environment.step(_masked(observation, rng))
        change = progress(environment.engine_state, 0) - before
        assert reward == pytest.approx((1.0 if terminated else 0.0) + 2.0 * change)
        total += reward
    # Potential-based: the shaping adds up to the final progress (from 0).
    assert total == pytest.approx(1.0 + 2.0 * progress(environment.engine_state, 0))


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


def test_gym_truncates_after_max_turns() -> None:
    environment = CantStopEnv(max_turns=2)
    observation, _ = environment.reset(seed=1)
    truncated = terminated = False
    while not (truncated or terminated):
        # Always stop when allowed: every turn ends after one move.
        mask = observation["action_mask"]
        action = STOP if mask[STOP] else int(np.flatnonzero(mask)[0])
        observation, _, terminated, truncated, info = environment.step(action)
    assert truncated
    assert not terminated
    assert info["turns"] == 3


def test_gym_renders_text_and_svg() -> None:
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


def test_gym_refuses_more_than_one_player_and_unknown_render_modes() -> None:
    with pytest.raises(ValueError, match="solitaire"):
        CantStopEnv(rules=Rules(players=2))
    with pytest.raises(ValueError, match="render_mode"):
        CantStopEnv(render_mode="human")


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


def _aec_game(environment: Any, seed: int) -> tuple[list[str], dict[str, float]]:
    rng = np.random.default_rng(seed + 100)
    environment.reset(seed=seed)
    states = []
    totals = dict.fromkeys(environment.possible_agents, 0.0)
    for agent in environment.agent_iter():
        observation, reward, termination, truncation, _info = environment.last()
        totals[agent] += reward
        states.append(format_state(environment.engine_state))
        if termination or truncation:
            environment.step(None)
            continue
        assert agent == f"player_{environment.engine_state.player}"
        environment.step(_masked(observation, rng))
    return states, totals


def test_pettingzoo_same_seed_same_game_and_win_loss_rewards() -> None:
    one = _aec_game(env(players=3), seed=4)
    two = _aec_game(env(players=3), seed=4)
    assert one == two
    assert one[0] != _aec_game(env(players=3), seed=5)[0]
    states, totals = one
    final = parse_state(states[-1])
    assert final.winner is not None
    assert totals == {f"player_{p}": 1.0 if p == final.winner else -1.0 for p in range(3)}


def test_pettingzoo_masks_only_the_agent_to_act() -> None:
    environment = CantStopAEC(players=2)
    environment.reset(seed=8)
    acting = environment.agent_selection
    other = "player_1" if acting == "player_0" else "player_0"
    assert environment.observe(other)["action_mask"].sum() == 0
    mask = environment.observe(acting)["action_mask"]
    assert mask.shape == (NUM_ACTIONS,)
    assert list(np.flatnonzero(mask)) == legal_decisions(environment.engine_state)
    # Seen from either seat, the current-player field points at the agent to act.
    current = observation_fields(2)["current"]
    assert list(environment.observe(acting)["observation"][current]) == [1.0, 0.0]
    assert list(environment.observe(other)["observation"][current]) == [0.0, 1.0]


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


def test_pettingzoo_illegal_action_and_shaping() -> None:
    environment = CantStopAEC(players=2, shaping=1.0)
    environment.reset(seed=6)
    agent = environment.agent_selection
    mask = environment.observe(agent)["action_mask"]
    environment.step(int(np.flatnonzero(mask == 0)[0]))
    assert environment.rewards[agent] == -1.0
    assert all(environment.terminations.values())
    assert "illegal_action" in environment.infos[agent]
    # A stop after one move pays the mover the progress of its new squares.
    environment.reset(seed=6)
    agent = environment.agent_selection
    environment.step(int(np.flatnonzero(environment.observe(agent)["action_mask"])[0]))
    before = progress(environment.engine_state, int(agent[-1]))
    environment.step(STOP)
    gained = progress(environment.engine_state, int(agent[-1])) - before
    assert gained > 0
    assert environment.rewards[agent] == pytest.approx(gained)


def test_pettingzoo_refuses_solitaire_and_renders() -> None:
    with pytest.raises(ValueError, match="2 to 4"):
        CantStopAEC(players=1)
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
