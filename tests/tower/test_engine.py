"""The engine: setup, transitions worked by hand, refusals with their rules, perft and GAME."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tower import (
    GAME,
    Event,
    IllegalAction,
    InvalidActionValue,
    InvalidConfig,
    InvalidState,
    Move,
    Phase,
    State,
    Throw,
    format_state,
    make_config,
    new_game,
    parse_state,
    perft,
)

#: A state on the two-colour board of the spec's embedded-board examples (N1.5).
TINY_STATE = (
    'R0,0/B0,0 - 0t {"format":"tower-board/1","name":"tiny","title":"A tiny board","fields":'
    '{"1":{"colour":"R"},"2":{"colour":"B"},"3":{},"4":{"star":true},"5":{"colour":"R"},'
    '"6":{"star":true},"7":{"colour":"B"},"8":{},"11":{"colour":"R"},"12":{"colour":"B"}},'
    '"track":[1,2,3,4,5,6,7,4,8],"colours":{"R":{"name":"red","paint":"#d1342c","way_in":[],'
    '"entry":1,"gate":9,"goal":11},"B":{"name":"blue","paint":"#2b6cc4","way_in":[],'
    '"entry":1,"gate":9,"goal":12}}}'
)


def test_opening_states() -> None:
    """Every stone at the start, the tower empty, the first player to throw (R3.1, R1.2)."""
    assert format_state(new_game(make_config())) == "R0,0/B0,0 - 0t @ours"
    assert format_state(new_game(make_config(players=3), 2)) == "R0,0/B0,0/G0,0 - 2t @ours"
    four = new_game(make_config("small", 4, ("Y", "G", "B", "R")), 1)
    assert format_state(four) == "Y0/G0/B0/R0 - 1t @small"
    assert four.config.stones == 1


@pytest.mark.parametrize(
    ("kwargs", "first", "rule"),
    [
        ({"players": 1}, 0, "R12.1"),
        ({"players": True}, 0, "R12.1"),
        ({"players": 3, "colours": ("R", "B")}, 0, "R12.2"),
        ({"colours": ("R", "r")}, 0, "R12.2"),
        ({"board": "round"}, 0, "R12.3"),
        ({}, 2, "R3.2"),
        ({}, -1, "R3.2"),
        ({}, True, "R3.2"),
    ],
)
def test_setups_refused(kwargs: dict[str, object], first: object, rule: str) -> None:
    """A configuration or first player the rules do not allow names its rule (R12, R3.2)."""
    with pytest.raises(InvalidConfig) as caught:
        new_game(make_config(**kwargs), first)  # type: ignore[arg-type]
    assert caught.value.rule == rule


def test_a_board_with_too_few_colours_for_the_players() -> None:
    """Five players never fit, and four need four colours (R12.3 before R12.2)."""
    two = parse_state(TINY_STATE).config.board
    with pytest.raises(InvalidConfig) as caught:
        make_config(two, 3)
    assert caught.value.rule == "R12.3"
    assert make_config(two, 2).colours == ("R", "B")


def test_new_game_needs_a_config() -> None:
    """new_game refuses anything but a Config (R12.3)."""
    with pytest.raises(InvalidConfig):
        new_game("ours")  # type: ignore[arg-type]


def test_action_values() -> None:
    """Dice and points outside 1 to 6 cannot be built (N2.2, N2.3)."""
    for dice, rule in (((0, 3), "N2.2"), ((3,), "N2.2"), ((True, 3), "N2.2")):
        with pytest.raises(InvalidActionValue) as caught:
            Throw(dice)  # type: ignore[arg-type]
        assert caught.value.rule == rule
    for step, points in ((-1, 3), (3, 7), (1000, 1), (3, 0)):
        with pytest.raises(InvalidActionValue) as caught:
            Move(step, points)
        assert caught.value.rule == "N2.3"
    assert isinstance(Move(0, 1), Move)


def test_an_illegal_action_names_rule_state_and_action() -> None:
    """IllegalAction carries the rule, the state text and the action, and the state is unchanged."""
    text = "R0,12/B0,0 - 0c35 @ours"
    state = parse_state(text)
    with pytest.raises(IllegalAction) as caught:
        state.apply(Move(12, 3))
    error = caught.value
    assert (error.rule, error.state_text, error.action) == ("R5.3", text, Move(12, 3))
    assert str(error).endswith(f"in state {text!r}")
    assert "legal: 0+3, 0+5" in error.reason
    assert format_state(state) == text


@pytest.mark.parametrize(
    ("text", "action", "rule"),
    [
        ("R0,0/B0,0 - 0t @ours", Move(0, 3), "R3.4"),
        ("R0,0/B0,0 - 0c35 @ours", Throw((1, 2)), "R3.4"),
        ("Rg,g/B0,0 - 0x @ours", Throw((1, 2)), "R11.2"),
        ("Rg,g/B0,0 - 0x @ours", Move(0, 1), "R11.2"),
        ("R0,0/B0,0 - 0c35 @ours", Move(4, 3), "R5.2"),
        ("R12/B0,0 R 0c35 @ours", Move(0, 3), "R5.2"),
        ("R12,g/B0,0 - 0c35 @ours", Move(33, 3), "R5.2"),
        ("R0,0/B0,0 - 0c35 @ours", Move(0, 4), "R4.2"),
        ("R12,32/B0,0 - 0c34 @ours", Move(32, 3), "R10.2"),
        ("R5,9/B0,0 - 0c44 @ours", Move(5, 4), "R5.4"),
        ("R8,20/B0,10 - 0c35 @ours", Move(8, 5), "R9.1"),
        ("R8,20/B0,10 - 0c35 @ours", Move(20, 5), "R9.1"),
        ("R0,12/B0,0 - 0c35 @ours", Move(12, 5), "R5.3"),
        ("R0,8/B0,0 - 0c35 @ours", Move(8, 3), "R5.3"),  # passes the crossing, which is empty
    ],
)
def test_refusals(text: str, action: Throw | Move, rule: str) -> None:
    """Each illegal action is refused under the first rule of R5.5's order that it breaks."""
    with pytest.raises(IllegalAction) as caught:
        parse_state(text).apply(action)
    assert caught.value.rule == rule, caught.value


