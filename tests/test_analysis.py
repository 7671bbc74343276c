"""The engine's answers to "what may happen now": a roll's analysis, the decisions, the refusals.

:mod:`cantstop.analysis` (what each sum and each pairing does, and the legal
moves it gives), :meth:`State.decisions` (every decision open to the player)
and :mod:`cantstop.refusals` (why an action is refused, in which words).
Expected answers come from the spec's rules worked by hand, from
``tests/independent.py`` or from what :meth:`State.apply` accepts, never from
the function under test.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cantstop import (
    Decisions,
    IllegalAction,
    InvalidActionValue,
    InvalidState,
    Move,
    Phase,
    Play,
    Roll,
    Rules,
    State,
    Stop,
    Variant,
    format_action,
    format_state,
    parse_state,
)
from cantstop.actions import Action
from cantstop.analysis import OFFER_RULES, Offer, analyse_roll, decide_offer, landing
from cantstop.dice import roll_outcomes
from cantstop.explanation import TEMPLATES
from cantstop.odds import format_percent
from cantstop.refusals import REFUSAL_TEMPLATES, RefusalKind, Share, refusal, stop_blockers
from cantstop.spec import load_spec
from cantstop.strategies import (
    actions,
    illegal_actions,
    legal_actions,
    reachable_states,
    valid_states,
)
from tests import independent

#: Tests that do much work per example run a quarter of the profile's examples.
heavy = settings(max_examples=max(10, settings().max_examples // 4))

any_states = st.one_of(valid_states(), reachable_states())
playing = any_states.filter(lambda s: s.phase is not Phase.OVER)
SORTED_DICE = [roll.dice for roll, _ in roll_outcomes()]
ALL_MOVES = [Move((a,)) for a in range(2, 13)] + [
    Move((a, b)) for a, b in itertools.combinations_with_replacement(range(2, 13), 2)
]


def _independent(state: State) -> independent.Position:
    return independent.read_state(format_state(state))


# -- one sum (R5) ---------------------------------------------------------------------


@given(playing)
def test_each_sum_lands_where_the_independent_implementation_says(state: State) -> None:
    """Every sum 2-12, alone and after each sum that plays, lands as tests/independent.py says."""
    pos = _independent(state)
    won = independent.won_columns(pos)
    for first in [None, *range(2, 13)]:
        markers = dict(state.markers)
        if first is not None:
            played = state.sum_play(first)
            if not played.plays:
                continue
            assert played.landing is not None
            markers[first] = played.landing
        for column in range(2, 13):
            found = state.sum_play(column, markers)
            target = independent._target_space(pos, markers, column, won)
            assert found.plays == (target is not None), (format_state(state), first, column)
            assert found.landing == target
            assert (found.drop_rule is None) is found.plays
            if found.plays:
                start = markers.get(column, state.squares[state.player].get(column, 0))
                assert found.start == start
                assert found.top == (target == state.rules.heights[column])
                assert target is not None
                assert set(found.skipped) == set(range(start + 1, target)), "only squares skipped"


@pytest.mark.parametrize(
    ("text", "column", "play", "rule", "owner"),
    [
        # R5.3's order: no column, won, marker on top, marker below it, no free marker, placed.
        ("- 2:1 0d h2:1,7:3 w1", 12, Play.NO_COLUMN, "R15.3", None),
        ("-/7:13 2:3,5:1,9:2 0d", 7, Play.WON, "R9.2", 1),
        ("-/7:13 2:3,5:1,9:2 0d", 2, Play.TOP, "R8.1", None),
        ("-/7:13 2:3,5:1,9:2 0d", 5, Play.ADVANCE, None, None),
        ("-/7:13 2:3,5:1,9:2 0d", 8, Play.NO_MARKER, "R5.3", None),
        ("-/7:13 5:1 0d", 8, Play.PLACE, None, None),
    ],
)
def test_the_decision_table_of_one_sum(
    text: str, column: int, play: Play, rule: str | None, owner: int | None
) -> None:
    """sum_play follows R5.3's cases in order, naming the dropping rule and a won column's owner."""
    found = parse_state(text).sum_play(column)
    assert (found.play, found.drop_rule, found.owner) == (play, rule, owner)
    assert found.plays is (rule is None)
    assert parse_state(text).play_of(column) is play


def test_variant_a_lands_past_every_square_of_another_player() -> None:
    """R14.1: a marker from space 2 skips the squares on 3 and 4 and lands on 5; not without A."""
    rules_a = Rules(players=3, variant=Variant.A)
    squares = ({7: 2}, {7: 3}, {7: 4})
    assert landing(rules_a, squares, 0, 7, 2) == (5, (3, 4))
    assert landing(rules_a, squares, 1, 7, 3) == (5, (4,))  # its own square is not skipped
    assert landing(Rules(players=3), squares, 0, 7, 2) == (3, ())
    state = parse_state("7:2/7:3/7:4 - 0r A")
    assert (state.sum_play(7).landing, state.sum_play(7).skipped) == (5, (3, 4))


# -- one pairing (R6, R7) ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("sums", "plays", "offer", "moves"),
    [
        # Two different sums: (x alone, y alone, y after x).
        ((7, 10), (True, True, True), Offer.BOTH, [(7, 10)]),  # R6.1
        ((6, 9), (True, True, False), Offer.EITHER, [(6,), (9,)]),  # R6.3
        ((3, 11), (True, False, False), Offer.ONE, [(3,)]),  # R6.2
        ((3, 11), (False, True, False), Offer.ONE, [(11,)]),  # R6.2
        ((3, 11), (False, False, False), Offer.NONE, []),  # R6.5
        # Equal sums: (first step, -, second step after it).
        ((7, 7), (True, True, True), Offer.DOUBLE, [(7, 7)]),  # R7.1
        ((7, 7), (True, True, False), Offer.FIRST_STEP, [(7,)]),  # R7.3
        ((7, 7), (False, False, False), Offer.NO_STEP, []),  # R6.5
    ],
)
def test_what_a_pairing_offers_given_its_sums(
    sums: tuple[int, int],
    plays: tuple[bool, bool, bool],
    offer: Offer,
    moves: list[tuple[int, ...]],
) -> None:
    """decide_offer: the offers of R6.1-R6.5 and R7, worked by hand for each case."""
    assert decide_offer(*sums, *plays) == (offer, tuple(moves))


def test_every_offer_cites_an_existing_rule() -> None:
    """Each offer names the rule that decides it, and the explanations' offer sentence cites it."""
    rules = load_spec().rules
    assert set(OFFER_RULES) == set(Offer)
    for offer, rule in OFFER_RULES.items():
        assert rule in rules
        assert TEMPLATES[f"offer.{offer.value}"][1] == (rule,)


