"""The OpenSpiel game (cantstop.openspiel), checked with OpenSpiel's own tools.

* ``pyspiel.random_sim_test`` with serialization, for every player count and variant;
* ``get_all_states`` on tiny boards: every state OpenSpiel reaches, and every
  child of it, against the independent implementation (``independent.py``),
  which also enumerates the same set of states by itself;
* OpenSpiel's MCTS bot playing whole games against the Rule of 28
  (few and short here; ``python -m benchmarks.mcts`` plays the long match);
* the turn limit: an always-rolling player ends, and the longest possible
  turns reach ``max_game_length()`` exactly, never more;
* the numbering, strings, chance outcomes, observation and information
  state, returns (zero-sum; solitaire in turns), starting from a given
  position, clones and the errors for bad actions.
"""

from __future__ import annotations

import contextlib
import itertools
import pickle
import random
import sys
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

import cantstop.state
from tests.extras import require

pyspiel = require("pyspiel")

import numpy as np  # noqa: E402 - after the skip, as numpy comes with the extra

from cantstop import IllegalAction, Move, NotationError, format_state, parse_state  # noqa: E402
from cantstop.envs import MAX_TURNS, NUM_ACTIONS, ROLL, STOP, observation  # noqa: E402
from cantstop.openspiel import (  # noqa: E402
    GAME_NAME,
    PlayerBot,
    roll_action,
    rules_of,
)
from cantstop.players import Rule28Player  # noqa: E402
from tests.independent import (  # noqa: E402
    Illegal,
    legal_moves,
    move_result,
    read_state,
    roll_result,
    stop_result,
)

#: Every sorted roll, in increasing order, with the number of ordered rolls it stands for.
SORTED = sorted(Counter(tuple(sorted(r)) for r in itertools.product(range(1, 7), repeat=4)).items())


def _load(**params: Any) -> Any:
    return pyspiel.load_game(GAME_NAME, params)


@pytest.mark.parametrize("players", [1, 2, 3, 4])
@pytest.mark.parametrize("variant", ["none", "A", "B"])
def test_random_sim_test_with_serialization(players: int, variant: str) -> None:
    game = _load(players=players, variant=variant)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_random_sim_test_on_a_custom_board() -> None:
    game = _load(players=3, columns_to_win=2, heights="5:2;6:1;7:3;8:2;9:1", variant="A")
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


def test_chance_outcomes_are_the_126_sorted_rolls_with_exact_chances() -> None:
    state = _load().new_initial_state()
    outcomes = state.chance_outcomes()
    assert [a for a, _ in outcomes] == list(range(126))
    assert [p for _, p in outcomes] == [count / 1296 for _, count in SORTED]
    names = [state.action_to_string(pyspiel.PlayerId.CHANCE, a) for a, _ in outcomes]
    assert names == ["r" + "".join(map(str, dice)) for dice, _ in SORTED]
    assert roll_action((6, 5, 4, 3)) == [dice for dice, _ in SORTED].index((3, 4, 5, 6))


def test_action_numbers_and_strings() -> None:
    state = _load().new_initial_state()
    state.apply_action(roll_action((1, 2, 5, 6)))  # 3+11, 6+8, 7+7
    # 2-12 single sums, then pairs from 13: 2+2 .. 2+12 (11), 3+3 .. 3+12 (10),
    # 4+x (9), 5+x (8), 6+6 is 13 + 38 = 51 and 6+8 is 53; 7+7 is 51 + 7 = 58;
    # 3+11 is 24 + 8 = 32.
    assert state.legal_actions() == [32, 53, 58]
    assert [state.action_to_string(a) for a in state.legal_actions()] == ["3+11", "6+8", "7+7"]
    state.apply_action(53)
    assert str(state) == "-/- 6:1,8:1 0d"
    assert state.legal_actions() == [STOP, ROLL]
    assert [state.action_to_string(a) for a in (STOP, ROLL)] == ["stop", "roll"]
    state.apply_action(STOP)
    assert str(state) == "6:1,8:1/- - 1r"
    assert state.current_player() == pyspiel.PlayerId.CHANCE
    assert _load().num_distinct_actions() == NUM_ACTIONS == 79


