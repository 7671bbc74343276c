"""The terminal game (cantstop play): driven through its input stream and a pseudo-terminal."""

from __future__ import annotations

import io
import os
import pty
import random
import re
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cantstop import Phase, Rules, State, Variant, new_game, parse_state
from cantstop.cli import main
from cantstop.conformance.verify import verify_record
from cantstop.play import Console, draw_board, play
from cantstop.players import Rule28Player
from cantstop.record import RecordWriter, replay_record

ROOT = Path(__file__).resolve().parent.parent
ANSI = re.compile(r"\033\[[0-9;]*m")


def _human_game(answers: str, path: Path, seed: int = 3) -> tuple[State, str]:
    out = io.StringIO()
    rules = Rules()
    with path.open("w", encoding="utf-8") as file:
        writer = RecordWriter(file, rules)
        final = play(
            new_game(rules),
            [None, Rule28Player()],
            random.Random(seed),
            Console(io.StringIO(answers), out, color=False),
            writer,
        )
    return final, out.getvalue()


def test_typos_get_clear_messages_and_the_game_goes_on(tmp_path: Path) -> None:
    # Seed 3 rolls 2 3 3 4 first (choices 5+7, 6+6), then 2 4 4 4 (choices 6, 8).
    final, out = _human_game("0\n1\nmaybe\nr\nxyz\n9\n7+7\n2\ns\nq\n", tmp_path / "g.jsonl")
    assert "1) 5+7   2) 6+6" in out
    assert "'0' is not a choice: type a number from 1 to 2" in out
    assert "'maybe' is not a choice: type r to roll again, s to stop, q to quit" in out
    assert "'xyz' is not a choice" in out
    assert "9 is not legal with these dice; the choices are 6, 8" in out
    assert "7+7 is not legal with these dice" in out
    assert "game left unfinished" in out
    assert final.phase is not Phase.OVER
    # Player 0 played 5+7 then 8, and stopped: squares on 5, 7 and 8.
    assert dict(final.squares[0]) == {5: 1, 7: 1, 8: 1}
    assert replay_record(tmp_path / "g.jsonl") == final


def test_bust_odds_are_shown_before_each_decision(tmp_path: Path) -> None:
    _, out = _human_game("1\nr\n2\ns\nq\n", tmp_path / "g.jsonl")
    # After 5+7 two markers are free, so nothing busts; after 8 as well (one free).
    assert "no roll can bust now" in out
    # Three markers on 5, 7, 8: a roll busts when no pairing makes 5, 7 or 8.
    lines = [line for line in out.splitlines() if "chance of busting" in line]
    assert lines, out


def test_end_of_input_saves_and_stops(tmp_path: Path) -> None:
    final, out = _human_game("", tmp_path / "g.jsonl")
    assert "game left unfinished" in out
    assert final.phase is Phase.CHOOSE
    assert replay_record(tmp_path / "g.jsonl") == final


def test_variant_b_forbidden_stop_is_explained() -> None:
    state = parse_state("-/7:3 7:3 0d B")
    out = io.StringIO()
    play(state, [None, Rule28Player()], random.Random(1), Console(io.StringIO("s\nq\n"), out))
    assert "(rule R14.2): roll again" in out.getvalue()


