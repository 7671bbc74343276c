"""Exact odds (cantstop.odds) against brute force over the 1296 rolls, done here by hand.

The brute force uses the independent implementation (tests/independent.py) for
legal moves and transitions, and writes the three pairings of a roll out
again, so no expected value comes from the code under test.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from cantstop import IllegalAction, Rules, Variant, new_game, parse_state
from cantstop.odds import (
    bust_probability,
    column_chances,
    expected_gain,
    single_column_chances,
    three_column_table,
)
from tests.independent import ALL_ROLLS, legal_moves, move_result, read_state, won_columns

#: Positions about to roll, in notation: openings, markers, won columns, variants.
STATES = [
    "-/- - 0r",
    "-/- 6:1,7:1,8:1 0d",
    "-/- 2:1,3:1,12:1 0d",
    "-/- 7:2 0d",
    "7:12/- 7:13,8:1 0d",
    "2:3,3:5/4:7 5:2 1d",
    "2:3/3:5/4:7 5:2 2d",
    "6:9/7:12 6:10,7:12 0d",
    "-/7:4 7:3,9:2 0d A",
    "-/7:5,8:2 7:3 0d A",
    "7:2/- 7:3 0d B",
    "-/- 5:1,7:2 0d h5:2,6:1,7:3,8:2,9:1 w2",
    "5:1/8:1 - 1r h5:2,6:1,7:3,8:2,9:1 w2",
    "-/-/-/- 2:1,7:2,12:1 3d",
]


def _sums(roll: tuple[int, ...]) -> set[int]:
    """Every sum some pairing of the roll makes, the pairings written out by hand."""
    a, b, c, d = roll
    return {a + b, c + d, a + c, b + d, a + d, b + c}


def test_some_pairing_makes_7_in_834_of_1296_rolls() -> None:
    assert sum(1 for r in ALL_ROLLS if 7 in _sums(r)) == 834
    assert single_column_chances()[7] == Fraction(834, 1296)


def test_single_column_chances_by_brute_force() -> None:
    chances = single_column_chances()
    assert sorted(chances) == list(range(2, 13))
    for column, chance in chances.items():
        assert chance == Fraction(sum(1 for r in ALL_ROLLS if column in _sums(r)), 1296)
    # Symmetry: sum s on dice d is sum 14 - s on dice 7 - d.
    for column in range(2, 13):
        assert chances[column] == chances[14 - column]
    # A 2 needs two 1s among the four dice: 1296 - 5**4 - 4 * 5**3 = 171 rolls.
    assert chances[2] == Fraction(171, 1296)


def test_three_column_table_has_165_triples() -> None:
    table = three_column_table()
    assert len(table) == 165 == len(list(itertools.combinations(range(2, 13), 3)))
    assert all(a < b < c for a, b, c in table)


def test_three_column_table_by_brute_force() -> None:
    for (a, b, c), chance in three_column_table().items():
        hits = sum(1 for r in ALL_ROLLS if _sums(r) & {a, b, c})
        assert chance == Fraction(hits, 1296), (a, b, c)


def test_three_column_table_published_values() -> None:
    table = three_column_table()
    # The often quoted figures: 6-7-8 is 92%, 2-3-12 is 44%, 4-7-10 is 88%, 2-3-4 is 52%.
    assert table[(6, 7, 8)] == Fraction(1192, 1296)
    assert round(float(table[(2, 3, 12)]), 2) == 0.44
    assert round(float(table[(4, 7, 10)]), 2) == 0.88
    assert round(float(table[(2, 3, 4)]), 2) == 0.52
    assert max(table.values()) == table[(6, 7, 8)]


def test_three_column_table_custom_board() -> None:
    table = three_column_table({5: 2, 6: 1, 7: 3, 8: 2})
    assert sorted(table) == [(5, 6, 7), (5, 6, 8), (5, 7, 8), (6, 7, 8)]
    assert table[(6, 7, 8)] == Fraction(1192, 1296)


def _brute(text: str) -> tuple[int, dict[int, int], int]:
    """Busting rolls, rolls that can advance each open column, and total best gain."""
    pos = read_state(text)
    won = won_columns(pos)
    busts = 0
    advance = {c: 0 for c in pos.board if c not in won}
    gain = 0
    for roll in ALL_ROLLS:
        moves = legal_moves(pos, roll)
        if not moves:
            busts += 1
            continue
        for column in {c for m in moves for c in m}:
            advance[column] += 1
        choosing = read_state(text)
        choosing.phase = "c"
        choosing.dice = sorted(roll)
        best = 0
        for move in moves:
            after = read_state(move_result(choosing, move))
            own = pos.squares[pos.player]
            climbed = sum(
                space - pos.markers.get(c, own.get(c, 0)) for c, space in after.markers.items()
            )
            best = max(best, climbed)
        gain += best
    return busts, advance, gain


@pytest.mark.parametrize("text", STATES)
def test_odds_agree_with_brute_force(text: str) -> None:
    state = parse_state(text)
    busts, advance, gain = _brute(text)
    assert bust_probability(state) == Fraction(busts, 1296)
    assert column_chances(state) == {c: Fraction(n, 1296) for c, n in advance.items()}
    assert expected_gain(state) == Fraction(gain, 1296)


def test_bust_probability_of_three_markers_is_one_minus_the_table() -> None:
    table = three_column_table()
    for a, b, c in [(2, 3, 12), (6, 7, 8), (4, 7, 10), (2, 7, 12)]:
        state = parse_state(f"-/- {a}:1,{b}:1,{c}:1 0d")
        assert bust_probability(state) == 1 - table[(a, b, c)]


def test_hand_checked_values() -> None:
    # No marker placed and nothing won: every roll can be played.
    assert bust_probability(new_game()) == 0
    # From the opening, every roll plays two sums (two free markers, all open).
    assert expected_gain(new_game()) == 2
    # One marker at the top of 7, nothing else placed: only a roll of four
    # equal dice in pairs that all make 7... none exists, so no roll busts.
    assert bust_probability(parse_state("-/- 7:13 0d")) == 0
    # Variant A: the marker in 7 skips player 1's square on space 4.
    state = parse_state("-/7:4 7:3,9:2,10:1 0d A")
    assert column_chances(state)[7] == single_column_chances()[7]


def test_odds_of_a_one_column_board() -> None:
    # Only column 7 exists: busting is failing to make 7.
    rules_text = "-/- 7:1 0d h7:3 w1"
    assert bust_probability(parse_state(rules_text)) == 1 - Fraction(834, 1296)
    assert new_game(Rules(players=1, columns_to_win=1, heights={7: 3})).rules.columns == (7,)


@pytest.mark.parametrize("text", ["-/- - 0c3455", "2:3,3:5,4:7/- - 0x"])
def test_odds_need_a_state_about_to_roll(text: str) -> None:
    state = parse_state(text)
    for odds in (bust_probability, column_chances, expected_gain):
        with pytest.raises(IllegalAction, match="about to roll") as caught:
            odds(state)
        assert caught.value.rule == "R3.3"


def test_odds_are_fractions_under_every_variant() -> None:
    for variant in (None, Variant.A, Variant.B):
        state = new_game(Rules(players=3, variant=variant))
        assert isinstance(bust_probability(state), Fraction)
        assert all(isinstance(v, Fraction) for v in column_chances(state).values())


def test_odds_command(capsys: pytest.CaptureFixture[str]) -> None:
    from cantstop.cli import main

    assert main(["odds", "-/- 6:1,7:1,8:1 0d"]) == 0
    out = capsys.readouterr().out
    # 1296 - 1192 = 104 busting rolls = 13/162.
    assert "bust on the next roll: 13/162 (8.02%)" in out
    assert "   7    139/216" in out
    assert main(["odds", "--table"]) == 0
    table = capsys.readouterr().out.splitlines()
    assert len(table) == 4 + 165  # a header of four lines, then a row per triple
    assert " 6  7  8  1192/1296" in table[[t[:8] for t in table].index(" 6  7  8")]


def test_odds_command_errors(capsys: pytest.CaptureFixture[str]) -> None:
    from cantstop.cli import main

    assert main(["odds"]) == 2
    assert "give a state in notation, or --table" in capsys.readouterr().err
    assert main(["odds", "-/- - 0c3455"]) == 1
    err = capsys.readouterr().err
    assert "needs a state that is about to roll (rule R3.3)" in err
    assert main(["odds", "-/- 7:0 0d"]) == 1
    assert "Traceback" not in capsys.readouterr().err