def test_variant_b_offers_no_stop_on_a_rivals_square() -> None:
    game = _load(variant="B")
    state = game.new_initial_state()
    for action in (roll_action((3, 4, 5, 5)), 61, STOP):  # player 0: 7+10, stop
        state.apply_action(action)
    state.apply_action(roll_action((3, 4, 5, 5)))
    state.apply_action(61)  # player 1 lands on player 0's squares in 7 and 10
    assert str(state) == "7:1,10:1/- 7:1,10:1 1d B"
    assert state.legal_actions() == [ROLL]


def test_returns_and_terminal_state() -> None:
    for players in (1, 2, 3):
        for solitaire_reward in ("turns", "win"):
            game = _load(
                players=players,
                columns_to_win=1,
                heights="2:1;12:1;7:1;6:1;8:1",
                solitaire_reward=solitaire_reward,
            )
            state = game.new_initial_state()
            state.apply_action(roll_action((1, 1, 3, 4)))  # 2+7 or 4+5; 4, 5 are off the board
            state.apply_action(13 + 5)  # 2+7: pairs start at 13 with 2+2
            state.apply_action(STOP)
            assert state.is_terminal()
            if players == 1:  # won in one turn
                assert state.returns() == [-1.0 if solitaire_reward == "turns" else 1.0]
            else:
                loss = -1 / (players - 1)
                assert state.returns() == [1.0] + [loss] * (players - 1)
                assert sum(state.returns()) == pytest.approx(0)


def test_solitaire_returns_minus_the_turns_the_game_took() -> None:
    game = _load(players=1)
    assert (game.min_utility(), game.max_utility()) == (-MAX_TURNS, -1.0)
    rng = random.Random(7)
    state = game.new_initial_state()
    stops = busts = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.randrange(126))
            # A roll after which chance throws again was a bust: the next turn starts.
            busts += state.is_chance_node()
        else:
            action = rng.choice(state.legal_actions())
            stops += action == STOP
            state.apply_action(action)
    assert state.engine_state.winner == 0
    assert busts > 0
    assert state.returns() == [-float(stops + busts)]
    assert _load(players=1, solitaire_reward="win").max_utility() == 1.0


@pytest.mark.parametrize("max_turns", [60, MAX_TURNS])
def test_an_always_rolling_player_is_stopped_by_the_turn_limit(max_turns: int) -> None:
    game = _load(players=2) if max_turns == MAX_TURNS else _load(players=2, max_turns=max_turns)
    assert game.max_game_length() == max_turns * 2 * 35
    rng = random.Random(3)
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.randrange(126))
            continue
        legal = state.legal_actions()
        state.apply_action(ROLL if ROLL in legal else rng.choice(legal))
        decisions += 1
    assert state.engine_state.winner is None
    assert state.current_player() == pyspiel.PlayerId.TERMINAL
    assert state.returns() == [0.0, 0.0]
    assert state.legal_actions() == []
    assert str(state).endswith(" limit")
    assert state.turns_ended == max_turns
    assert decisions <= game.max_game_length()
    assert len(state.history()) <= game.max_history_length()


