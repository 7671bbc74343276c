"""``cantstop play`` alike for every game: resumed from any record, a legend, who did what.

A game of the finish-line race or Off to the Tower played in two sittings
(``--resume``) is checked against the same answers given in one sitting: the
records must be the same, line for line.  The legend is checked against the
picture it explains: every mark the picture uses is one the legend names.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from cantstop.cli import main
from cantstop.errors import CantStopError
from cantstop.players import PLAYERS
from dicekit import registry
from dicekit.errors import GameError

OTHER_GAMES = [name for name in registry.names() if name != "cantstop"]


def _play(
    argv: list[str],
    answers: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(answers))
    status = main(["play", *argv])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def _seats(name: str) -> str:
    return "human," + next(iter(registry.load_game(name).bots()))


def _started(
    name: str,
    tmp_path: Path,
    answers: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> Path:
    """Start a game of ``name`` (a person, then its first bot; seed 4), answer, and leave it."""
    record = tmp_path / "g.jsonl"
    argv = ["--game", name, "--players", _seats(name), "--seed", "4", "--record", str(record)]
    assert _play(argv, answers, capsys, monkeypatch)[0] == 0
    return record


@pytest.mark.parametrize("name", OTHER_GAMES)
@pytest.mark.parametrize("with_game", [False, True])
def test_a_game_resumed_goes_on_as_if_never_left(
    name: str,
    with_game: bool,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Two sittings (the second by ``--resume``, with or without ``--game``) make one game."""
    once, twice = tmp_path / "once.jsonl", tmp_path / "twice.jsonl"
    new = ["--game", name, "--players", _seats(name), "--seed", "5"]
    assert _play([*new, "--record", str(once)], "a\na\na\nq\n", capsys, monkeypatch)[0] == 0
    status, out, _ = _play([*new, "--record", str(twice)], "a\nq\n", capsys, monkeypatch)
    assert status == 0
    assert f"continue it with: cantstop play --resume {twice}" in out
    sitting = len(twice.read_text().splitlines()) - 1
    resume = ["--resume", str(twice), *(["--game", name] if with_game else [])]
    status, out, err = _play(resume, "a\na\nq\n", capsys, monkeypatch)
    assert (status, err) == (0, "")
    seats = ", ".join(f"{p} {s}" for p, s in enumerate(_seats(name).split(",")))
    assert out.startswith(f"resuming {twice}: {sitting} actions; seats {seats}; seed 5\n")
    assert twice.read_text() == once.read_text()
    assert main(["verify", str(twice)]) == 0


