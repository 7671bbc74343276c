"""The engine of the finish-line race: configurations, action values, transitions and refusals.

Expected values are worked out by hand from the spec; each test names the rule.
"""

from __future__ import annotations

import copy
from fractions import Fraction

import pytest

from dicekit.protocol import Capability, Game
from finishline import (
    GAME,
    ROLL_OUTCOMES,
    Action,
    Cell,
    Config,
    Double,
    Event,
    IllegalAction,
    InvalidActionValue,
    InvalidConfig,
    InvalidState,
    Move,
    Phase,
    Play,
    Roll,
    Sideways,
    State,
    format_action,
    format_state,
    new_game,
    parse_action,
    parse_state,
    perft,
)
from finishline.board import board_from

FIGURE_2 = "..../..0./..../..../01../...1 0/0 0c24"


@pytest.mark.parametrize(
    ("kwargs", "rule"),
    [
        ({"players": 1}, "R11.1"),
        ({"players": 5}, "R11.1"),
        ({"players": True}, "R11.1"),
        ({"players": "2"}, "R11.1"),
        ({"counters": 0}, "R11.2"),
        ({"counters": 7}, "R11.2"),
        ({"counters": 2.0}, "R11.2"),
        ({"players": 3, "counters": False}, "R11.2"),
    ],
)
def test_config_refusals_name_the_rule(kwargs: dict[str, object], rule: str) -> None:
    """A configuration outside R11 is refused under the rule it breaks."""
    with pytest.raises(InvalidConfig) as info:
        Config(**kwargs)  # type: ignore[arg-type]
    assert info.value.rule == rule


def test_default_counters_by_player_count() -> None:
    """Six counters each for two players, five for three, four for four (R2.2)."""
    assert [Config(n).counters for n in (2, 3, 4)] == [6, 5, 4]
    assert Config(3, 5).standard
    assert not Config(3, 6).standard


@pytest.mark.parametrize(("first", "ok"), [(0, True), (1, True), (2, False), (-1, False)])
def test_new_game_checks_the_first_player(first: int, ok: bool) -> None:
    """The first player is one of the players (R2.4); the opening board is empty (R2.3)."""
    if ok:
        state = new_game(Config(), first)
        assert (state.player, state.phase, state.hand, state.across) == (
            first,
            Phase.ROLL,
            (6, 6),
            (0, 0),
        )
        assert all(owner is None for owner in state.board)
    else:
        with pytest.raises(InvalidConfig) as info:
            new_game(Config(), first)
        assert info.value.rule == "R2.4"


@pytest.mark.parametrize(
    ("make", "rule"),
    [
        (lambda: Roll((0, 3)), "R4.1"),
        (lambda: Roll((1, 2, 3)), "R4.1"),  # type: ignore[arg-type]
        (lambda: Roll((1,)), "R4.1"),  # type: ignore[arg-type]
        (lambda: Roll((True, 2)), "R4.1"),
        (lambda: Move(Cell.A1, rows=2), "N2.3"),
        (lambda: Move(Cell.A3, enter=True, rows=2), "N2.3"),
        (lambda: Move(Cell.A3, rows=0), "N2.3"),
        (lambda: Move("Z9"), "N2.3"),  # type: ignore[arg-type]
        (lambda: Play(()), "N2.3"),
        (lambda: Play((Move(Cell.A3, rows=2), Move(Cell.B2))), "N2.3"),
        (lambda: Play((Move(Cell.A3), Move(Cell.A3))), "N2.3"),
        (lambda: Play((Move(Cell.A3), Move(Cell.B3), Move(Cell.C3))), "N2.3"),
        (lambda: Sideways(Cell.A5, Cell.C5), "N2.4"),
        (lambda: Sideways(Cell.A5, Cell.A4), "N2.4"),
        (lambda: Double("x"), "N2.5"),  # type: ignore[arg-type]
    ],
)
def test_action_values_check_their_shape(make: object, rule: str) -> None:
    """An action value of the wrong shape is refused when it is made, naming the rule."""
    with pytest.raises(InvalidActionValue) as info:
        make()  # type: ignore[operator]
    assert info.value.rule == rule


def test_a_play_sorts_its_moves_and_knows_its_dice() -> None:
    """Moves are kept board first, then placements, each by cell (N2.3); dice come from rows."""
    play = Play((Move(Cell.B4, enter=True), Move(Cell.C2)))
    assert [m.text for m in play.moves] == ["C2^", "+B4"]
    assert play == Play((Move(Cell.C2), Move(Cell.B4, enter=True)))
    assert play.dice == (2, 4)
    assert Move(Cell.C6, rows=2).dice == (6, 5)
    assert Move(Cell.C5, enter=True, rows=1).dice == (5, 5)
    assert Move(Cell.A2, enter=True).rows == 0
    assert Move(Cell.A2).rows == 1


