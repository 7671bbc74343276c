"""The terminal game (cantstop play): driven through its input stream and a pseudo-terminal."""

from __future__ import annotations

import contextlib
import io
import json
import os
import pty
import re
import resource
import select
import shlex
import signal
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

import pytest

from cantstop import (
    Action,
    Move,
    Phase,
    Roll,
    Rules,
    State,
    Variant,
    format_state,
    new_game,
    parse_state,
)
from cantstop.cli import main
from cantstop.conformance.verify import verify_record
from cantstop.play import (
    MAX_ANSWER,
    Console,
    NotAChoice,
    draw_board,
    games_folder,
    play,
    read_move,
)
from cantstop.players import Rule28Player
from cantstop.record import PlaySetup, RecordWriter, read_header, replay_record
from cantstop.text import render_board
from tests.independent import move_result, read_state, whole_roll_counts
from tests.streams import read_until

ROOT = Path(__file__).resolve().parent.parent
ANSI = re.compile(r"\033\[[0-9;]*m")

#: Dice 1 3 4 6 with the markers on 2 and 3: the pairings make 4 and 10, 5 and 9, and 7 and 7,
#: and one marker is left, so the choices are 4, 5, 7+7, 9 and 10 (R5.3, R6.2, R7.1).
FIVE_CHOICES = "-/- 2:1,3:1 0c1346"


def _session(state: State | str, answers: str, seed: int = 1) -> tuple[State, str]:
    """Play from ``state`` as player 0 (human) against the Rule of 28; return the end and output."""
    out = io.StringIO()
    start = parse_state(state) if isinstance(state, str) else state
    final = play(start, [None, Rule28Player()], seed, Console(io.StringIO(answers), out))
    return final, out.getvalue()