def test_step_refuses_what_is_not_an_action() -> None:
    """Only a Throw or a Move is an action (R3.4)."""
    with pytest.raises(IllegalAction) as caught:
        new_game(make_config()).step("t12")  # type: ignore[arg-type]
    assert caught.value.rule == "R3.4"


def test_a_capture_on_the_second_pass_of_another_colours_route() -> None:
    """On the small board red's step 8 and yellow's step 4 are both the crossing (R7.1, R2.6)."""
    state = parse_state("R7,g/Y0,4 - 0c11 @small")
    step = state.step(Move(7, 1))
    assert format_state(step.state) == "R8,g/Y0 Y 1t @small"
    assert step.event is Event.MOVED


def test_a_double_six_frees_the_stone_and_takes_it_to_the_sixth_field() -> None:
    """A six frees red's stone to the start, and the six takes it to the star on step 6 (R8.3)."""
    state = parse_state("R12/B0,7 R 0t @ours")
    chosen = state.apply(Throw((6, 6)))
    assert format_state(chosen) == "R0,12/B0,7 - 0c66 @ours"
    assert format_state(chosen.apply(Move(0, 6))) == "R6,12/B0,7 - 1t @ours"


def test_throws_in_either_order_give_one_state() -> None:
    """A throw keeps its order, the state does not (R4.1)."""
    state = new_game(make_config())
    assert state.apply(Throw((5, 2))) == state.apply(Throw((2, 5)))


