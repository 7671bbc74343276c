"""``explain`` and ``odds`` for every game, from the layer, on the command line and at the prompt.

The expected odds are counted by hand from the rules, over the 36 ordered
throws of two dice, in each test's docstring; the expected verdicts and
rules are read from the games' specs.
"""

from __future__ import annotations

import io
import json
from fractions import Fraction
from pathlib import Path

import pytest

import finishline
import tower
from cantstop.cli import main
from dicekit.errors import IllegalAction
from dicekit.explain import explain
from dicekit.odds import NoThrow, after_each, throw_odds
from dicekit.protocol import Capability, capable

#: Player 0 has five counters across and the sixth on A1, which nothing blocks.
LAST_ON_A1 = "0.../..../..../..../..../.... 5/0 0r"
#: Player 0 has five across and the sixth on A3, under player 1's counter on A2.
BLOCKED_ON_A3 = "..../1.../0.../..../..../.... 5/0 0r"
#: Red has a stone on field 5 and one at the start; blue, both at the start, is to throw.
RED_ON_5 = "R0,5/B0,0 - 1t @ours"
#: Red threw 3 and 5 with a stone at the start and one on field 3.
RED_THREW_35 = "R0,3/B0,0 - 0c35 @ours"


def _odds(game: object, text: str) -> dict[str, Fraction]:
    state = game.parse_state(text)  # type: ignore[attr-defined]
    return {k.kind.name: k.chance for k in throw_odds(game, state).kinds}


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = main(argv)
    out, err = capsys.readouterr()
    return status, out, err


def test_the_two_newer_games_declare_their_outcome_kinds_as_data() -> None:
    """The odds find a game's kinds through its declared capability, not by probing."""
    for game in (finishline.GAME, tower.GAME):
        assert Capability.OUTCOMES in game.info.capabilities
        assert capable(game, Capability.OUTCOMES) is not None
    assert [k.name for k in finishline.GAME.outcome_kinds] == ["forfeit", "crossing", "win"]
    assert [k.name for k in tower.GAME.outcome_kinds] == ["forfeit", "capture", "again", "win"]


def test_the_race_last_counter_on_row_1_wins_on_four_throws_in_nine() -> None:
    """A counter in row 1 crosses with a die of 1 (R6.5) or a double advance (R8.3).

    Throws with a 1: 11 of 36; doubles without a 1 (2-2 to 6-6): 5 more, so
    16/36 = 4/9 cross, and crossing the last counter wins (R10.1).  Nothing
    is in hand, so the other throws are forfeited (R9.1) but for a total of
    7 without a 1 (2-5, 5-2, 3-4, 4-3), which offers the sideways step to
    B1 (R7.1): 36 - 16 - 4 = 16 throws, 4/9 again.
    """
    assert _odds(finishline.GAME, LAST_ON_A1) == {
        "forfeit": Fraction(4, 9),
        "crossing": Fraction(4, 9),
        "win": Fraction(4, 9),
    }


def test_the_race_blocked_counter_moves_only_sideways_on_a_seven() -> None:
    """The counter on A3 cannot go forward (R6.4) or take a double advance (R8.3): A2 is held.

    Only a total of 7 (1-6, 2-5, 3-4 either way: 6 of 36) offers an action,
    the step to B3 (R7.1); the other 30 throws forfeit, 5/6.
    """
    assert _odds(finishline.GAME, BLOCKED_ON_A3) == {
        "forfeit": Fraction(5, 6),
        "crossing": Fraction(0),
        "win": Fraction(0),
    }


def test_the_tower_blue_captures_with_a_five_and_throws_again_with_a_two() -> None:
    """On the board ``ours`` every route is the track from field 1 (R2.7).

    Blue must move a stone from the start (R5.3): a die of d takes it to
    field d.  Red stands on 5, so a 5 captures (R7.1): 11 of 36 throws show
    one.  Field 2 is blue, so a 2 gives a throw again (R6.1): 11/36 too.  Every
    throw has a legal move, so none is forfeited, and nobody can win yet.
    """
    assert _odds(tower.GAME, RED_ON_5) == {
        "forfeit": Fraction(0),
        "capture": Fraction(11, 36),
        "again": Fraction(11, 36),
        "win": Fraction(0),
    }


def test_odds_refuse_a_state_that_is_not_about_to_throw() -> None:
    """Red must move first: the refusal names the rules that decide its choice."""
    with pytest.raises(NoThrow) as refused:
        throw_odds(tower.GAME, tower.GAME.parse_state(RED_THREW_35))
    assert refused.value.rule == "R4.2, R5.3, R5.4"
    assert RED_THREW_35 in str(refused.value)