def _play(
    argv: list[str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    text: str = "",
) -> tuple[int, str, str]:
    """Run ``cantstop play ARGV`` with ``text`` as its input; return status, stdout, stderr."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    status = main(["play", *argv])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


# -- Input that cannot be misread ------------------------------------------------------------


def test_the_choices_are_keyed_by_letters() -> None:
    """The five choices are listed a) to e), which no column number can be mistaken for."""
    _, out = _session(FIVE_CHOICES, "q\n")
    assert "a) 4  b) 5  c) 7+7  d) 9  e) 10" in out
    assert "your move [a-e]:" in out


def test_a_number_is_a_column_never_a_place_in_the_list() -> None:
    """Typing 4 among the choices 4, 5, 7+7, 9, 10 plays column 4, not the fourth choice."""
    final, _ = _session(FIVE_CHOICES, "4\nq\n")
    assert final.markers == {2: 1, 3: 1, 4: 1}
    final, _ = _session(FIVE_CHOICES, "d\nq\n")
    assert final.markers == {2: 1, 3: 1, 9: 1}


@pytest.mark.parametrize("answer", ["7+10", "10+7", "7 10", "10 7", " 7 + 10 ", "10,7", "A", "a"])
def test_a_move_is_read_in_any_order_and_spacing(answer: str) -> None:
    """``7+10``, ``10+7``, ``7 10`` and the letter all play the same move."""
    final, _ = _session("-/- - 0c3455", f"{answer}\nq\n")
    assert final.markers == {7: 1, 10: 1}


def test_read_move_explains_each_mistake() -> None:
    """Every answer that names no choice gets a message that says why."""
    moves = parse_state(FIVE_CHOICES).legal_moves()
    assert read_move("13", moves) == NotAChoice(
        "13 is not a column: the sum of two dice is 2 to 12"
    )
    assert str(read_move("0", moves)) == "0 is not a column: the sum of two dice is 2 to 12"
    assert str(read_move("999999999999999", moves)).startswith(  # 15 digits: quoted whole
        "999999999999999 is not a column"
    )
    assert str(read_move("99999999999999999999", moves)).startswith(
        "99999…99999 (20 digits) is not a column"
    )
    assert str(read_move("9" * 5000, moves)).startswith(
        "99999…99999 (5,000 digits) is not a column"
    )
    assert str(read_move("4 5 6", moves)) == (
        "'4 5 6' names 3 sums; a move plays one or two (rule R4.3)"
    )
    assert str(read_move("4+10", moves)) == (
        "4+10 is not a choice with these dice; the choices are a) 4  b) 5  c) 7+7  d) 9  e) 10"
    )
    assert str(read_move("f", moves)).startswith("'f' is not a choice: type a letter from a to e")
    assert read_move("7+7", moves) == Move((7, 7))


def test_typos_get_clear_messages_and_the_game_goes_on(tmp_path: Path) -> None:
    """Mistakes at either prompt are answered, and the game and its record go on."""
    path = tmp_path / "g.jsonl"
    rules = Rules()
    start = parse_state(FIVE_CHOICES)
    out = io.StringIO()
    answers = "0\nxyz\n4+10\ne\nmaybe\ns\nq\n"
    with path.open("w", encoding="utf-8") as file:
        writer = RecordWriter(file, rules)
        final = play(start, [None, Rule28Player()], 3, Console(io.StringIO(answers), out), writer)
    text = out.getvalue()
    assert "0 is not a column" in text
    assert "'xyz' is not a choice: type a letter from a to e" in text
    assert "4+10 is not a choice with these dice" in text
    assert "'maybe' is not a choice: type r to roll again, s to stop, help for the commands" in text
    assert "game left unfinished" in text
    # Player 0 played 10 and stopped: squares on 2, 3 and 10.
    assert dict(final.squares[0]) == {2: 1, 3: 1, 10: 1}


def test_help_lists_the_commands_at_both_prompts() -> None:
    """``help`` lists the commands, at a choice of moves and before a roll."""
    _, out = _session(FIVE_CHOICES, "help\nq\n")
    assert "commands:" in out
    for command in ("a to e", "7+10, 10 7", "odds", "board", "?", "help", "q "):
        assert command in out
    for answer in ("help", "?"):
        _, out = _session("-/- 7:1 0d", f"{answer}\nq\n")
        for command in ("r, roll", "s, stop", "odds", "board", "help, ?", "q "):
            assert command in out


def test_question_mark_at_a_choice_explains_the_roll() -> None:
    """``?`` at a choice prints the explanation of the roll, the same as ``cantstop explain``."""
    from cantstop.explanation import explain

    _, out = _session(FIVE_CHOICES, "?\nq\n")
    for line in explain(parse_state(FIVE_CHOICES)).text().splitlines():
        assert line in out
    assert "commands:" not in out


def test_odds_gives_the_bust_chance_after_each_choice() -> None:
    """``odds`` at a choice: for each move, the rolls of 1296 that bust after it, counted apart."""
    _, out = _session(FIVE_CHOICES, "odds\nq\n")
    lines = [line.strip() for line in out.splitlines() if "of the 1296 rolls" in line]
    position = read_state(FIVE_CHOICES)
    for key, sums, text in [
        ("a", (4,), "4"),
        ("b", (5,), "5"),
        ("c", (7, 7), "7+7"),
        ("d", (9,), "9"),
        ("e", (10,), "10"),
    ]:
        # The independent implementation counts the busting rolls of the state after the move.
        busts = whole_roll_counts(read_state(move_result(position, sums)))[1]
        assert busts > 0  # three markers placed: some rolls bust
        line = next(line for line in lines if line.startswith(f"{key}) {text} "))
        tenths = (2000 * busts + 1296) // 2592  # halves up, as spec/explain.md X4.1 rounds
        assert line.endswith(f"{busts} of the 1296 rolls ({tenths // 10}.{tenths % 10}%)")


def test_bust_odds_are_shown_before_each_decision() -> None:
    """Before rolling again, the exact chance of busting is shown (independently counted)."""
    _, out = _session("-/- 2:1,3:1,4:1 0d", "q\n")
    busts = whole_roll_counts(read_state("-/- 2:1,3:1,4:1 0d"))[1]
    assert f"chance of busting on the next roll: {busts} of the 1296 rolls" in out
    _, out = _session("-/- 7:1 0d", "q\n")
    assert "no roll can bust now" in out


def test_end_of_input_leaves_the_game_unfinished() -> None:
    final, out = _session("-/- - 0c3455", "")
    assert "game left unfinished" in out
    assert final.phase is Phase.CHOOSE


def test_variant_b_forbidden_stop_is_explained() -> None:
    _, out = _session("-/7:3 7:3 0d B", "s\nq\n")
    assert "(rule R14.2): roll again" in out


# -- The board ---------------------------------------------------------------------------------


def _assert_aligned(lines: list[str]) -> None:
    """Every mark on a board line starts where its column's number starts in the header."""
    header, *rows = lines
    starts = {m.start() for m in re.finditer(r"\d+", header)}
    for row in rows:
        for mark in re.finditer(r"\S+", row[3:]):
            assert mark.start() + 3 in starts, (row, sorted(starts))


