"""The demonstration game (cantstop demo): the one player system, under every variant."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

from cantstop import Rules, Variant, parse_state
from cantstop.cli import main
from cantstop.demo import PLAYERS as DEMO_PLAYERS
from cantstop.demo import play_demo
from cantstop.players import PLAYERS
from cantstop.record import replay_record
from tests.games import CONFIGS


@pytest.mark.parametrize("name", list(CONFIGS))
def test_demo_plays_to_the_end_under_every_configuration(name: str) -> None:
    """The demonstration finishes under every variant and board, Variant B's R14.2 included.

    Each turn's board ends with its position: the last is the state of a won game.
    """
    rules = CONFIGS[name]
    players = [PLAYERS[kind]() for kind in list(PLAYERS)[: rules.players]]
    for seed in range(4):
        story = list(play_demo(players, seed, rules))
        assert " wins after " in story[-1]
        final = parse_state(story[-3].splitlines()[-1].removeprefix("position: "))
        assert final.winner is not None


def test_demo_under_variant_b_never_stops_on_a_shared_space() -> None:
    """The cautious and bold players under Variant B (R14.2): whole games, for many seeds."""
    rules = Rules(variant=Variant.B)
    for seed in range(30):
        story = list(play_demo(tuple(DEMO_PLAYERS.values()), seed, rules))
        assert story[-1].startswith("Player ")


def _record_of(tmp_path: Path, name: str) -> Path:
    return tmp_path / f"{name}.jsonl"


@pytest.mark.parametrize("name", list(PLAYERS))
def test_every_command_knows_every_builtin_player(
    name: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """demo, simulate and play take the same names: the registry of cantstop.players."""
    assert main(["demo", "--players", f"{name},{name}", "--seed", "2"]) == 0
    assert f"player 0 ({name})" in capsys.readouterr().out
    argv = ["simulate", "--players", f"{name},{name}", "--games", "3", "--processes", "1"]
    assert main(argv) == 0
    assert f" {name} " in capsys.readouterr().out
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    path = _record_of(tmp_path, name)
    assert main(["play", "--players", f"{name},{name}", "--seed", "2", "--record", str(path)]) == 0
    assert f"player 0 ({name}) to play" in capsys.readouterr().out
    assert replay_record(path).winner is not None


def test_the_three_commands_refuse_the_same_unknown_name(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """An unknown name gets the same list of players from demo, simulate and play."""
    known = ", ".join(PLAYERS)
    for command, kinds in (("demo", known), ("simulate", known), ("play", f"human, {known}")):
        assert main([command, "--players", "wizard"]) == 2
        assert capsys.readouterr().err == (
            f"cantstop {command}: error: --players takes 1 to 4 of {kinds}, "
            "comma-separated; got 'wizard'\n"
        )
