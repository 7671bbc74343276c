"""Hypothesis strategies for Can't Stop rules, dice, states and actions.

This module is for tests, in this project and in ports of the rules to other
languages or libraries: a port can draw states and actions here, and compare
its answers with the reference engine's.  It needs `Hypothesis
<https://hypothesis.readthedocs.io>`_, which the ``test`` extra installs: in a
clone of the repository, ``python3 -m pip install -e '.[test]'`` (the package is
not on a package index); ``import cantstop`` alone never imports it.

Every strategy shrinks towards the simple case: few players, the standard
board, no variant, an empty board, a new game, the first legal move.

=============================  ==================================================
strategy                       draws
=============================  ==================================================
:func:`heights`                a custom board: some columns 2..12 with heights
:func:`rules`                  a valid :class:`~cantstop.Rules` (R15)
:func:`rolls`                  a :class:`~cantstop.Roll` of four dice (R4.1)
:func:`moves`                  a well-formed :class:`~cantstop.Move`, legal or not
:func:`actions`                any well-formed action
:func:`invalid_dice`           dice that :class:`~cantstop.Roll` rejects (R4.1)
:func:`reachable_states`       a state reached by legal play from a new game
:func:`valid_states`           any state that meets the invariants of R16
:func:`legal_actions`          an action that a given state accepts
:func:`illegal_actions`        an action that a given state rejects
=============================  ==================================================

A property test in a port exchanges states and actions with it in the text
notation (or the JSON form) and compares the results; here ``port_moves``
stands in for the port's own legal-move generator:

>>> from hypothesis import given, settings
>>> from cantstop import Phase, format_action, format_state, parse_state
>>> def port_moves(state_text):
...     return [format_action(m) for m in parse_state(state_text).legal_moves()]
>>> @settings(max_examples=20)
... @given(valid_states(phase=Phase.CHOOSE))
... def test_port_finds_the_legal_moves(state):
...     expected = [format_action(m) for m in state.legal_moves()]
...     assert port_moves(format_state(state)) == expected
>>> test_port_finds_the_legal_moves()
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from dicekit.errors import hypothesis_missing

try:
    from hypothesis import assume
    from hypothesis import strategies as st
except ImportError as exc:  # pragma: no cover - exercised in a subprocess by the tests
    raise ImportError(hypothesis_missing("cantstop.strategies")) from exc

from cantstop.actions import Action, Move, Roll, Stop
from cantstop.board import COLUMNS, MARKERS, STANDARD_HEIGHTS
from cantstop.config import Rules, Variant
from cantstop.dice import pairings, roll_outcomes
from cantstop.state import Event, Phase, State, new_game

__all__ = [
    "actions",
    "heights",
    "illegal_actions",
    "invalid_dice",
    "legal_actions",
    "moves",
    "reachable_states",
    "rolls",
    "rules",
    "valid_states",
]

#: The phases in the order the strategies shrink towards (the first is simplest).
_PHASES = (Phase.ROLL, Phase.CHOOSE, Phase.DECIDE, Phase.OVER)

#: Every distinct roll, dice sorted: the 126 outcomes of :func:`~cantstop.roll_outcomes`.
_SORTED_ROLLS = tuple(roll for roll, _ in roll_outcomes())

#: Every well-formed move: one sum, or two in increasing order (R4.3).
_ALL_MOVES = tuple(Move((a,)) for a in COLUMNS) + tuple(
    Move((a, b)) for a in COLUMNS for b in COLUMNS if a <= b
)

#: How many actions the seeded completion of :func:`reachable_states` may take.
_COMPLETION_LIMIT = 20_000

RulesArg = Rules | st.SearchStrategy[Rules] | None


# -- configuration ---------------------------------------------------------------


def heights(max_height: int = 13) -> st.SearchStrategy[dict[int, int]]:
    """Return a strategy for custom boards: columns 2..12, each 1 to ``max_height`` spaces high.

    Boards shrink towards a single column of height 1 (R15.3).

    >>> from hypothesis import given, settings
    >>> @settings(max_examples=20)
    ... @given(heights(max_height=3))
    ... def test_boards_are_valid(board):
    ...     assert all(2 <= column <= 12 and 1 <= height <= 3 for column, height in board.items())
    ...     Rules(heights=board, columns_to_win=1)  # R15.3 accepts it
    >>> test_boards_are_valid()
    """
    return st.dictionaries(
        st.sampled_from(COLUMNS), st.integers(1, max_height), min_size=1, max_size=len(COLUMNS)
    )


def rules(
    *,
    players: int | Sequence[int] = (1, 2, 3, 4),
    variants: Sequence[Variant | None] = (None, Variant.A, Variant.B),
    boards: st.SearchStrategy[Mapping[int, int]] | None = None,
) -> st.SearchStrategy[Rules]:
    """Return a strategy for valid game configurations (R14, R15).

    ``players`` is a player count or the counts to choose from; ``variants``
    the variants to choose from (``None`` is the standard game); ``boards``
    draws the column heights, by default the standard board or a custom one
    from :func:`heights` (``heights(max_height=3)`` makes short games,
    ``st.just(STANDARD_HEIGHTS)`` keeps the standard board).  Columns to
    win range over every value R15.2 and R15.4 allow for the board and player
    count.  Shrinks towards one player, the standard board, 1 column to win
    and no variant.

    >>> from hypothesis import given, settings
    >>> @settings(max_examples=20)
    ... @given(rules(players=[3, 4], variants=[Variant.B], boards=heights(max_height=3)))
    ... def test_configurations_keep_to_the_arguments(r):
    ...     assert r.players in (3, 4) and r.variant is Variant.B
    ...     assert all(height <= 3 for height in r.heights.values())
    >>> test_configurations_keep_to_the_arguments()
    """
    counts = (players,) if isinstance(players, int) else tuple(players)
    if boards is None:
        boards = st.one_of(st.just(STANDARD_HEIGHTS), heights())
    drawn_boards = boards

    @st.composite
    def build(draw: st.DrawFn) -> Rules:
        n = draw(st.sampled_from(counts))
        board = draw(drawn_boards)
        # R15.2 and R15.4: 1 <= columns_to_win and n * (columns_to_win - 1) < columns.
        most = min(len(board), (len(board) - 1) // n + 1)
        target = draw(st.integers(1, most))
        variant = draw(st.sampled_from(tuple(variants)))
        return Rules(players=n, columns_to_win=target, heights=board, variant=variant)

    return build()


def _rules_strategy(value: RulesArg) -> st.SearchStrategy[Rules]:
    if value is None:
        return rules()
    if isinstance(value, Rules):
        return st.just(value)
    return value


# -- actions ---------------------------------------------------------------------


def rolls() -> st.SearchStrategy[Roll]:
    """Return a strategy for rolls: four dice 1-6 in the order thrown (R4.1).

    Shrinks towards 1-1-1-1.

    >>> from hypothesis import given, settings
    >>> @settings(max_examples=20)
    ... @given(rolls())
    ... def test_rolls_have_three_pairings(roll):
    ...     assert len(pairings(roll.dice)) == 3
    >>> test_rolls_have_three_pairings()
    """
    die = st.integers(1, 6)
    return st.tuples(die, die, die, die).map(Roll)


def moves() -> st.SearchStrategy[Move]:
    """Return a strategy for well-formed moves: one or two sums from 2 to 12 (R4.3).

    Whether a move is legal depends on the state; see :func:`legal_actions`.
    Shrinks towards the single sum 2.

    >>> from hypothesis import given, settings
    >>> @settings(max_examples=20)
    ... @given(moves())
    ... def test_moves_are_sorted_sums(move):
    ...     assert list(move.columns) == sorted(move.columns)
    ...     assert all(2 <= column <= 12 for column in move.columns)
    >>> test_moves_are_sorted_sums()
    """
    column = st.integers(2, 12)
    return st.one_of(st.tuples(column).map(Move), st.tuples(column, column).map(Move))


def actions() -> st.SearchStrategy[Action]:
    """Return a strategy for any well-formed action: a roll, a move or a stop.

    Shrinks towards :class:`~cantstop.Stop`.

    >>> from hypothesis import given, settings
    >>> from cantstop import format_action, parse_action
    >>> @settings(max_examples=20)
    ... @given(actions())
    ... def test_actions_round_trip(action):
    ...     assert parse_action(format_action(action)) == action
    >>> test_actions_round_trip()
    """
    return st.one_of(st.just(Stop()), moves(), rolls())


def invalid_dice() -> st.SearchStrategy[tuple[int, ...]]:
    """Return a strategy for dice that are not a roll: a wrong count, or a die outside 1-6.

    :class:`~cantstop.Roll` rejects each of them with
    :class:`~cantstop.InvalidActionValue` under R4.1.  Shrinks towards no dice.

    >>> from hypothesis import given, settings
    >>> from cantstop import InvalidActionValue
    >>> @settings(max_examples=20)
    ... @given(invalid_dice())
    ... def test_invalid_dice_are_refused(dice):
    ...     try:
    ...         Roll(dice)
    ...     except InvalidActionValue as error:
    ...         assert error.rule == 'R4.1'
    ...     else:
    ...         raise AssertionError(f'{dice} made a roll')
    >>> test_invalid_dice_are_refused()
    """
    die = st.integers(1, 6)
    bad_die = st.one_of(st.integers(max_value=0), st.integers(min_value=7))
    wrong_count = st.lists(die, max_size=8).filter(lambda d: len(d) != 4).map(tuple)
    out_of_range = (
        st.tuples(die, die, die, bad_die).flatmap(lambda d: st.permutations(d)).map(tuple)
    )
    return st.one_of(wrong_count, out_of_range)


def legal_actions(state: State) -> st.SearchStrategy[Action]:
    """Return a strategy for the actions ``state`` accepts.

    To roll (ROLL or DECIDE phase) any roll is legal, and it may bust; in
    the DECIDE phase a stop is legal too unless Variant B forbids it (R14.2).
    In the CHOOSE phase the legal actions are the legal moves.  A finished
    game accepts nothing: for an OVER state the strategy is empty
    (:func:`hypothesis.strategies.nothing`).

    >>> from hypothesis import given
    >>> from cantstop import parse_state
    >>> state = parse_state('-/- - 0c3455')
    >>> @given(legal_actions(state))
    ... def test_legal_moves_apply(move):
    ...     assert move in (Move((7, 10)), Move((8, 9)))
    ...     state.apply(move)
    >>> test_legal_moves_apply()
    """
    if state.phase is Phase.CHOOSE:
        return st.sampled_from(state.legal_moves())
    if state.phase is Phase.ROLL:
        return rolls()
    if state.phase is Phase.DECIDE:
        if state.decisions().may_stop:
            return st.one_of(st.just(Stop()), rolls())
        return rolls()
    return st.nothing()


def illegal_actions(state: State) -> st.SearchStrategy[Action]:
    """Return a strategy for well-formed actions that ``state`` rejects with IllegalAction.

    These are actions in the wrong phase (a stop or a move before the roll, a
    roll or a stop while dice are on the table, a move after the roll has been
    played, anything once the game is over), moves that the dice do not allow
    (sums no pairing makes, sums that cannot be played, a single sum where
    both could be played) and, under Variant B, a stop while a marker shares
    a space (R14.2).  In the CHOOSE phase the moves are mostly near misses built
    from the sums of the dice on the table.  Dice values that are not a roll at
    all (five dice, a 7) cannot make a :class:`~cantstop.Roll`; they come from
    :func:`invalid_dice`.

    >>> from hypothesis import given
    >>> from cantstop import IllegalAction, parse_state
    >>> state = parse_state('-/- - 0r')
    >>> @given(illegal_actions(state))
    ... def test_rejected_before_the_roll(action):
    ...     try:
    ...         state.apply(action)
    ...     except IllegalAction as error:
    ...         assert error.rule in ('R3.2', 'R11.1')
    ...     else:
    ...         raise AssertionError(f'{action} was accepted')
    >>> test_rejected_before_the_roll()
    """
    if state.phase is Phase.ROLL:
        return st.one_of(st.just(Stop()), moves())
    if state.phase is Phase.DECIDE:
        if state.decisions().may_stop:
            return moves()
        return st.one_of(st.just(Stop()), moves())
    if state.phase is Phase.OVER:
        return actions()
    assert state.dice is not None
    legal = set(state.legal_moves())
    sums = sorted({s for pair in pairings(state.dice) for s in pair})
    near = [Move((a,)) for a in sums] + [Move((a, b)) for a in sums for b in sums if a <= b]
    near_misses = [m for m in near if m not in legal]
    wrong_moves = st.sampled_from([m for m in _ALL_MOVES if m not in legal])
    if near_misses:
        wrong_moves = st.one_of(st.sampled_from(near_misses), wrong_moves)
    return st.one_of(st.just(Stop()), wrong_moves, rolls())


# -- states ----------------------------------------------------------------------


def _finish(state: State, rng: random.Random, want: Phase) -> State | None:
    """Play on with seeded random legal actions until the phase is ``want``.

    Unless ``want`` is OVER, winning stops are avoided (the player rolls
    instead), so the game never ends on the way.  Returns ``None`` if the
    limit is reached first.
    """
    for _ in range(_COMPLETION_LIMIT):
        if state.phase is want:
            return state
        if state.phase is Phase.CHOOSE:
            state = state.apply(rng.choice(state.legal_moves()))
            continue
        # Variant B may forbid the stop (R14.2): the player rolls on.
        if state.phase is Phase.DECIDE and rng.random() < 0.5 and state.decisions().may_stop:
            step = state.step(Stop())
            if step.event is not Event.WON or want is Phase.OVER:
                state = step.state
                continue
        state = state.apply(Roll(tuple(rng.randint(1, 6) for _ in range(4))))  # type: ignore[arg-type]
    return None


def reachable_states(
    rules: RulesArg = None, *, phase: Phase | None = None, max_actions: int = 40
) -> st.SearchStrategy[State]:
    """Return a strategy for states reached by legal play from a new game.

    The strategy draws the rules (from ``rules``: a :class:`~cantstop.Rules`,
    a strategy for them, or ``None`` for :func:`rules`), the first player,
    and up to ``max_actions`` legal actions, each applied with the engine.  It
    shrinks towards the opening state and, action by action, towards rolls of
    1-1-1-1, the first legal move and rolling on rather than stopping.

    With ``phase`` given, the state is in that phase: play continues from the
    drawn prefix with seeded random legal actions until the phase comes up.
    Asking for :attr:`~cantstop.Phase.OVER` plays the game to its end;
    asking for any other phase avoids the winning stop, so that phase always
    comes.

    >>> from hypothesis import given, settings
    >>> @settings(max_examples=10)
    ... @given(reachable_states(Rules(players=3), phase=Phase.DECIDE))
    ... def test_a_deciding_player_has_moved(state):
    ...     assert state.phase is Phase.DECIDE and state.rules.players == 3
    ...     assert 1 <= len(state.markers) <= 3  # R16.5, R16.1
    >>> test_a_deciding_player_has_moved()
    """
    rules_strategy = _rules_strategy(rules)

    @st.composite
    def build(draw: st.DrawFn) -> State:
        game_rules = draw(rules_strategy)
        state = new_game(game_rules, draw(st.integers(0, game_rules.players - 1)))
        for _ in range(draw(st.integers(0, max_actions))):
            if state.phase is Phase.OVER:
                break
            if state.phase is Phase.CHOOSE:
                state = state.apply(draw(st.sampled_from(state.legal_moves())))
                continue
            # Variant B may forbid the stop (R14.2): the player rolls on.
            if state.phase is Phase.DECIDE and draw(st.booleans()) and state.decisions().may_stop:
                step = state.step(Stop())
                if step.event is not Event.WON or phase in (None, Phase.OVER):
                    state = step.state
                    continue
            state = state.apply(draw(rolls()))
        if phase is not None and state.phase is not phase:
            rng = random.Random(draw(st.integers(0, 2**32 - 1)))
            finished = _finish(state, rng, phase)
            assume(finished is not None)
            assert finished is not None
            state = finished
        return state

    return build()


def valid_states(rules: RulesArg = None, *, phase: Phase | None = None) -> st.SearchStrategy[State]:
    """Return a strategy for any state that satisfies the invariants of R16, reachable or not.

    The state is built directly, field by field, and then checked by the
    :class:`~cantstop.State` constructor.  It covers every phase, won
    columns (R9.1), markers up to the top space (R8.1), shared spaces
    (R13.1), Variants A and B, 1 to 4 players and custom boards.  Rules come
    from ``rules`` as for :func:`reachable_states`; ``phase`` fixes the phase.
    Shrinks towards an empty board in the ROLL phase.

    Unlike :func:`reachable_states`, the squares need not be the result of
    any sequence of turns (under Variant A, for example, two players' squares
    may share a space).

    >>> from hypothesis import given, settings
    >>> @settings(max_examples=20)
    ... @given(valid_states(phase=Phase.OVER))
    ... def test_a_finished_game_names_its_winner(state):
    ...     assert state.winner == state.player  # R16.5
    ...     assert sum(owner == state.player for owner in state.won.values()) >= (
    ...         state.rules.columns_to_win
    ...     )  # R12.1
    >>> test_a_finished_game_names_its_winner()
    """
    rules_strategy = _rules_strategy(rules)
    phases = st.sampled_from(_PHASES) if phase is None else st.just(phase)

    @st.composite
    def build(draw: st.DrawFn) -> State:
        game_rules = draw(rules_strategy)
        state_phase = draw(phases)
        n = game_rules.players
        board = game_rules.heights
        target = game_rules.columns_to_win
        columns = list(board)
        player = draw(st.integers(0, n - 1))

        # Won columns (R9.1): at most one player reaches the target (R12.1),
        # and in the OVER phase the player to move is that winner (R16.5).
        # Drawn as lists of entries, so that the empty board is one choice on any board.
        owners: dict[int, int] = dict(
            draw(
                st.lists(
                    st.tuples(st.sampled_from(columns), st.integers(0, n - 1)),
                    unique_by=lambda entry: entry[0],
                    max_size=len(columns),
                )
            )
        )
        if state_phase is Phase.OVER:
            for column in columns:
                if sum(1 for o in owners.values() if o == player) >= target:
                    break
                owners[column] = player
        won: dict[int, int] = {}
        for column in columns:
            owner = owners.get(column)
            if owner is None:
                continue
            unlimited = state_phase is Phase.OVER and owner == player
            if unlimited or sum(1 for o in won.values() if o == owner) < target - 1:
                won[column] = owner

        squares: list[dict[int, int]] = [{} for _ in range(n)]
        for column, owner in won.items():
            squares[owner][column] = board[column]
        below_top = [c for c in columns if c not in won and board[c] > 1]
        if below_top:
            cells = draw(
                st.lists(
                    st.tuples(st.sampled_from(below_top), st.integers(0, n - 1)),
                    unique=True,
                    max_size=len(below_top) * n,
                )
            )
            for column, p in cells:
                squares[p][column] = draw(st.integers(1, board[column] - 1))

        markers: dict[int, int] = {}
        if state_phase in (Phase.CHOOSE, Phase.DECIDE):
            open_columns = [c for c in columns if c not in won]
            chosen = draw(
                st.lists(
                    st.sampled_from(open_columns),
                    unique=True,
                    min_size=1 if state_phase is Phase.DECIDE else 0,
                    max_size=min(MARKERS, len(open_columns)),
                )
            )
            for column in chosen:
                own = squares[player].get(column, 0)
                top = board[column]
                position = draw(st.integers(own + 1, top) | st.just(top))  # R16.3
                if game_rules.variant is Variant.A:  # R14.1: skip others' squares
                    taken = {s.get(column) for p, s in enumerate(squares) if p != player}
                    while position in taken:
                        position += 1
                markers[column] = position

        dice = None
        if state_phase is Phase.CHOOSE:
            # R10.1: the dice on the table have a legal move.
            twin = State(
                game_rules,
                player,
                Phase.DECIDE if markers else Phase.ROLL,
                None,
                markers,
                tuple(squares),
            )
            playable = [r for r in _SORTED_ROLLS if twin.step(r).event is Event.ROLLED]
            assume(playable)
            dice = draw(st.sampled_from(playable)).dice
        return State(game_rules, player, state_phase, dice, markers, tuple(squares))

    return build()