def test_the_source_opening_turns() -> None:
    """Figures 1a, 1b and 2 of the source, played as the text tells them (R5.2, R6.1)."""
    state = new_game()
    moves = ["r25", "+C2,+A5", "r65", "+B5,+D6", "r42", "C2^,+B4"]
    texts = []
    for text in moves:
        state = state.apply(parse_action(text))
        texts.append(format_state(state))
    assert texts == [
        "..../..../..../..../..../.... 0/0 0c25",
        "..../..0./..../..../0.../.... 0/0 1r",
        "..../..0./..../..../0.../.... 0/0 1c56",
        "..../..0./..../..../01../...1 0/0 0r",
        FIGURE_2,
        "..0./..../..../.0../01../...1 0/0 1r",
    ]


def test_figure_2_legal_actions() -> None:
    """With a 2 and a 4: move C2 or place in A2, B2 or D2, and place in row 4 (R6.6, R4.5)."""
    state = parse_state(FIGURE_2)
    texts = [format_action(a) for a in state.legal_actions()]
    assert len(texts) == 16
    assert texts[:4] == ["C2^,+A4", "C2^,+B4", "C2^,+C4", "C2^,+D4"]
    assert "+D2,+B4" in texts
    assert not any("D1" in t for t in texts)


@pytest.mark.parametrize(
    ("state", "action", "rule"),
    [
        ("..../..../..../..../..../.... 0/0 0r", "+A2", "R3.2"),
        ("..../..../..../..../..../.... 0/0 0r", "double:A2", "R3.2"),
        (FIGURE_2, "r11", "R3.3"),
        ("..../..../..../..../..../.1.. 6/0 0x", "r12", "R10.2"),
        ("..../..../..../..../..../.1.. 6/0 0x", "B6^", "R10.2"),
        (FIGURE_2, "+D1,+A4", "R4.2"),
        (FIGURE_2, "+A2,+B2", "R4.2"),
        (FIGURE_2, "C2^", "R4.5"),
        (FIGURE_2, "+C2,+A4", "R5.2"),
        (FIGURE_2, "B2^,+A4", "R6.1"),
        ("..0./..../..../..../..../.... 5/0 0c14", "C1^,+A4", "R5.1"),
        ("..0./..../..../.0../01../...1 0/0 1c15", "B5^,+A1", "R6.4"),
        ("..0./..../..../.0../01../...1 0/0 1c35", "B5-C5", "R7.1"),
        ("..0./..../..../.0../01../...1 0/0 1c25", "B5-A5", "R7.1"),
        ("..0./..../..../.0../01../...1 0/0 1c34", "A5-B5", "R7.1"),
        ("..../0.../1.../..../..../.... 0/0 1c56", "double:A3", "R8.3"),
        ("..../0.../1.../..../..../.... 0/0 1c22", "double:A2", "R8.3"),
        ("..../0.../1.../..../..../.... 0/0 1c66", "double:A3", "R6.4"),
        ("..../1111/..../..../..../.... 0/0 0c33", "+A3^", "R6.4"),
    ],
)
def test_refusals_name_the_rule_and_the_state(state: str, action: str, rule: str) -> None:
    """An illegal action raises IllegalAction with its rule and the state, which is unchanged."""
    before = parse_state(state)
    with pytest.raises(IllegalAction) as info:
        before.apply(parse_action(action))
    assert info.value.rule == rule
    assert info.value.state_text == state
    assert str(info.value).endswith(f"in state {state!r}")
    assert format_state(before) == state


def test_a_refusal_lists_the_legal_actions() -> None:
    """The message of a refused play names the legal actions, so that it reads on its own."""
    with pytest.raises(IllegalAction) as info:
        parse_state(FIGURE_2).apply(parse_action("C2^"))
    assert "leaves a die unused" in info.value.reason
    assert "legal: C2^,+A4 C2^,+B4" in info.value.reason
    assert "and 4 more" in info.value.reason


def test_something_that_is_no_action_is_refused() -> None:
    """A value that is none of the four actions is refused under R3.1."""
    with pytest.raises(IllegalAction) as info:
        parse_state(FIGURE_2).step("C2^")  # type: ignore[arg-type]
    assert info.value.rule == "R3.1"


def test_events_of_each_transition() -> None:
    """rolled, forfeited, played and won (R3.3, R9, R3.4, R10.1)."""
    blocked = parse_state("..../1.../0.../..../..../.... 5/0 0r")
    assert blocked.step(Roll((3, 4))).event is Event.ROLLED  # a 7: A3 may step sideways
    assert blocked.step(Roll((5, 3))).event is Event.FORFEITED
    assert parse_state(FIGURE_2).step(parse_action("C2^,+B4")).event is Event.PLAYED
    last = parse_state("0.../..../..../..../..../.... 5/0 0c16")
    step = last.step(parse_action("A1^"))
    assert step.event is Event.WON
    assert (step.state.phase, step.state.winner, step.state.player) == (Phase.OVER, 0, 0)