def test_board_stays_aligned_with_four_players_on_one_space() -> None:
    """Four players' squares and a marker on one space do not push the columns out of line."""
    state = parse_state("7:3,8:4/6:1,7:4/7:4/7:4,12:1 7:4,8:5 0d")
    board = render_board(state).splitlines()
    assert any("123^" in line for line in board)
    _assert_aligned(board[: 1 + 13])
    coloured = draw_board(state, Console(io.StringIO(), io.StringIO(), color=True))
    _assert_aligned(ANSI.sub("", coloured).splitlines()[: 1 + 13])


def test_board_has_a_legend_and_the_position_in_notation() -> None:
    """The drawing ends with a legend and the state in notation, which reads back as the state."""
    for text in ("-/- - 0r", "7:2/7:3 8:1 1d", "2:3/- 7:4 1c1122", "2:3,3:5,4:7/- - 0x"):
        state = parse_state(text)
        lines = draw_board(state, Console(io.StringIO(), io.StringIO())).splitlines()
        assert lines[-2].startswith("legend: 0 1 squares of players 0 and 1, ^ neutral marker")
        assert lines[-1].startswith("position: ")
        assert parse_state(lines[-1].removeprefix("position: ")) == state


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
    assert "*" not in draw_board(state, Console(io.StringIO(), io.StringIO())).split("legend")[0]
    won = parse_state("2:3/- - 1r")
    lines = draw_board(won, Console(io.StringIO(), io.StringIO())).splitlines()
    assert lines[-3].strip() == "*0"


# -- The record: seats, rules, seed, and never losing a game -----------------------------------


def test_the_record_holds_the_seats_the_rules_and_the_seed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The header of a new game's record says who sits where, the rules and the seed."""
    path = tmp_path / "g.jsonl"
    argv = ["--players", "human,greedy,rule28", "--seed", "77", "--variant", "A"]
    argv += ["--columns-to-win", "2", "--first-player", "2", "--record", str(path)]
    status, out, _ = _play(argv, monkeypatch, capsys)
    assert status == 0
    assert f"game record: {path} (seed 77)" in out
    with path.open(encoding="utf-8") as file:
        header, _lines = read_header(file)
    assert header.play == PlaySetup(("human", "greedy", "rule28"), 77)
    assert header.rules == Rules(players=3, columns_to_win=2, variant=Variant.A)
    assert header.first_player == 2
    assert verify_record(path, io.StringIO()) == 0


