"""The engine's public API: rules validation, actions, transitions, events and invariants."""

from __future__ import annotations

import dataclasses
import itertools

import pytest

from cantstop import (
    ORDERED_ROLLS,
    Event,
    IllegalAction,
    InvalidActionValue,
    InvalidRules,
    InvalidState,
    Move,
    Phase,
    Roll,
    Rules,
    State,
    Stop,
    format_state,
    new_game,
    pairings,
    parse_state,
    roll_outcomes,
)
from tests.games import CONFIGS, random_game

# -- rules ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "rule"),
    [
        ({"players": 0}, "R15.1"),
        ({"players": 5}, "R15.1"),
        ({"players": True}, "R15.1"),
        ({"players": "2"}, "R15.1"),
        ({"columns_to_win": 0}, "R15.2"),
        ({"columns_to_win": 12}, "R15.2"),
        ({"heights": {}}, "R15.3"),
        ({"heights": {13: 3}}, "R15.3"),
        ({"heights": {7: 0}}, "R15.3"),
        ({"heights": {7: 1000}}, "R15.3"),
        ({"heights": {7: "3"}}, "R15.3"),
        ({"heights": [3, 5]}, "R15.3"),
        ({"players": 4, "columns_to_win": 4}, "R15.4"),
        ({"players": 3, "columns_to_win": 5}, "R15.4"),
        ({"players": 2, "columns_to_win": 2, "heights": {6: 2, 7: 2}}, "R15.4"),
        ({"variant": "A"}, "R14.3"),
    ],
)
def test_invalid_rules_name_their_rule(kwargs: dict[str, object], rule: str) -> None:
    """Each invalid configuration raises InvalidRules (a ValueError) with its rule id."""
    with pytest.raises(InvalidRules) as info:
        Rules(**kwargs)  # type: ignore[arg-type]
    assert info.value.rule == rule
    assert isinstance(info.value, ValueError)
    assert f"rule {rule}" in str(info.value)


def test_longer_games_the_sources_suggest_are_accepted() -> None:
    """Two players to 4 or 5 columns and three players to 4 columns are valid (R15.2, R15.4)."""
    for players, target in [(2, 4), (2, 5), (3, 4)]:
        assert Rules(players=players, columns_to_win=target).columns_to_win == target


def test_rules_are_hashable_values() -> None:
    """Rules built from equal mappings are equal and hash alike; they are frozen."""
    a = Rules(columns_to_win=1, heights={7: 3, 6: 2, 8: 2})
    b = Rules(columns_to_win=1, heights={6: 2, 7: 3, 8: 2})
    assert a == b
    assert hash(a) == hash(b)
    assert a.columns == (6, 7, 8)
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.players = 3  # type: ignore[misc]


def test_new_game_rejects_a_missing_first_player() -> None:
    """first_player must name a player of the game (R2.2)."""
    for bad in (-1, 2, True):
        with pytest.raises(InvalidRules) as info:
            new_game(Rules(), first_player=bad)
        assert info.value.rule == "R2.2"


@pytest.mark.parametrize(
    ("game", "rule"), [("cantstop", "R2.2"), ("finishline", "R2.4"), ("tower", "R3.2")]
)
@pytest.mark.parametrize("bad", [10**5000, -(10**5000)], ids=["huge", "huge-negative"])
def test_new_game_names_a_huge_first_player_in_the_games_own_error(
    game: str, rule: str, bad: int
) -> None:
    """A first player of 5,001 digits is the game's own refusal, quoted short, never a ValueError.

    Python refuses to write an integer of more than 4,300 digits, so quoting
    the value with repr would raise from inside the message itself.  The rule
    is each game's rule of who may begin.
    """
    import importlib

    from dicekit.errors import InvalidConfig

    module = importlib.import_module(game)
    config = importlib.import_module(f"{game}.layer").GAME.config(2)
    with pytest.raises(InvalidConfig) as info:
        module.new_game(config, bad)
    assert "digits" in str(info.value)
    assert info.value.rule == rule


# -- actions --------------------------------------------------------------------


@pytest.mark.parametrize(
    "dice", [(1, 2, 3), (1, 2, 3, 4, 5), (0, 1, 2, 3), (1, 2, 3, 7), (1, 2, 3, True)]
)
def test_bad_dice_are_rejected(dice: tuple[int, ...]) -> None:
    """A roll is exactly four dice from 1 to 6 (R4.1)."""
    with pytest.raises(InvalidActionValue) as info:
        Roll(dice)  # type: ignore[arg-type]
    assert info.value.rule == "R4.1"


@pytest.mark.parametrize("columns", [(), (7, 8, 9), (1,), (13,), (7, 13)])
def test_bad_moves_are_rejected(columns: tuple[int, ...]) -> None:
    """A move names one or two sums from 2 to 12 (R4.3)."""
    with pytest.raises(InvalidActionValue) as info:
        Move(columns)  # type: ignore[arg-type]
    assert info.value.rule == "R4.3"


def test_move_columns_are_sorted() -> None:
    """Move((10, 7)) and Move((7, 10)) are the same move."""
    assert Move((10, 7)) == Move((7, 10))
    assert Move((10, 7)).columns == (7, 10)


