"""The engine agrees with an independent implementation of the rules (tests/independent.py).

Positions come from random games played by the independent implementation
(fixed seeds, ``random.Random``) under every player count, both variants and
small custom boards.  For each sampled position about to roll, every one of
the 1296 ordered rolls is applied by both implementations, and so is every
legal move after it and the stop.
"""

from __future__ import annotations

import contextlib
import itertools
import random
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from cantstop import (
    Event,
    IllegalAction,
    Roll,
    State,
    Stop,
    format_action,
    format_state,
    parse_action,
    parse_state,
    perft,
)
from tests.independent import (
    ALL_ROLLS,
    Illegal,
    Position,
    legal_moves,
    move_result,
    read_state,
    roll_result,
    stop_result,
    whole_roll_counts,
    write_state,
)


@dataclass(frozen=True)
class Config:
    """A game setup for the random games."""

    name: str
    players: int
    board: dict[int, int] | None = None
    target: int = 3
    variant: str = ""

    def opening(self, first: int) -> Position:
        """Return the empty board with ``first`` to roll."""
        pos = read_state("/".join("-" for _ in range(self.players)) + f" - {first}r")
        if self.board is not None:
            pos.board = dict(self.board)
        pos.target = self.target
        pos.variant = self.variant
        return pos


CONFIGS: list[Config] = [
    Config("1p", 1),
    Config("2p", 2),
    Config("3p-A", 3, variant="A"),
    Config("4p-B", 4, variant="B"),
    Config("2p-B-w4", 2, target=4, variant="B"),
    Config("2p-small-A", 2, {2: 2, 5: 3, 7: 4, 9: 3, 12: 1}, 2, "A"),
    Config("3p-small-B", 3, {3: 2, 6: 4, 7: 5, 8: 4, 11: 2}, 2, "B"),
    Config("4p-small", 4, {4: 1, 6: 3, 7: 3, 8: 3, 10: 1}, 2),
    Config("4p-twos-A", 4, {c: 2 for c in range(2, 13)}, 1, "A"),
    Config("1p-one-column", 1, {7: 3}, 1),
]

SEEDS = (1, 2)
#: Positions about to roll checked in full (all 1296 rolls) per game.
SAMPLES_PER_GAME = 4


def _stop_chance(pos: Position) -> float:
    """Stop more often when a tower stands on a top space, so columns get won."""
    on_top = any(space == pos.board[c] for c, space in pos.markers.items())
    return 0.8 if on_top else 0.3


def play_game(config: Config, seed: int) -> list[tuple[str, str]]:
    """Play one random game; return (state text, action text) pairs, last action ``""``."""
    rng = random.Random(seed)
    pos = config.opening(rng.randrange(config.players))
    path: list[tuple[str, str]] = []
    while pos.phase != "x" and len(path) < 5000:
        text = write_state(pos)
        if pos.phase == "c":
            sums = rng.choice(legal_moves(pos, tuple(pos.dice)))
            action, after = "+".join(map(str, sums)), move_result(pos, sums)
        else:
            after = ""
            if pos.phase == "d" and rng.random() < _stop_chance(pos):
                with contextlib.suppress(Illegal):  # Variant B may forbid it: roll instead
                    action, after = "stop", stop_result(pos)
            if not after:
                dice = (rng.randint(1, 6), rng.randint(1, 6), rng.randint(1, 6), rng.randint(1, 6))
                action, after = "r" + "".join(map(str, dice)), roll_result(pos, dice)[0]
        path.append((text, action))
        pos = read_state(after)
    path.append((write_state(pos), ""))
    return path


GAMES: dict[str, list[tuple[str, str]]] = {
    f"{config.name}-seed{seed}": play_game(config, seed) for config in CONFIGS for seed in SEEDS
}


