"""Hypothesis strategies for the finish-line race: configurations, rolls, states and actions.

This module needs Hypothesis (the ``test`` extra); the rest of the package
does not import it.  Reachable states are drawn by playing a drawn number of
legal actions from a new game, so that they shrink towards short games;
valid states are drawn directly and satisfy every invariant of R12 without
necessarily being reachable.

A property over reached states; whatever Hypothesis draws, the state reads
back from its notation:

>>> from hypothesis import given, settings
>>> from finishline.notation import format_state, parse_state
>>> @settings(max_examples=20)
... @given(reachable_states())
... def test_the_notation_round_trips(state):
...     assert parse_state(format_state(state)) == state
>>> test_the_notation_round_trips()
"""

from __future__ import annotations

from hypothesis import strategies as st

from finishline.actions import Action, Double, Move, Play, Roll, Sideways
from finishline.board import CELLS
from finishline.config import DEFAULT_COUNTERS, Config
from finishline.state import Phase, State, new_game

__all__ = [
    "actions",
    "configs",
    "illegal_actions",
    "legal_actions",
    "moves",
    "reachable_states",
    "rolls",
    "single_moves",
    "valid_states",
]


def configs() -> st.SearchStrategy[Config]:
    """Draw configurations: 2 to 4 players, with the default counters or 1 to 6 each."""
    return st.builds(
        lambda players, counters: Config(players, counters or DEFAULT_COUNTERS[players]),
        st.integers(2, 4),
        st.one_of(st.none(), st.integers(1, 6)),
    )


def rolls() -> st.SearchStrategy[Roll]:
    """Draw rolls of two dice, in thrown order."""
    return st.builds(lambda a, b: Roll((a, b)), st.integers(1, 6), st.integers(1, 6))


@st.composite
def reachable_states(
    draw: st.DrawFn, config: st.SearchStrategy[Config] | None = None, max_steps: int = 160
) -> State:
    """Draw a state reached from a new game by legal play (rolls included)."""
    chosen = draw(configs() if config is None else config)
    state = new_game(chosen, draw(st.integers(0, chosen.players - 1)))
    steps = draw(st.integers(0, max_steps))
    for _ in range(steps):
        if state.phase is Phase.OVER:
            break
        if state.phase is Phase.ROLL:
            state = state.apply(draw(rolls()))
        else:
            options = state.legal_actions()
            state = state.apply(options[draw(st.integers(0, len(options) - 1))])
    return state


@st.composite
def valid_states(draw: st.DrawFn) -> State:
    """Draw any state that satisfies R12: counters placed anywhere, any phase that fits."""
    config = draw(configs())
    n, counters = config.players, config.counters
    cells = draw(st.permutations(CELLS))
    board: list[int | None] = [None] * 24
    across = []
    used = 0
    winner = draw(st.one_of(st.none(), st.integers(0, n - 1)))
    for p in range(n):
        if p == winner:
            across.append(counters)
            continue
        on_board = draw(st.integers(0, min(counters, 24 - used)))
        for cell in cells[used : used + on_board]:
            board[cell] = p
        used += on_board
        across.append(draw(st.integers(0, min(counters - on_board, counters - 1))))
    if winner is not None:
        return State(config, winner, Phase.OVER, None, tuple(board), tuple(across))
    player = draw(st.integers(0, n - 1))
    roll_state = State(config, player, Phase.ROLL, None, tuple(board), tuple(across))
    if draw(st.booleans()):
        return roll_state
    a, b = draw(st.integers(1, 6)), draw(st.integers(1, 6))
    after = roll_state.apply(Roll((a, b)))
    return after if after.phase is Phase.CHOOSE else roll_state


def single_moves() -> st.SearchStrategy[Move]:
    """Draw moves that use one die: a placement, or a counter moved one row (N2.3)."""
    return st.builds(lambda cell, enter: Move(cell, enter), st.sampled_from(CELLS), st.booleans())


def moves() -> st.SearchStrategy[Move]:
    """Draw moves of a play, of any shape the notation can write (N2.3)."""
    placed_and_moved = st.builds(lambda cell: Move(cell, True, 1), st.sampled_from(CELLS))
    two_rows = st.builds(lambda cell: Move(cell, False, 2), st.sampled_from(CELLS[4:]))
    return st.one_of(single_moves(), placed_and_moved, two_rows)


def actions() -> st.SearchStrategy[Action]:
    """Draw any action value: rolls, plays, sideways steps and double advances."""
    single = single_moves()
    plays = st.one_of(
        moves().map(lambda move: Play((move,))),
        st.tuples(single, single)
        .filter(lambda pair: pair[0].key[:2] != pair[1].key[:2])
        .map(lambda pair: Play(pair)),
    )
    sideways = st.sampled_from(CELLS).flatmap(
        lambda cell: st.sampled_from(cell.neighbours).map(lambda to: Sideways(cell, to))
    )
    doubles = st.builds(Double, st.sampled_from(CELLS))
    return st.one_of(rolls(), plays, sideways, doubles)


def legal_actions(state: State) -> st.SearchStrategy[Action]:
    """Draw a legal action of ``state``: a roll when it is to roll, else one of its choices."""
    if state.phase is Phase.ROLL:
        return rolls()
    return st.sampled_from(state.legal_actions())


def illegal_actions(state: State) -> st.SearchStrategy[Action]:
    """Draw an action that ``state`` refuses."""
    legal = set(state.legal_actions())
    if state.phase is Phase.ROLL:
        return actions().filter(lambda a: not isinstance(a, Roll))
    if state.phase is Phase.OVER:
        return actions()
    return actions().filter(lambda a: a not in legal)