def test_pairings_follow_the_dice_order() -> None:
    """The three pairings of 1-3-3-4 give 4&7, 4&7 and 5&6 (R4.2)."""
    assert pairings((1, 3, 3, 4)) == ((4, 7), (4, 7), (5, 6))


def test_roll_chances() -> None:
    """1296 distinct ordered rolls; 126 sorted ones whose weights sum to exactly 1."""
    assert len(set(ORDERED_ROLLS)) == 1296
    outcomes = roll_outcomes()
    assert len(outcomes) == 126
    assert sum(p for _, p in outcomes) == 1
    # The weight of a sorted roll is its number of orderings: 4!/(multiplicities).
    weights = dict(outcomes)
    assert weights[Roll((1, 1, 1, 1))] * 1296 == 1
    assert weights[Roll((1, 2, 3, 4))] * 1296 == 24
    assert weights[Roll((1, 1, 2, 2))] * 1296 == 6


def test_seven_can_be_made_in_834_rolls() -> None:
    """Some pairing makes a 7 in 834 of the 1296 ordered rolls (a published figure)."""
    assert sum(any(7 in pair for pair in pairings(r.dice)) for r in ORDERED_ROLLS) == 834


# -- transitions and events -------------------------------------------------------


def test_turn_cycle_events() -> None:
    """Roll, move, stop report rolled, moved, stopped and pass the turn (R3, R11.4)."""
    state = new_game()
    step = state.step(Roll((3, 4, 5, 5)))
    assert step.event is Event.ROLLED
    assert step.state.phase is Phase.CHOOSE
    assert step.state.dice == (3, 4, 5, 5)
    step = step.state.step(Move((7, 10)))
    assert step.event is Event.MOVED
    assert step.state.phase is Phase.DECIDE
    assert step.state.markers == {7: 1, 10: 1}
    step = step.state.step(Stop())
    assert step.event is Event.STOPPED
    assert step.state.player == 1
    assert step.state.phase is Phase.ROLL
    assert step.state.squares == ({7: 1, 10: 1}, {})
    assert step.state.markers == {}


def test_a_bust_is_observable_and_loses_the_turn() -> None:
    """Markers on 2, 3 and 12 with 4-4-4-4 (only 8s): a bust; squares stay; next player (R10)."""
    state = parse_state("7:2/5:1 2:1,3:1,12:1 0d")
    step = state.step(Roll((4, 4, 4, 4)))
    assert step.event is Event.BUSTED
    assert format_state(step.state) == "7:2/5:1 - 1r"


def test_dice_order_does_not_change_the_state() -> None:
    """Rolling 5-3-5-4 or 3-4-5-5 gives equal, equally hashed states."""
    a = new_game().apply(Roll((5, 3, 5, 4)))
    b = new_game().apply(Roll((3, 4, 5, 5)))
    assert a == b
    assert hash(a) == hash(b)


def test_states_are_frozen() -> None:
    """A state cannot be changed in place."""
    state = new_game()
    with pytest.raises(dataclasses.FrozenInstanceError):
        state.player = 1  # type: ignore[misc]


@pytest.mark.parametrize(
    ("text", "action", "rule"),
    [
        ("-/- - 0r", Stop(), "R11.1"),
        ("-/- - 0r", Move((7,)), "R3.2"),
        ("-/- - 0c3455", Roll((1, 1, 1, 1)), "R3.3"),
        ("-/- - 0c3455", Stop(), "R3.3"),
        ("-/- 7:1 0d", Move((7,)), "R3.4"),
        ("-/- - 0c3455", Move((7, 9)), "R4.3"),
        ("-/- - 0c3455", Move((7,)), "R6.1"),
        ("-/- 4:1,10:1 0c2356", Move((5, 11)), "R6.3"),
        ("-/- - 0c2255", Move((7,)), "R7.1"),
    ],
)
def test_illegal_actions_name_rule_and_state(text: str, action: object, rule: str) -> None:
    """An illegal action raises IllegalAction with the rule id and the state's notation."""
    state = parse_state(text)
    with pytest.raises(IllegalAction) as info:
        state.apply(action)  # type: ignore[arg-type]
    assert info.value.rule == rule
    assert isinstance(info.value, ValueError)
    assert text in str(info.value)
    assert format_state(state) == text


def test_not_an_action_is_rejected() -> None:
    """Applying something that is not an action names R3.1, not a deep TypeError."""
    with pytest.raises(IllegalAction) as info:
        new_game().apply("stop")  # type: ignore[arg-type]
    assert info.value.rule == "R3.1"


def test_variant_b_forbids_stopping_while_sharing() -> None:
    """Under Variant B a marker on another player's square prevents a stop (R14.2)."""
    state = parse_state("-/7:2 7:2 0d B")
    with pytest.raises(IllegalAction) as info:
        state.apply(Stop())
    assert info.value.rule == "R14.2"
    assert parse_state("-/7:2 7:2 0d").apply(Stop()).squares[0] == {7: 2}