def test_built_in_players_finish_a_game_and_the_record_verifies(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "bots.jsonl"
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert (
        main(["play", "--players", "rule28,greedy,random", "--seed", "2", "--record", str(path)])
        == 0
    )
    out = capsys.readouterr().out
    assert "wins!" in out
    assert "\033[" not in out  # not a terminal: no colour
    final = replay_record(path)
    assert final.phase is Phase.OVER
    assert f"player {final.winner} (" in out
    assert verify_record(path, io.StringIO()) == 0


def test_resume_continues_the_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "g.jsonl"
    before, _ = _human_game("1\nr\n2\ns\nq\n", path)
    lines_before = path.read_text().splitlines()
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert main(["play", "--resume", str(path), "--players", "rule28,rule28", "--seed", "5"]) == 0
    out = capsys.readouterr().out
    assert f"resuming {path}" in out
    assert "wins!" in out
    after = replay_record(path)
    assert after.phase is Phase.OVER
    lines_after = path.read_text().splitlines()
    assert lines_after[: len(lines_before)] == lines_before
    assert len(lines_after) > len(lines_before)
    # Replaying the old prefix gives the state the first session ended in.
    prefix = tmp_path / "prefix.jsonl"
    prefix.write_text("\n".join(lines_before) + "\n")
    assert replay_record(prefix) == before


def test_resume_of_a_finished_game_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "done.jsonl"
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert main(["play", "--players", "rule28,rule28", "--seed", "4", "--record", str(path)]) == 0
    winner = replay_record(path).winner
    capsys.readouterr()
    assert main(["play", "--resume", str(path)]) == 0
    assert f"this game is over: player {winner} won" in capsys.readouterr().out


def test_resume_of_a_bad_record_is_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text("not json\n")
    assert main(["play", "--resume", str(path)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"cantstop play: {path}: ")
    assert "Traceback" not in err
    assert main(["play", "--resume", str(tmp_path / "missing.jsonl")]) == 2
    assert "no such record" in capsys.readouterr().err


@pytest.mark.parametrize("players", ["human,robot", "", "human,human,human,human,human"])
def test_bad_seats_are_rejected(players: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--players", players]) == 2
    assert "--players takes 1 to 4 of human, random, greedy, rule28" in capsys.readouterr().err


def test_board_colours_only_when_asked() -> None:
    state = parse_state("7:2/7:3 8:1 1d")
    plain = draw_board(state, Console(io.StringIO(), io.StringIO(), color=False))
    coloured = draw_board(state, Console(io.StringIO(), io.StringIO(), color=True))
    assert "\033[" not in plain
    assert "\033[31m0" in coloured
    assert "\033[34m1" in coloured
    assert ANSI.sub("", coloured) == plain


def test_board_shows_won_columns() -> None:
    state = new_game(Rules(players=2, variant=Variant.A))
    assert "*" not in draw_board(state, Console(io.StringIO(), io.StringIO()))
    won = parse_state("2:3/- - 1r")
    assert draw_board(won, Console(io.StringIO(), io.StringIO())).splitlines()[-1].strip() == "*0"


def _pty_session(env: dict[str, str], answers: list[str], record: Path) -> str:
    """Run ``cantstop play`` in a pseudo-terminal, answering each prompt in turn."""
    main_fd, child_fd = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "cantstop", "play", "--seed", "3", "--record", str(record)],
        stdin=child_fd,
        stdout=child_fd,
        stderr=child_fd,
        cwd=ROOT,
        env=env,
        close_fds=True,
    )
    os.close(child_fd)
    output = b""
    pending = list(answers)
    deadline = time.monotonic() + 60
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([main_fd], [], [], 0.5)
            if ready:
                try:
                    chunk = os.read(main_fd, 4096)
                except OSError:
                    break
                if not chunk:
                    break
                output += chunk
                if pending and output.rstrip().endswith(b":"):
                    os.write(main_fd, pending.pop(0).encode() + b"\n")
            elif proc.poll() is not None:
                break
    finally:
        proc.wait(timeout=30)
        os.close(main_fd)
    return output.decode(errors="replace")


@pytest.fixture
def clean_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    env["PYTHONPATH"] = str(ROOT)
    return env


def test_pty_game_is_coloured(tmp_path: Path, clean_env: dict[str, str]) -> None:
    out = _pty_session(clean_env, ["1", "r", "oops", "2", "s", "q"], tmp_path / "g.jsonl")
    assert "\033[31m0" in out  # player 0's squares in red once they stopped
    assert "'oops' is not a choice" in out
    assert "the game is saved; continue it with: cantstop play --resume" in out
    assert replay_record(tmp_path / "g.jsonl").squares[0] == {5: 1, 7: 1, 8: 1}


def test_pty_game_respects_no_color(tmp_path: Path, clean_env: dict[str, str]) -> None:
    out = _pty_session({**clean_env, "NO_COLOR": "1"}, ["1", "s", "q"], tmp_path / "g.jsonl")
    assert "\033[" not in out
    assert "player 1 (rule28) to play" in out
