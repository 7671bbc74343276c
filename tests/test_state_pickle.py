"""Pickled states: a state loads equal to itself and plays on exactly like the original.

OpenSpiel serializes a Python game's state by pickling it, and process pools
pickle what they send, so the engine's :class:`~cantstop.State` pickles as
plain numbers and dicts (``State.__reduce__``) and loads without the
constructor's checks.  These tests check that nothing is lost on the way:
every state of random games in every configuration of ``tests/games.py``
loads equal, with the same text, legal moves, winner and whole-roll counts,
and its successors under every roll and every legal action are the
original's successors.
"""

from __future__ import annotations

import pickle

import pytest

from cantstop import (
    ORDERED_ROLLS,
    ColumnMap,
    IllegalAction,
    Phase,
    State,
    Stop,
    format_state,
    parse_state,
    perft,
)
from cantstop.actions import Action
from cantstop.dice import roll_outcomes
from tests.games import CONFIGS, random_game

SORTED_ROLLS = [roll for roll, _ in roll_outcomes()]


def _successors(state: State) -> list[tuple[str, str]]:
    """Return (action, next state text) for every action the state allows, or why it refuses."""
    out = []
    actions: list[Action]
    if state.phase is Phase.CHOOSE:
        actions = list(state.legal_moves())
    elif state.phase in (Phase.ROLL, Phase.DECIDE):
        actions = [*SORTED_ROLLS, Stop()]
    else:
        actions = [Stop(), SORTED_ROLLS[0]]
    for action in actions:
        try:
            out.append((repr(action), format_state(state.apply(action))))
        except IllegalAction as error:
            out.append((repr(action), f"illegal under {error.rule}"))
    return out


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_every_state_of_random_games_loads_equal_and_plays_on_alike(name: str) -> None:
    rules = CONFIGS[name]
    for seed in range(2):
        for state in random_game(rules, seed):
            loaded = pickle.loads(pickle.dumps(state))
            assert loaded == state
            assert hash(loaded) == hash(state)
            assert format_state(loaded) == format_state(state)
            assert loaded.rules == rules
            assert loaded.legal_moves() == state.legal_moves()
            assert loaded.won == state.won
            assert loaded.winner == state.winner
            if state.phase in (Phase.ROLL, Phase.DECIDE):
                assert perft(loaded) == perft(state)
            assert _successors(loaded) == _successors(state)


def test_a_loaded_state_plays_a_whole_game_like_the_original() -> None:
    """A game continued from a loaded state passes through the same states, pickled at each step."""
    original = list(random_game(CONFIGS["3p-B"], seed=11))
    state = original[0]
    for expected in original[1:]:
        state = pickle.loads(pickle.dumps(state))
        # The recorded game moved from ``state`` to ``expected`` by one action:
        # find it among the loaded state's successors.
        candidates = [*state.legal_moves(), *ORDERED_ROLLS, Stop()]
        reached = []
        for action in candidates:
            try:
                reached.append(state.apply(action))
            except IllegalAction:
                continue
        assert expected in reached
        state = expected


# Protocols 0 and 1 cannot pickle a ColumnMap (slots without __getstate__), so
# not the rules a state holds either.
@pytest.mark.parametrize("protocol", range(2, pickle.HIGHEST_PROTOCOL + 1))
def test_every_pickle_protocol_from_2(protocol: int) -> None:
    states = [
        parse_state("-/- - 0r"),
        parse_state("7:2,10:1/8:3 7:4 0d"),
        parse_state("-/- 7:2,8:1 0c1256"),
        parse_state("2:3,3:5,4:7/- - 0x"),
        parse_state("-/7:3 7:3 0d B"),
        parse_state("5:1/- - 1c1145 h5:2,6:1,7:3,8:2,9:1 w2 A"),
    ]
    loaded = pickle.loads(pickle.dumps(states, protocol=protocol))
    assert loaded == states
    assert [s.legal_moves() for s in loaded] == [s.legal_moves() for s in states]


@pytest.mark.parametrize("protocol", range(pickle.HIGHEST_PROTOCOL + 1))
def test_a_column_map_pickles_as_its_dict_alone(protocol: int) -> None:
    """A column map loads equal, hashing alike and in column order, from its dict alone."""
    original = ColumnMap({12: 2, 7: 3, 10: 1})
    loaded = pickle.loads(pickle.dumps(original, protocol))
    assert loaded == original
    assert hash(loaded) == hash(original)
    assert list(loaded.items()) == [(7, 3), (10, 1), (12, 2)]
    assert original.__reduce__()[1] == ({7: 3, 10: 1, 12: 2},)  # no items tuple, no hash


def test_a_column_maps_views_are_read_only_and_ordered() -> None:
    """``items``, ``keys`` and ``values`` read the map in column order and cannot change it."""
    columns = ColumnMap({10: 1, 7: 3})
    assert list(columns.items()) == [(7, 3), (10, 1)]
    assert list(columns.keys()) == [7, 10]
    assert list(columns.values()) == [3, 1]
    assert columns.items() == {(10, 1), (7, 3)}  # a set-like view, as Mapping promises
    assert not hasattr(columns.items(), "__setitem__")
    assert not hasattr(columns.keys(), "add")