def test_explain_refuses_a_move_onto_the_own_stone_under_r5_4() -> None:
    """0+3 lands on red's own stone on 3 (R5.4); 3+5 moves a track stone first (R5.3).

    Only 0+5 is left: the stone goes from the start to field 5, a plain field,
    so the turn passes to blue.
    """
    game = tower.GAME
    state = game.parse_state(RED_THREW_35)
    found = explain(game, state, game.parse_action("0+3"))
    assert found.legal is False
    assert found.refusal is not None
    assert found.refusal[1] == "R5.4"
    lines = found.text().splitlines()
    assert lines[0] == "Player 0 has one legal action."
    assert lines[1].startswith("0+3 is not legal: ")
    assert lines[1].endswith("(R5.4)")
    assert "The legal action: 0+5. (R4.2, R5.3, R5.4)" in lines
    # rule by rule, each with its title from the spec
    assert any(line.startswith("  R5.4 Own stones never share a field: ") for line in lines)
    assert any(line.startswith("  R5.3 Stones at the start move first: ") for line in lines)
    legal = explain(game, state, game.parse_action("0+5"))
    assert legal.legal is True
    assert "  After it: R3,5/B0,0 - 1t @ours" in legal.text().splitlines()
    assert legal.text().splitlines()[1].startswith("0+5 is legal: moved.")


def test_explain_agrees_with_the_engine_on_every_action_it_names() -> None:
    """Each action explained legal is applied by the engine; each refused one is refused by it."""
    game = finishline.GAME
    state = game.parse_state("..../..../..../..../0.../0... 0/0 0c56")
    for text in ("A5^,A6^", "+A4", "double:A5", "A5-B5"):
        action = game.parse_action(text)
        found = explain(game, state, action)
        if action in game.legal_actions(state):
            assert found.legal is True
            assert found.refusal is None
        else:
            with pytest.raises(IllegalAction) as refused:
                game.apply(state, action)
            assert found.refusal == (refused.value.reason, refused.value.rule)


def test_explain_lists_the_21_throws_with_chances_that_sum_to_one() -> None:
    """A roll is 21 distinct throws: 6 doubles at 1/36 and 15 pairs at 1/18."""
    game = finishline.GAME
    found = explain(game, game.new_game(game.config(2)))
    throws = [s for s in found.statements if s.kind == "throw"]
    chances = [Fraction(s.text.split("(")[1].split(")")[0]) for s in throws]
    assert len(throws) == 21
    assert sum(chances) == 1
    assert sorted(set(chances)) == [Fraction(1, 36), Fraction(1, 18)]
    assert found.statements[0].text == "Player 0 is to throw the dice."


def test_after_each_choice_the_odds_of_the_throw_that_follows() -> None:
    """After red's 0+5, red stands on 3 and 5, and blue throws from the start.

    A die of 3 or 5 captures: 1 - (4/6)**2 = 20/36 = 5/9 of the throws; a 2
    lands on blue's own field: 11/36.
    """
    game = tower.GAME
    assert after_each(game, game.parse_state(RED_THREW_35)) == [
        "0+5: then player 1 throws: forfeit 0, capture 5/9, again 11/36, win 0"
    ]


