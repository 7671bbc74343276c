"""The built-in players (cantstop.players): the Rule of 28 as published, greedy, random."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from cantstop import Move, Phase, Roll, Rules, State, Variant, new_game, parse_state
from cantstop.odds import bust_probability, expected_gain
from cantstop.players import (
    PLAYERS,
    BoldPlayer,
    CautiousPlayer,
    Decision,
    GreedyPlayer,
    Player,
    QuotaPlayer,
    RandomPlayer,
    Rule28Player,
    decide,
    may_stop,
    stopping_wins,
    turn_progress,
)
from tests.extras import require
from tests.games import CONFIGS, random_game
from tests.independent import legal_moves, read_state


@pytest.mark.parametrize("name", list(PLAYERS))
def test_every_builtin_player_follows_the_protocol(name: str) -> None:
    """Each registered player is a ``Player`` under its registered name."""
    if name == "optimal":
        require("numba")  # cantstop.solve, which the optimal player plays from
    player = PLAYERS[name]()
    assert isinstance(player, Player)
    assert player.name == name


@pytest.mark.parametrize(
    ("text", "score"),
    [
        # One marker on space 1 of column 7: 1 point, doubled for the new marker.
        ("-/- 7:1 0d", 2),
        # Column 2 is worth 6 a space: spaces 1 and 2 plus the double first space.
        ("-/- 2:2 0d", 18),
        # Spaces count from the player's square: 8 from 3 to 5 is 2 spaces, +1 double.
        ("8:3/- 8:5 0d", 6),
        # Three markers, 5 7 9: all odd (+2); 3*2 + 1*2 + 3*2 = 14.
        ("-/- 5:1,7:1,9:1 0d", 16),
        # 4 6 8: all even (-2); 4*2 + 2*2 + 2*2 = 16.
        ("-/- 4:1,6:1,8:1 0d", 14),
        # 7 9 11: all odd (+2) and all 7 or higher (+4); 1*2 + 3*2 + 5*2 = 18.
        ("-/- 7:1,9:1,11:1 0d", 24),
        # 3 5 7: odd (+2) and all 7 or lower (+4); 5*2 + 3*2 + 1*2 = 18.
        ("-/- 3:1,5:1,7:1 0d", 24),
        # 8 10 12: even (-2), 7 or higher (+4); 2*2 + 4*2 + 6*2 = 24.
        ("-/- 8:1,10:1,12:1 0d", 26),
        # 2 7 12: mixed parity, neither all high nor all low; 12 + 2 + 12 = 26.
        ("-/- 2:1,7:1,12:1 0d", 26),
        # Only two markers: no adjustment even though both are odd and low.
        ("-/- 3:1,5:1 0d", 16),
    ],
)
def test_rule_of_28_score(text: str, score: int) -> None:
    assert Rule28Player().score(parse_state(text)) == score


def test_rule_of_28_stops_at_28_once_three_markers_are_in_use() -> None:
    player = Rule28Player()
    rng = random.Random(1)
    # 2, 3 and 12: 6 * 2 + 5 * 2 + 6 * 3 = 40, no adjustment (mixed parity, low and high).
    assert player.score(parse_state("-/- 2:1,3:1,12:2 0d")) == 40
    assert player.stops(parse_state("-/- 2:1,3:1,12:2 0d"), rng)
    # 8 10 12: 2 * 2 + 4 * 2 + 6 * 2 = 24, all even -2, all high +4: 26, under 28.
    assert player.score(parse_state("-/- 8:1,10:1,12:1 0d")) == 26
    assert not player.stops(parse_state("-/- 8:1,10:1,12:1 0d"), rng)
    # One space more in 8: 2 * 3 + 8 + 12 - 2 + 4 = 28: stop.
    assert player.score(parse_state("-/- 8:2,10:1,12:1 0d")) == 28
    assert player.stops(parse_state("-/- 8:2,10:1,12:1 0d"), rng)


def test_rule_of_28_rolls_on_while_a_marker_is_free_and_a_column_open() -> None:
    player = Rule28Player()
    rng = random.Random(1)
    # 11: 5 * 2 and 12: 6 * 3 make 28, but only two markers are in use and
    # nine other columns are open: roll on.
    assert player.score(parse_state("-/- 11:1,12:2 0d")) == 28
    assert not player.stops(parse_state("-/- 11:1,12:2 0d"), rng)
    # The same markers on a board of only those two columns: two columns open,
    # not more than the two markers in use, so 28 stops.
    only_two = parse_state("-/- 11:1,12:2 0d h11:5,12:3 w1")
    assert player.score(only_two) == 28
    assert player.stops(only_two, rng)


@pytest.mark.parametrize(
    ("text", "stops"),
    [
        # Board 2, 3, 12 of five spaces each.  The marker in 2 below the top:
        # 2, 3 and 12 are open, three columns for two markers: roll on.
        ("-/- 2:4,12:2 0d h2:5,3:5,12:5 w2", False),
        # The marker in 2 on the top space: 2 is no longer open; 3 and 12 are,
        # two columns for two markers: the count, 6 * 6 + 6 * 3 = 54, stops.
        ("-/- 2:5,12:2 0d h2:5,3:5,12:5 w2", True),
        # Column 3 won by the other player is not open either: 2 and 12 remain.
        ("-/3:5 2:4,12:2 0d h2:5,3:5,12:5 w2", True),
        # Column 3 won by the player: not open (R9.2) for the same reason.
        ("3:5/- 2:4,12:2 0d h2:5,3:5,12:5 w2", True),
    ],
)
def test_rule_of_28_open_columns(text: str, stops: bool) -> None:
    state = parse_state(text)
    assert not stopping_wins(state)
    assert Rule28Player().score(state) >= 28
    assert Rule28Player().stops(state, random.Random(1)) is stops


def test_rule_of_28_always_stops_when_stopping_wins() -> None:
    state = parse_state("2:3,3:5,4:6/- 4:7 0d")  # 2 and 3 won, 4's marker on the top space
    assert Rule28Player().score(state) == 8  # one marker, far under 28
    assert stopping_wins(state)
    assert Rule28Player().stops(state, random.Random(1))


@pytest.mark.parametrize(
    ("text", "scores", "chosen"),
    [
        # Dice 1 2 5 6 make 3+11, 6+8 and 7+7; a marker stands on 8:2.
        # 3+11: 3: 5 * 2, 8: 2 * 3, 11: 5 * 2 = 26, three markers -18, mixed: 8.
        # 6+8:  6: 2 * 2, 8: 2 * 4 = 12, two markers -12: 0.
        # 7+7:  7: 1 * 3, 8: 2 * 3 = 9, two markers -12: -3.
        ("-/- 8:2 0c1256", [8, 0, -3], (3, 11)),
        # Dice 1 1 5 6 make 2+11 and 6+7; markers on 7:1 and 9:1, one free.
        # 2:    2: 12, 7: 2, 9: 6 = 20, -18, columns 2 7 9 mixed: 2.
        # 6+7:  6: 4, 7: 3, 9: 6 = 13, -18, 6 7 9 mixed: -5.
        # 11:   7: 2, 9: 6, 11: 10 = 18, -18, all odd -2, all 7 or higher -4: -6.
        ("-/- 7:1,9:1 0c1156", [2, -5, -6], (2,)),
        # The same dice with markers on 4:1 and 6:1.
        # 2:    2: 12, 4: 8, 6: 4 = 24, -18, all even +2, all 7 or lower -4: 4.
        # 6+7:  4: 8, 6: 6, 7: 2 = 16, -18, all 7 or lower -4: -6.
        # 11:   4: 8, 6: 4, 11: 10 = 22, -18, mixed: 4.
        # 2 and 11 tie; a roll makes 11 (23.3% of rolls) more often than 2 (13.2%).
        ("-/- 4:1,6:1 0c1156", [4, -6, 4], (11,)),
    ],
)
def test_rule_of_28_move_choice(text: str, scores: list[int], chosen: tuple[int, ...]) -> None:
    state = parse_state(text)
    player = Rule28Player()
    assert [player.choice_score(state, move) for move in state.legal_moves()] == scores
    assert player.choose(state, random.Random(1)).columns == chosen


def test_rule_of_28_breaks_ties_by_likelier_columns() -> None:
    # From the opening, 3 4 5 5 offers 7+10 (1 * 2 + 4 * 2) and 8+9 (2 * 2 + 3 * 2):
    # 10 points and two markers (-12) each.  A roll makes 7 in 64.4% of rolls,
    # 8 in 56.1%, 9 in 44.8% and 10 in 35.6%: 8 and 9 together come up more often.
    state = new_game().apply(Roll((3, 4, 5, 5)))
    player = Rule28Player()
    assert [player.choice_score(state, m) for m in state.legal_moves()] == [-2, -2]
    assert player.choose(state, random.Random(1)).columns == (8, 9)


def test_turn_progress_and_stop_helpers() -> None:
    assert turn_progress(parse_state("7:2/- 7:5,9:1 0d")) == 4
    assert turn_progress(new_game()) == 0
    assert not stopping_wins(parse_state("2:3/- 4:7 0d"))
    assert stopping_wins(parse_state("-/- 7:3 0d h7:3 w1"))
    assert may_stop(parse_state("-/7:3 7:3 0d"))  # only Variant B forbids
    assert not may_stop(parse_state("-/7:3 7:3 0d B"))
    assert may_stop(parse_state("-/7:3 7:4 0d B"))


def test_random_player_draws_as_documented() -> None:
    state = new_game().apply(Roll((1, 2, 5, 6)))
    moves = state.legal_moves()
    for seed in range(20):
        mirror = random.Random(seed)
        expected = moves[int(mirror.random() * len(moves))]
        assert RandomPlayer().choose(state, random.Random(seed)) == expected
        mirror = random.Random(seed)
        decide = parse_state("-/- 7:1 0d")
        assert RandomPlayer(0.7).stops(decide, random.Random(seed)) == (mirror.random() >= 0.7)


def _independent_bust_and_gain(text: str) -> tuple[Fraction, Fraction]:
    from tests.independent import ALL_ROLLS

    pos = read_state(text)
    busts = sum(1 for r in ALL_ROLLS if not legal_moves(pos, r))
    gains = sum(max(len(m) for m in legal_moves(pos, r)) for r in ALL_ROLLS if legal_moves(pos, r))
    return Fraction(busts, 1296), Fraction(gains, 1296)


@pytest.mark.parametrize(
    "text", ["-/- 7:2 0d", "-/- 2:2,3:4,12:2 0d", "-/- 6:3,7:4,8:3 0d", "-/- 4:3,7:2 0d"]
)
def test_greedy_rolls_while_expected_gain_beats_expected_loss(text: str) -> None:
    state = parse_state(text)
    bust, gain = _independent_bust_and_gain(text)
    assert (bust, gain) == (bust_probability(state), expected_gain(state))
    rolls = gain > bust * turn_progress(state)
    assert GreedyPlayer().stops(state, random.Random(1)) is not rolls


def test_greedy_stops_on_a_top_space_and_takes_short_columns() -> None:
    assert GreedyPlayer().stops(parse_state("-/- 2:3 0d"), random.Random(1))
    # 1 1 6 6: 2+12, 7+7; a space in 2 or 12 (height 3) is worth more than one in 7.
    state = new_game().apply(Roll((1, 1, 6, 6)))
    assert GreedyPlayer().choose(state, random.Random(1)).columns == (2, 12)


@pytest.mark.parametrize("name", ["2p", "3p-B", "2p-A", "tiny"])
def test_players_always_choose_legal_moves(name: str) -> None:
    # The optimal player plays solved solitaire boards only (tests/test_solve.py).
    players = [make() for name, make in PLAYERS.items() if name != "optimal"]
    rng = random.Random(5)
    for state in random_game(CONFIGS[name], 2):
        if state.phase is Phase.CHOOSE:
            for player in players:
                assert player.choose(state, rng) in state.legal_moves()
        elif state.phase is Phase.DECIDE:
            for player in players:
                assert player.stops(state, rng) in (True, False)


def test_rule28_on_a_variant_board() -> None:
    rules = Rules(players=2, variant=Variant.A)
    state = new_game(rules).apply(Roll((3, 4, 5, 5)))
    assert Rule28Player().choose(state, random.Random(1)) in state.legal_moves()


# -- The quota players of the demonstration --------------------------------------------------


@pytest.mark.parametrize(
    ("text", "chosen"),
    [
        # 3 4 5 5 with a marker in 7: 7+10 places one new marker, 8+9 two: 7+10.
        ("-/- 7:1 0c3455", (7, 10)),
        # 1 2 5 6 with a marker in 8: 3+11 places two new markers; 6+8 and 7+7 one each,
        # and a pair of dice makes 7 in 6 ways of 36 twice (12), 6 and 8 in 5 ways each (10).
        ("-/- 8:2 0c1256", (7, 7)),
        # 1 1 6 6 with markers in 2, 12 and in 7 below its top: 7+7 climbs once to the top
        # and loses its second step (R7.3), so the moves are 2+12 and 7.  A pair of dice
        # makes 7 in 6 ways, 2 and 12 in 1 each, but 2+12 plays two sums.
        ("-/- 2:1,7:12,12:1 0c1166", (2, 12)),
    ],
)
def test_quota_player_choice(text: str, chosen: tuple[int, ...]) -> None:
    """The quota players take the move of most sums, then fewest new markers, then likeliest."""
    state = parse_state(text)
    for player in (QuotaPlayer(1), CautiousPlayer(), BoldPlayer()):
        assert player.choose(state).columns == chosen


def test_quota_player_stops_at_its_quota_or_on_a_top_space() -> None:
    """Cautious stops once the markers are 4 spaces above the squares, bold at 8, both on a top."""
    three = parse_state("7:2/- 7:5 0d")  # 5 - 2: three spaces this turn
    four = parse_state("7:2/- 7:5,9:1 0d")
    eight = parse_state("7:2/- 7:9,9:1,10:1 0d")  # 7 + 1 + 1 = 9 spaces: over 8
    top = parse_state("-/- 2:3 0d")  # one space, on column 2's top
    assert [CautiousPlayer().stops(s) for s in (three, four, eight, top)] == [
        False,
        True,
        True,
        True,
    ]
    assert [BoldPlayer().stops(s) for s in (three, four, eight, top)] == [False, False, True, True]


#: Player 0 has won columns 2 and 3, a marker on 4's top space and one in 7 on space 5,
#: where player 1 has a square: stopping would win (R12.1), but under Variant B a marker
#: shares a space with another player's square (R14.2).
WINNING_BUT_SHARED = "2:3,3:5/7:5 4:7,7:5 0d"


@pytest.mark.parametrize("name", [name for name in PLAYERS if name != "optimal"])
def test_no_builtin_player_wants_a_stop_that_variant_b_forbids(name: str) -> None:
    """Every built-in player asks whether a stop is allowed (R14.2) before it stops."""
    make = (lambda: RandomPlayer(roll_again=0.0)) if name == "random" else PLAYERS[name]
    standard = parse_state(WINNING_BUT_SHARED)
    variant_b = parse_state(WINNING_BUT_SHARED + " B")
    assert stopping_wins(standard)
    assert not may_stop(variant_b)
    assert make().stops(standard, random.Random(1))
    assert not make().stops(variant_b, random.Random(1))


class _AlwaysStops:
    """A player of another package that wants to stop at every decision."""

    name = "always"

    def choose(self, state: State, rng: random.Random) -> Move:
        return state.legal_moves()[0]

    def stops(self, state: State, rng: random.Random) -> bool:
        return True


def test_decide_never_stops_where_the_rules_forbid_it() -> None:
    """``decide`` holds any player to R14.2: a forbidden stop becomes a roll."""
    player = _AlwaysStops()
    assert decide(player, parse_state(WINNING_BUT_SHARED), random.Random(1)) is Decision.STOP
    assert decide(player, parse_state(WINNING_BUT_SHARED + " B"), random.Random(1)) is (
        Decision.ROLL
    )


def test_the_registry_holds_the_demonstration_players() -> None:
    """The cautious and bold players are in the one registry that every command reads."""
    assert list(PLAYERS) == ["random", "greedy", "rule28", "cautious", "bold", "optimal"]
    assert (CautiousPlayer().quota, BoldPlayer().quota) == (4, 8)
