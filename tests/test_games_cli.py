"""The command line's ``--game`` for the finish-line race and Off to the Tower.

``spec``, ``show``, ``moves``, ``perft``, ``demo``, ``simulate`` and ``play``
run any game through the layer.  Their answers are checked against each
game's own engine: legal actions, the game's own perft, the demonstration
and the record replayed action by action, win counts summed and seeded.
"""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any

import pytest

import finishline
import tower
from cantstop.cli import main
from dicekit.protocol import Capability, Game, capable
from dicekit.simulate import wilson_interval

GAMES: dict[str, Game[Any, Any, Any]] = {"finishline": finishline.GAME, "tower": tower.GAME}

#: A state of each game where the player chooses, and one where the dice are due.
CHOOSING = {
    "finishline": "..../..0./..../..../0.../.... 0/0 1c34",
    "tower": "R0,12/B5 B 1c35 @ours",
}
THROWING = {
    "finishline": "..../..0./..../..../0.../.... 0/0 1r",
    "tower": "R31,32/B0,0 - 0t @ours",
}


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = main(argv)
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_spec_check_runs_the_finish_line_races_examples(capsys: pytest.CaptureFixture[str]) -> None:
    """``spec --game finishline --check`` runs every example, all passing."""
    status, out, err = _run(["spec", "--game", "finishline", "--check"], capsys)
    assert (status, err) == (0, "")
    counts, result = out.splitlines()
    found = re.fullmatch(r"\d+ rules in \d+ chapters, (\d+) examples", counts)
    assert found is not None
    examples = int(found[1])
    assert examples > 100
    assert result == f"{examples} passed, 0 failed"