def test_the_longest_turns_reach_max_game_length_exactly() -> None:
    """Dice that give one step at a time and a player who always rolls fill the bound, no more.

    On columns 5 (1 space), 6 (2), 7 (3) and 8 (2) the three markers climb at
    most 2 + 3 + 2 = 7 spaces in a turn, so a turn has at most 7 moves and 14
    decisions.  Here every roll plays one sum in column 6, 7 or 8 and the
    player rolls again until all three markers are at the top and the next
    roll busts: two such turns are 28 decisions, the bound for two turns.
    """
    game = _load(players=1, columns_to_win=1, heights="5:1;6:2;7:3;8:2", max_turns=2)
    assert game.max_game_length() == 2 * 2 * 7
    state = game.new_initial_state()
    decisions = chance = 0
    while not state.is_terminal():
        if state.is_chance_node():
            # The first roll whose moves include one sum in column 6, 7 or 8; a bust if none.
            outcomes = range(126)
            for outcome in outcomes:
                child = state.child(outcome)
                if not child.is_chance_node() and any(
                    child.action_to_string(a) in ("6", "7", "8") for a in child.legal_actions()
                ):
                    break
            state.apply_action(outcome)
            chance += 1
            continue
        legal = state.legal_actions()
        if ROLL in legal:
            state.apply_action(ROLL)
        else:
            state.apply_action(next(a for a in legal if state.action_to_string(a) in "678"))
        decisions += 1
    assert decisions == game.max_game_length()
    assert chance == 2 * (7 + 1)
    assert len(state.history()) <= game.max_history_length()
    assert state.returns() == [-2.0]


def test_serialization_round_trips() -> None:
    game = _load(players=3, variant="A", heights="5:2,6:1,7:3,8:2,9:1", columns_to_win=2)
    assert str(game) == (
        f"{GAME_NAME}(columns_to_win=2,heights=5:2;6:1;7:3;8:2;9:1,max_turns={MAX_TURNS},"
        f"players=3,solitaire_reward=turns,variant=A)"
    )
    state = game.new_initial_state()
    rng = random.Random(4)
    for _ in range(40):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(rng.randrange(126))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        text = pyspiel.serialize_game_and_state(game, state)
        again_game, again = pyspiel.deserialize_game_and_state(text)
        assert str(again_game) == str(game)
        assert str(again) == str(state)
        assert again.history() == state.history()
        assert str(game.deserialize_state(state.serialize())) == str(state)
        assert str(pickle.loads(pickle.dumps(state))) == str(state)


def test_observation_tensor_is_the_shared_observation() -> None:
    game = _load(players=2)
    state = game.new_initial_state()
    state.apply_action(roll_action((1, 2, 5, 6)))
    for player in (0, 1):
        tensor = np.array(state.observation_tensor(player), dtype=np.float32)
        expected = observation(state.engine_state, player)
        assert np.array_equal(tensor, expected)
        assert state.observation_string(player) == "-/- - 0c1256"
    tensor = state.observation_tensor(1)
    # Seen by player 1, the player to act (player 0) is the second seat.
    assert tensor[:2] == [0.0, 1.0]
    # Phase "choosing" is the second of four; the dice 1 2 5 6 one-hot after it.
    assert tensor[2:6] == [0.0, 1.0, 0.0, 0.0]
    dice = [tensor[6 + 6 * i : 12 + 6 * i].index(1.0) + 1 for i in range(4)]
    assert dice == [1, 2, 5, 6]
    assert game.observation_tensor_size() == 50 + 23 * 2