def _sample(path: list[tuple[str, str]]) -> list[tuple[int, str]]:
    """Evenly spaced positions about to roll, always including the last one."""
    ready = [(ply, text) for ply, (text, _) in enumerate(path) if read_state(text).phase in "rd"]
    step = max(1, len(ready) // SAMPLES_PER_GAME)
    picked = ready[step // 2 :: step][: SAMPLES_PER_GAME - 1] + ready[-1:]
    return list(dict.fromkeys(picked))


POSITIONS: list[tuple[str, str]] = [
    (f"{game}-ply{ply}", text) for game, path in GAMES.items() for ply, text in _sample(path)
]


def _engine_moves(state: State) -> list[tuple[int, ...]]:
    return [m.columns for m in state.legal_moves()]


def _engine_stop(state: State) -> str | None:
    try:
        step = state.step(Stop())
    except IllegalAction:
        return None
    assert step.event in (Event.STOPPED, Event.WON)
    assert (step.event is Event.WON) == (step.state.phase.value == "over")
    return format_state(step.state)


def _my_stop(pos: Position) -> str | None:
    try:
        return stop_result(pos)
    except Illegal:
        return None


def test_start_position_counts() -> None:
    """The opening has choices=2826 busts=0 in both implementations, for 1 to 4 players."""
    for players in range(1, 5):
        text = "/".join("-" for _ in range(players)) + " - 0r"
        assert whole_roll_counts(read_state(text)) == (2826, 0)
        assert tuple(perft(parse_state(text))) == (2826, 0)


@pytest.mark.parametrize("game", list(GAMES), ids=list(GAMES))
def test_game_path_agrees(game: str) -> None:
    """Every action of a whole random game gives the same state and event in both."""
    path = GAMES[game]
    assert path[-1][1] == "", f"{game} did not end"
    for (text, action), (expected, _) in itertools.pairwise(path):
        state = parse_state(text)
        assert format_state(state) == text
        if state.dice is not None:
            assert _engine_moves(state) == legal_moves(read_state(text), tuple(state.dice)), text
        step = state.step(parse_action(action))
        assert format_state(step.state) == expected, f"{text} {action}"
        if action.startswith("r"):
            assert (step.event is Event.BUSTED) == (read_state(expected).phase == "r"), text
    final = parse_state(path[-1][0])
    assert final.phase.value == "over"
    with pytest.raises(IllegalAction):
        final.apply(Roll((1, 2, 3, 4)))


@pytest.mark.parametrize(("name", "text"), POSITIONS, ids=[name for name, _ in POSITIONS])
def test_every_roll_agrees(name: str, text: str) -> None:
    """All 1296 rolls, every legal move after each and the stop agree with the engine."""
    state = parse_state(text)
    assert format_state(state) == text
    mine = read_state(text)
    assert _engine_stop(state) == _my_stop(mine), f"{text} stop"
    choose_states: dict[str, State] = {}
    for dice in ALL_ROLLS:
        where = f"{text} r{''.join(map(str, dice))}"
        step = state.step(Roll(dice))
        my_text, my_bust = roll_result(mine, dice)
        assert format_state(step.state) == my_text, where
        assert (step.event is Event.BUSTED) == my_bust, where
        assert _engine_moves(step.state) == legal_moves(mine, dice), where
        if not my_bust:
            choose_states.setdefault(my_text, step.state)
    for choose_text, choose in choose_states.items():
        my_choose = read_state(choose_text)
        for move in choose.legal_moves():
            where = f"{choose_text} {format_action(move)}"
            assert format_state(choose.apply(move)) == move_result(my_choose, move.columns), where


@pytest.mark.parametrize(("name", "text"), POSITIONS, ids=[name for name, _ in POSITIONS])
def test_whole_roll_counts_agree(name: str, text: str) -> None:
    """The engine's perft equals the independent whole-roll counts."""
    assert tuple(perft(parse_state(text))) == whole_roll_counts(read_state(text)), text


def test_samples_cover_the_rules() -> None:
    """The sampled positions include won columns, full towers, tops, Variant B blocks and ends."""
    texts = [text for _, text in POSITIONS]
    positions = [read_state(t) for t in texts]
    assert any(
        any(s.get(c) == top for s in p.squares for c, top in p.board.items()) for p in positions
    )
    assert any(len(p.markers) == 3 for p in positions)
    assert any(any(p.board[c] == v for c, v in p.markers.items()) for p in positions)
    assert any(p.variant == "B" and _my_stop(p) is None and p.phase == "d" for p in positions)
    assert any("x" in (_my_stop(p) or "- - r").split(" ")[2] for p in positions)


def _spec_blocks() -> list[dict[str, str]]:
    path = Path(__file__).resolve().parent.parent / "spec" / "perft.md"
    blocks = re.findall(r"```example\n(.*?)```", path.read_text(encoding="utf-8"), re.S)
    out = []
    for block in blocks:
        fields = {}
        for line in block.splitlines():
            key, _, value = line.partition(":")
            fields[key.strip()] = value.strip()
        out.append(fields)
    return out


SPEC_BLOCKS = _spec_blocks()


@pytest.mark.parametrize("block", SPEC_BLOCKS, ids=[b["id"] for b in SPEC_BLOCKS])
def test_spec_counts_are_independent(block: dict[str, str]) -> None:
    """Each count in spec/perft.md is what the independent implementation computes."""
    choices, busts = whole_roll_counts(read_state(block["state"]))
    assert block["perft"] == f"choices={choices} busts={busts}"


def test_hand_counts() -> None:
    """Counts worked out by hand in spec/perft.md hold for the independent implementation."""
    # Every tower on its top space: no total can be used, so every roll busts.
    assert whole_roll_counts(read_state("-/- 2:3,7:13,12:3 0d")) == (0, 1296)
    # Towers on 2 and 12 (space 1), the third on the top of 7: a roll plays iff it
    # shows two 1s or two 6s, with one move each: 171 + 171 - 6 rolls.
    with_two_ones = sum(1 for d in ALL_ROLLS if d.count(1) >= 2)
    with_two_sixes = sum(1 for d in ALL_ROLLS if d.count(6) >= 2)
    both = sum(1 for d in ALL_ROLLS if d.count(1) >= 2 and d.count(6) >= 2)
    assert (with_two_ones, with_two_sixes, both) == (171, 171, 6)
    assert whole_roll_counts(read_state("-/- 2:1,7:13,12:1 0d")) == (336, 960)


def test_moves_are_move_values() -> None:
    """Moves from the independent implementation are valid engine Move values."""
    state = parse_state("-/- - 0c3455")
    mine = legal_moves(read_state("-/- - 0c3455"), (3, 4, 5, 5))
    assert [parse_action("+".join(map(str, m))) for m in mine] == list(state.legal_moves())
    assert mine == [(7, 10), (8, 9)]