def _bot_game(
    path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> list[str]:
    """Play a whole game of the random player against the Rule of 28 into ``path``."""
    argv = ["--players", "random,rule28", "--seed", "8", "--record", str(path)]
    assert _play(argv, monkeypatch, capsys)[0] == 0
    return path.read_text(encoding="utf-8").splitlines(keepends=True)


def test_resume_restores_the_seats_and_the_seed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A game stopped anywhere and resumed ends exactly as the game played in one go."""
    whole = _bot_game(tmp_path / "whole.jsonl", monkeypatch, capsys)
    assert replay_record(tmp_path / "whole.jsonl").phase is Phase.OVER
    for cut in (2, 7, len(whole) // 2, len(whole) - 1):
        part = tmp_path / f"part{cut}.jsonl"
        part.write_text("".join(whole[:cut]), encoding="utf-8")
        status, out, err = _play(["--resume", str(part)], monkeypatch, capsys)
        assert (status, err) == (0, "")
        assert f"resuming {part}: {cut - 1} actions; seats 0 random, 1 rule28; seed 8" in out
        assert part.read_text(encoding="utf-8") == "".join(whole)


def test_resume_of_you_against_the_rule_of_28_keeps_the_bot(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The person's game against the Rule of 28 comes back with the Rule of 28 in its seat."""
    path = tmp_path / "g.jsonl"
    status, _, _ = _play(["--record", str(path), "--seed", "5"], monkeypatch, capsys, "a\ns\n")
    assert status == 0
    status, out, _ = _play(["--resume", str(path)], monkeypatch, capsys, "a\ns\nq\n")
    assert status == 0
    assert "seats 0 human, 1 rule28; seed 5" in out
    assert "rule28 plays " in out
    assert "player 1 (rule28) to play" in out


@pytest.mark.parametrize(
    ("options", "reason"),
    [
        (["--players", "human,human"], "--players human,human: the record seats human,rule28"),
        (["--seed", "6"], "--seed 6: the game's seed is 5"),
        (["--variant", "B"], "--variant B: the game is played under standard rules"),
        (["--columns-to-win", "2"], "--columns-to-win 2: the game is played to 3 columns"),
        (["--first-player", "1"], "--first-player 1: the game was begun by player 0"),
        (["--record", "other.jsonl"], "--record names the file of a new game"),
    ],
)
def test_resume_refuses_options_that_contradict_the_record(
    options: list[str],
    reason: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """An option that the record contradicts is refused, with the reason; nothing changes."""
    path = tmp_path / "g.jsonl"
    assert _play(["--record", str(path), "--seed", "5"], monkeypatch, capsys, "a\n")[0] == 0
    before = path.read_bytes()
    status, _, err = _play(["--resume", str(path), *options], monkeypatch, capsys)
    assert status == 2
    assert err.count("\n") == 1
    assert err.startswith(f"cantstop play: error: the record {path} says otherwise: ")
    assert reason in err
    assert path.read_bytes() == before


def test_resume_accepts_options_that_agree_with_the_record(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "g.jsonl"
    assert _play(["--record", str(path), "--seed", "5"], monkeypatch, capsys, "a\n")[0] == 0
    agree = ["--seed", "5", "--players", "human,rule28", "--first-player", "0"]
    agree += ["--columns-to-win", "3"]
    status, out, _ = _play(["--resume", str(path), *agree], monkeypatch, capsys)
    assert status == 0
    assert "resuming" in out


def test_resume_of_a_record_without_seats(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A record from before the play field: seats from --players, and from then on kept."""
    old = (
        '{"record":"cantstop","version":1,"rules":{},"first_player":0}\n'
        '{"action":{"type":"roll","dice":[3,4,5,5]}}\n'
    )
    path = tmp_path / "old.jsonl"
    path.write_text(old, encoding="utf-8")
    status, out, _ = _play(["--resume", str(path)], monkeypatch, capsys)
    assert status == 0
    assert "the record does not say who plays: 2 human seats (see --players)" in out
    path.write_text(old, encoding="utf-8")
    argv = ["--resume", str(path), "--players", "human,greedy", "--seed", "4"]
    assert _play(argv, monkeypatch, capsys)[0] == 0
    with path.open(encoding="utf-8") as file:
        assert read_header(file)[0].play == PlaySetup(("human", "greedy"), 4)
    status, out, _ = _play(["--resume", str(path)], monkeypatch, capsys)
    assert status == 0
    assert "seats 0 human, 1 greedy; seed 4" in out


def test_the_exit_hint_is_the_exact_command_that_continues(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The command printed on leaving, run as it is, continues the same game."""
    folder = tmp_path / "my games"
    folder.mkdir()
    path = folder / "it's mine.jsonl"
    status, out, _ = _play(["--record", str(path), "--seed", "5"], monkeypatch, capsys, "a\nq\n")
    assert status == 0
    hint = out.strip().splitlines()[-1]
    assert hint.startswith("the game is saved; continue it with: ")
    argv = shlex.split(hint.split(": ", 1)[1])
    assert argv[:3] == ["cantstop", "play", "--resume"]
    assert Path(argv[3]) == path
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert main(argv[1:]) == 0
    assert f"resuming {path}: 2 actions" in capsys.readouterr().out


def test_record_refuses_to_replace_an_existing_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--record`` of a file that exists is refused unless ``--force``; the file is kept."""
    path = tmp_path / "done.jsonl"
    whole = _bot_game(path, monkeypatch, capsys)
    status, _, err = _play(["--record", str(path)], monkeypatch, capsys)
    assert status == 2
    assert err == (
        f"cantstop play: error: {path} exists; give --force to replace it, or continue its "
        f"game with: cantstop play --resume {shlex.quote(str(path))}\n"
    )
    assert path.read_text(encoding="utf-8") == "".join(whole)
    status, _, _ = _play(["--record", str(path), "--force"], monkeypatch, capsys)
    assert status == 0
    assert path.read_text(encoding="utf-8") != "".join(whole)


def test_a_game_without_record_is_kept_in_the_data_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Without ``--record`` the game goes to $XDG_DATA_HOME/cantstop/games, not the cwd."""
    here = tmp_path / "here"
    here.mkdir()
    monkeypatch.chdir(here)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    status, out, _ = _play(["--players", "rule28,rule28", "--seed", "3"], monkeypatch, capsys)
    assert status == 0
    assert list(here.iterdir()) == []
    (saved,) = (tmp_path / "data" / "cantstop" / "games").iterdir()
    assert saved.name.startswith("game-")
    assert f"game record: {saved} (seed 3)" in out
    assert replay_record(saved).phase is Phase.OVER
    # A second game in the same second gets a name of its own.
    assert _play(["--players", "rule28", "--seed", "3"], monkeypatch, capsys)[0] == 0
    assert len(list((tmp_path / "data" / "cantstop" / "games").iterdir())) == 2


@pytest.mark.skipif(sys.platform in ("win32", "darwin"), reason="the XDG convention")
def test_games_folder_follows_the_xdg_convention(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("XDG_DATA_HOME", "/srv/data")
    assert games_folder() == Path("/srv/data/cantstop/games")
    monkeypatch.delenv("XDG_DATA_HOME")
    assert games_folder() == tmp_path / ".local/share/cantstop/games"
    monkeypatch.setenv("XDG_DATA_HOME", "relative/data")  # ignored, as the convention says
    assert games_folder() == tmp_path / ".local/share/cantstop/games"


def test_a_torn_last_line_is_dropped_with_a_warning(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A line cut short by a kill is dropped on resume; the lines before it are all kept."""
    whole = _bot_game(tmp_path / "whole.jsonl", monkeypatch, capsys)
    path = tmp_path / "torn.jsonl"
    cut = len(whole) // 2
    path.write_text("".join(whole[:cut]) + whole[cut][: len(whole[cut]) // 2], encoding="utf-8")
    status, _, err = _play(["--resume", str(path)], monkeypatch, capsys)
    assert status == 0
    assert err.startswith(f"cantstop play: warning: the last line of {path} was cut short")
    assert f"the {cut - 1} actions before it are kept" in err
    assert path.read_text(encoding="utf-8") == "".join(whole)


def test_a_bad_line_before_the_end_is_an_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Only a torn last line is forgiven: a broken line further up stops the resume."""
    whole = _bot_game(tmp_path / "whole.jsonl", monkeypatch, capsys)
    path = tmp_path / "bad.jsonl"
    path.write_text("".join(whole[:3]) + whole[3][:20] + "\n" + "".join(whole[4:]))
    status, _, err = _play(["--resume", str(path)], monkeypatch, capsys)
    assert status == 1
    assert err.startswith(f"cantstop play: error: {path}: line 4: not valid JSON")
    assert "Traceback" not in err


class _Watched(io.StringIO):
    """Answers that, before each is given, note the lines on the disk and the lines synced."""

    def __init__(self, answers: str, path: Path, synced: list[int], seen: list[tuple[int, int]]):
        super().__init__(answers)
        self.path, self.synced, self.seen = path, synced, seen

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        lines = len(self.path.read_text(encoding="utf-8").splitlines())
        self.seen.append((lines, self.synced[-1]))
        return super().readline()


def test_every_action_is_on_the_disk_before_the_next_prompt(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """At each prompt, every line written so far has been flushed and synced (os.fsync)."""
    path = tmp_path / "g.jsonl"
    synced = [0]  # the number of lines in the file at each os.fsync
    real_fsync = os.fsync

    def noting_fsync(fd: int) -> None:
        real_fsync(fd)
        if path.exists():
            synced.append(len(path.read_text(encoding="utf-8").splitlines()))

    monkeypatch.setattr(os, "fsync", noting_fsync)
    seen: list[tuple[int, int]] = []
    monkeypatch.setattr(sys, "stdin", _Watched("a\nr\na\ns\nq\n", path, synced, seen))
    assert main(["play", "--seed", "2", "--record", str(path)]) == 0
    capsys.readouterr()
    assert len(seen) >= 4
    for on_disk, in_last_sync in seen:
        assert on_disk >= 2  # the header and the first roll are there before the first prompt
        assert in_last_sync == on_disk


def test_ctrl_c_saves_the_game_and_exits_130(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    class Interrupting(io.StringIO):
        def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
            raise KeyboardInterrupt

    path = tmp_path / "g.jsonl"
    monkeypatch.setattr(sys, "stdin", Interrupting())
    assert main(["play", "--seed", "2", "--record", str(path)]) == 130
    out = capsys.readouterr().out
    assert "game interrupted and saved; continue it with: cantstop play --resume" in out
    assert replay_record(path).phase is Phase.CHOOSE


# -- Resume ------------------------------------------------------------------------------------


def test_resume_draws_the_board(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A resumed game shows the board and the position before the first question."""
    path = tmp_path / "g.jsonl"
    assert _play(["--record", str(path), "--seed", "5"], monkeypatch, capsys, "a\n")[0] == 0
    state = replay_record(path)
    assert state.phase is Phase.DECIDE
    status, out, _ = _play(["--resume", str(path)], monkeypatch, capsys)
    assert status == 0
    before_prompt = out.split("roll again or stop?")[0]
    assert "legend: " in before_prompt
    assert f"position: {format_state(state)}" in before_prompt


def test_resume_of_a_finished_game_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "done.jsonl"
    whole = _bot_game(path, monkeypatch, capsys)
    final = replay_record(path)
    status, out, _ = _play(["--resume", str(path)], monkeypatch, capsys)
    assert status == 0
    assert f"this game is over: player {final.winner} (" in out
    assert f"position: {format_state(final)}" in out
    assert path.read_text(encoding="utf-8") == "".join(whole)


def test_resume_of_a_bad_record_is_a_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text("not json\n")
    status, _, err = _play(["--resume", str(path)], monkeypatch, capsys)
    assert status == 1
    assert err.startswith(f"cantstop play: error: {path}: ")
    assert "Traceback" not in err
    status, _, err = _play(["--resume", str(tmp_path / "missing.jsonl")], monkeypatch, capsys)
    assert status == 2
    assert "no such record" in err


# -- Whole sessions: a kill, and a pseudo-terminal ---------------------------------------------


def test_a_game_killed_at_a_prompt_resumes_with_every_action(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Kill -9 at a prompt loses nothing: the record verifies and the game goes on from there."""
    path = tmp_path / "g.jsonl"
    proc = subprocess.Popen(
        [sys.executable, "-m", "cantstop", "play", "--seed", "5", "--record", str(path)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        cwd=ROOT,
    )
    assert proc.stdin is not None
    assert proc.stdout is not None
    with proc, proc.stdin, proc.stdout:
        out = read_until(proc.stdout.fileno(), b"your move", timeout=30)
        proc.stdin.write(b"a\n")
        proc.stdin.flush()
        out += read_until(proc.stdout.fileno(), b"roll again or stop?", timeout=30)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
    assert b"roll again or stop?" in out
    state = replay_record(path)
    assert state.phase is Phase.DECIDE  # the roll and the move are both there
    status, out_text, _ = _play(["--resume", str(path)], monkeypatch, capsys, "s\nq\n")
    assert status == 0
    assert "resuming" in out_text
    assert replay_record(path).squares[0] == state.markers


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
    out = _pty_session(clean_env, ["oops", "a", "s", "q"], tmp_path / "g.jsonl")
    assert "\033[31m0" in out  # player 0's squares in red once they stopped
    assert "'oops' is not a choice" in out
    assert "the game is saved; continue it with: cantstop play --resume" in out
    assert replay_record(tmp_path / "g.jsonl").squares[0]


def test_pty_game_respects_no_color(tmp_path: Path, clean_env: dict[str, str]) -> None:
    out = _pty_session({**clean_env, "NO_COLOR": "1"}, ["a", "s", "q"], tmp_path / "g.jsonl")
    assert "\033[" not in out
    assert "player 1 (rule28) to play" in out


# -- What happened: every roll shown, busts with their reason ---------------------------------


def _recorded(state: State, answers: str, seed: int) -> tuple[str, list[dict[str, object]]]:
    """Play from ``state`` into a record in memory; return the output and the action lines."""
    out, record = io.StringIO(), io.StringIO()
    writer = RecordWriter(record, state.rules)
    play(state, [None, Rule28Player()], seed, Console(io.StringIO(answers), out), writer)
    lines = [json.loads(line) for line in record.getvalue().splitlines()[1:]]
    return out.getvalue(), lines


#: The reason a sum with no free marker is dropped (spec/explain.md, reason.no-marker; R5.3).
NO_MARKER = r"column (\d+) has no marker and all three are in use \(R5\.3\)"


def test_a_persons_bust_shows_its_dice_and_why() -> None:
    """Rolling again with three markers on 2, 3 and 4: a bust shows the dice and the lost sums.

    With no marker free and none of 2, 3 or 4 on its top space, a roll busts exactly
    when no pairing makes 2, 3 or 4, and then every sum it makes needs a new marker
    (R5.3); the sums are the dice added in pairs, worked out here from the record.
    """
    busts = 0
    for seed in range(12):
        out, lines = _recorded(parse_state("-/- 2:1,3:1,4:1 0d"), "r\nq\n", seed)
        roll = lines[0]
        assert roll["action"]["type"] == "roll"  # type: ignore[index]
        dice: list[int] = roll["action"]["dice"]  # type: ignore[index]
        a, b, c, d = dice
        sums = sorted({a + b, c + d, a + c, b + d, a + d, b + c})
        if not roll["bust"]:
            assert "bust!" not in out
            continue
        busts += 1
        assert f"  dice: {a} {b} {c} {d}\n" in out
        (line,) = [line for line in out.splitlines() if line.startswith("  bust! ")]
        reasons, end = line.removeprefix("  bust! ").split(": ")
        assert end == "no pairing plays (R10.1), so the markers come off"
        # Each sum once, in the words of spec/explain.md's reason.no-marker sentence.
        found = [re.fullmatch(NO_MARKER, reason) for reason in reasons.split("; ")]
        told = [int(match[1]) for match in found if match is not None]
        assert len(told) == len(found), line
        assert sorted(told) == sums
    assert busts >= 2  # the seeds include busts


def test_every_bust_of_a_whole_game_is_shown_with_its_dice(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """In a game between built-in players, each roll the record marks a bust is told, dice first."""
    path = tmp_path / "g.jsonl"
    argv = ["--players", "random,rule28", "--seed", "8", "--record", str(path)]
    status, out, _ = _play(argv, monkeypatch, capsys)
    assert status == 0
    rolls = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()[1:]]
    busted = [line["action"]["dice"] for line in rolls if line.get("bust")]
    told = re.findall(r"  dice: (\d) (\d) (\d) (\d)\n  bust! ", out)
    assert busted  # the game has busts to tell
    assert [[int(d) for d in dice] for dice in told] == busted


def test_resume_shows_the_header_then_the_board_then_whose_turn(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Resumed within a turn: the header, the board, whose turn it is, then the prompt."""
    path = tmp_path / "g.jsonl"
    assert _play(["--record", str(path), "--seed", "5"], monkeypatch, capsys, "a\n")[0] == 0
    status, out, _ = _play(["--resume", str(path)], monkeypatch, capsys)
    assert status == 0
    marks = ["resuming ", "game record: ", "legend: ", "player 0 (human) to play", "roll again"]
    places = [out.index(mark) for mark in marks]
    assert places == sorted(places), out
    assert out.count("legend: ") == 1  # the board is drawn once before the question


def test_an_answer_in_capitals_is_read_or_quoted_as_typed() -> None:
    """``R`` rolls as ``r`` does; an answer that is no choice is quoted as it was typed."""
    final, out = _session("-/- 7:1 0d", "A\nq\n")
    assert "'A' is not a choice: type r to roll again, s to stop" in out
    assert final.phase is Phase.DECIDE
    final, out = _session("-/- 7:1 0d", "S\nq\n")
    assert final.squares[0] == {7: 1}
    _, out = _session(FIVE_CHOICES, "XYZ\nq\n")
    assert "'XYZ' is not a choice: type a letter from a to e" in out


def test_an_empty_line_asks_again_without_an_error() -> None:
    """Enter alone, or space alone, repeats the question and says nothing else."""
    final, out = _session(FIVE_CHOICES, "\n   \na\nq\n")
    assert "not a choice" not in out
    assert out.count("your move [a-e]: ") == 3
    assert final.markers == {2: 1, 3: 1, 4: 1}


# -- Hostile input: endless files, endless lines, bytes that are not text, full disks, links ----


class _EndlessLine(io.StringIO):
    """An input whose first line is ``length`` characters long, then ``rest``, made as read."""

    def __init__(self, length: int, rest: str) -> None:
        super().__init__()
        self.left, self.rest = length, rest

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        if self.left:
            take = self.left if size is None or size < 0 else min(size, self.left)
            self.left -= take
            return "x" * take + ("\n" if not self.left else "")
        line, _, self.rest = self.rest.partition("\n")
        return line + "\n" if line or self.rest else ""


def test_a_prompt_reads_a_long_line_in_bounded_pieces() -> None:
    """A 50-million-character line at a prompt is skipped in pieces, never held whole."""
    answers = _EndlessLine(50_000_000, "a\nq\n")
    out = io.StringIO()
    tracemalloc.start()
    try:
        final = play(parse_state(FIVE_CHOICES), [None, Rule28Player()], 1, Console(answers, out))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 2_000_000
    assert f"that line is over {MAX_ANSWER:,} characters long: type a shorter one" in out.getvalue()
    assert final.markers == {2: 1, 3: 1, 4: 1}  # the answer after it was read: a, column 4


def _run_play(
    argv: list[str], stdin: bytes, **options: object
) -> subprocess.CompletedProcess[bytes]:
    """Run ``python -m cantstop play ARGV`` in a child process from the repository."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), **options.pop("env", {})}  # type: ignore[dict-item]
    return subprocess.run(  # type: ignore[call-overload, no-any-return]
        [sys.executable, "-m", "cantstop", "play", *argv],
        input=stdin,
        capture_output=True,
        cwd=ROOT,
        env=env,
        timeout=120,
        **options,
    )


def test_bytes_that_are_not_utf8_at_a_strict_stdin(tmp_path: Path) -> None:
    """A strict UTF-8 stdin given byte 0xff: no choice, the game goes on, no traceback."""
    path = tmp_path / "x.jsonl"
    argv = ["--players", "human,rule28", "--seed", "3", "--record", str(path)]
    done = _run_play(argv, b"a\n\xff\ns\n", env={"PYTHONIOENCODING": "utf-8:strict"})
    assert done.returncode == 0, done.stderr
    assert b"Traceback" not in done.stderr
    assert "'\ufffd' is not a choice: type r to roll again".encode() in done.stdout
    assert replay_record(path).squares[0]  # the stop after it was played


def _peak_resuming(path: Path, monkeypatch: pytest.MonkeyPatch) -> int:
    """Resume the record at ``path`` (its game left at once); return the peak memory traced."""
    monkeypatch.setattr(sys, "stdin", io.StringIO("q\n"))
    tracemalloc.start()
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            assert main(["play", "--resume", str(path)]) == 0
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def _busting_turns(path: Path, turns: int) -> None:
    """Write a record of two people taking ``turns`` turns, each placing three markers and busting.

    Roll 1-1-6-6 and play 2+12, roll 1-1-1-2 and play 2+3, roll 3-3-4-4: 6, 7 and 8
    need a new marker and none is free (R5.3, R10.1), so every turn leaves the board empty.
    """
    rules = Rules()
    state = new_game(rules)
    turn: list[Action] = [
        *(Roll((1, 1, 6, 6)), Move((2, 12))),
        *(Roll((1, 1, 1, 2)), Move((2, 3))),
        Roll((3, 3, 4, 4)),
    ]
    with path.open("w", encoding="utf-8") as file:
        writer = RecordWriter(file, rules, play=PlaySetup(("human", "human"), 1))
        for _ in range(turns):
            for action in turn:
                state = state.apply(action)
                writer.append(action, state)
    assert state == new_game(rules, turns % 2)


def test_resume_streams_the_record_in_constant_memory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Resuming a record ten times longer (300 to 3,000 lines) costs about the same memory.

    Holding the text or the actions would take far more than the bound: the longer
    record is over 250 kB.
    """
    short, long = tmp_path / "short.jsonl", tmp_path / "long.jsonl"
    _busting_turns(short, 60)
    _busting_turns(long, 600)
    assert long.stat().st_size > 250_000
    _peak_resuming(long, monkeypatch)  # a first pass fills the interpreter's free lists
    _busting_turns(long, 600)
    grown = _peak_resuming(long, monkeypatch) - _peak_resuming(short, monkeypatch)
    assert grown < 50_000


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero")
def test_resume_refuses_a_device_or_a_pipe(tmp_path: Path) -> None:
    """``--resume /dev/zero`` or a named pipe is a usage error, never an endless read.

    The child runs with its address space bounded, so reading without end fails fast.
    """
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)

    def bounded() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))

    for path, kind in (("/dev/zero", "a character device"), (str(fifo), "a named pipe")):
        done = _run_play(["--resume", path], b"", preexec_fn=bounded)
        assert done.returncode == 2, done.stderr
        assert done.stderr.decode() == (
            f"cantstop play: error: --resume takes a record file, and {path} is {kind}\n"
        )


def test_resume_through_a_link_rewrites_the_file_it_points_to(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--resume LINK`` leaves the link a link: the game goes on in the file it points to."""
    target = tmp_path / "games" / "g.jsonl"
    target.parent.mkdir()
    whole = _bot_game(target, monkeypatch, capsys)
    target.write_text("".join(whole[:5]), encoding="utf-8")
    link = tmp_path / "link.jsonl"
    link.symlink_to(target)
    status, _, err = _play(["--resume", str(link)], monkeypatch, capsys)
    assert (status, err) == (0, "")
    assert link.is_symlink()
    assert link.resolve() == target
    assert target.read_text(encoding="utf-8") == "".join(whole)
    assert sorted(p.name for p in target.parent.iterdir()) == ["g.jsonl"]


def test_resume_on_a_full_disk_leaves_no_file_behind(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The record cannot be written afresh: one error line, the record as it was, no new file.

    The child may write no file past half the record's size (``RLIMIT_FSIZE``), so
    writing the record again fails as on a full disk (``EFBIG`` rather than ``ENOSPC``).
    """
    path = tmp_path / "g.jsonl"
    whole = _bot_game(path, monkeypatch, capsys)
    path.write_text("".join(whole[:-1]), encoding="utf-8")
    before = path.read_bytes()
    limit = len(before) // 2

    def small_files() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    done = _run_play(["--resume", str(path)], b"", preexec_fn=small_files)
    assert done.returncode == 2, done.stderr
    err = done.stderr.decode()
    assert err.startswith(f"cantstop play: error: cannot resume the record {path}: "), err
    assert done.stderr.count(b"\n") == 1
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["g.jsonl"]