def test_spec_of_the_tower_runs_or_says_why_it_does_not_read(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Off to the Tower's examples have keys of their own (its board changes).

    Where its game object declares them, every example runs; where it does
    not yet, the spec cannot be read and the command says so on one line.
    """
    status, out, err = _run(["spec", "--game", "tower", "--check"], capsys)
    if tower.GAME.info.provides(Capability.EXAMPLE_KEYS):
        assert status == 0
        assert out.rstrip().endswith(" passed, 0 failed")
    else:
        assert status == 1
        assert err.startswith("cantstop spec: error: the spec of Off to the Tower does not read:")
        assert err.count("\n") == 1


@pytest.mark.parametrize("name", sorted(GAMES))
def test_show_prints_the_games_picture_and_the_position(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """``show`` prints the game's text picture, then the state in notation."""
    game = GAMES[name]
    drawn = capable(game, Capability.TEXT_PICTURE)
    text = CHOOSING[name]
    status, out, _ = _run(["show", "--game", name, text], capsys)
    assert status == 0
    assert drawn is not None
    assert out == f"{drawn.state_text(game.parse_state(text))}\nposition: {text}\n"


@pytest.mark.parametrize("name", sorted(GAMES))
def test_moves_lists_the_engines_legal_actions(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """``moves`` prints the legal actions in the engine's order, or says why there are none."""
    game = GAMES[name]
    state = game.parse_state(CHOOSING[name])
    status, out, _ = _run(["moves", "--game", name, CHOOSING[name]], capsys)
    assert status == 0
    assert out.split() == [game.format_action(a) for a in game.legal_actions(state)]
    status, out, _ = _run(["moves", "--game", name, THROWING[name]], capsys)
    assert (status, out.strip()) == (
        0,
        f"player {game.player(game.parse_state(THROWING[name]))} waits for the dice; "
        "no action to choose before them",
    )


def test_moves_of_a_finished_game_name_the_winner(capsys: pytest.CaptureFixture[str]) -> None:
    """A finished game has nothing to choose, and the command says who won."""
    status, out, _ = _run(["moves", "--game", "tower", "Rg,g/B0,0 - 0x @ours"], capsys)
    assert (status, out.strip()) == (0, "the game is over: player 0 won; no action to choose")


@pytest.mark.parametrize(
    ("name", "own"),
    [("finishline", finishline.perft), ("tower", tower.perft)],
)
def test_perft_agrees_with_the_games_own_counts(
    name: str, own: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    """``perft --game`` prints the layer's counts, equal to the game's own perft over 36 throws."""
    game = GAMES[name]
    counts = own(game.parse_state(THROWING[name]))
    status, out, _ = _run(["perft", "--game", name, THROWING[name]], capsys)
    assert status == 0
    assert out == f"choices={counts.choices} no-decision={counts.forfeits} weight=36\n"


def _story_actions(story: str) -> list[tuple[int, str]]:
    """Return the (player, action text) pairs a demonstration tells, in order."""
    told = []
    for line in story.splitlines():
        turn = re.fullmatch(r"Turn \d+: player (\d) \(\w+\) (.*)", line)
        if turn:
            for word in turn[2].split(", "):
                verb, text = word.split(" ", 1)
                assert verb in ("throws", "plays")
                told.append((int(turn[1]), text))
    return told


@pytest.mark.parametrize("name", sorted(GAMES))
def test_demo_tells_a_whole_game_that_replays_on_the_engine(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Every action the demonstration tells applies in turn, and the named winner won."""
    game = GAMES[name]
    status, story, _ = _run(["demo", "--game", name, "--seed", "4"], capsys)
    assert status == 0
    state = game.new_game(game.config(2))
    for player, text in _story_actions(story):
        assert game.player(state) == player
        state = game.apply(state, game.parse_action(text))
    assert game.is_over(state)
    last = story.strip().splitlines()[-1]
    assert re.fullmatch(rf"Player {game.winner(state)} \(\w+\) wins after \d+ turns\.", last)
    assert main(["demo", "--game", name, "--seed", "4"]) == 0
    assert capsys.readouterr().out == story  # the seed fixes the game


@pytest.mark.parametrize("name", sorted(GAMES))
def test_simulate_counts_every_game_and_gives_wilson_intervals(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Wins sum to the games, each rate's interval is Wilson's, and processes change nothing."""
    argv = ["simulate", "--game", name, "--games", "60", "--seed", "3", "--processes", "1"]
    status, out, _ = _run(argv, capsys)
    assert status == 0
    lines = out.splitlines()
    assert lines[0] == f"{name}: 60 games, 2 players, seed 3, seats take turns to begin"
    rows = [line.split() for line in lines[2:4]]
    wins = [int(row[2]) for row in rows]
    assert sum(wins) == 60
    for row, won in zip(rows, wins, strict=True):
        low, high = wilson_interval(won, 60)
        assert row[4:] == [f"{low:.2%}", "to", f"{high:.2%}"]
    assert lines[-1].startswith("mean game length: ")
    argv[-1] = "2"
    assert _run(argv, capsys)[1] == out  # the seed alone decides


@pytest.mark.parametrize("name", sorted(GAMES))
def test_play_between_bots_records_a_game_that_replays(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """With two bots, ``play`` plays to the end; the record replays and every throw is shown."""
    game = GAMES[name]
    bots = ",".join(list(game.bots())[:2])
    record = tmp_path / "game.jsonl"
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    argv = ["play", "--game", name, "--players", bots, "--seed", "9", "--record", str(record)]
    status, out, err = _run(argv, capsys)
    assert (status, err) == (0, "")
    header, *lines = [json.loads(line) for line in record.read_text().splitlines()]
    assert header == {
        "record": "dicekit",
        "version": 1,
        "game": name,
        "config": {},
        "first_player": 0,
        "play": {"seats": bots.split(","), "seed": 9},
    }
    state = game.new_game(game.config(2))
    throws = 0
    for line in lines:
        action = game.action_from_json(line["action"])
        throws += action in [a for a, _ in game.chance_outcomes(state)]
        state = game.apply(state, action)
        assert line["state"] == game.format_state(state)
    assert game.is_over(state)
    assert out.count(" throws ") == throws > 0
    assert f"player {game.winner(state)} (" in out.splitlines()[-2]
    assert _run(["verify", str(record)], capsys)[0] == 0  # the verifier reads what play writes


def test_a_person_chooses_by_letter_and_leaves_with_q(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A person's answer picks the lettered action; a wrong one is refused; q leaves the game."""
    record = tmp_path / "game.jsonl"
    monkeypatch.setattr("sys.stdin", io.StringIO("zz\nb\nq\n"))
    argv = ["play", "--game", "finishline", "--players", "human,racer", "--seed", "2"]
    status, out, _ = _run([*argv, "--record", str(record)], capsys)
    assert status == 0
    assert "'zz' is not a choice" in out
    assert "game left unfinished" in out
    _, roll, chosen, *_ = [json.loads(line) for line in record.read_text().splitlines()]
    state = finishline.GAME.apply(
        finishline.GAME.new_game(finishline.GAME.config(2)),
        finishline.GAME.action_from_json(roll["action"]),
    )
    second = finishline.GAME.legal_actions(state)[1]  # the choice lettered b
    assert chosen["action"] == finishline.GAME.action_to_json(second)