@pytest.mark.parametrize("name", OTHER_GAMES)
def test_a_finished_game_is_shown_and_left_as_it_is(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Resuming a game that is over shows its end and who won, and leaves the record alone."""
    record = tmp_path / "g.jsonl"
    bots = ",".join(list(registry.load_game(name).bots())[:2])
    argv = ["--game", name, "--players", bots, "--seed", "3", "--record", str(record)]
    assert _play(argv, "", capsys, monkeypatch)[0] == 0
    before = record.read_bytes()
    status, out, _ = _play(["--resume", str(record)], "", capsys, monkeypatch)
    assert status == 0
    last = json.loads(before.splitlines()[-1])["state"]
    game = registry.load_game(name)
    winner = game.winner(game.parse_state(last))
    assert out.splitlines()[-1] == (
        f"this game is over: player {winner} ({bots.split(',')[winner or 0]}) won"
    )
    assert record.read_bytes() == before


@pytest.mark.parametrize("name", OTHER_GAMES)
def test_a_torn_last_line_is_dropped_with_a_warning(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A last line a crash cut short is dropped, said on stderr, and the game goes on."""
    record = _started(name, tmp_path, "a\nq\n", capsys, monkeypatch)
    whole = record.read_text()
    record.write_text(whole + '{"action": {"ty')
    status, _, err = _play(["--resume", str(record)], "q\n", capsys, monkeypatch)
    assert status == 0
    assert "was cut short while it was written and is dropped" in err
    assert record.read_text() == whole


def test_resume_refuses_what_the_record_contradicts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A --game, --seed or Can't Stop option that the record contradicts is a usage error."""
    name, other = OTHER_GAMES[0], OTHER_GAMES[-1]
    record = _started(name, tmp_path, "q\n", capsys, monkeypatch)
    before = record.read_bytes()
    cases = {
        ("--game", other): f"--game {other}, but the record {record} is of the game {name!r}",
        ("--seed", "5"): "--seed 5: the game's seed is 4",
        ("--variant", "A"): "--variant is an option of Can't Stop",
    }
    for extra, message in cases.items():
        status, _, err = _play(["--resume", str(record), *extra], "q\n", capsys, monkeypatch)
        assert status == 2, extra
        assert message in err, (extra, err)
    assert record.read_bytes() == before
    cant_stop = tmp_path / "c.jsonl"
    assert (
        _play(
            ["--players", "human,rule28", "--record", str(cant_stop)], "q\n", capsys, monkeypatch
        )[0]
        == 0
    )
    status, _, err = _play(["--resume", str(cant_stop), "--game", name], "", capsys, monkeypatch)
    assert status == 2
    assert "names no game (a Can't Stop record)" in err


@pytest.mark.parametrize("name", OTHER_GAMES)
def test_resume_reads_players_by_the_names_of_the_records_game(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """--players on a resume names the seats of the record's game, not Can't Stop's."""
    record = _started(name, tmp_path, "q\n", capsys, monkeypatch)
    status, _, err = _play(
        ["--resume", str(record), "--players", _seats(name)], "q\n", capsys, monkeypatch
    )
    assert (status, err) == (0, "")
    own = ", ".join(registry.load_game(name).bots())
    status, _, err = _play(
        ["--resume", str(record), "--players", "human,rule28"], "q\n", capsys, monkeypatch
    )
    assert status == 2
    assert f"of human, {own}, comma-separated; got 'human,rule28'" in err


@pytest.mark.parametrize("name", OTHER_GAMES)
def test_every_board_has_a_legend_naming_each_mark_it_uses(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Under every board play draws is a legend, and each mark of the board is in it."""
    record = tmp_path / "g.jsonl"
    bots = ",".join(list(registry.load_game(name).bots())[:2])
    argv = ["--game", name, "--players", bots, "--seed", "6", "--record", str(record)]
    status, out, _ = _play(argv, "", capsys, monkeypatch)
    assert status == 0
    lines = out.splitlines()
    boards = [i for i, line in enumerate(lines) if line.startswith("legend: ")]
    assert len(boards) > 2
    for at in boards:
        legend = " ".join(lines[at : at + 2])
        named = {
            word for word in legend.replace(",", " ").replace(";", " ").split() if len(word) == 1
        }
        marks = _marks(name, lines[:at])
        assert marks <= named, (marks - named, legend)


def _marks(name: str, before: list[str]) -> set[str]:
    """Return the marks of the board drawn just above line ``before[-1]``."""
    if name == "finishline":  # rows: " 1   . . 0 ." under "     A B C D"
        top = max(i for i, line in enumerate(before) if line.strip() == "A B C D")
        rows = before[top + 2 : top + 8]
        return {c for row in rows for c in row[5:].split()}
    # tower: "red   R  start 1   rbgy...   goal 0", one line per player
    strips = [line.split()[4] for line in before[-8:] if "  start " in line]
    return {c for strip in strips[-4:] for c in strip}


@pytest.mark.parametrize("name", OTHER_GAMES)
def test_chances_throw_is_told_as_chances(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where the dice are thrown of themselves, the prompt says chance threw, not the player."""
    record = tmp_path / "g.jsonl"
    argv = ["--game", name, "--players", "human,human", "--seed", "2", "--record", str(record)]
    status, out, _ = _play(argv, "a\na\nq\n", capsys, monkeypatch)
    assert status == 0
    assert "  chance throws " in out
    assert "  human throws " not in out
    assert "  human plays " in out


@pytest.mark.parametrize("name", ["cantstop", *OTHER_GAMES])
def test_a_game_that_fails_to_start_leaves_no_record(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A built-in player that cannot start stops the game before its record is made."""
    record = tmp_path / "g.jsonl"

    def cannot_start() -> object:
        raise CantStopError("the player cannot start: its extra is not installed")

    if name == "cantstop":
        monkeypatch.setitem(PLAYERS, "optimal", cannot_start)
        argv = ["--players", "human,optimal"]
    else:
        game = registry.load_game(name)
        bot = next(iter(game.bots()))
        makers = dict(game.bots())
        makers[bot] = lambda: (_ for _ in ()).throw(GameError("the player cannot start"))
        monkeypatch.setattr(type(game), "bots", lambda self: makers)
        argv = ["--game", name, "--players", f"human,{bot}"]
    status, _, err = _play([*argv, "--record", str(record)], "q\n", capsys, monkeypatch)
    assert status == 1
    assert "cannot start" in err
    assert not record.exists()
