"""The plain-text picture of a state (``tower.text``): routes, stones, the tower and the turn."""

from __future__ import annotations

import re

from hypothesis import given

from dicekit.protocol import Capability
from tests.tower.test_engine import TINY_STATE
from tower import GAME, Phase, State, format_action, parse_state
from tower.strategies import reachable_states
from tower.text import state_text

LINE = re.compile(
    r"^.+?  (?P<letter>[A-Z])  start (?P<start>\d+)   (?P<strip>\S*) *   "
    r"goal (?P<goal>\d+)(?P<tower>   tower 1)?$"
)


def test_a_small_board_state_drawn_by_hand() -> None:
    """E021 on the small board: red's step 1 is red field 1, blue's is blue's way-in field 11."""
    ruler = " " * 19 + "1        10"
    assert state_text(parse_state("R0,1/B0,1 - 0c11 @small")).splitlines() == [
        "Off to the Tower on small: the crossing is field 4",
        ruler,
        "red   R  start 1   Rbg+y*r+bg   goal 0",
        "blue  B  start 1   Bbg+y*r+bg   goal 0",
        "red (player 0) to move with 1 and 1: 1+1",
    ]


def test_the_turn_line_of_each_phase() -> None:
    """About to throw, and after the end: the last line says whose turn it is, or who won."""
    throwing = state_text(parse_state("R0,0/B0,0/G0,0 - 2t @ours"))
    assert throwing.endswith("\ngreen (player 2) to throw")
    assert state_text(parse_state("Rg,g/B0,12 - 0x @ours")).endswith("\nred (player 0) has won")


def test_an_embedded_board_is_named() -> None:
    """A board given as data is named by the name in its file."""
    assert state_text(parse_state(TINY_STATE)).startswith("Off to the Tower on tiny:")


@given(reachable_states())
def test_every_stone_is_where_its_route_says(state: State) -> None:
    """Each player's strip is its route; every stone on a field shows on it, counts add up."""
    config = state.config
    lines = state_text(state).splitlines()
    assert len(lines) == config.players + 3
    for p, places in enumerate(state.stones):
        line = lines[2 + p]
        length = config.lengths[p]
        name = config.board.colour(config.colours[p]).name
        assert line.startswith(name)
        found = LINE.match(line)
        assert found is not None, line
        assert found["letter"] == config.colours[p]
        assert int(found["start"]) == places.count(0)
        assert int(found["goal"]) == places.count(length)
        assert bool(found["tower"]) == (state.tower == p)
        cells = found["strip"]
        assert len(cells) <= length - 1
        for q, theirs in enumerate(state.stones):
            for place in theirs:
                if not 0 < place < config.lengths[q]:
                    continue
                for step, number in enumerate(config.routes[p][1:length], start=1):
                    if number == config.routes[q][place]:
                        assert cells[step - 1] == config.colours[q]
    last = lines[-1]
    assert last.startswith(f"{config.board.colour(config.colours[state.player]).name} (player")
    if state.phase is Phase.CHOOSE:
        assert last.split(": ")[1].split() == [format_action(m) for m in state.legal_moves()]


def test_game_offers_the_picture() -> None:
    """tower.GAME is a dicekit TextPicture, answering as tower.text does."""
    state = parse_state("R0,12/B5 B 1c35 @ours")
    assert GAME.info.provides(Capability.TEXT_PICTURE)
    assert GAME.state_text(state) == state_text(state)
