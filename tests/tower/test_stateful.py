"""Whole games driven by a Hypothesis state machine on random valid boards.

Each game is set up on a board the machine draws (random boards of every
shape R2 allows, and the shipped ones), with 2 to 4 players in a drawn
choice of colours.  The machine throws, moves, tries illegal actions and
starts a new game on a new board once one is over; every transition is
compared with ``tests/tower/oracle.py``, and every state is checked against
the invariants and read back from its text and JSON form.
"""

from __future__ import annotations

import pytest
from hypothesis import event
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from tests.tower import oracle
from tests.tower.test_properties import check_invariants
from tower import (
    Config,
    Event,
    IllegalAction,
    Move,
    Phase,
    State,
    Throw,
    format_state,
    new_game,
    parse_state,
    state_from_json,
    state_to_json,
)
from tower.strategies import configs, moves, throws


class Games(RuleBasedStateMachine):
    """Games on drawn boards: throws, moves, illegal attempts, and a new game when one ends."""

    def __init__(self) -> None:
        super().__init__()
        self.state: State | None = None

    @initialize(config=configs(), first=st.integers(0, 3))
    def begin(self, config: Config, first: int) -> None:
        """Set up a game on a drawn board: every stone at the start (R3.1)."""
        self.state = new_game(config, first % config.players)
        event(f"players: {config.players}, board: {config.board.shipped_name() or 'drawn'}")
        assert all(set(places) == {0} for places in self.state.stones)

    @rule(config=configs(), first=st.integers(0, 3))
    @precondition(lambda self: self.state is not None and self.state.phase is Phase.OVER)
    def begin_again(self, config: Config, first: int) -> None:
        """Once a game is won, set up another on another board."""
        event("a game was won")
        self.begin(config, first)

    @rule(throw=throws())
    @precondition(lambda self: self.state is not None and self.state.phase is Phase.THROW)
    def throw(self, throw: Throw) -> None:
        """Throw: the oracle's position; forfeited exactly when no move is legal (R4.4)."""
        assert self.state is not None
        table = oracle.table(self.state)
        expected = oracle.throw(table, oracle.position(self.state), throw.dice)
        step = self.state.step(throw)
        assert oracle.position(step.state) == expected
        event(step.event.value)
        self.state = step.state

    @rule(data=st.data())
    @precondition(lambda self: self.state is not None and self.state.phase is Phase.CHOOSE)
    def move(self, data: st.DataObject) -> None:
        """Make one of the legal moves, which are the oracle's; the result is the oracle's."""
        assert self.state is not None
        table = oracle.table(self.state)
        before = oracle.position(self.state)
        legal = self.state.legal_moves()
        assert [(m.step, m.points) for m in legal] == oracle.moves(table, before)
        chosen = data.draw(st.sampled_from(legal))
        step = self.state.step(chosen)
        assert oracle.position(step.state) == oracle.move(table, before, chosen.step, chosen.points)
        if step.event is Event.AGAIN:
            assert step.state.player == self.state.player
        event(step.event.value)
        self.state = step.state

    @rule(action=st.one_of(moves(), throws()))
    @precondition(lambda self: self.state is not None)
    def attempt(self, action: Move | Throw) -> None:
        """Any action: legal ones apply, the others raise IllegalAction and change nothing."""
        assert self.state is not None
        text = format_state(self.state)
        legal = (
            action in self.state.legal_moves()
            if self.state.phase is Phase.CHOOSE
            else self.state.phase is Phase.THROW and isinstance(action, Throw)
        )
        if legal:
            self.state = self.state.apply(action)
            return
        with pytest.raises(IllegalAction) as caught:
            self.state.apply(action)
        assert format_state(self.state) == text
        event(f"refused under {caught.value.rule}")

    @invariant()
    def holds_the_invariants(self) -> None:
        """Every state keeps R13 and reads back from its text and its JSON form."""
        if self.state is None:
            return
        check_invariants(self.state)
        text = format_state(self.state)
        assert parse_state(text) == self.state
        assert state_from_json(state_to_json(self.state)) == self.state


#: The machine as a test case: pytest runs it under the active Hypothesis profile.
TestGames = Games.TestCase