@heavy
@given(playing)
def test_each_pairing_offers_what_the_independent_implementation_plays(state: State) -> None:
    """Pairing by pairing: the moves offered are the longest plays in either order (independent)."""
    pos = _independent(state)
    won = independent.won_columns(pos)
    for dice in SORTED_DICE:
        found = analyse_roll(state, dice)
        assert found.dice == dice
        for pairing in found.pairings:
            tries = {
                independent._use_in_order(pos, pairing.sums, won),
                independent._use_in_order(pos, pairing.sums[::-1], won),
            }
            most = max(len(t) for t in tries)
            expected = {t for t in tries if len(t) == most} if most else set()
            assert {m.columns for m in pairing.moves} == expected, (format_state(state), dice)
            assert sum(pairing.sums) == sum(dice)


# -- the whole roll (R6.6) ---------------------------------------------------------------


@heavy
@given(st.one_of(reachable_states(phase=Phase.ROLL), reachable_states(phase=Phase.DECIDE)))
def test_the_analysis_gives_the_legal_moves_of_every_roll(state: State) -> None:
    """For every roll of a reachable state, the analysis's moves are legal_moves() after it."""
    for dice in SORTED_DICE:
        found = analyse_roll(state, dice)
        after = state.apply(Roll(dice))
        expected = after.legal_moves() if after.phase is Phase.CHOOSE else ()
        assert found.moves == expected, (format_state(state), dice)
        assert found.busts is (not expected)


