"""Properties of the engine, the notation and the JSON form over generated states and actions.

States come from :mod:`cantstop.strategies`: reachable ones (legal play from a
new game) and arbitrary valid ones (any state meeting R16).  Expected results
come from the spec's rules or from the independent implementation in
``tests/independent.py``, never from the engine itself.
"""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from fractions import Fraction
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cantstop import (
    ORDERED_ROLLS,
    STANDARD_HEIGHTS,
    Event,
    IllegalAction,
    InvalidActionValue,
    InvalidRules,
    InvalidState,
    Move,
    NotationError,
    Phase,
    Roll,
    Rules,
    State,
    Stop,
    Variant,
    action_from_json,
    action_to_json,
    format_action,
    format_state,
    new_game,
    parse_action,
    parse_state,
    perft,
    roll_outcomes,
    rules_from_json,
    rules_to_json,
    state_from_json,
    state_to_json,
)
from cantstop.spec import load_spec
from cantstop.strategies import (
    actions,
    illegal_actions,
    invalid_dice,
    legal_actions,
    reachable_states,
    rolls,
    rules,
    valid_states,
)
from tests import independent

#: Tests that do much work per example run a quarter of the profile's examples.
heavy = settings(max_examples=max(10, settings().max_examples // 4))

any_states = st.one_of(valid_states(), reachable_states())
about_to_roll = st.one_of(
    valid_states(phase=Phase.ROLL),
    valid_states(phase=Phase.DECIDE),
    reachable_states(phase=Phase.ROLL),
    reachable_states(phase=Phase.DECIDE),
)
choosing = st.one_of(valid_states(phase=Phase.CHOOSE), reachable_states(phase=Phase.CHOOSE))


@cache
def _rule_ids() -> frozenset[str]:
    return frozenset(load_spec().rules)


def _expected_won(state: State) -> dict[int, int]:
    """Won columns by R9.1: a square on the column's top space."""
    heights = state.rules.heights
    return {
        column: p
        for p, squares in enumerate(state.squares)
        for column, space in squares.items()
        if space == heights[column]
    }


def _independent(state: State) -> independent.Position:
    return independent.read_state(format_state(state))


# -- notation and JSON ---------------------------------------------------------------


@given(any_states)
def test_state_text_round_trips(state: State) -> None:
    """parse_state(format_state(s)) == s, and the text reads back to itself (N1)."""
    text = format_state(state)
    again = parse_state(text)
    assert again == state
    assert hash(again) == hash(state)
    assert format_state(again) == text
    assert independent.write_state(independent.read_state(text)) == text


@given(any_states)
def test_state_text_is_canonical(state: State) -> None:
    """Other spellings of the same state are rejected: cell order, zeros, default options (N1)."""
    text = format_state(state)
    squares, markers, turn, *options = text.split(" ")
    spellings = [f"{squares} {markers} 0{turn}" + "".join(f" {o}" for o in options)]
    for group in [*squares.split("/"), markers]:
        cells = group.split(",")
        if len(cells) > 1:
            swapped = ",".join([cells[1], cells[0], *cells[2:]])
            spellings.append(text.replace(group, swapped, 1))
    if state.rules.columns_to_win == 3 and not any(o.startswith("w") for o in options):
        head = f"{squares} {markers} {turn}"
        height_options = [o for o in options if o.startswith("h")]
        rest = [o for o in options if not o.startswith("h")]
        spellings.append(" ".join([head, *height_options, "w3", *rest]))
    if state.rules.heights == STANDARD_HEIGHTS:
        board = ",".join(f"{c}:{h}" for c, h in STANDARD_HEIGHTS.items())
        spellings.append(" ".join([squares, markers, turn, f"h{board}", *options]))
    for spelling in spellings:
        assert spelling != text
        with pytest.raises(NotationError):
            parse_state(spelling)


@given(actions())
def test_action_text_round_trips(action: Move | Roll | Stop) -> None:
    """parse_action(format_action(a)) == a, and the text reads back to itself (N2)."""
    text = format_action(action)
    assert parse_action(text) == action
    assert format_action(parse_action(text)) == text


@given(any_states)
def test_state_json_round_trips(state: State) -> None:
    """The JSON form of a state survives json.dumps and reads back equal (N3.1)."""
    data = json.loads(json.dumps(state_to_json(state)))
    assert state_from_json(data) == state
    assert data["won"] == {str(c): p for c, p in sorted(_expected_won(state).items())}
    assert data["winner"] == state.winner
    assert rules_from_json(json.loads(json.dumps(rules_to_json(state.rules)))) == state.rules


@given(actions())
def test_action_json_round_trips(action: Move | Roll | Stop) -> None:
    """The JSON form of an action survives json.dumps and reads back equal (N3.2)."""
    assert action_from_json(json.loads(json.dumps(action_to_json(action)))) == action


# -- invariants -------------------------------------------------------------------------


def _check_invariants(state: State) -> None:
    """Assert the invariants of R16 from the state's fields, without the engine's checks."""
    rules_ = state.rules
    heights = rules_.heights
    won = _expected_won(state)
    assert dict(state.won) == won
    held = Counter(won.values())
    winners = [p for p in range(rules_.players) if held[p] >= rules_.columns_to_win]
    assert len(winners) <= 1  # R12.1
    assert state.winner == (winners[0] if winners else None)
    assert (state.phase is Phase.OVER) == (state.winner is not None)  # R16.5
    if state.phase is Phase.OVER:
        assert state.player == state.winner
    assert 0 <= state.player < rules_.players
    assert len(state.squares) == rules_.players  # R16.2
    for squares in state.squares:
        for column, space in squares.items():
            assert 1 <= space <= heights[column]
            if column in won:
                assert squares is state.squares[won[column]]  # R9.3
    assert len(state.markers) <= 3  # R16.1
    own = state.squares[state.player]
    for column, space in state.markers.items():
        assert column not in won  # R9.2
        assert own.get(column, 0) < space <= heights[column]  # R16.2, R16.3
        if rules_.variant is not None and rules_.variant.value == "A":
            for p, theirs in enumerate(state.squares):
                assert p == state.player or theirs.get(column) != space  # R14.1
    if state.phase in (Phase.ROLL, Phase.OVER):
        assert not state.markers
    if state.phase is Phase.DECIDE:
        assert state.markers
    assert (state.dice is not None) == (state.phase is Phase.CHOOSE)
    if state.dice is not None:
        assert list(state.dice) == sorted(state.dice)
        expected = independent.legal_moves(_independent(state), state.dice)
        assert expected  # R10.1
        assert [m.columns for m in state.legal_moves()] == expected
    else:
        assert state.legal_moves() == ()
    rebuilt = State(rules_, state.player, state.phase, state.dice, state.markers, state.squares)
    assert rebuilt == state
    assert hash(rebuilt) == hash(state)


@given(reachable_states())
def test_invariants_hold_on_reachable_states(state: State) -> None:
    """Every state that legal play reaches satisfies R16."""
    _check_invariants(state)


@heavy
@given(st.sampled_from(list(Phase)).flatmap(lambda p: reachable_states(phase=p)))
def test_invariants_hold_in_every_phase_of_play(state: State) -> None:
    """Reachable states in each phase, finished games included, satisfy R16."""
    _check_invariants(state)


@given(valid_states())
def test_invariants_hold_on_valid_states(state: State) -> None:
    """The generated valid states do satisfy R16 (the constructor's checks agree)."""
    _check_invariants(state)


# -- transitions --------------------------------------------------------------------------


@given(choosing)
def test_every_legal_move_applies(state: State) -> None:
    """Each legal move is accepted, moves only its columns up, and agrees with the oracle (R5)."""
    pos = _independent(state)
    for move in state.legal_moves():
        step = state.step(move)
        assert step.event is Event.MOVED
        after = step.state
        assert after.phase is Phase.DECIDE
        assert after.player == state.player
        assert after.squares == state.squares
        assert set(after.markers) == set(state.markers) | set(move.columns)
        for column, space in after.markers.items():
            before = state.markers.get(column, state.squares[state.player].get(column, 0))
            assert space > before if column in move.columns else space == before
        assert format_state(after) == independent.move_result(pos, move.columns)


@given(about_to_roll, rolls())
def test_a_roll_busts_exactly_when_it_has_no_legal_move(state: State, roll: Roll) -> None:
    """BUSTED iff no pairing can be played (R10.1); a bust keeps squares, passes the turn."""
    expected = independent.legal_moves(_independent(state), roll.dice)
    step = state.step(roll)
    text, busted = independent.roll_result(_independent(state), roll.dice)
    assert format_state(step.state) == text
    assert (step.event is Event.BUSTED) == (not expected) == busted
    if step.event is Event.BUSTED:
        assert step.state.phase is Phase.ROLL
        assert step.state.player == (state.player + 1) % state.rules.players
        assert step.state.squares == state.squares
        assert not step.state.markers
    else:
        assert step.event is Event.ROLLED
        assert step.state.phase is Phase.CHOOSE
        assert step.state.dice == tuple(sorted(roll.dice))
        assert [m.columns for m in step.state.legal_moves()] == expected


@given(valid_states(phase=Phase.DECIDE) | reachable_states(phase=Phase.DECIDE))
def test_stop_agrees_with_the_oracle(state: State) -> None:
    """A stop keeps the markers as squares and passes the turn or wins (R11, R12, R14.2)."""
    pos = _independent(state)
    try:
        expected = independent.stop_result(pos)
    except independent.Illegal:
        with pytest.raises(IllegalAction) as info:
            state.step(Stop())
        assert info.value.rule == "R14.2"
        return
    step = state.step(Stop())
    assert format_state(step.state) == expected
    assert (step.event is Event.WON) == (step.state.phase is Phase.OVER)
    assert step.event in (Event.STOPPED, Event.WON)
    for column, space in state.markers.items():
        assert step.state.squares[state.player][column] == space


@given(st.data())
def test_legal_actions_are_accepted(data: st.DataObject) -> None:
    """Whatever legal_actions draws, the state accepts, and the result meets R16."""
    state = data.draw(any_states.filter(lambda s: s.phase is not Phase.OVER))
    action = data.draw(legal_actions(state))
    _check_invariants(state.apply(action))


@given(st.data())
def test_illegal_actions_raise_naming_a_rule_and_leave_the_state(data: st.DataObject) -> None:
    """An illegal action raises IllegalAction with a spec rule id; the state is unchanged."""
    state = data.draw(any_states)
    action = data.draw(illegal_actions(state))
    text = format_state(state)
    copy = parse_state(text)
    with pytest.raises(IllegalAction) as info:
        state.step(action)
    error = info.value
    assert error.rule in _rule_ids()
    assert isinstance(error.reason, str)
    assert not error.reason[0].isupper()
    assert re.fullmatch(r"R\d+\.\d+", error.rule)
    assert f"(rule {error.rule})" in str(error)
    assert text in str(error)
    assert error.state is state
    assert error.action == action
    assert format_state(state) == text
    assert state == copy
    assert hash(state) == hash(copy)


@given(st.data())
def test_apply_is_deterministic_and_pure(data: st.DataObject) -> None:
    """The same action on the same state gives equal results and changes nothing."""
    state = data.draw(any_states.filter(lambda s: s.phase is not Phase.OVER))
    action = data.draw(legal_actions(state))
    text = format_state(state)
    first = state.step(action)
    second = parse_state(text).step(action)
    assert first == second
    assert hash(first.state) == hash(second.state)
    assert state.step(action) == first
    assert format_state(state) == text


@given(invalid_dice())
def test_invalid_dice_are_not_a_roll(dice: tuple[int, ...]) -> None:
    """Four dice showing 1 to 6, nothing else, make a roll (R4.1)."""
    with pytest.raises(InvalidActionValue) as info:
        Roll(dice)  # type: ignore[arg-type]
    assert info.value.rule == "R4.1"


# -- symmetry and chances -----------------------------------------------------------------


def _mirror_state(state: State) -> State:
    def flip(values: dict[int, int] | object) -> dict[int, int]:
        assert isinstance(values, dict)
        return {14 - c: v for c, v in values.items()}

    return State(
        state.rules,
        state.player,
        state.phase,
        None,
        flip(dict(state.markers)),
        tuple(flip(dict(s)) for s in state.squares),
    )


@heavy
@given(
    st.one_of(
        valid_states(rules(boards=st.just(STANDARD_HEIGHTS)), phase=Phase.ROLL),
        valid_states(rules(boards=st.just(STANDARD_HEIGHTS)), phase=Phase.DECIDE),
        reachable_states(rules(boards=st.just(STANDARD_HEIGHTS)), phase=Phase.DECIDE),
    )
)
def test_mirroring_columns_preserves_legal_moves(state: State) -> None:
    """On the standard board, columns c and 14 - c are alike: so are rolls d and 7 - d (R1.1)."""
    mirror = _mirror_state(state)
    for roll, _ in roll_outcomes():
        flipped = Roll(tuple(7 - d for d in roll.dice))  # type: ignore[arg-type]
        here = state.step(roll).state.legal_moves()
        there = mirror.step(flipped).state.legal_moves()
        assert len(here) == len(there)
        assert sorted(Move(tuple(14 - c for c in m.columns)) for m in here) == list(there)  # type: ignore[arg-type]
    assert perft(state) == perft(mirror)


@pytest.mark.parametrize(
    ("text", "move", "after", "moves"),
    [
        # 10 -> 12 leaves one space: the next 7+7 can only be 7 (R7.3).
        ("-/- 7:10 0c1256", Move((7, 7)), "-/- 7:12 0d", "3+11 6+8 7"),
        # 9 -> 11 leaves two spaces: 7+7 stays legal.
        ("-/- 7:9 0c1256", Move((7, 7)), "-/- 7:11 0d", "3+11 6+8 7+7"),
        # Variant A: 9 -> 10 -> 12, skipping 11, leaves one space (R14.1).
        ("-/7:11 7:9 0c1256 A", Move((7, 7)), "-/7:11 7:12 0d A", "3+11 6+8 7"),
        # A new marker above the player's square on 11 still has two steps, 12 and 13.
        ("7:11/- - 0c1233", Move((3, 6)), "7:11/- 3:1,6:1 0d", "3+11 6+8 7+7"),
        # Without Variant A the opponent's square on 12 is no obstacle: markers share it.
        ("-/7:12 7:10 0c1256", Move((7, 7)), "-/7:12 7:12 0d", "3+11 6+8 7"),
        ("-/7:12 7:9 0c1256", Move((7, 7)), "-/7:12 7:11 0d", "3+11 6+8 7+7"),
    ],
)
def test_room_left_after_a_move_decides_the_next_equal_sums(
    text: str, move: Move, after: str, moves: str
) -> None:
    """How far a marker climbed earlier in the turn decides whether 7+7 is whole (R7.3, R8.1)."""
    state = parse_state(text).apply(move)
    assert format_state(state) == after
    rolled = state.apply(Roll((6, 5, 2, 1)))
    assert " ".join(format_action(m) for m in rolled.legal_moves()) == moves
    assert rolled.legal_moves() == parse_state(format_state(rolled)).legal_moves()


def test_equal_sums_pass_other_players_squares_in_the_standard_game() -> None:
    """Only Variant A skips squares: in the standard game 7+7 from 11 reaches 13 (R13.1, E129)."""
    state = parse_state("-/7:12 7:11 0c1256")
    assert [format_action(m) for m in state.legal_moves()] == ["3+11", "6+8", "7+7"]
    assert format_state(state.apply(Move((7, 7)))) == "-/7:12 7:13 0d"


@heavy
@given(about_to_roll)
def test_a_state_plays_alike_however_it_was_reached(state: State) -> None:
    """A state reached by play and the same state read from its text allow the same moves."""
    again = parse_state(format_state(state))
    for roll, _ in roll_outcomes():
        here, there = state.step(roll), again.step(roll)
        assert here == there
        assert here.state.legal_moves() == there.state.legal_moves()


def _oracle_gain(state: State) -> Fraction:
    """Return the expected climb of the next roll, best move taken, from the oracle."""
    pos = _independent(state)
    total = Fraction(0)
    for roll, chance in roll_outcomes():
        text, busted = independent.roll_result(pos, roll.dice)
        if busted:
            continue
        rolled = independent.read_state(text)
        best = 0
        for columns in independent.legal_moves(rolled, roll.dice):
            after = independent.read_state(independent.move_result(rolled, columns))
            best = max(
                best,
                sum(
                    after.markers[c] - pos.markers.get(c, pos.squares[pos.player].get(c, 0))
                    for c in set(columns)
                ),
            )
        total += chance * best
    return total


@settings(heavy, max_examples=max(5, settings().max_examples // 10))
@given(
    st.one_of(
        valid_states(rules(variants=[Variant.A]), phase=Phase.DECIDE),
        reachable_states(rules(variants=[Variant.A]), phase=Phase.DECIDE),
    )
)
def test_markers_land_where_the_oracle_says_when_skipping(state: State) -> None:
    """Under Variant A, odds' expected climb agrees with the oracle's landings (R5, R14.1)."""
    from cantstop.odds import expected_gain

    assert expected_gain(state) == _oracle_gain(state)


def test_roll_probabilities_sum_to_one() -> None:
    """The 126 distinct rolls have exact chances 4!/(multiplicities!)/6^4, summing to 1 (R4.1)."""
    outcomes = roll_outcomes()
    assert sum(p for _, p in outcomes) == Fraction(1)
    assert len(outcomes) == math.comb(6 + 4 - 1, 4)
    for roll, chance in outcomes:
        ways = math.factorial(4)
        for count in Counter(roll.dice).values():
            ways //= math.factorial(count)
        assert chance == Fraction(ways, 6**4)
    assert len(ORDERED_ROLLS) == 6**4


@given(rolls())
def test_a_roll_and_its_sorted_dice_play_alike(roll: Roll) -> None:
    """The order of the dice does not matter (R4.2): every ordering gives the same state."""
    state = parse_state("-/- 7:1 0d")
    sorted_roll = Roll(tuple(sorted(roll.dice)))  # type: ignore[arg-type]
    assert state.step(roll) == state.step(sorted_roll)


# -- rejections: the rule, and what was wrong -------------------------------------------------


def _check_anatomy(error: IllegalAction | InvalidState | InvalidRules, rule: str) -> str:
    """Check the error's rule id and message layout; return its reason."""
    assert error.rule == rule
    assert isinstance(error.reason, str)
    assert error.reason
    # The reason is a clause that the rule id and the state follow: it starts in lower case.
    assert not error.reason[0].isupper()
    assert str(error).startswith(f"{error.reason} (rule {rule})")
    return error.reason


_ROLL = {"rules": Rules(), "player": 0, "phase": Phase.ROLL}


@pytest.mark.parametrize(
    ("fields", "rule", "fragments"),
    [
        ({"rules": "standard"}, "R15.1", ["'standard'"]),
        ({"phase": "roll"}, "R16.5", ["'roll'"]),
        ({"player": True}, "R16.5", ["0 to 1", "True"]),
        ({"player": "0"}, "R16.5", ["0 to 1", "'0'"]),
        ({"player": 2}, "R16.5", ["0 to 1", "2"]),
        ({"rules": Rules(players=4), "player": 4}, "R16.5", ["0 to 3"]),
        ({"squares": [{}, {}]}, "R16.2", ["2 players"]),
        ({"squares": ({},)}, "R16.2", ["2 players"]),
        ({"squares": ({}, [(7, 1)])}, "R16.2", ["player 1", "[(7, 1)]"]),
        ({"squares": ({7: 14}, {})}, "R16.2", ["column 7", "14", "1 to 13", "square"]),
        ({"squares": ({7: True}, {})}, "R16.2", ["column 7", "True"]),
        ({"squares": ({7: 0}, {})}, "R16.2", ["column 7", "0"]),
        ({"squares": ({}, {13: 1})}, "R16.2", ["player 1", "column 13"]),
        ({"markers": [(7, 1)], "phase": Phase.DECIDE}, "R16.1", ["[(7, 1)]"]),
        ({"markers": {13: 1}, "phase": Phase.DECIDE}, "R16.2", ["marker is in column 13"]),
        ({"markers": {7: 14}, "phase": Phase.DECIDE}, "R16.2", ["marker in column 7", "14"]),
        ({"squares": ({7: 13}, {7: 13})}, "R9.1", ["column 7", "players 0 and 1"]),
        ({"squares": ({2: 3}, {2: 1})}, "R9.3", ["player 1", "column 2", "player 0"]),
        ({"squares": ({2: 1}, {2: 3})}, "R9.3", ["player 0", "column 2", "player 1"]),
        (
            {"squares": ({2: 3, 3: 5, 4: 7}, {10: 7, 11: 5, 12: 3}), "phase": Phase.OVER},
            "R12.1",
            ["[0, 1]"],
        ),
        ({"markers": {2: 1, 3: 1, 4: 1, 5: 1}, "phase": Phase.DECIDE}, "R16.1", ["4 markers"]),
        (
            {"player": 1, "squares": ({7: 13}, {}), "markers": {7: 5}, "phase": Phase.DECIDE},
            "R9.2",
            ["column 7"],
        ),
        (
            {"squares": ({7: 3}, {}), "markers": {7: 2}, "phase": Phase.DECIDE},
            "R16.3",
            ["column 7", "space 2", "space 3", "player 0"],
        ),
        (
            {
                "rules": Rules(variant=Variant.A),
                "squares": ({}, {7: 1}),
                "markers": {7: 1},
                "phase": Phase.DECIDE,
            },
            "R14.1",
            ["column 7", "space 1", "player 1"],
        ),
        ({"phase": Phase.CHOOSE, "dice": None}, "R4.1", ["None"]),
        ({"phase": Phase.CHOOSE, "dice": (1, 2, 3)}, "R4.1", ["(1, 2, 3)"]),
        ({"phase": Phase.CHOOSE, "dice": (1, 2, 3, 7)}, "R4.1", ["(1, 2, 3, 7)"]),
        ({"phase": Phase.CHOOSE, "dice": (1, 2, 3, 0)}, "R4.1", ["(1, 2, 3, 0)"]),
        ({"phase": Phase.CHOOSE, "dice": (1, 2, 3, True)}, "R4.1", ["True"]),
        ({"phase": Phase.CHOOSE, "dice": (1, 2, 3, "4")}, "R4.1", ["'4'"]),
        ({"phase": Phase.CHOOSE, "dice": "3455"}, "R4.1", ["'3455'"]),
        ({"phase": Phase.ROLL, "dice": (1, 2, 3, 4)}, "R16.5", ["ROLL"]),
        ({"phase": Phase.DECIDE, "markers": {7: 1}, "dice": (1, 2, 3, 4)}, "R16.5", ["DECIDE"]),
        ({"phase": Phase.OVER}, "R12.1", ["3 columns"]),
        (
            {"player": 1, "squares": ({2: 3, 3: 5, 4: 7}, {}), "phase": Phase.OVER},
            "R16.5",
            ["winner, 0"],
        ),
        ({"squares": ({}, {2: 3, 3: 5, 4: 7})}, "R12.1", ["player 1", "3 columns"]),
        ({"markers": {7: 1}}, "R16.5", ["ROLL"]),
        ({"phase": Phase.DECIDE}, "R16.5", ["marker"]),
        (
            {"phase": Phase.CHOOSE, "dice": (4, 4, 4, 4), "markers": {2: 1, 3: 1, 12: 1}},
            "R10.1",
            ["no legal move"],
        ),
    ],
)
def test_invalid_states_name_the_rule_and_the_problem(
    fields: dict[str, object], rule: str, fragments: list[str]
) -> None:
    """Each broken invariant raises InvalidState with its rule and names the bad part (R16)."""
    values = {**_ROLL, **fields}
    with pytest.raises(InvalidState) as info:
        State(**values)  # type: ignore[arg-type]
    reason = _check_anatomy(info.value, rule)
    for fragment in fragments:
        assert fragment in reason


@pytest.mark.parametrize(
    ("text", "action", "rule", "fragments"),
    [
        ("-/- - 0r", Move((7,)), "R3.2", []),
        ("-/- - 0r", Stop(), "R11.1", []),
        ("-/- 7:1 0d", Move((7,)), "R3.4", []),
        ("-/- - 0c3455", Roll((1, 2, 3, 4)), "R3.3", []),
        ("-/- - 0c3455", Stop(), "R3.3", []),
        ("2:3,3:5,4:7/- - 0x", Roll((1, 2, 3, 4)), "R12.3", []),
        ("2:3,3:5,4:7/- - 0x", Move((7,)), "R12.3", []),
        ("2:3,3:5,4:7/- - 0x", Stop(), "R12.3", []),
        ("-/- - 0c3455", "stop", "R3.1", ["'stop'"]),
        (
            "-/- - 0c3455",
            Move((7, 9)),
            "R4.3",
            ["7+9", "no pairing of 3-4-5-5 makes 7 and 9", "legal moves: 7+10, 8+9"],
        ),
        ("-/- - 0c3455", Move((12,)), "R4.3", ["makes 12", "legal moves: 7+10, 8+9"]),
        (
            "-/- - 0c3455",
            Move((7,)),
            "R6.1",
            ["pairing 1 makes 7 with 10", "7 alone", "legal moves: 7+10, 8+9"],
        ),
        (
            "-/- - 0c3455",
            Move((9,)),
            "R6.1",
            ["pairing 2 makes 9 with 8", "legal moves: 7+10, 8+9"],
        ),
        ("-/- - 0c2255", Move((7,)), "R7.1", ["makes 7 twice", "legal moves: 4+10, 7+7"]),
        (
            "-/- 7:12 0c1256",
            Move((7, 7)),
            "R7.3",
            ["column 7", "top space", "legal moves: 3+11, 6+8, 7"],
        ),
        (
            "-/- 4:1,10:1 0c2356",
            Move((5, 11)),
            "R6.3",
            ["5+11", "legal moves: 5, 7, 8+8, 9, 11"],
        ),
        ("7:12/- - 0c1256", Move((7, 7)), "R7.3", ["column 7", "top space"]),
        ("-/7:12 7:11 0c1256 A", Move((7, 7)), "R7.3", ["column 7", "top space"]),
        ("7:11/7:12 - 0c1256 A", Move((7, 7)), "R7.3", ["column 7", "top space"]),
        ("7:13/- - 1c1256", Move((7,)), "R9.2", ["column 7", "won", "legal moves: 3+11, 6+8"]),
        ("7:13/- - 1c1256", Move((6, 8)), None, []),
        ("-/- 2:3,5:1,9:2 0c1136", Move((2, 9)), "R8.1", ["column 2", "top space"]),
        ("-/- 2:3,5:1,9:2 0c1136", Move((2,)), "R8.1", ["column 2", "top space"]),
        ("-/- 2:3,5:1,9:2 0c1136", Move((4, 7)), "R5.3", ["column 4", "all three are in use"]),
        ("-/- 2:3,5:1,9:2 0c1136", Move((4,)), "R5.3", ["column 4", "all three are in use"]),
        (
            "-/- 5:1,9:2,12:3 0c3666",
            Move((9, 12)),
            "R8.1",
            ["12 cannot be played", "column 12", "top space", "legal moves: 9"],
        ),
        ("- - 0c3445 h7:3,8:3 w1", Move((7, 9)), "R15.3", ["column 9", "legal moves: 7, 8+8"]),
        ("- - 0c3445 h7:3,8:3 w1", Move((9,)), "R15.3", ["column 9"]),
        ("-/7:1 3:1,7:1 0d B", Stop(), "R14.2", ["column 7", "space 1", "player 1"]),
    ],
)
def test_illegal_actions_name_the_rule_and_the_problem(
    text: str, action: object, rule: str | None, fragments: list[str]
) -> None:
    """Each rejected action names its rule, the action, the state and why (R3-R15)."""
    state = parse_state(text)
    if rule is None:  # the control case: the same state accepts this action
        assert state.step(action).event is Event.MOVED  # type: ignore[arg-type]
        return
    with pytest.raises(IllegalAction) as info:
        state.step(action)  # type: ignore[arg-type]
    reason = _check_anatomy(info.value, rule)
    assert str(info.value) == f"{reason} (rule {rule}) in state {text!r}"
    assert info.value.state is state
    assert info.value.action is action
    for fragment in fragments:
        assert fragment in reason
    if isinstance(action, Move) and state.phase is Phase.CHOOSE:
        assert format_action(action) in reason  # the rejected move, in notation
    assert format_state(state) == text


def test_new_game_rejects_bad_setups_by_name() -> None:
    """new_game names a bad rules value (R15.1) and the range of first players (R2.2)."""
    with pytest.raises(InvalidRules) as info:
        new_game("standard")  # type: ignore[arg-type]
    assert "'standard'" in _check_anatomy(info.value, "R15.1")
    for players, first in [(2, 2), (3, 3), (4, -1), (1, 1)]:
        with pytest.raises(InvalidRules) as info:
            new_game(Rules(players=players), first_player=first)
        reason = _check_anatomy(info.value, "R2.2")
        assert f"0 to {players - 1}" in reason
        assert f"not {first}" in reason
    assert new_game(Rules(players=4), first_player=3).player == 3
    assert new_game(None).rules == Rules()


def test_repr_is_the_notation() -> None:
    """A state's repr shows its notation, so that a failing test prints a readable state."""
    text = "7:2/- 7:3,10:1 0d"
    assert repr(parse_state(text)) == f"State({text!r})"


@heavy
@given(about_to_roll)
def test_perft_counts_agree_with_the_oracle(state: State) -> None:
    """Whole-roll counts (moves over all 1296 rolls, and busts) match the oracle's."""
    assert tuple(perft(state)) == independent.whole_roll_counts(_independent(state))


@pytest.mark.parametrize("text", ["-/- - 0c3455", "2:3,3:5,4:7/- - 0x"])
def test_perft_needs_a_state_about_to_roll(text: str) -> None:
    """Whole-roll counts are defined only for a state about to roll (R3.3)."""
    state = parse_state(text)
    with pytest.raises(IllegalAction) as info:
        perft(state)
    _check_anatomy(info.value, "R3.3")
    assert info.value.state is state
    assert text in str(info.value)