def test_a_forfeit_changes_nothing_but_the_turn() -> None:
    """A forfeited roll leaves board, hands and counts across alone (R9.2)."""
    before = parse_state("..../..../..../..../1111/0... 0/0/0 2r")
    after = before.apply(Roll((5, 5)))
    assert (after.board, after.hand, after.across) == (before.board, before.hand, before.across)
    assert (after.player, after.phase) == (0, Phase.ROLL)


@pytest.mark.parametrize(
    ("args", "rule"),
    [
        ((Config(), 2, Phase.ROLL), "R12.4"),
        ((Config(), 0, "roll"), "R12.4"),
        ((Config(), 0, Phase.ROLL, (1, 2)), "R12.4"),
        ((Config(), 0, Phase.CHOOSE, (1, 7)), "R4.1"),
        ((Config(), 0, Phase.CHOOSE, None), "R4.1"),
        ((Config(), 0, Phase.ROLL, None, (None,) * 23), "R12.1"),
        ((Config(), 0, Phase.ROLL, None, (2,) + (None,) * 23), "R12.1"),
        ((Config(), 0, Phase.ROLL, None, (0,) * 7 + (None,) * 17), "R12.3"),
        ((Config(), 0, Phase.ROLL, None, (None,) * 24, (6, 7)), "R12.3"),
        ((Config(), 0, Phase.ROLL, None, (None,) * 24, (0,)), "R12.3"),
        ((Config(), 0, Phase.ROLL, None, (None,) * 24, (-1, 0)), "R12.3"),
        ((Config(), 0, Phase.ROLL, None, (None,) * 24, (6, 0)), "R10.1"),
        ((Config(), 1, Phase.OVER, None, (None,) * 24, (6, 0)), "R10.1"),
        ((Config(), 0, Phase.OVER), "R10.1"),
        (
            (
                Config(counters=1),
                0,
                Phase.CHOOSE,
                (3, 5),
                (None,) * 4 + (1,) + (None,) * 3 + (0,) + (None,) * 15,
                (0, 0),
            ),
            "R9.1",
        ),
        (("config", 0, Phase.ROLL), "R11.1"),
    ],
)
def test_invalid_states_name_the_invariant(args: tuple[object, ...], rule: str) -> None:
    """The constructor refuses a state that breaks R12, naming the rule."""
    with pytest.raises(InvalidState) as info:
        State(*args)  # type: ignore[arg-type]
    assert info.value.rule == rule


def test_states_are_values() -> None:
    """Equal states are equal and hash alike; copies are the same object; dice are sorted."""
    a = State(Config(), 0, Phase.CHOOSE, (5, 2))
    b = parse_state("..../..../..../..../..../.... 0/0 0c25")
    assert a == b
    assert hash(a) == hash(b)
    assert a.dice == (2, 5)
    assert copy.copy(a) is a
    assert copy.deepcopy(a) is a
    assert State(Config(), 0, Phase.ROLL, board=board_from({Cell.C2: 0})).owner(Cell.C2) == 0


def test_perft_of_the_opening_by_hand() -> None:
    """30 two-number rolls x 16 placements, and 6 doubles x (6 pairs + 4 place-and-move)."""
    assert perft(new_game()) == (30 * 16 + 6 * (6 + 4), 0)
    with pytest.raises(IllegalAction) as info:
        perft(parse_state(FIGURE_2))
    assert info.value.rule == "R3.2"


def test_game_protocol() -> None:
    """GAME satisfies the layer's protocol, with events; chance is exact (R4.1)."""
    assert GAME.info.provides(Capability.STEPPING)
    game: Game[State, Action, Config] = GAME
    assert game.info.name == "finishline"
    assert (game.info.min_players, game.info.max_players) == (2, 4)
    assert game.info.spec_dir.joinpath("rules").is_dir()
    assert len(ROLL_OUTCOMES) == 21
    assert sum(p for _, p in ROLL_OUTCOMES) == 1
    assert dict((r.dice, p) for r, p in ROLL_OUTCOMES)[(3, 3)] == Fraction(1, 36)
    state = game.new_game(game.config(2))
    assert game.chance_outcomes(state) == ROLL_OUTCOMES
    assert game.legal_actions(state) == ()
    choosing = game.apply(state, Roll((1, 2)))
    assert game.chance_outcomes(choosing) == ()
    assert game.config_to_json(Config(3)) == {"players": 3}
    assert game.config_from_json({"players": 3}) == Config(3)
    assert GAME.step(choosing, parse_action("+A1,+A2")).event == "played"
    assert set(GAME.bots()) == {"random", "racer"}
    GAME.check(choosing)
    with pytest.raises(InvalidState):
        GAME.check("no state")  # type: ignore[arg-type]