@given(st.one_of(reachable_states(phase=Phase.CHOOSE), valid_states(phase=Phase.CHOOSE)))
def test_the_analysis_of_the_dice_on_the_table(state: State) -> None:
    """In CHOOSE: the moves are legal_moves(), each comes from a pairing, and leaves its markers."""
    assert state.dice is not None
    found = analyse_roll(state, state.dice)
    assert found.moves == state.legal_moves()
    for move in found.moves:
        numbers = found.offering(move)
        assert numbers
        assert move.columns in independent.legal_moves(_independent(state), state.dice)
        assert found.markers_after(move) == dict(state.apply(move).markers)
    for move in ALL_MOVES:
        if move not in found.moves:
            assert found.offering(move) == ()
            with pytest.raises(IllegalAction) as info:
                found.markers_after(move)
            assert info.value.rule == "R6.6"


def test_the_analysis_refuses_what_is_not_a_roll_in_a_game() -> None:
    """Bad dice name R4.1, a finished game R12.3, and something else than a state R16.5."""
    state = parse_state("-/- - 0r")
    with pytest.raises(InvalidActionValue) as dice:
        analyse_roll(state, (1, 2, 3, 7))
    assert dice.value.rule == "R4.1"
    with pytest.raises(IllegalAction) as over:
        analyse_roll(parse_state("2:3,3:5,4:7/- - 0x"), (1, 2, 3, 4))
    assert over.value.rule == "R12.3"
    with pytest.raises(InvalidState) as what:
        analyse_roll("-/- - 0r", (1, 2, 3, 4))  # type: ignore[arg-type]
    assert what.value.rule == "R16.5"
    assert "'str'" in str(what.value)


# -- the decisions --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "moves", "roll", "stop"),
    [
        ("-/- - 0r", [], True, False),  # R3.2: a turn starts with a roll
        ("-/- - 0c3455", ["7+10", "8+9"], False, False),  # R3.3: the dice are played first
        ("-/- 7:1 0d", [], True, True),  # R3.4, R11.1
        ("-/7:3 7:3 0d B", [], True, False),  # R14.2: a shared space forbids the stop
        ("-/7:3 7:3 0d", [], True, True),  # only Variant B forbids it
        ("-/7:3 7:4 0d A", [], True, True),
        ("2:3,3:5,4:7/- - 0x", [], False, False),  # R12.3
    ],
)
def test_the_decisions_of_each_phase(text: str, moves: list[str], roll: bool, stop: bool) -> None:
    """State.decisions lists the moves, whether a roll and whether a stop are open, by phase."""
    found = parse_state(text).decisions()
    assert isinstance(found, Decisions)
    assert ([format_action(m) for m in found.moves], found.may_roll, found.may_stop) == (
        moves,
        roll,
        stop,
    )


def _accepts(state: State, action: Action) -> bool:
    try:
        state.apply(action)
    except IllegalAction:
        return False
    return True


@given(any_states)
def test_the_decisions_are_what_apply_accepts(state: State) -> None:
    """A roll, a stop and each move are open exactly when apply accepts them."""
    found = state.decisions()
    assert found.moves == state.legal_moves()
    assert found.may_roll is _accepts(state, Roll((1, 1, 1, 1)))
    assert found.may_stop is _accepts(state, Stop())
    assert {m for m in ALL_MOVES if _accepts(state, m)} == set(found.moves)
    if state.phase is Phase.DECIDE:  # the independent implementation's stop rule (R11.1, R14.2)
        try:
            independent.stop_result(_independent(state))
        except independent.Illegal:
            assert not found.may_stop
        else:
            assert found.may_stop