@pytest.mark.parametrize(
    "params",
    [
        {"players": 5},
        {"variant": "C"},
        {"heights": "7:two"},
        {"heights": "13:3"},
        {"columns_to_win": 4, "heights": "6:1;7:2;8:1"},
    ],
)
def test_bad_parameters_are_refused_with_a_reason(params: dict[str, Any]) -> None:
    with pytest.raises((ValueError, pyspiel.SpielError)) as info:
        rules_of(params)
    assert str(info.value)


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"max_turns": 0}, "max_turns must be a whole number of turns from 1, not 0"),
        ({"solitaire_reward": "fast"}, "solitaire reward must be 'turns' or 'win', not 'fast'"),
    ],
)
def test_bad_adapter_parameters_are_refused_with_a_reason(
    params: dict[str, Any], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        _load(**params)


def test_clone_shares_the_engine_state_and_checks_nothing_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = _load()
    state = game.new_initial_state()
    state.apply_action(roll_action((3, 4, 5, 5)))

    def no_checks(state: object) -> None:
        raise AssertionError("a clone builds no engine state")

    # The constructor's checks are the cost of making a state; clones skip them.
    monkeypatch.setattr(cantstop.state, "validate", no_checks)
    clone = state.clone()
    assert clone.engine_state is state.engine_state
    assert game.new_initial_state().engine_state is game.new_initial_state().engine_state
    clone.apply_action(61)
    clone.apply_action(ROLL)
    assert str(clone) == "-/- 7:1,10:1 0d roll"
    assert str(state) == "-/- - 0c3455"
    assert state.history() == [roll_action((3, 4, 5, 5))]
    assert clone.history() == [*state.history(), 61, ROLL]


def test_information_state_is_the_history_and_the_observation_the_position() -> None:
    from open_spiel.python.observation import make_observation

    game = _load()
    assert game.get_type().provides_information_state_string
    # r3455 and r2555 both offer 7+10: two histories, one position.
    one, two = game.new_initial_state(), game.new_initial_state()
    for state, dice in ((one, (3, 4, 5, 5)), (two, (2, 5, 5, 5))):
        state.apply_action(roll_action(dice))
        state.apply_action(61)
    assert str(one) == str(two) == "-/- 7:1,10:1 0d"
    rolls = [dice for dice, _ in SORTED]
    first, second = rolls.index((3, 4, 5, 5)), rolls.index((2, 5, 5, 5))
    for player in (0, 1):
        assert one.observation_string(player) == two.observation_string(player)
        assert one.information_state_string(player) == one.history_str() == f"{first}, 61"
        assert two.information_state_string(player) == f"{second}, 61"
    recall = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    assert recall.string_from(one, 0) == f"{first}, 61"
    assert recall.tensor is None
    public = make_observation(game, pyspiel.IIGObservationType(perfect_recall=False))
    public.set_from(one, 1)
    assert public.string_from(one, 1) == str(one)
    assert list(public.tensor) == list(observation(one.engine_state, 1))
    private = make_observation(
        game,
        pyspiel.IIGObservationType(
            public_info=False,
            perfect_recall=False,
            private_info=pyspiel.PrivateInfoType.SINGLE_PLAYER,
        ),
    )
    assert private.string_from(one, 0) == ""


def test_a_game_starts_from_a_given_position() -> None:
    game = _load()
    state = game.new_initial_state("7:1,10:1/- - 1r")
    assert str(state) == "7:1,10:1/- - 1r"
    assert state.is_chance_node()
    state.apply_action(roll_action((3, 4, 5, 5)))
    assert state.legal_actions() == [61, 65]
    state.apply_action(61)
    assert str(state) == "7:1,10:1/- 7:1,10:1 1d"
    # The information state names the start; serialization keeps the position.
    first = [dice for dice, _ in SORTED].index((3, 4, 5, 5))
    assert state.information_state_string(0) == f"7:1,10:1/- - 1r; {first}, 61"
    assert str(game.deserialize_state(state.serialize())) == str(state)
    again = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))[1]
    assert str(again) == str(state)
    rolling = game.new_initial_state("7:1,10:1/- 7:1,10:1 1d roll")
    assert rolling.is_chance_node()
    assert str(rolling) == "7:1,10:1/- 7:1,10:1 1d roll"
    # The turn limit counts from the given position.
    limited = _load(max_turns=1).new_initial_state("7:1,10:1/- 7:1,10:1 1d")
    limited.apply_action(STOP)
    assert limited.is_terminal()
    assert limited.returns() == [0.0, 0.0]


