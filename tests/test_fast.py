"""The fast paths agree with the plain engine and with the independent implementation.

* :func:`cantstop.playout.playout` plays exactly the game that folding
  ``State.apply`` over :func:`cantstop.playout.random_action` plays, from the
  opening and from states in the middle of a turn;
* the situation a transition updates in place equals the one computed from
  scratch for the same position, and so do the turn-start situations it hands
  on; every state a transition builds equals the one the checking
  constructor builds from the same fields;
* the move table gives the independent implementation's legal moves for
  every sorted roll, and its bust counts match, on positions random games
  reach and on synthetic positions built around each roll's sums.
"""

from __future__ import annotations

import random

import pytest

from cantstop import (
    Phase,
    Rules,
    State,
    Variant,
    _tables,
    format_state,
    new_game,
    parse_state,
    perft,
)
from cantstop.playout import playout, random_action
from tests.games import CONFIGS, random_game
from tests.independent import legal_moves, read_state


def _fold(state: State, rng: random.Random) -> tuple[State, list[object]]:
    actions: list[object] = []
    while state.phase is not Phase.OVER:
        action = random_action(state, rng)
        actions.append(action)
        state = state.apply(action)
    return state, actions


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_playout_is_the_folded_random_policy(name: str) -> None:
    rules = CONFIGS[name]
    for seed in range(12):
        start = new_game(rules, first_player=seed % rules.players)
        expected, expected_actions = _fold(start, random.Random(seed))
        actions: list[object] = []
        final = playout(start, random.Random(seed), actions=actions)  # type: ignore[arg-type]
        assert actions == expected_actions
        assert final == expected
        assert format_state(final) == format_state(expected)
        assert final.winner == expected.winner == final.player


@pytest.mark.parametrize("roll_again", [0.0, 0.5, 0.95])
def test_playout_with_other_roll_again_chances(roll_again: float) -> None:
    for rules in (Rules(), Rules(players=3, variant=Variant.B), Rules(variant=Variant.A)):
        for seed in range(4):
            start = new_game(rules)
            rng = random.Random(seed)
            expected: list[object] = []
            state = start
            while state.phase is not Phase.OVER:
                action = random_action(state, rng, roll_again)
                expected.append(action)
                state = state.apply(action)
            actions: list[object] = []
            final = playout(start, random.Random(seed), roll_again, actions)  # type: ignore[arg-type]
            assert (final, actions) == (state, expected)


@pytest.mark.parametrize("name", ["2p", "3p-B", "2p-A", "tiny-4p-A"])
def test_playout_from_the_middle_of_a_game(name: str) -> None:
    rules = CONFIGS[name]
    for seed in range(3):
        for i, state in enumerate(random_game(rules, seed)):
            if i % 7:
                continue
            expected, expected_actions = _fold(state, random.Random(i))
            actions: list[object] = []
            final = playout(state, random.Random(i), actions=actions)  # type: ignore[arg-type]
            assert (final, actions) == (expected, expected_actions), format_state(state)


def test_playout_of_a_finished_game_returns_it() -> None:
    state = parse_state("2:3,3:5,4:7/- - 0x")
    assert playout(state, random.Random(1)) is state


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_situation_kept_by_transitions_equals_a_fresh_one(name: str) -> None:
    for seed in range(3):
        for state in random_game(CONFIGS[name], seed):
            fresh = parse_state(format_state(state))
            assert state._situation == fresh._situation, format_state(state)
        end = playout(new_game(CONFIGS[name]), random.Random(seed))
        assert end._situation == parse_state(format_state(end))._situation


def _about_to_roll(name: str, seed: int) -> list[State]:
    return [s for s in random_game(CONFIGS[name], seed) if s.phase in (Phase.ROLL, Phase.DECIDE)]


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_move_table_matches_the_independent_implementation(name: str) -> None:
    for state in _about_to_roll(name, 11)[::3]:
        text = format_state(state)
        pos = read_state(text)
        busts = 0
        for roll, weight in enumerate(_tables.ROLL_WEIGHT):
            dice = _tables.SORTED_ROLLS[roll]
            expected = legal_moves(pos, dice)
            got = _tables.moves(state._situation, roll)
            assert [m.columns for m in got] == expected, (text, dice)
            busts += weight * (not expected)
        assert _tables.bust_weight(state._situation) == busts == perft(state).busts