def test_stop_blockers_name_each_shared_space_under_variant_b() -> None:
    """R14.2: each marker on another player's square, in column and player order; none without B."""
    rules_b = Rules(players=3, variant=Variant.B)
    squares: tuple[dict[int, int], ...] = ({}, {3: 1, 7: 2}, {7: 2, 9: 4})
    markers = {3: 1, 7: 2, 9: 5}
    assert stop_blockers(rules_b, markers, squares, 0) == (
        Share(3, 1, 1),
        Share(7, 2, 1),
        Share(7, 2, 2),
    )
    assert stop_blockers(Rules(players=3), markers, squares, 0) == ()
    assert stop_blockers(rules_b, {9: 5}, squares, 0) == ()


# -- the refusals ------------------------------------------------------------------------------


@given(st.data())
def test_a_refusal_exists_exactly_for_what_apply_refuses(data: st.DataObject) -> None:
    """Any action in any state: refused by refusal() iff apply raises, same rule, same words."""
    state = data.draw(any_states)
    strategies = [actions(), illegal_actions(state)]
    if state.phase is not Phase.OVER:
        strategies.append(legal_actions(state))
    action = data.draw(st.one_of(strategies))
    found = refusal(state, action)
    if found is None:
        state.apply(action)  # accepted: no IllegalAction
        return
    with pytest.raises(IllegalAction) as info:
        state.apply(action)
    error = info.value
    assert (found.rule, found.state, found.action) == (error.rule, state, action)
    assert str(found.error()) == str(error)
    assert error.reason.startswith(found.text()[:-1])


#: For each kind of refusal: a state, an action, the rule and the sentence, worked out by
#: hand from the templates of spec/explain.md (X4.2) and the rules they cite.
REFUSALS = [
    (
        RefusalKind.GAME_OVER,
        "2:3,3:5,4:7/- - 0x",
        Roll((1, 2, 3, 4)),
        "R12.3",
        "r1234 is not legal: the game is over.",
    ),
    (
        RefusalKind.DICE_WAITING,
        "-/- - 0c3455",
        Stop(),
        "R3.3",
        "stop is not legal: the dice 3-4-5-5 must be played first.",
    ),
    (
        RefusalKind.MOVE_BEFORE_ROLL,
        "-/- - 0r",
        Move((7,)),
        "R3.2",
        "7 is not legal: there are no dice to play, since a turn starts with a roll.",
    ),
    (
        RefusalKind.STOP_BEFORE_ROLL,
        "-/- - 0r",
        Stop(),
        "R11.1",
        "stop is not legal: a player must roll at least once before stopping.",
    ),
    (
        RefusalKind.MOVE_AFTER_MOVE,
        "-/- 7:1 0d",
        Move((7,)),
        "R3.4",
        "7 is not legal: the roll has already been played, so the player rolls again or stops.",
    ),
    (
        RefusalKind.STOP_SHARING,
        "-/7:1 3:1,7:1 0d B",
        Stop(),
        "R14.2",
        "stop is not legal under Variant B: the marker in column 7 shares space 1 "
        "with player 1's square.",
    ),
    (
        RefusalKind.NO_PAIRING_TWO,
        "-/- - 0c3455",
        Move((7, 9)),
        "R4.3",
        "7+9 is not legal: no pairing of 3-4-5-5 makes 7 and 9.",
    ),
    (
        RefusalKind.NO_PAIRING_ONE,
        "-/- - 0c3455",
        Move((12,)),
        "R4.3",
        "12 is not legal: no pairing of 3-4-5-5 makes 12.",
    ),
    (
        RefusalKind.DROPPED,
        "-/7:13 - 0c3455",
        Move((7, 10)),
        "R9.2",
        "7+10 is not legal: 7 cannot be played, because column 7 has been won by player 1.",
    ),
    (
        RefusalKind.DROPPED,
        "-/- 5:1,9:2,12:3 0c3666",
        Move((9, 12)),
        "R8.1",
        "9+12 is not legal: 12 cannot be played, because the marker in column 12 is on the "
        "top space.",
    ),
    (
        RefusalKind.DROPPED,
        "-/- 2:3,5:1,9:2 0c1136",
        Move((4,)),
        "R5.3",
        "4 is not legal: 4 cannot be played, because column 4 has no marker and all three "
        "are in use.",
    ),
    (
        RefusalKind.DROPPED,
        "- - 0c3445 h7:3,8:3 w1",
        Move((9,)),
        "R15.3",
        "9 is not legal: 9 cannot be played, because the board has no column 9.",
    ),
    (
        RefusalKind.SECOND_STEP,
        "-/- 7:12 0c1256",
        Move((7, 7)),
        "R7.3",
        "7+7 is not legal: after the first 7 the marker in column 7 is on the top space, "
        "so the second step is forfeit.",
    ),
    (
        RefusalKind.ONE_FREE,
        "-/- 4:1,10:1 0c2356",
        Move((5, 11)),
        "R6.3",
        "5+11 is not legal: 5 and 11 each need a new marker, and only one is free.",
    ),
    (
        RefusalKind.ONE_STEP,
        "-/- - 0c2255",
        Move((7,)),
        "R7.1",
        "7 is not legal: pairing 2 makes 7 twice and both steps can be played, so one step "
        "alone is not allowed.",
    ),
    (
        RefusalKind.ONE_SUM,
        "-/- - 0c3455",
        Move((9,)),
        "R6.1",
        "9 is not legal: pairing 2 makes 9 with 8, and both can be played together, so 9 "
        "alone is not allowed.",
    ),
]


