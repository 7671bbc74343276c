"""The batched solitaire environment (``cantstop.envs.vector``) against the engine, game by game.

* stepped beside one engine game per batched game, with the same seeds and
  so the same dice (each game's generator seeded ``seed + i`` and thrown four
  dice at a time), for hundreds of seeded episodes on the standard board, a
  small board, both variants, the win reward with shaping and a short turn
  limit: every observation (the per-game :func:`cantstop.envs.observation`),
  mask, reward, termination, truncation, turn count and engine state equal,
  through wins, truncations, illegal decisions and next-step autoresets;
* the same, step for step and info for info, as Gymnasium's ``SyncVectorEnv``
  over ``gymnasium.make`` in each of the three autoreset modes;
* its two ways of stepping, numba's compiled functions and NumPy's array
  operations, giving the same arrays and infos step for step in every case
  above and every autoreset mode (the compiled ones when numba is installed);
* ``make_vec`` choosing it by default, its spaces, its refusals;
* the tables read the engine: a deliberately wrong engine answer shows in the
  batched games, and a disagreement between the engine's summary of a
  position and the tables' classes is refused naming the state;
* the benchmark of ``python -m benchmarks`` (``benchmarks/batched.py``)
  measuring what it says, its replays ending where its recordings did.
"""

from __future__ import annotations

import importlib.util
from typing import Any

import pytest

from tests.extras import require

gymnasium = require("gymnasium")

import numpy as np  # noqa: E402 - after the skip, as numpy comes with the extra
from gymnasium.error import ResetNeeded  # noqa: E402
from gymnasium.utils import seeding  # noqa: E402
from gymnasium.vector import AutoresetMode  # noqa: E402

import cantstop._tables  # noqa: E402
import cantstop.envs._batch  # noqa: E402
from cantstop import Event, Phase, Roll, Rules, State, Variant, new_game  # noqa: E402
from cantstop.envs import (  # noqa: E402
    NUM_ACTIONS,
    STOP,
    decision,
    ended_mask,
    legal_decisions,
    observation,
    progress,
)
from cantstop.envs.gymnasium import ENV_ID  # noqa: E402
from cantstop.envs.vector import SolitaireVectorEnv  # noqa: E402
from cantstop.errors import InvalidRules  # noqa: E402
from dicekit.protocol import CHANCE  # noqa: E402

#: The ways of stepping to check: array operations, and numba's when it is installed.
BACKENDS = [False, *([True] if importlib.util.find_spec("numba") else [])]
TINY = Rules(players=1, columns_to_win=2, heights={5: 2, 6: 1, 7: 3, 8: 2, 9: 1})
_ENDING = {Event.BUSTED, Event.STOPPED, Event.WON}


class EngineGame:
    """One solitaire game on the engine alone, played as the environments play it.

    Chance is the game's own generator, seeded as a Gymnasium environment's
    is, throwing four dice a roll; every roll due (each turn's first) is
    thrown at once, and no turn starts once ``max_turns`` have ended.
    """

    def __init__(self, rules: Rules, seed: int, max_turns: int, reward: str) -> None:
        self.rules, self.max_turns, self.reward = rules, max_turns, reward
        self.dice, _ = seeding.np_random(seed)
        self.start()

    def start(self) -> None:
        """Start a new game, its first roll thrown; the dice go on from the last game's."""
        self.state: State = new_game(self.rules)
        self.turns = self.ended = 0
        self.done = False
        self._due()

    def _throw(self) -> Roll:
        a, b, c, d = self.dice.integers(1, 7, size=4).tolist()
        return Roll((a, b, c, d))

    def _apply(self, action: Any) -> None:
        self.state, event = self.state.step(action)
        self.ended += event in _ENDING

    def _due(self) -> None:
        while self.state.phase is Phase.ROLL and self.ended < self.max_turns:
            self.turns += 1
            self._apply(self._throw())

    def mask(self) -> np.ndarray:
        """Return the mask the environments give: the legal decisions, or the ended mask."""
        if self.done:
            return ended_mask()
        mask = np.zeros(NUM_ACTIONS, np.int8)
        mask[legal_decisions(self.state)] = 1
        return mask

    def step(self, index: int) -> tuple[float, bool, bool, bool]:
        """Play decision ``index``; return reward, terminated, truncated and whether illegal."""
        if index not in legal_decisions(self.state):
            self.done = True
            return -1.0, True, False, True
        ended = self.ended
        chosen = decision(index)
        self._apply(self._throw() if chosen is CHANCE else chosen)
        self._due()
        won = self.state.winner == 0
        truncated = not won and self.ended >= self.max_turns
        self.done = won or truncated
        reward = float(won) if self.reward == "win" else float(ended - self.ended)
        return reward, won, truncated, False


