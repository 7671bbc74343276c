"""Hypothesis properties over random boards, configurations and reachable states.

Every transition is compared with the second implementation in
``tests/tower/oracle.py``, and the invariants the proofs state are checked on
every state: stones conserved, one stone at most in the tower, one stone to a
field, no stone past another player's obstacle, the goal only by an exact
throw.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.tower import oracle
from tower import (
    Event,
    IllegalAction,
    Move,
    Phase,
    State,
    Throw,
    format_state,
    parse_state,
)
from tower.invariants import find_violation
from tower.strategies import moves, reachable_states, throws


def check_invariants(state: State) -> None:
    """Assert the invariants of R13 directly, without the engine's own check."""
    config = state.config
    assert (
        find_violation(config, state.player, state.phase, state.dice, state.stones, state.tower)
        is None
    )
    fields = []
    for p, places in enumerate(state.stones):
        held = len(places) + (state.tower == p)
        assert held == config.stones  # conservation: start + track + tower + goal (R13.1)
        for place in places:
            if 0 < place < config.lengths[p]:
                fields.append(config.routes[p][place])
    assert len(fields) == len(set(fields))  # one stone to a field (R13.4)


@given(reachable_states(), throws())
def test_throws_agree_with_the_oracle(state: State, throw: Throw) -> None:
    """A throw gives the oracle's position, and is forfeited exactly when it has no move (R4.4)."""
    if state.phase is not Phase.THROW:
        return
    table = oracle.table(state)
    step = state.step(throw)
    assert oracle.position(step.state) == oracle.throw(table, oracle.position(state), throw.dice)
    assert (step.event is Event.FORFEITED) == (step.state.phase is Phase.THROW)
    check_invariants(step.state)


@given(reachable_states())
def test_legal_moves_agree_with_the_oracle_and_apply(state: State) -> None:
    """The legal moves are the oracle's, in order, and each gives the oracle's position."""
    check_invariants(state)
    if state.phase is not Phase.CHOOSE:
        assert state.legal_moves() == ()
        return
    table = oracle.table(state)
    before = oracle.position(state)
    assert [(m.step, m.points) for m in state.legal_moves()] == oracle.moves(table, before)
    for move in state.legal_moves():
        after = state.apply(move)
        assert oracle.position(after) == oracle.move(table, before, move.step, move.points)
        check_invariants(after)


@given(reachable_states(), st.one_of(moves(), throws()))
def test_illegal_actions_are_refused_with_a_rule(state: State, action: Move | Throw) -> None:
    """An action the oracle does not allow raises IllegalAction with a rule, and changes nothing."""
    text = format_state(state)
    if state.phase is Phase.CHOOSE:
        legal = action in state.legal_moves()
    else:
        legal = state.phase is Phase.THROW and isinstance(action, Throw)
    if legal:
        state.apply(action)
    else:
        with pytest.raises(IllegalAction) as caught:
            state.apply(action)
        assert caught.value.rule in {
            "R3.4",
            "R11.2",
            "R5.2",
            "R4.2",
            "R10.2",
            "R5.4",
            "R9.1",
            "R5.3",
        }
        assert caught.value.state_text == text
    assert format_state(state) == text


@given(reachable_states())
def test_no_stone_passes_another_players_obstacle(state: State) -> None:
    """No legal move passes the crossing while another player's stone stands on it (R9.1)."""
    if state.phase is not Phase.CHOOSE:
        return
    config = state.config
    me = state.player
    holder = None
    for p, places in enumerate(state.stones):
        if any(
            0 < x < config.lengths[p] and config.routes[p][x] == config.board.crossing
            for x in places
        ):
            holder = p
    for move in state.legal_moves():
        passed = config.routes[me][move.step + 1 : move.step + move.points]
        if holder is not None and holder != me:
            assert config.board.crossing not in passed


@given(reachable_states())
def test_the_goal_is_entered_only_by_an_exact_throw(state: State) -> None:
    """A move reaches the goal exactly, and none goes past it (R10.2)."""
    if state.phase is not Phase.CHOOSE:
        return
    length = state.config.lengths[state.player]
    for move in state.legal_moves():
        assert move.step + move.points <= length
        after = state.apply(move)
        home_before = state.stones[state.player].count(length)
        home_after = after.stones[state.player].count(length)
        assert home_after - home_before == (move.step + move.points == length)


@given(reachable_states())
def test_the_tower_holds_one_stone_between_turns(state: State) -> None:
    """At most one stone in the tower; a six on the table never leaves the thrower's in it (R8)."""
    assert state.tower is None or 0 <= state.tower < state.config.players
    if state.dice is not None and 6 in state.dice:
        assert state.tower != state.player


@given(reachable_states())
def test_apply_is_pure_and_deterministic(state: State) -> None:
    """Applying an action twice gives equal states, and the original is unchanged."""
    text = format_state(state)
    if state.phase is Phase.CHOOSE:
        for move in state.legal_moves():
            assert state.apply(move) == state.apply(move)
    elif state.phase is Phase.THROW:
        assert state.apply(Throw((3, 6))) == state.apply(Throw((6, 3)))
    assert format_state(state) == text
    assert parse_state(text) == state