@pytest.mark.parametrize(
    ("text", "error", "message"),
    [
        ("7:1,10:1/- - 1q", NotationError, "at position 14"),
        ("7:1/-/- - 0r", ValueError, "Rules\\(players=3.*not of this game's Rules\\(players=2"),
        ("-/- - 0r roll", ValueError, "'roll' follows only a state deciding"),
        ("-/- - 0r A", ValueError, "not of this game's"),
    ],
)
def test_a_bad_starting_position_is_refused(text: str, error: type, message: str) -> None:
    with pytest.raises(error, match=message):
        _load().new_initial_state(text)


def test_bad_actions_raise_errors_naming_the_rule_or_the_range_and_the_state() -> None:
    game = _load()
    state = game.new_initial_state()
    chance = r"chance outcomes are numbered 0 to 125.*not 126, in state '-/- - 0r'"
    with pytest.raises(ValueError, match=chance):
        state.apply_action(126)
    state.apply_action(roll_action((3, 4, 5, 5)))
    numbers = r"decisions are numbered 0 to 78, not 79, in state '-/- - 0c3455'"
    with pytest.raises(ValueError, match=numbers):
        state.apply_action(79)
    with pytest.raises(IllegalAction, match=r"rule R3\.3\) in state '-/- - 0c3455'") as rolled:
        state.apply_action(ROLL)
    assert rolled.value.rule == "R3.3"
    with pytest.raises(IllegalAction) as stopped:
        state.apply_action(STOP)
    assert stopped.value.rule == "R3.3"
    with pytest.raises(IllegalAction) as moved:
        state.apply_action(13)  # 2+2
    assert moved.value.rule == "R4.3"
    assert str(state) == "-/- - 0c3455"
    finished = _load(players=1, columns_to_win=1, heights="2:1;12:1;7:1").new_initial_state(
        "2:1 - 0x h2:1,7:1,12:1 w1"
    )
    over = r"no action after the end of the game \(somebody has won \(R12\.3\)\)"
    with pytest.raises(ValueError, match=over):
        finished.apply_action(0)


# -- every state of a tiny board, against the independent implementation ---------


def _independent_children(text: str) -> Iterator[tuple[str, str]]:
    """Yield (action text, child text) for every action of an adapter state text."""
    awaiting = text.endswith(" roll")
    pos = read_state(text.removesuffix(" roll"))
    if pos.phase == "r" or awaiting:
        for dice, _ in SORTED:
            after, _ = roll_result(pos, dice)  # type: ignore[arg-type]
            yield "r" + "".join(map(str, dice)), after
    elif pos.phase == "c":
        for sums in legal_moves(pos, tuple(pos.dice)):
            yield "+".join(map(str, sums)), move_result(pos, sums)
    elif pos.phase == "d":
        with contextlib.suppress(Illegal):
            yield "stop", stop_result(pos)
        yield "roll", f"{text} roll"


def _independent_states(start: str) -> set[str]:
    seen = {start}
    todo = [start]
    while todo:
        for _, child in _independent_children(todo.pop()):
            if child not in seen:
                seen.add(child)
                todo.append(child)
    return seen