def test_perft_counts_by_hand_and_refuses_other_phases() -> None:
    """Whole-throw counts worked by hand; only a state about to throw has them."""
    assert perft(new_game(make_config())) == (66, 0)
    # Red's only stone is in the tower, four players: the 11 throws with a six free it, and
    # offer 0+6 and the other die (0+5 captures blue), one move for the double six.
    assert perft(parse_state("R-/B5/G0/Y0 R 0t @ours")) == (21, 25)
    with pytest.raises(IllegalAction):
        perft(parse_state("R0,0/B0,0 - 0c35 @ours"))


def test_states_are_values() -> None:
    """States compare and hash by their fields; copies are the same state."""
    import copy

    a = parse_state("R3,9/B0,0 - 0c34 @ours")
    b = parse_state("R3,9/B0,0 - 0c34 @ours")
    assert a == b
    assert hash(a) == hash(b)
    assert copy.copy(a) is a
    assert copy.deepcopy(a) is a
    assert repr(a) == "State('R3,9/B0,0 - 0c34 @ours')"


def test_the_constructor_checks_the_invariants() -> None:
    """Building a state by hand runs the checks of R13."""
    config = make_config()
    cases = [
        (0, Phase.THROW, None, ((0,), (0, 0)), None, "R13.1"),
        (0, Phase.THROW, None, ((0, 34), (0, 0)), None, "R13.2"),
        (0, Phase.THROW, None, ((0, 0), (0, 0)), 2, "R13.3"),
        (0, Phase.THROW, None, ((0, 5), (0, 5)), None, "R7.4"),
        (0, Phase.THROW, (1, 2), ((0, 0), (0, 0)), None, "R13.5"),
        (0, Phase.CHOOSE, None, ((0, 0), (0, 0)), None, "R13.5"),
        (2, Phase.THROW, None, ((0, 0), (0, 0)), None, "R13.5"),
        (0, Phase.THROW, None, ((0, -1), (0, 0)), None, "R13.2"),
        (0, "throw", None, ((0, 0), (0, 0)), None, "R13.5"),
    ]
    for player, phase, dice, stones, tower, rule in cases:
        with pytest.raises(InvalidState) as caught:
            State(config, player, phase, dice, stones, tower)  # type: ignore[arg-type]
        assert caught.value.rule == rule, (stones, caught.value)
    unsorted = State(config, 0, Phase.CHOOSE, (5, 3), ((12, 0), (0, 0)), None)
    assert format_state(unsorted) == "R0,12/B0,0 - 0c35 @ours"


def test_the_game_object() -> None:
    """GAME hands every question to the engine, and its chance outcomes are exact."""
    info = GAME.info
    assert (info.name, info.title, info.min_players, info.max_players) == (
        "tower",
        "Off to the Tower",
        2,
        4,
    )
    assert (info.spec_dir / "rules").is_dir()
    config = GAME.config(3)
    assert GAME.config_to_json(config) == {"players": 3}
    assert GAME.config_from_json({"players": 3}) == config
    state = GAME.new_game(config, 1)
    outcomes = GAME.chance_outcomes(state)
    assert sum(p for _, p in outcomes) == Fraction(1)
    assert {GAME.format_action(a): p for a, p in outcomes}["t16"] == Fraction(2, 36)
    assert GAME.legal_actions(state) == ()
    state = GAME.apply(state, Throw((4, 4)))
    assert GAME.chance_outcomes(state) == ()
    assert [GAME.format_action(a) for a in GAME.legal_actions(state)] == ["0+4"]
    assert (GAME.player(state), GAME.is_over(state), GAME.winner(state)) == (1, False, None)
    GAME.check(state)
    assert GAME.parse_state(GAME.format_state(state)) == state
    assert GAME.state_from_json(GAME.state_to_json(state)) == state
    assert GAME.action_from_json(GAME.action_to_json(Move(0, 4))) == Move(0, 4)
    assert GAME.parse_action("0+4") == Move(0, 4)
    assert GAME.state_svg(state).startswith("<svg")
    assert set(GAME.bots()) == {"random", "runner"}
    over = parse_state("Rg,g/B0,0 - 0x @ours")
    assert (GAME.is_over(over), GAME.winner(over), GAME.chance_outcomes(over)) == (True, 0, ())