def test_winning_stop() -> None:
    """Stopping with a third column's marker on top ends the game with a winner (R12.1)."""
    state = parse_state("2:3,12:3/7:4 4:7 0d")
    step = state.step(Stop())
    assert step.event is Event.WON
    assert step.state.phase is Phase.OVER
    assert step.state.winner == 0
    assert dict(step.state.won) == {2: 0, 4: 0, 12: 0}
    for action in (Roll((1, 1, 1, 1)), Stop(), Move((7,))):
        with pytest.raises(IllegalAction) as info:
            step.state.apply(action)
        assert info.value.rule == "R12.3"


@pytest.mark.parametrize(
    ("fields", "rule"),
    [
        ({"markers": {2: 1, 3: 1, 4: 1, 5: 1}, "phase": Phase.DECIDE}, "R16.1"),
        ({"markers": {2: 4}, "phase": Phase.DECIDE}, "R16.2"),
        ({"markers": {7: 1}, "phase": Phase.ROLL}, "R16.5"),
        ({"phase": Phase.DECIDE}, "R16.5"),
        ({"phase": Phase.CHOOSE, "dice": None}, "R4.1"),
        ({"phase": Phase.ROLL, "dice": (1, 2, 3, 4)}, "R16.5"),
        ({"player": 2}, "R16.5"),
        ({"squares": ({7: 3}, {7: 5}), "markers": {7: 2}, "phase": Phase.DECIDE}, "R16.3"),
        ({"squares": ({2: 3}, {2: 1})}, "R9.3"),
        ({"squares": ({2: 3, 3: 5, 4: 7}, {})}, "R12.1"),
    ],
)
def test_constructor_checks_invariants(fields: dict[str, object], rule: str) -> None:
    """A directly built state that breaks an invariant raises InvalidState naming it (R16)."""
    values: dict[str, object] = {"rules": Rules(), "player": 0, "phase": Phase.ROLL}
    values.update(fields)
    with pytest.raises(InvalidState) as info:
        State(**values)  # type: ignore[arg-type]
    assert info.value.rule == rule


# -- every state of many random games -------------------------------------------------


def _rebuilt(state: State) -> State:
    return State(state.rules, state.player, state.phase, state.dice, state.markers, state.squares)


@pytest.mark.parametrize("config", CONFIGS)
def test_random_games_keep_every_invariant(config: str) -> None:
    """Every state of 20 random games passes the constructor's checks and equals its rebuild."""
    for seed in range(20):
        for state in random_game(CONFIGS[config], seed):
            again = _rebuilt(state)
            assert again == state
            assert hash(again) == hash(state)
            assert again.won == state.won
            assert again.winner == state.winner
            assert len(state.markers) <= 3
            moves = state.legal_moves()
            assert list(moves) == sorted(set(moves))
            assert (state.phase is Phase.CHOOSE) == bool(moves)


@pytest.mark.parametrize("config", ["2p", "2p-A", "3p-B", "tiny"])
def test_apply_is_pure_and_deterministic(config: str) -> None:
    """Applying an action leaves its state unchanged and always gives the same result."""
    for seed in range(5):
        states = list(random_game(CONFIGS[config], seed))
        for before, after in itertools.pairwise(states):
            text = format_state(before)
            for action in _candidate_actions(before):
                try:
                    first = before.apply(action)
                except IllegalAction:
                    continue
                assert before.apply(action) == first
                assert format_state(before) == text
            assert after.phase is not None


def _candidate_actions(state: State) -> list[Roll | Move | Stop]:
    return [Stop(), Roll((1, 2, 3, 4)), Roll((6, 6, 6, 6)), *state.legal_moves()]


def test_play_of_reads_the_decision_table() -> None:
    """play_of names what one sum does: advance, place, or the reason it is dropped (R5)."""
    from cantstop import Play

    full = parse_state("-/7:13 2:3,5:1,9:2 0d")
    assert full.play_of(7) is Play.WON
    assert full.play_of(2) is Play.TOP
    assert full.play_of(5) is Play.ADVANCE
    assert full.play_of(8) is Play.NO_MARKER
    assert full.play_of(8, markers={5: 1}) is Play.PLACE
    tiny = parse_state("- 7:1 0d h6:2,7:2 w1")
    assert tiny.play_of(8) is Play.NO_COLUMN
    assert tiny.play_of(6) is Play.PLACE
    assert [p for p in Play if p.plays] == [Play.ADVANCE, Play.PLACE]


def test_move_table_pairings_match_the_independent_implementation() -> None:
    # The kernel's pairing table is built once at import; its builder is checked
    # here directly, roll by roll, against the second implementation's pairings.
    from cantstop import _tables
    from tests.independent import _three_pairings

    assert len(_tables.SORTED_ROLLS) == 126
    for roll, table_pairs in zip(_tables.SORTED_ROLLS, _tables.PAIRINGS, strict=True):
        expected = {tuple(sorted(p)) for p in _three_pairings(roll)}
        built = _tables._pairings(roll)
        assert set(built) == expected, roll
        assert len(built) == len(expected), roll  # each pairing once
        assert built == table_pairs, roll