@pytest.mark.parametrize(
    "params",
    [
        {"players": 2, "columns_to_win": 1, "heights": "7:2;8:1"},
        {"players": 2, "columns_to_win": 1, "heights": "7:2;8:1", "variant": "A"},
        {"players": 2, "columns_to_win": 1, "heights": "7:2;8:1", "variant": "B"},
        {"players": 1, "columns_to_win": 1, "heights": "7:2;8:2", "solitaire_reward": "win"},
    ],
)
def test_every_state_of_a_tiny_board_agrees_with_the_independent_implementation(
    params: dict[str, Any],
) -> None:
    from open_spiel.python.algorithms.get_all_states import get_all_states

    game = _load(**params)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 20_000))
    try:
        states = get_all_states(game, to_string=str, include_chance_states=True)
    finally:
        sys.setrecursionlimit(limit)
    start = str(game.new_initial_state())
    # The states on a path of the search are all different, and every turn
    # starts at a state to roll, so with fewer of those than the turn limit no
    # path reaches the limit.
    turn_starts = [
        text for text in states if not text.endswith(" roll") and read_state(text).phase == "r"
    ]
    assert 0 < len(turn_starts) < MAX_TURNS
    assert set(states) == _independent_states(start)
    kinds: Counter[str] = Counter()
    for text, state in states.items():
        children = dict(_independent_children(text))
        if state.is_terminal():
            kinds["terminal"] += 1
            assert children == {}
            winner = read_state(text).player
            assert state.returns()[winner] == 1.0
            continue
        player = pyspiel.PlayerId.CHANCE if state.is_chance_node() else state.current_player()
        kinds["chance" if state.is_chance_node() else "decision"] += 1
        actions = state.legal_actions()
        assert sorted(state.action_to_string(player, a) for a in actions) == sorted(children)
        for action in actions:
            child = state.child(action)
            assert str(child) == children[state.action_to_string(player, action)], text
        if not state.is_chance_node():
            assert parse_state(text.removesuffix(" roll")) == state.engine_state
            assert format_state(state.engine_state) == text
    assert min(kinds["terminal"], kinds["chance"], kinds["decision"]) > 0


# -- OpenSpiel's MCTS bot against the Rule of 28 --------------------------------


def play_match(
    game: Any, bots: list[Any], games: int, seed: int
) -> tuple[list[int], list[list[int]]]:
    """Play ``games`` games, seats swapping each game; return the winners' bot indices."""
    rng = np.random.RandomState(seed)
    winners = []
    histories = []
    for i in range(games):
        order = bots if i % 2 == 0 else bots[::-1]
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rng.choice(actions, p=probs)))
            else:
                action = order[state.current_player()].step(state)
                assert action in state.legal_actions()
                state.apply_action(action)
        returns = state.returns()
        assert sum(returns) == pytest.approx(0)
        seat = returns.index(1.0)
        winners.append(seat if i % 2 == 0 else 1 - seat)
        histories.append(state.history())
    return winners, histories


def test_mcts_bot_plays_whole_games_against_the_rule_of_28() -> None:
    from open_spiel.python.algorithms import mcts

    game = _load(players=2, columns_to_win=2, heights="5:3;6:3;7:4;8:3;9:3")
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(1))
    bot = mcts.MCTSBot(
        game,
        uct_c=2.0,
        max_simulations=20,
        evaluator=evaluator,
        random_state=np.random.RandomState(2),
    )
    rule28 = PlayerBot(Rule28Player(), seed=3)
    winners, histories = play_match(game, [bot, rule28], games=2, seed=4)
    assert len(winners) == 2
    assert set(winners) <= {0, 1}
    assert all(len(h) > 4 for h in histories)
    # The same seeds replay the same games.
    bot = mcts.MCTSBot(
        game,
        uct_c=2.0,
        max_simulations=20,
        evaluator=mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(1)),
        random_state=np.random.RandomState(2),
    )
    again = play_match(game, [bot, PlayerBot(Rule28Player(), seed=3)], games=2, seed=4)
    assert again == (winners, histories)


def test_player_bot_plays_the_players_decisions() -> None:
    game = _load()
    state = game.new_initial_state()
    state.apply_action(roll_action((1, 2, 5, 6)))
    bot = PlayerBot(Rule28Player(), seed=1)
    # Choice scores: 3+11 is 5 * 2 + 5 * 2 - 12 = 8, 6+8 is 2 * 2 + 2 * 2 - 12 = -4,
    # 7+7 is 1 * 3 - 6 = -3.
    assert bot.step(state) == 32
    assert Rule28Player().choose(state.engine_state, random.Random(1)) == Move((3, 11))
    state.apply_action(32)
    # Two markers in use, nine columns open: the Rule of 28 rolls on.
    assert bot.step(state) == ROLL
