"""Whole games of the finish-line race driven by a Hypothesis state machine, checked at every step.

The machine plays 2 to 4 players with any number of counters, rolling,
taking legal actions and trying illegal ones, and begins a new game once one
is over.  Each transition is compared with the oracle (``oracle.py``), and
every state is checked against the invariants of R12.
"""

from __future__ import annotations

import pytest
from hypothesis import event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from finishline import (
    Action,
    Config,
    Event,
    IllegalAction,
    Phase,
    Roll,
    State,
    format_action,
    format_state,
    new_game,
    parse_state,
    state_from_json,
    state_to_json,
)
from finishline.strategies import actions, configs, rolls
from tests.finishline import oracle

#: Short games, so that many end within a run: one to three counters each, and the standard game.
game_configs = st.one_of(
    st.builds(Config, st.integers(2, 4), st.integers(1, 3)),
    configs(),
)


class Race(RuleBasedStateMachine):
    """A sequence of games: rolls, actions, illegal attempts, and a new game when one is over."""

    def __init__(self) -> None:
        super().__init__()
        self.state: State = new_game()

    @initialize(config=game_configs, first=st.integers(0, 3))
    def first_game(self, config: Config, first: int) -> None:
        """Begin a game: an empty board, every counter in hand, the first player to roll (R2.3)."""
        self.state = new_game(config, first % config.players)
        event(f"players: {config.players}, counters: {config.counters}")
        assert self.state.hand == (config.counters,) * config.players
        assert not any(owner is not None for owner in self.state.board)

    @rule(config=game_configs, first=st.integers(0, 3))
    @precondition(lambda self: self.state.phase is Phase.OVER)
    def start_new_game(self, config: Config, first: int) -> None:
        """Once a game is over, begin another, so that the machine never stalls."""
        event("a game was finished")
        self.first_game(config, first)

    @rule(roll=rolls())
    @precondition(lambda self: self.state.phase is Phase.ROLL)
    def roll(self, roll: Roll) -> None:
        """Roll: forfeited exactly when the oracle finds no legal action (R3.3, R9.1)."""
        before = self.state
        expected, forfeited = oracle.roll(oracle.read_state(format_state(before)), roll.dice)
        step = before.step(roll)
        assert format_state(step.state) == expected
        assert (step.event is Event.FORFEITED) == forfeited
        if forfeited:
            event("a forfeit")
            assert step.state.player == (before.player + 1) % before.config.players
        self.state = step.state

    @rule(data=st.data())
    @precondition(lambda self: self.state.phase is Phase.CHOOSE)
    def act(self, data: st.DataObject) -> None:
        """Take a legal action; the oracle lists the same ones and the same results (R4 to R8)."""
        before = self.state
        pos = oracle.read_state(format_state(before))
        expected = oracle.legal(pos)
        actions = before.legal_actions()
        assert [format_action(a) for a in actions] == oracle.ordered(list(expected))
        action = data.draw(st.sampled_from(actions))
        event(type(action).__name__)
        step = before.step(action)
        board, across = expected[format_action(action)]
        assert format_state(step.state) == oracle.after(pos, board, across)
        assert step.event in (Event.PLAYED, Event.WON)
        self.state = step.state

    @rule(action=actions())
    def illegal(self, action: Action) -> None:
        """Try an action the state refuses: IllegalAction names a rule, and nothing changes."""
        before = self.state
        text = format_state(before)
        legal = before.legal_actions() or ()
        if action in legal or (isinstance(action, Roll) and before.phase is Phase.ROLL):
            event("an action drawn as illegal was legal")
            return
        with pytest.raises(IllegalAction) as info:
            before.step(action)
        assert info.value.rule.startswith("R")
        assert text in str(info.value)
        assert format_state(self.state) == text

    @invariant()
    def counters_are_conserved(self) -> None:
        """Check hand, board and across add up for every player, and one counter per cell (R12)."""
        state = self.state
        for p in range(state.config.players):
            on_board = sum(1 for owner in state.board if owner == p)
            assert state.hand[p] >= 0
            assert state.hand[p] + on_board + state.across[p] == state.config.counters

    @invariant()
    def over_exactly_when_all_across(self) -> None:
        """Check the game is over iff a player has every counter across, and theirs (R10.1)."""
        state = self.state
        done = [p for p, n in enumerate(state.across) if n == state.config.counters]
        assert len(done) <= 1
        assert (state.phase is Phase.OVER) == bool(done)
        assert state.winner == (done[0] if done else None)

    @invariant()
    def state_is_a_value(self) -> None:
        """Check the state rebuilds from its text, its JSON form and its fields (N1, N3)."""
        state = self.state
        assert parse_state(format_state(state)) == state
        assert state_from_json(state_to_json(state)) == state
        rebuilt = State(
            state.config, state.player, state.phase, state.dice, state.board, state.across
        )
        assert rebuilt == state
        assert hash(rebuilt) == hash(state)


Race.TestCase.settings = settings(
    max_examples=max(10, settings().max_examples // 4),
    stateful_step_count=max(100, settings().stateful_step_count),
)
TestRace = Race.TestCase