def _choose(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Draw a legal decision per game, and now and then one the mask forbids."""
    scores = np.where(masks.astype(bool), rng.random(masks.shape), -1.0)
    actions: np.ndarray = scores.argmax(axis=1)
    naughty = rng.random(len(masks)) < 0.01
    actions[naughty] = (scores[naughty]).argmin(axis=1)
    return actions


CASES: dict[str, tuple[dict[str, Any], int]] = {
    "standard": ({}, 1500),
    "short-limit": ({"max_turns": 12}, 1000),
    "small-board": ({"rules": TINY}, 1000),
    "variant-A": ({"rules": Rules(players=1, variant=Variant.A), "max_turns": 40}, 800),
    "variant-B": ({"rules": Rules(players=1, variant=Variant.B), "max_turns": 40}, 800),
    "win-shaped": ({"reward": "win", "shaping": 0.5, "gamma": 0.9, "max_turns": 30}, 800),
}


@pytest.mark.parametrize("case", list(CASES))
def test_every_game_is_the_engines_game(case: str) -> None:
    kwargs: dict[str, Any]
    kwargs, steps = CASES[case]
    n, seed = 12, 40 + len(case)
    envs = SolitaireVectorEnv(n, **kwargs)
    rules = kwargs.get("rules", Rules(players=1))
    max_turns, reward = kwargs.get("max_turns", 1000), kwargs.get("reward", "turns")
    shaping, gamma = kwargs.get("shaping", 0.0), kwargs.get("gamma", 1.0)
    games = [EngineGame(rules, seed + i, max_turns, reward) for i in range(n)]
    potentials = [progress(game.state, 0) for game in games]
    observations, info = envs.reset(seed=seed)
    rng = np.random.default_rng(seed)
    seen = {"won": 0, "truncated": 0, "illegal": 0, "restarted": 0}
    for _ in range(steps):
        for i, game in enumerate(games):
            assert envs.engine_state(i) == game.state
            expected = observation(game.state, 0)
            assert np.array_equal(observations["observation"][i], expected)
            assert np.array_equal(observations["action_mask"][i], game.mask())
            assert info["turns"][i] == game.turns
        actions = _choose(observations["action_mask"], rng)
        observations, rewards, terminated, truncated, info = envs.step(actions)
        for i, game in enumerate(games):
            if game.done:  # next-step autoreset: a new game, the action ignored
                game.start()
                potentials[i] = progress(game.state, 0)
                want = (0.0, False, False)
                seen["restarted"] += 1
            else:
                paid, won, cut, illegal = game.step(int(actions[i]))
                if shaping and not illegal:
                    potential = 0.0 if won else progress(game.state, 0)
                    paid += shaping * (gamma * potential - potentials[i])
                    potentials[i] = potential
                want = (paid, won or illegal, cut)
                seen["won"] += won
                seen["truncated"] += cut
                seen["illegal"] += illegal
                assert info.get("_illegal_action", np.zeros(n, bool))[i] == illegal
            assert rewards[i] == pytest.approx(want[0], abs=1e-12)
            assert (terminated[i], truncated[i]) == want[1:]
    assert seen["won"] + seen["truncated"] >= 20
    assert seen["illegal"] > 0
    assert seen["restarted"] > 0
    if case == "short-limit":
        assert seen["truncated"] > 0


def _equal(a: Any, b: Any, where: str) -> None:
    if isinstance(a, dict):
        assert set(a) == set(b), where
        for key in a:
            _equal(a[key], b[key], f"{where}/{key}")
    elif isinstance(a, np.ndarray) and a.dtype == object:
        for x, y in zip(a, b, strict=True):
            _equal(x, y, where)
    elif a is None:
        assert b is None, where
    else:
        assert np.asarray(a).dtype == np.asarray(b).dtype, where
        assert np.array_equal(a, b), where


@pytest.mark.parametrize("compiled", BACKENDS, ids=["arrays", "numba"][: len(BACKENDS)])
@pytest.mark.parametrize("mode", list(AutoresetMode), ids=lambda m: m.value)
def test_the_same_steps_as_sync_vector_env_over_gymnasium_make(
    mode: AutoresetMode, compiled: bool
) -> None:
    """Observations, rewards, flags and info (final ones too), dtypes included."""
    kwargs: dict[str, Any] = {"max_turns": 8, "shaping": 0.25, "gamma": 0.95}
    batched = gymnasium.make_vec(
        ENV_ID,
        num_envs=6,
        vectorization_mode="vector_entry_point",
        autoreset_mode=mode,
        compiled=compiled,
        **kwargs,
    )
    sync = gymnasium.make_vec(
        ENV_ID,
        num_envs=6,
        vectorization_mode="sync",
        vector_kwargs={"autoreset_mode": mode},
        **kwargs,
    )
    rng = np.random.default_rng(1)
    one, info_one = batched.reset(seed=9)
    two, info_two = sync.reset(seed=9)
    _equal(one, two, "reset")
    _equal(info_one, info_two, "reset info")
    done = np.zeros(6, bool)
    for step in range(600):
        if mode is AutoresetMode.DISABLED and done.any():
            with pytest.raises(ResetNeeded, match="reset_mask"):
                batched.step(np.zeros(6, np.int64))
            one, info_one = batched.reset(options={"reset_mask": done.copy()})
            two, info_two = sync.reset(options={"reset_mask": done.copy()})
            _equal(one, two, f"partial reset before step {step}")
            _equal(info_one, info_two, f"partial reset info before step {step}")
        actions = _choose(one["action_mask"], rng)
        out_one, out_two = batched.step(actions), sync.step(actions)
        names = ("obs", "rewards", "term", "trunc", "info")
        for name, a, b in zip(names, out_one, out_two, strict=True):
            _equal(a, b, f"step {step} {name}")
        one = out_one[0]
        done = out_one[2] | out_one[3]
    batched.close()
    sync.close()


@pytest.mark.parametrize("mode", list(AutoresetMode), ids=lambda m: m.value)
@pytest.mark.parametrize("case", list(CASES))
def test_compiled_and_array_steps_agree(case: str, mode: AutoresetMode) -> None:
    numba = require("numba")
    assert numba is not None
    kwargs = dict(CASES[case][0], autoreset_mode=mode)
    one = SolitaireVectorEnv(16, compiled=True, **kwargs)
    two = SolitaireVectorEnv(16, compiled=False, **kwargs)
    rng = np.random.default_rng(5)
    first, info_one = one.reset(seed=21)
    second, info_two = two.reset(seed=21)
    _equal(first, second, "reset")
    _equal(info_one, info_two, "reset info")
    done = np.zeros(16, bool)
    for step in range(800):
        if mode is AutoresetMode.DISABLED and done.any():
            first, _ = one.reset(options={"reset_mask": done.copy()})
            second, _ = two.reset(options={"reset_mask": done.copy()})
            _equal(first, second, f"partial reset before step {step}")
        actions = _choose(first["action_mask"], rng)
        out_one, out_two = one.step(actions), two.step(actions)
        names = ("obs", "rewards", "term", "trunc", "info")
        for name, a, b in zip(names, out_one, out_two, strict=True):
            _equal(a, b, f"step {step} {name}")
        first = out_one[0]
        done = out_one[2] | out_one[3]
    for game in range(16):
        assert one.engine_state(game) == two.engine_state(game)


def test_make_vec_chooses_the_batched_environment_and_its_spaces_hold_what_it_returns() -> None:
    envs = gymnasium.make_vec(ENV_ID, num_envs=5)
    assert isinstance(envs.unwrapped, SolitaireVectorEnv)
    assert envs.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
    observations, _ = envs.reset(seed=0)
    assert envs.observation_space.contains(observations)
    assert envs.action_space.shape == (5,)
    for _ in range(50):
        observations, rewards, terminated, truncated, _ = envs.step(
            _choose(observations["action_mask"], np.random.default_rng(3))
        )
        assert envs.observation_space.contains(observations)
        assert rewards.dtype == np.float64
        assert terminated.dtype == truncated.dtype == np.bool_
    masks = envs.unwrapped.action_masks()
    assert masks.dtype == np.bool_
    assert np.array_equal(masks, observations["action_mask"] != 0)


def test_renders_every_games_board_and_seeds_by_list() -> None:
    envs = SolitaireVectorEnv(3, render_mode="ansi")
    envs.reset(seed=[7, 8, 7])
    boards = envs.render()
    assert boards is not None
    assert len(boards) == 3
    assert boards[0] == boards[2] != boards[1]
    svg = SolitaireVectorEnv(2, render_mode="svg")
    svg.reset(seed=1)
    pictures = svg.render()
    assert pictures is not None
    assert all(p.startswith("<svg") for p in pictures)
    assert SolitaireVectorEnv(2).render() is None


def test_refuses_bad_settings_and_bad_actions() -> None:
    with pytest.raises(ValueError, match="solitaire"):
        SolitaireVectorEnv(2, rules=Rules(players=2))
    with pytest.raises(ValueError, match="num_envs"):
        SolitaireVectorEnv(0)
    with pytest.raises(ValueError, match="autoreset_mode"):
        SolitaireVectorEnv(2, autoreset_mode="sometimes")
    with pytest.raises(ValueError, match="render_mode"):
        SolitaireVectorEnv(2, render_mode="human")
    with pytest.raises(ValueError, match="max_turns"):
        SolitaireVectorEnv(2, max_turns=0)
    with pytest.raises(InvalidRules, match=r"CantStopEnv.*R15\.3"):
        SolitaireVectorEnv(2, rules=Rules(players=1, heights={7: 300, 8: 2}, columns_to_win=1))
    envs = SolitaireVectorEnv(3)
    with pytest.raises(ResetNeeded, match="reset"):
        envs.step(np.zeros(3, np.int64))
    envs.reset(seed=1)
    with pytest.raises(ValueError, match="3 whole decision numbers"):
        envs.step(np.zeros(2, np.int64))
    with pytest.raises(ValueError, match="3 whole decision numbers"):
        envs.step(np.zeros(3))
    with pytest.raises(ValueError, match="numbered 0 to 78"):
        envs.step(np.array([0, -1, 0]))
    with pytest.raises(ValueError, match="numbered 0 to 78"):
        envs.step(np.array([0, 79, 0]))
    with pytest.raises(ValueError, match="one seed per game"):
        envs.reset(seed=[1, 2])
    with pytest.raises(ValueError, match="reset_mask"):
        envs.reset(options={"reset_mask": np.zeros(3, bool)})
    with pytest.raises(IndexError, match="0 to 2"):
        envs.engine_state(3)


def test_the_tables_take_the_engines_answers(monkeypatch: pytest.MonkeyPatch) -> None:
    """An engine that dropped every move but the first would show in every batched mask."""
    original = legal_decisions

    def first_only(state: State) -> list[int]:
        legal = original(state)
        return legal[:1] if state.phase is Phase.CHOOSE else legal

    monkeypatch.setattr(cantstop.envs._batch, "legal_decisions", first_only)
    rules = Rules(players=1, columns_to_win=2)  # tables of its own, asked afresh
    monkeypatch.setattr(cantstop.envs._batch, "_CACHE", {})
    envs = SolitaireVectorEnv(8, rules=rules)
    observations, _ = envs.reset(seed=2)
    for _ in range(40):
        for i in range(8):
            state = envs.engine_state(i)
            if state.phase is Phase.CHOOSE:
                assert list(np.flatnonzero(observations["action_mask"][i])) == original(state)[:1]
        observations = envs.step(observations["action_mask"].argmax(axis=1))[0]


def test_a_position_the_classes_misread_is_refused_naming_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(cantstop.envs._batch, "_CACHE", {})
    monkeypatch.setattr(cantstop._tables, "situation", lambda state: 0)
    with pytest.raises(AssertionError, match=r"column 2 of '- - 0r' has class 2"):
        SolitaireVectorEnv(2).reset(seed=0)


def test_stops_and_wins_come_from_the_engine() -> None:
    """The stop table: every marker becomes a square, a top space wins the column (R11, R9)."""
    tables = cantstop.envs._batch.tables_for(TINY)
    for column, height in TINY.heights.items():
        index = column - 2
        for marker in range(1, height + 1):
            code = tables.code(index, 0, marker)
            assert tables.column(int(tables.stop[code])) == (index, marker, 0)
            won = tables.wonbit[tables.stop[code]] == 1 << index
            assert won == (marker == height)
    # Two columns win on this board (R12.1): one won column does not end it.
    assert not tables.over[1 << 3]
    assert tables.over[1 << 3 | 1 << 5]
    assert list(np.flatnonzero(tables.masks[cantstop.envs._batch.ENDED])) == [STOP]


def test_the_benchmark_replays_the_games_it_recorded() -> None:
    """``benchmarks.batched`` times replays that end where the recording did (else it raises)."""
    from benchmarks.batched import SIZES, bench_batched, rows

    figures = bench_batched(steps=300, rounds=1)
    assert figures is not None
    assert figures["single_steps"] >= 300
    measured = [(f["compiled"], f["num_envs"]) for f in figures["batched"]]
    assert measured == [(compiled, size) for compiled in BACKENDS[::-1] for size in SIZES]
    assert all(f["steps"] >= 50 * f["num_envs"] for f in figures["batched"])
    assert len(rows(figures)) == 2 + len(measured)
