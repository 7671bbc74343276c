"""Hypothesis properties of the finish-line race over generated states and actions."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from finishline import (
    GAME,
    Double,
    Event,
    IllegalAction,
    NotationError,
    Phase,
    Play,
    Roll,
    Sideways,
    State,
    action_from_json,
    action_to_json,
    config_from_json,
    format_action,
    format_state,
    parse_action,
    parse_state,
    perft,
    state_from_json,
    state_to_json,
)
from finishline.strategies import (
    actions,
    illegal_actions,
    legal_actions,
    reachable_states,
    single_moves,
    valid_states,
)
from tests.finishline import oracle

states = st.one_of(reachable_states(), valid_states())


def _counts(state: State) -> list[tuple[int, int, int]]:
    return [
        (state.hand[p], state.board.count(p), state.across[p]) for p in range(state.config.players)
    ]


@given(states)
def test_notation_and_json_round_trip(state: State) -> None:
    """Every state has one text and one JSON form, and both read back as the same state (N1, N3)."""
    text = format_state(state)
    assert parse_state(text) == state
    assert format_state(parse_state(text)) == text
    assert state_from_json(state_to_json(state)) == state
    assert oracle.write_state(oracle.read_state(text)) == text


@given(actions())
def test_actions_round_trip(action: Roll | Play | Sideways | Double) -> None:
    """Every action value has one text and one JSON form that read back as it (N2, N3.2)."""
    text = format_action(action)
    assert parse_action(text) == action
    assert action_from_json(action_to_json(action)) == action


@given(states)
def test_invariants_hold(state: State) -> None:
    """Counters are conserved, cells hold one counter, the phase fits the state (R12)."""
    config = state.config
    for hand, on_board, across in _counts(state):
        assert hand >= 0
        assert hand + on_board + across == config.counters
    finished = [p for p, n in enumerate(state.across) if n == config.counters]
    assert len(finished) <= 1
    assert (state.phase is Phase.OVER) == bool(finished)
    assert (state.dice is not None) == (state.phase is Phase.CHOOSE)
    assert bool(state.legal_actions()) == (state.phase is Phase.CHOOSE)
    GAME.check(state)


@given(st.data())
def test_legal_actions_apply_and_keep_the_invariants(data: st.DataObject) -> None:
    """Every legal action applies, conserves counters, passes the turn or wins (R3.4, R10.1)."""
    state = data.draw(states.filter(lambda s: s.phase is not Phase.OVER))
    action = data.draw(legal_actions(state))
    step = state.step(action)
    after = step.state
    totals = [sum(c) for c in _counts(after)]
    assert totals == [state.config.counters] * state.config.players
    n = state.config.players
    if isinstance(action, Roll):
        if step.event is Event.ROLLED:
            assert (after.player, after.phase) == (state.player, Phase.CHOOSE)
            assert after.board == state.board
        else:
            assert step.event is Event.FORFEITED
            assert after.board == state.board
            assert (after.player, after.phase) == ((state.player + 1) % n, Phase.ROLL)
    elif step.event is Event.WON:
        assert after.winner == state.player
        assert after.across[state.player] == state.config.counters
    else:
        assert step.event is Event.PLAYED
        assert (after.player, after.phase) == ((state.player + 1) % n, Phase.ROLL)
    for p in range(n):
        if p != state.player:
            assert after.cells_of(p) == state.cells_of(p)
            assert after.across[p] == state.across[p]
    assert format_state(parse_state(format_state(after))) == format_state(after)


@given(st.data())
def test_no_counter_moves_into_an_occupied_cell(data: st.DataObject) -> None:
    """A cell that gains the player's counter was empty before the action (R1.4, R6.4)."""
    state = data.draw(states.filter(lambda s: s.phase is Phase.CHOOSE))
    action = data.draw(legal_actions(state))
    after = state.apply(action)
    for c, owner in enumerate(after.board):
        if owner == state.player and state.board[c] != state.player:
            assert state.board[c] is None


@given(st.data())
def test_illegal_actions_raise_and_name_a_rule(data: st.DataObject) -> None:
    """An illegal action raises IllegalAction naming a rule and the state, and changes nothing."""
    state = data.draw(states)
    action = data.draw(illegal_actions(state))
    text = format_state(state)
    with pytest.raises(IllegalAction) as info:
        state.step(action)
    assert info.value.rule in GAME_RULES
    assert info.value.state_text == text
    assert text in str(info.value)
    assert format_state(state) == text


GAME_RULES = {
    "R3.1",
    "R3.2",
    "R3.3",
    "R4.2",
    "R4.5",
    "R5.1",
    "R5.2",
    "R6.1",
    "R6.4",
    "R7.1",
    "R8.3",
    "R10.2",
}


@given(states.filter(lambda s: s.phase is Phase.CHOOSE))
def test_legal_actions_match_the_oracle(state: State) -> None:
    """The legal actions, their order and their results are the oracle's (R4 to R8, N2.6)."""
    pos = oracle.read_state(format_state(state))
    expected = oracle.legal(pos)
    got = [format_action(a) for a in state.legal_actions()]
    assert got == oracle.ordered(list(expected))
    for action in state.legal_actions():
        board, across = expected[format_action(action)]
        assert format_state(state.apply(action)) == oracle.after(pos, board, across)


