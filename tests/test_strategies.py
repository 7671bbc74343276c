"""The strategies of cantstop.strategies produce what their documentation promises."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from typing import Any, TypeVar

import pytest
from hypothesis import HealthCheck, find, given, settings
from hypothesis import Phase as Stage
from hypothesis import strategies as st

from cantstop import (
    STANDARD_HEIGHTS,
    IllegalAction,
    Move,
    Phase,
    Roll,
    Rules,
    State,
    Stop,
    Variant,
    parse_state,
)
from cantstop.strategies import (
    actions,
    heights,
    illegal_actions,
    invalid_dice,
    legal_actions,
    moves,
    reachable_states,
    rolls,
    rules,
    valid_states,
)

T = TypeVar("T")

#: Settings for searches that must succeed: deterministic, generous, and without shrinking.
search = settings(
    max_examples=2000,
    database=None,
    derandomize=True,
    phases=[Stage.generate],
    suppress_health_check=list(HealthCheck),
)


def exists(strategy: st.SearchStrategy[T], condition: Callable[[T], bool]) -> T:
    """Return an example meeting ``condition``; fail if the strategy never draws one."""
    return find(strategy, condition, settings=search)


# -- importing ------------------------------------------------------------------------


def test_importing_cantstop_does_not_import_hypothesis() -> None:
    """The engine has no test dependency: only cantstop.strategies needs Hypothesis."""
    code = "import sys, cantstop, cantstop.cli; print('hypothesis' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_strategies_without_hypothesis_say_what_to_install() -> None:
    """Without Hypothesis, importing cantstop.strategies says how to install it from the clone.

    The package is not on an index, so ``pip install 'cantstop[test]'`` would fail.
    """
    code = (
        "import sys; sys.modules['hypothesis'] = None\n"
        "try:\n    import cantstop.strategies\n"
        "except ImportError as e:\n    print(e)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "python3 -m pip install -e '.[test]'" in out.stdout
    assert "cantstop[test]" not in out.stdout


@pytest.mark.parametrize(
    "module",
    ["cantstop.strategies", "dicekit.strategies", "finishline.strategies", "tower.strategies"],
)
def test_strategy_examples_show_no_drawn_value(module: str) -> None:
    """No example in a strategies module prints what a search or a draw happens to return.

    Such an output depends on the random draws, the shrinker and any example
    saved in ``.hypothesis/``; a search may also run for a long time, or find
    nothing, on an unlucky draw.  The examples are property tests that hold for
    every draw instead.
    """
    import doctest
    import importlib

    examples = [
        example
        for test in doctest.DocTestFinder().find(importlib.import_module(module))
        for example in test.examples
    ]
    assert examples, f"{module} shows no example"
    for example in examples:
        assert "find(" not in example.source, example.source
        assert ".example(" not in example.source, example.source


# -- rules and actions --------------------------------------------------------------------


@given(rules())
def test_rules_are_valid_configurations(r: Rules) -> None:
    """Every drawn configuration meets R15: it rebuilds without error."""
    again = Rules(r.players, r.columns_to_win, dict(r.heights), r.variant)
    assert again == r
    assert 1 <= r.players <= 4


@pytest.mark.parametrize(
    "condition",
    [pytest.param(lambda r, n=n: r.players == n, id=f"{n}-players") for n in (1, 2, 3, 4)]
    + [
        pytest.param(lambda r: r.variant is Variant.A, id="variant-A"),
        pytest.param(lambda r: r.variant is Variant.B, id="variant-B"),
        pytest.param(lambda r: r.heights != STANDARD_HEIGHTS, id="custom-heights"),
        pytest.param(lambda r: r.columns_to_win > 3, id="long-game"),
        pytest.param(
            lambda r: r.players * (r.columns_to_win - 1) == len(r.heights) - 1, id="R15.4-limit"
        ),
    ],
)
def test_rules_cover_every_kind_of_configuration(condition: Callable[[Rules], bool]) -> None:
    """rules() reaches 1-4 players, both variants, custom boards and the R15.4 limit."""
    assert condition(exists(rules(), condition))


@given(rules(players=3, variants=[Variant.B], boards=st.just(STANDARD_HEIGHTS)))
def test_rules_obey_their_arguments(r: Rules) -> None:
    """rules(players=..., variants=..., boards=...) keeps to what was asked."""
    assert (r.players, r.variant, r.heights) == (3, Variant.B, STANDARD_HEIGHTS)


@given(heights(max_height=4))
def test_heights_are_boards(board: dict[int, int]) -> None:
    """heights() draws columns 2..12 with 1 to max_height spaces (R15.3)."""
    assert board
    assert all(2 <= c <= 12 and 1 <= h <= 4 for c, h in board.items())


def test_rolls_moves_and_actions_reach_every_form() -> None:
    """rolls() reaches every die face; moves() single and double sums; actions() all three."""
    for face in range(1, 7):
        exists(rolls(), lambda roll, f=face: f in roll.dice)  # type: ignore[misc]
    exists(moves(), lambda m: m.columns == (12,))
    exists(moves(), lambda m: m.columns == (2, 12))
    for kind in (Roll, Move, Stop):
        exists(actions(), lambda a, k=kind: isinstance(a, k))  # type: ignore[misc]


# -- states ----------------------------------------------------------------------------


def _has_top_marker(s: State) -> bool:
    return any(space == s.rules.heights[c] for c, space in s.markers.items())


def _shares_space(s: State) -> bool:
    return any(
        theirs.get(c) == space
        for c, space in s.markers.items()
        for p, theirs in enumerate(s.squares)
        if p != s.player
    )


STATE_FEATURES: list[tuple[str, Callable[[State], bool]]] = [
    *[(f"phase-{p.name}", lambda s, p=p: s.phase is p) for p in Phase],
    *[(f"{n}-players", lambda s, n=n: s.rules.players == n) for n in (1, 2, 3, 4)],
    ("won-column", lambda s: bool(s.won) and s.phase is not Phase.OVER),
    ("columns-won-by-two-players", lambda s: len(set(s.won.values())) >= 2),
    ("marker-on-top", _has_top_marker),
    ("three-markers", lambda s: len(s.markers) == 3),
    ("choose-without-markers", lambda s: s.phase is Phase.CHOOSE and not s.markers),
    ("variant-A", lambda s: s.rules.variant is Variant.A and bool(s.markers)),
    ("variant-B-sharing", lambda s: s.rules.variant is Variant.B and _shares_space(s)),
    ("custom-heights", lambda s: s.rules.heights != STANDARD_HEIGHTS and bool(s.markers)),
]


@pytest.mark.parametrize("condition", [pytest.param(f, id=name) for name, f in STATE_FEATURES])
def test_valid_states_reach_every_feature(condition: Callable[[State], bool]) -> None:
    """valid_states() reaches every phase, player count, won columns, tops and variants."""
    assert condition(exists(valid_states(), condition))


@pytest.mark.parametrize("phase", list(Phase))
def test_reachable_states_reach_every_phase(phase: Phase) -> None:
    """reachable_states() reaches each phase, OVER included, without being asked."""
    assert exists(reachable_states(), lambda s: s.phase is phase).phase is phase


@pytest.mark.parametrize("phase", list(Phase))
@settings(max_examples=max(10, settings().max_examples // 5))
@given(data=st.data())
def test_a_requested_phase_is_the_phase_drawn(phase: Phase, data: st.DataObject) -> None:
    """valid_states(phase=p) and reachable_states(phase=p) draw states in phase p."""
    assert data.draw(valid_states(phase=phase)).phase is phase
    assert data.draw(reachable_states(phase=phase)).phase is phase


@given(valid_states(Rules(players=3, variant=Variant.A)))
def test_state_strategies_keep_given_rules(state: State) -> None:
    """With fixed rules, every drawn state is played under them."""
    assert state.rules == Rules(players=3, variant=Variant.A)


SHRUNK: list[tuple[str, st.SearchStrategy[Any], Callable[[Any], bool], object]] = [
    # heights(): a single column of height 1, so two columns are the two lowest, 1 high.
    ("heights", heights(), lambda board: len(board) > 1, {2: 1, 3: 1}),
    # rules(): one player, the standard board, 1 column to win, no variant.
    ("rules", rules(), lambda r: True, Rules(players=1, columns_to_win=1)),
    (
        "rules-4-players-B",
        rules(variants=[Variant.B]),
        lambda r: r.players == 4,
        Rules(players=4, columns_to_win=1, variant=Variant.B),
    ),
    (
        "rules-three-columns",
        rules(boards=heights(max_height=3)),
        lambda r: len(r.heights) >= 3,
        Rules(players=1, columns_to_win=1, heights={2: 1, 3: 1, 4: 1}),
    ),
    # rolls(): towards 1-1-1-1, the last die first to grow.
    ("rolls", rolls(), lambda roll: sum(roll.dice) >= 6, Roll((1, 1, 1, 3))),
    # moves(): towards the sum 2, so two sums are 2+2.
    ("moves", moves(), lambda move: len(move.columns) == 2, Move((2, 2))),
    ("actions", actions(), lambda action: True, Stop()),
    ("invalid-dice", invalid_dice(), lambda dice: True, ()),
    # valid_states(): one player, the standard board, 1 column to win; the OVER phase
    # then needs one won column, the lowest: column 2, whose top is space 3.
    ("valid-over", valid_states(phase=Phase.OVER), lambda s: True, parse_state("2:3 - 0x w1")),
]


@pytest.mark.parametrize(
    ("strategy", "condition", "expected"),
    [
        pytest.param(strategy, condition, expected, id=name)
        for name, strategy, condition, expected in SHRUNK
    ],
)
def test_strategies_shrink_as_documented(
    strategy: st.SearchStrategy[Any], condition: Callable[[Any], bool], expected: object
) -> None:
    """Each strategy shrinks to the simple value its docstring promises (derandomized search)."""
    shrink = settings(search, phases=[Stage.generate, Stage.shrink])
    assert find(strategy, condition, settings=shrink) == expected


def test_strategies_shrink_to_simple_states() -> None:
    """The simplest states drawn are a new solitaire game and its first roll, 1-1-1-1."""
    shrink = settings(search, phases=[Stage.generate, Stage.shrink])
    assert find(valid_states(), lambda s: True, settings=shrink) == parse_state("- - 0r w1")
    assert find(reachable_states(), lambda s: True, settings=shrink) == parse_state("- - 0r w1")
    choosing = find(reachable_states(), lambda s: s.phase is Phase.CHOOSE, settings=shrink)
    assert choosing == parse_state("- - 0c1111 w1")


# -- actions for a state ----------------------------------------------------------------------


@given(st.data())
def test_legal_actions_are_legal(data: st.DataObject) -> None:
    """legal_actions(state) draws only actions the state accepts."""
    state = data.draw(valid_states().filter(lambda s: s.phase is not Phase.OVER))
    state.apply(data.draw(legal_actions(state)))


@given(st.data())
def test_illegal_actions_are_illegal(data: st.DataObject) -> None:
    """illegal_actions(state) draws only actions the state rejects with IllegalAction."""
    state = data.draw(st.one_of(valid_states(), reachable_states()))
    action = data.draw(illegal_actions(state))
    with pytest.raises(IllegalAction):
        state.apply(action)


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        ("-/- - 0r", "R11.1"),  # a stop before the roll
        ("-/- - 0r", "R3.2"),  # a move before the roll
        ("-/- - 0c3455", "R3.3"),  # a roll or a stop with dice on the table
        ("-/- - 0c3455", "R4.3"),  # sums that no pairing makes
        ("-/- - 0c3455", "R6.1"),  # one sum where both can be played
        ("-/- 7:1 0d", "R3.4"),  # a move after the roll was played
        ("-/7:1 7:1 0d B", "R14.2"),  # a stop while sharing, under Variant B
        ("2:3,3:5,4:7/- - 0x", "R12.3"),  # anything once the game is over
    ],
)
def test_illegal_actions_reach_each_kind_of_rejection(text: str, rule: str) -> None:
    """illegal_actions() draws wrong-phase actions, bad moves and forbidden stops."""

    def rejected_under(action: Stop | Move | Roll) -> bool:
        try:
            state.apply(action)
        except IllegalAction as error:
            return error.rule == rule
        return False

    state = parse_state(text)
    exists(illegal_actions(state), rejected_under)


def test_over_states_have_no_legal_action() -> None:
    """A finished game accepts nothing, so legal_actions() of it is empty (R12.3)."""
    assert legal_actions(parse_state("2:3,3:5,4:7/- - 0x")).is_empty