@pytest.mark.parametrize(
    ("name", "state", "action", "rule"),
    [
        ("tower", RED_THREW_35, "0+3", "R5.4"),
        ("tower", RED_THREW_35, "3+5", "R5.3"),
        ("finishline", "..../..../..../..../0.../0... 0/0 0c56", "+A4", "R4.2"),
        ("finishline", "..../..../..../..../..../.... 0/0 0r", "+A4", "R3.2"),
    ],
)
def test_explain_command_exits_1_with_one_line_naming_the_rule(
    name: str, state: str, action: str, rule: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """An illegal action is explained on stdout and refused in one line on stderr."""
    status, out, err = _run(["explain", "--game", name, state, action], capsys)
    assert status == 1
    assert out.startswith("Player 0 ")
    assert err.count("\n") == 1
    assert err.startswith(f"cantstop explain: error: {action} is not legal: ")
    assert err.endswith(f"(rule {rule})\n")


@pytest.mark.parametrize(
    ("argv", "status", "rule"),
    [
        (["explain", "--game", "tower", "R0,0/B0,0,0 - 0t @ours"], 1, "R13.1"),
        (
            ["explain", "--game", "finishline", "..../..../..../..../..../.... 0/0 0r", "zz"],
            1,
            "N2.1",
        ),
        (["odds", "--game", "tower", "R0,0/B0,0 - 0x @ours"], 1, "R11.1"),
        (["odds", "--game", "tower", RED_THREW_35], 1, "R4.2, R5.3, R5.4"),
    ],
)
def test_bad_states_and_actions_are_one_line_naming_the_rule(
    argv: list[str], status: int, rule: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Bad notation and a state not about to throw: the exit status and one line, with the rule."""
    code, out, err = _run(argv, capsys)
    assert (code, out) == (status, "")
    assert err.startswith(f"cantstop {argv[0]}: error: ")
    assert err.count("\n") == 1
    assert f"(rule {rule})" in err


def test_odds_command_prints_each_kind_exactly(capsys: pytest.CaptureFixture[str]) -> None:
    """The command writes the fractions of the tests above, with their rules."""
    status, out, err = _run(["odds", "--game", "tower", RED_ON_5], capsys)
    assert (status, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == "the next throw of player 1 (21 outcomes):"
    assert lines[2].split()[:3] == ["capture", "11/36", "30.56%"]
    assert lines[2].endswith("(R7.1)")
    status, _, err = _run(["odds", "--game", "tower", "--table"], capsys)
    assert status == 2
    assert "--table is Can't Stop's" in err


def test_explain_json_holds_the_statements_of_the_text(capsys: pytest.CaptureFixture[str]) -> None:
    """--json gives the same statements as the text, in the layer's format."""
    argv = ["explain", "--game", "tower", RED_THREW_35, "0+5"]
    _, text, _ = _run(argv, capsys)
    _, out, _ = _run([*argv, "--json"], capsys)
    data = json.loads(out)
    assert data["format"] == "dicekit-explain/1"
    assert data["legal"] is True
    assert next(s["text"] for s in data["statements"]) == text.splitlines()[0]


@pytest.mark.parametrize(
    "argv",
    [
        ["explain", "7:2/- - 0c3455"],
        ["explain", "7:2/- - 0c3455", "7"],
        ["odds", "-/- 6:1,7:1,8:1 0d"],
        ["odds", "7:2/- - 0c3455"],
    ],
)
def test_cant_stop_is_what_it_was_with_or_without_game(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    """--game cantstop is Can't Stop's own command: the same output, errors and status."""
    plain = _run(argv, capsys)
    named = _run([argv[0], "--game", "cantstop", *argv[1:]], capsys)
    assert plain == named


def test_play_question_mark_and_odds_at_the_prompt(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """At the Tower's first choice ``?`` explains the position and ``odds`` gives each choice's.

    Seed 3 throws 5 and 6 for red, so red may move a stone from the start to
    field 5 (plain) or 6 (a star): 0+5 or 0+6.  Either way blue then throws
    with both stones at the start: a die equal to red's field captures
    (11/36) and a 2 lands on blue's field 2 (11/36), as in RED_ON_5.
    """
    monkeypatch.setattr("sys.stdin", io.StringIO("?\nodds\nq\n"))
    argv = ["play", "--game", "tower", "--players", "human,runner", "--seed", "3"]
    status, out, _ = _run([*argv, "--record", str(tmp_path / "game.jsonl")], capsys)
    assert status == 0
    assert "  The legal actions: 0+5 0+6. (R4.2)" in out
    assert "  The rules cited, one by one:" in out
    for move in ("0+5", "0+6"):
        assert (
            f"  {move}: then player 1 throws: forfeit 0, capture 11/36, again 11/36, win 0" in out
        )
    assert "is not a choice" not in out


def test_play_odds_in_the_race(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """In the race, after the first play player 1 rolls with nothing on row 1 for them.

    Player 1 has every counter in hand and none on the board, so any roll
    places (R5): no forfeit; a crossing needs a counter in row 1, which only
    a double 1 gives (placed and moved on, R8.2): 1/36.
    """
    monkeypatch.setattr("sys.stdin", io.StringIO("odds\nq\n"))
    argv = ["play", "--game", "finishline", "--players", "human,racer", "--seed", "2"]
    status, out, _ = _run([*argv, "--record", str(tmp_path / "game.jsonl")], capsys)
    assert status == 0
    odds = [line for line in out.splitlines() if ": then player 1 throws: " in line]
    assert odds
    assert all(line.endswith("throws: forfeit 0, crossing 1/36, win 0") for line in odds)


def test_a_game_without_outcome_kinds_gets_one_kind_per_event() -> None:
    """The toy game (a die, a hold, a target of 10) names no kinds: its events stand for them.

    Player 0 has 4 points in the turn and may hold or roll.  A 1 busts
    (1/6); any other face is rolled (5/6).  After a 2 to 5 the hold is a
    plain hold (4/6 = 2/3); after a 6 it banks 4 + 6 = 10, the target, and
    wins (1/6).  The explanation offers the hold and the throw alike.
    """
    from tests.dicekit.toy import Toy

    game = Toy()
    state = game.parse_state("0,0/4/0d")
    assert _odds(game, "0,0/4/0d") == {
        "rolled": Fraction(5, 6),
        "busted": Fraction(1, 6),
        "held": Fraction(2, 3),
        "won": Fraction(1, 6),
    }
    found = explain(game, state)
    assert found.statements[0].text == "Player 0 may take the one legal action, or throw the dice."
    assert next(s.text for s in found.statements if s.kind == "throw") == "r1 (1/6): busted"
