"""Whole games driven by a Hypothesis state machine, checked after every step.

The machine plays 1 to 4 players under every variant and on custom boards,
choosing among the legal actions and some illegal ones, and starts a new game
once one is over.  Each transition is compared with the independent
implementation in ``tests/independent.py``, and every state is checked
against the invariants of R16.
"""

from __future__ import annotations

import pytest
from hypothesis import event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from cantstop import (
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
    state_from_json,
    state_to_json,
)
from cantstop.strategies import heights, illegal_actions, rolls, rules
from tests import independent

#: Games that end within a few dozen steps: boards of short columns, and the standard
#: board played to one column.
game_rules = st.one_of(
    rules(boards=heights(max_height=3)),
    st.builds(
        Rules,
        players=st.integers(1, 4),
        columns_to_win=st.just(1),
        variant=st.sampled_from([None, Variant.A, Variant.B]),
    ),
)


def _oracle(state: State) -> independent.Position:
    return independent.read_state(format_state(state))


class Game(RuleBasedStateMachine):
    """A sequence of games: roll, move, stop, illegal attempts, and a new game when over."""

    def __init__(self) -> None:
        super().__init__()
        self.state: State = new_game()

    @initialize(game=game_rules, first=st.integers(0, 3))
    def first_game(self, game: Rules, first: int) -> None:
        """Begin the first game: an empty board, the first player to roll (R2)."""
        self.state = new_game(game, first % game.players)
        event(f"players: {game.players}, variant: {game.variant}")
        assert self.state.phase is Phase.ROLL
        assert not any(self.state.squares)

    @rule(game=game_rules, first=st.integers(0, 3))
    @precondition(lambda self: self.state.phase is Phase.OVER)
    def start_new_game(self, game: Rules, first: int) -> None:
        """Once a game is over, begin another, so that the machine never stalls."""
        event("a game was finished")
        self.first_game(game, first)

    @rule(roll=rolls())
    @precondition(lambda self: self.state.phase in (Phase.ROLL, Phase.DECIDE))
    def roll(self, roll: Roll) -> None:
        """Roll: BUSTED exactly when the oracle finds no legal move (R10.1)."""
        before = self.state
        expected, busted = independent.roll_result(_oracle(before), roll.dice)
        step = before.step(roll)
        assert format_state(step.state) == expected
        assert (step.event is Event.BUSTED) == busted
        if busted:
            assert step.state.player == (before.player + 1) % before.rules.players
            assert step.state.squares == before.squares
        else:
            assert step.event is Event.ROLLED
        self.state = step.state

    @rule(data=st.data())
    @precondition(lambda self: self.state.phase is Phase.CHOOSE)
    def move(self, data: st.DataObject) -> None:
        """Play one of the legal moves, which the oracle lists too (R6)."""
        before = self.state
        oracle = _oracle(before)
        assert before.dice is not None
        moves = before.legal_moves()
        assert [m.columns for m in moves] == independent.legal_moves(oracle, before.dice)
        move = data.draw(st.sampled_from(moves))
        step = before.step(move)
        assert step.event is Event.MOVED
        assert format_state(step.state) == independent.move_result(oracle, move.columns)
        self.state = step.state

    @rule()
    @precondition(lambda self: self.state.phase is Phase.DECIDE)
    def stop(self) -> None:
        """Stop: the progress is kept, the turn passes or the game is won (R11, R12, R14.2)."""
        before = self.state
        try:
            expected = independent.stop_result(_oracle(before))
        except independent.Illegal:
            with pytest.raises(IllegalAction) as info:
                before.step(Stop())
            assert info.value.rule == "R14.2"
            return
        step = before.step(Stop())
        assert format_state(step.state) == expected
        if step.event is Event.WON:
            assert step.state.winner == before.player
        else:
            assert step.event is Event.STOPPED
            assert step.state.winner is None
            assert step.state.player == (before.player + 1) % before.rules.players
        self.state = step.state

    @rule(data=st.data(), game=game_rules, first=st.integers(0, 3))
    def play_on(self, data: st.DataObject, game: Rules, first: int) -> None:
        """Take the game one step further by whichever rule applies, whatever rules are enabled."""
        phase = self.state.phase
        if phase is Phase.OVER:
            self.start_new_game(game, first)
        elif phase is Phase.CHOOSE:
            self.move(data)
        elif phase is Phase.DECIDE and data.draw(st.booleans()):
            self.stop()
        else:
            self.roll(data.draw(rolls()))

    @rule(data=st.data())
    def illegal(self, data: st.DataObject) -> None:
        """Try an illegal action: IllegalAction names a rule, and nothing changes."""
        before = self.state
        text = format_state(before)
        action = data.draw(illegal_actions(before))
        with pytest.raises(IllegalAction) as info:
            before.step(action)
        assert info.value.rule.startswith("R")
        assert text in str(info.value)
        assert format_state(self.state) == text

    @invariant()
    def over_exactly_when_won(self) -> None:
        """Check the game is over iff somebody holds enough columns, then theirs (R12.1)."""
        state = self.state
        heights = state.rules.heights
        held = [
            sum(1 for c, space in squares.items() if space == heights[c])
            for squares in state.squares
        ]
        winners = [p for p, n in enumerate(held) if n >= state.rules.columns_to_win]
        assert len(winners) <= 1
        assert (state.phase is Phase.OVER) == bool(winners)
        assert state.winner == (winners[0] if winners else None)
        if winners:
            assert state.player == winners[0]

    @invariant()
    def state_is_a_value(self) -> None:
        """Check the state rebuilds from its fields, text and JSON form (R16, N1, N3)."""
        state = self.state
        text = format_state(state)
        assert independent.write_state(independent.read_state(text)) == text
        assert parse_state(text) == state
        assert state_from_json(state_to_json(state)) == state
        rebuilt = State(
            state.rules, state.player, state.phase, state.dice, state.markers, state.squares
        )
        assert rebuilt == state

    @invariant()
    def markers_and_moves_match_the_phase(self) -> None:
        """Markers appear only mid-turn (R16.1, R16.5); moves exist exactly when choosing."""
        state = self.state
        assert len(state.markers) <= 3
        if state.phase in (Phase.ROLL, Phase.OVER):
            assert not state.markers
        if state.phase is Phase.DECIDE:
            assert state.markers
        assert bool(state.legal_moves()) == (state.phase is Phase.CHOOSE)


Game.TestCase.settings = settings(
    max_examples=max(10, settings().max_examples // 4),
    stateful_step_count=max(100, settings().stateful_step_count),
)
TestGame = Game.TestCase