def test_every_kind_of_refusal_is_worked_out() -> None:
    """The table below covers every kind of refusal."""
    assert {kind for kind, *_ in REFUSALS} == set(RefusalKind)


@pytest.mark.parametrize(("kind", "text", "action", "rule", "sentence"), REFUSALS)
def test_each_refusal_and_its_words(
    kind: RefusalKind, text: str, action: Action, rule: str, sentence: str
) -> None:
    """The refusal's kind, rule and sentence; IllegalAction says the same, then the legal moves."""
    state = parse_state(text)
    found = refusal(state, action)
    assert found is not None
    assert (found.kind, found.rule, found.text()) == (kind, rule, sentence)
    assert found.key in TEMPLATES
    with pytest.raises(IllegalAction) as info:
        state.apply(action)
    moves = ", ".join(format_action(m) for m in state.legal_moves())
    listed = f"; legal moves: {moves}" if moves else ""
    assert str(info.value) == f"{sentence[:-1]}{listed} (rule {rule}) in state {text!r}"
    assert info.value.reason == sentence[:-1] + listed


def test_the_refusals_speak_the_explanations_words() -> None:
    """The refusal sentences are rows of the explanations' table, which spec/explain.md holds."""
    assert REFUSAL_TEMPLATES.items() <= TEMPLATES.items()
    assert {k for k in TEMPLATES if k.startswith(("illegal.", "reason."))} == set(REFUSAL_TEMPLATES)
    assert {f"illegal.{kind.value}" for kind in RefusalKind} == {
        k for k in REFUSAL_TEMPLATES if k.startswith("illegal.")
    }


def test_refusal_refuses_what_is_not_an_action_or_a_state() -> None:
    """Something that is not an action is R3.1, as apply says; something not a state is R16.5."""
    state = parse_state("-/- - 0r")
    with pytest.raises(IllegalAction) as info:
        refusal(state, "stop")  # type: ignore[arg-type]
    assert info.value.rule == "R3.1"
    with pytest.raises(InvalidState) as what:
        refusal("-/- - 0r", Stop())  # type: ignore[arg-type]
    assert what.value.rule == "R16.5"


# -- one percentage ------------------------------------------------------------------------------


def test_every_bust_chance_is_rounded_as_the_spec_says() -> None:
    """format_percent: X4.1's exact formula for every count of 1296, halves up (81 is 6.3%)."""
    for busts in range(1297):
        tenths = (2000 * busts + 1296) // 2592
        assert format_percent(Fraction(busts, 1296)) == f"{tenths // 10}.{tenths % 10}%"
    assert format_percent(Fraction(81, 1296)) == "6.3%"
    for busts in range(1297):  # no count of 1296 falls on a half at two decimals
        assert format_percent(Fraction(busts, 1296), 2) == f"{busts / 1296:.2%}"