def test_roll_tables_are_consistent() -> None:
    assert len(_tables.SORTED_ROLLS) == 126
    assert sum(_tables.ROLL_WEIGHT) == 1296
    assert len(_tables.ROLL_INDEX) == 1296
    # Four different dice can be thrown in 4! = 24 orders, four equal ones in one.
    assert _tables.ROLL_WEIGHT[_tables.ROLL_INDEX[(1, 2, 3, 4)]] == 24
    assert _tables.ROLL_WEIGHT[_tables.ROLL_INDEX[(6, 6, 6, 6)]] == 1
    assert _tables.ROLL_WEIGHT[_tables.ROLL_INDEX[(5, 3, 5, 3)]] == 6
    for dice, index in _tables.ROLL_INDEX.items():
        assert _tables.SORTED_ROLLS[index] == tuple(sorted(dice))
        a, b, c, d = dice
        assert {s for pair in _tables.PAIRINGS[index] for s in pair} == {
            a + b,
            c + d,
            a + c,
            b + d,
            a + d,
            b + c,
        }


def test_move_table_on_synthetic_positions() -> None:
    """Random column situations around each roll's sums, against the independent implementation.

    For a sorted roll, each sum it can make gets one of six situations: won by
    the other player, a marker on the top space, no marker one space or more
    below the top, or a marker one space or more below the top; other columns
    may hold markers too, so that the free-marker count varies.
    """
    heights = {c: 13 - 2 * abs(7 - c) for c in range(2, 13)}
    kinds = ("won", "top", "place-1", "place-2", "marker-1", "marker-2")
    rng = random.Random(2024)
    for roll, dice in enumerate(_tables.SORTED_ROLLS):
        sums = sorted({s for pair in _tables.PAIRINGS[roll] for s in pair})
        others = [c for c in range(2, 13) if c not in sums]
        for _ in range(25):
            mine: dict[int, int] = {}
            theirs: dict[int, int] = {}
            markers: dict[int, int] = {}
            for column in sums:
                kind = rng.choice(kinds)
                top = heights[column]
                if kind == "won":
                    theirs[column] = top
                elif kind == "top":
                    markers[column] = top
                elif kind == "place-1":
                    mine[column] = top - 1
                elif kind == "marker-1":
                    markers[column] = top - 1
                elif kind == "marker-2":
                    markers[column] = 1
            if len(markers) > 3:
                continue
            for column in rng.sample(others, min(len(others), rng.randrange(4 - len(markers)))):
                markers[column] = 1
            if sum(1 for c, s in theirs.items() if s == heights[c]) >= 3:
                continue

            def cells(values: dict[int, int]) -> str:
                return ",".join(f"{c}:{values[c]}" for c in sorted(values)) or "-"

            text = f"{cells(mine)}/{cells(theirs)} {cells(markers)} 0{'d' if markers else 'r'}"
            state = parse_state(text)
            expected = legal_moves(read_state(text), dice)
            got = [m.columns for m in _tables.moves(state._situation, roll)]
            assert got == expected, (text, dice)


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_successors_equal_states_the_constructor_checks(name: str) -> None:
    """Transitions build states field by field; the constructor, checking R16, agrees on each."""
    from cantstop._tables import compute_starts
    from cantstop.transitions import turn_starts

    for seed in range(3):
        for state in random_game(CONFIGS[name], seed):
            fresh = State(
                state.rules, state.player, state.phase, state.dice, state.markers, state.squares
            )
            assert fresh == state
            assert hash(fresh) == hash(state)
            assert (fresh.won, fresh.winner, fresh.legal_moves(), fresh._situation) == (
                state.won,
                state.winner,
                state.legal_moves(),
                state._situation,
            ), format_state(state)
            # The turn-start situations handed on from state to state are the fresh ones.
            assert turn_starts(state) == compute_starts(fresh), format_state(state)


def test_copies_of_a_state_are_the_state() -> None:
    import copy
    import pickle

    state = parse_state("7:2/8:3 6:1 0c1256")
    assert copy.copy(state) is state
    assert copy.deepcopy(state) is state
    again = pickle.loads(pickle.dumps(state))
    assert again == state
    assert again.legal_moves() == state.legal_moves()