@given(states.filter(lambda s: s.phase is Phase.CHOOSE))
def test_special_actions_need_their_roll(state: State) -> None:
    """Sideways steps only on a 7 (R7.1), double advances only on a double (R8.3)."""
    assert state.dice is not None
    a, b = state.dice
    kinds = {type(action) for action in state.legal_actions()}
    if Sideways in kinds:
        assert a + b == 7
    if Double in kinds:
        assert a == b
    for action in state.legal_actions():
        if isinstance(action, Sideways | Double):
            assert state.owner(action.cell) == state.player


@settings(max_examples=max(10, settings().max_examples // 5))
@given(states.filter(lambda s: s.phase is Phase.ROLL))
def test_perft_counts_every_roll(state: State) -> None:
    """Whole-roll counts add the legal actions of the 36 ordered rolls and count forfeits (R9.1)."""
    choices = forfeits = 0
    for a in range(1, 7):
        for b in range(1, 7):
            step = state.step(Roll((a, b)))
            choices += len(step.state.legal_actions())
            forfeits += step.event is Event.FORFEITED
    assert perft(state) == (choices, forfeits)


@given(states, st.one_of(actions(), st.none()))
def test_apply_is_pure(state: State, action: Roll | Play | Sideways | Double | None) -> None:
    """Applying an action twice gives equal results, and the state is never changed."""
    text = format_state(state)
    candidate = action if action is not None else Roll((1, 1))
    outcomes = []
    for _ in range(2):
        try:
            outcomes.append(format_state(state.apply(candidate)))
        except IllegalAction as exc:
            outcomes.append(exc.rule)
    assert outcomes[0] == outcomes[1]
    assert format_state(state) == text


def _read(
    parse: Callable[[str], object], write: Callable[[Any], str], text: str
) -> tuple[str, int] | None:
    """Return the rule and position that refuse ``text``, or None if it reads canonically."""
    try:
        value = parse(text)
    except NotationError as exc:
        return exc.rule, exc.position
    assert write(value) == text
    return None


@given(st.text(alphabet="./0123456789 rcxnABCD-+^,:doubleE", max_size=48))
def test_any_text_reads_or_is_refused_with_a_rule(text: str) -> None:
    """Any text is a canonical state or action, or is refused with NotationError and a rule."""
    for parse, write in ((parse_state, format_state), (parse_action, format_action)):
        refused = _read(parse, write, text)
        if refused is not None:
            rule, position = refused
            assert rule[0] in "RN"
            assert 0 <= position <= len(text)


def _steps(texts: list[str]) -> list[tuple[str, str]]:
    steps: list[tuple[str, str]] = []
    for text in texts:
        cell = text.lstrip("+")[:2]
        if text.startswith("+"):
            steps.append(("place", cell))
            if text.endswith("^"):
                steps.append(("go", cell))
        else:
            steps.append(("go", cell))
            if text.endswith("^^"):
                steps.append(("go", f"{cell[0]}{int(cell[1]) - 1}"))
    return steps


@given(st.data())
def test_the_written_order_works_whenever_the_other_does(data: st.DataObject) -> None:
    """A play's written order of steps succeeds whenever the reverse order does (R4.6, N2.3)."""
    state = data.draw(states.filter(lambda s: s.phase is Phase.CHOOSE))
    pair = data.draw(
        st.tuples(single_moves(), single_moves()).filter(lambda p: p[0].key[:2] != p[1].key[:2])
    )
    play = Play(pair)
    pos = oracle.read_state(format_state(state))
    texts = [move.text for move in play.moves]
    if any(not t.startswith("+") and pos.board.get(t[:2]) != state.player for t in texts):
        return  # refused under R6.1 before any order is tried
    if oracle._walk(pos, _steps(texts[::-1])) is not None:
        assert oracle._walk(pos, _steps(texts)) is not None


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=4),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(
            st.sampled_from(
                [
                    "config",
                    "player",
                    "phase",
                    "board",
                    "across",
                    "dice",
                    "type",
                    "moves",
                    "cell",
                    "enter",
                    "rows",
                    "from",
                    "to",
                    "players",
                    "counters",
                    "A1",
                    "C5",
                ]
            ),
            inner,
            max_size=6,
        )
    ),
    max_leaves=20,
)


def _refusal(read: Callable[[object], object], data: object) -> str | None:
    """Return the rule that refuses ``data``, or None if ``read`` accepts it."""
    try:
        read(data)
    except NotationError as exc:
        return exc.rule
    return None


@given(json_values)
def test_json_readers_accept_or_refuse_with_a_rule(data: object) -> None:
    """Any JSON value is read as a configuration, state or action, or refused with NotationError."""
    for read in (config_from_json, state_from_json, action_from_json):
        rule = _refusal(read, data)
        assert rule is None or rule[0] in "RN"
