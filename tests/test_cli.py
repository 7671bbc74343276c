"""The ``cantstop`` command line."""

from __future__ import annotations

import subprocess
import sys

import pytest

from cantstop.cli import main


def test_demo_plays_a_whole_game(capsys: pytest.CaptureFixture[str]) -> None:
    """``cantstop demo`` tells a game turn by turn and names the winner."""
    assert main(["demo", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Turn 1: player 0 (cautious) rolls ")
    assert "player 1 to roll" in out
    last = out.strip().splitlines()[-1]
    assert last.startswith("Player ")
    assert "wins after" in last


def test_demo_is_reproducible(capsys: pytest.CaptureFixture[str]) -> None:
    """The same seed tells the same game."""
    main(["demo", "--seed", "7"])
    first = capsys.readouterr().out
    main(["demo", "--seed", "7"])
    assert capsys.readouterr().out == first


def test_demo_rejects_unknown_players(capsys: pytest.CaptureFixture[str]) -> None:
    """An unknown player name is a usage error with exit status 2."""
    assert main(["demo", "--players", "cautious,wizard"]) == 2
    assert "wizard" in capsys.readouterr().err


def test_spec_counts(capsys: pytest.CaptureFixture[str]) -> None:
    """``cantstop spec`` prints the number of rules and examples."""
    assert main(["spec"]) == 0
    out = capsys.readouterr().out
    assert " rules in " in out
    assert out.strip().endswith("examples")


def test_moves_and_perft(capsys: pytest.CaptureFixture[str]) -> None:
    """``moves`` lists legal moves; ``perft`` counts the opening's 2826 choices."""
    assert main(["moves", "-/- - 0c3455"]) == 0
    assert capsys.readouterr().out.strip() == "7+10 8+9"
    assert main(["perft", "-/- - 0r"]) == 0
    assert capsys.readouterr().out.strip() == "choices=2826 busts=0"


def test_bad_state_is_reported_not_raised(capsys: pytest.CaptureFixture[str]) -> None:
    """A malformed state prints the notation error and exits 1."""
    assert main(["show", "-/- - 9r"]) == 1
    assert "rule N1.4" in capsys.readouterr().err


def test_module_entry_point() -> None:
    """``python -m cantstop`` runs the command line."""
    done = subprocess.run(
        [sys.executable, "-m", "cantstop", "moves", "-/- - 0c1111"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout.strip() == "2+2"
