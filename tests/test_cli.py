"""The ``cantstop`` command line."""

from __future__ import annotations

import argparse
import ast
import importlib.metadata
import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

import cantstop
from cantstop import InvalidRules, NotationError, parse_state
from cantstop.cli import build_parser, main
from cantstop.commands import report_error
from cantstop.commands.report import MAX_LINE, UsageError


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


def test_a_rule_error_is_one_line_naming_the_rule_and_the_place(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Off a terminal, a refused state is the one ``error:`` line of the convention.

    The marker's 99 starts at index 8 of the text (counted by hand: ``7:2/- 7:``
    is eight characters), and R16.2 bounds a marker to its column's 13 spaces.
    """
    assert main(["show", "7:2/- 7:99 0d"]) == 1
    err = capsys.readouterr().err
    assert err == (
        "cantstop show: error: at position 8: a marker in column 7 is on space 99; "
        "the column has spaces 1 to 13 (rule R16.2)\n"
    )


def test_module_entry_point() -> None:
    """``python -m cantstop`` runs the command line."""
    done = subprocess.run(
        [sys.executable, "-m", "cantstop", "moves", "-/- - 0c1111"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout.strip() == "2+2"


# -- Bad arguments: one line on stderr, exit status 2, never a traceback ------------------------

ROOT = Path(__file__).resolve().parent.parent

#: A quick port for the ``conform`` rows: the reference engine, on one case.
PORT = ["--run", "moves-0001", "--", sys.executable, "-m", "cantstop", "serve"]


def _unreadable(tmp_path: Path) -> Path:
    """Return a file that exists and cannot be read by this process."""
    if os.geteuid() != 0:
        path = tmp_path / "locked.jsonl"
        path.write_text("{}\n")
        path.chmod(0)
        return path
    mem = Path("/proc/self/mem")  # a root process may read any file but this one (EIO)
    if not mem.exists():
        pytest.skip("no file is unreadable to root here")
    return mem


HUGE = "9" * 5000
FOLDER = "{tmp}/folder"
EXISTING = "{tmp}/existing.jsonl"
MISSING = "{tmp}/missing.jsonl"
UNREADABLE = "{unreadable}"

#: (argv, a fragment the one-line error must contain); ``{tmp}`` is a fresh folder holding
#: ``folder/`` and ``existing.jsonl``, ``{unreadable}`` a file this process cannot read.
BAD_ARGUMENTS: list[object] = [
    (["demo", "--seed", "x"], "--seed"),
    (["demo", "--seed", "-1"], "--seed"),
    (["demo", "--seed", HUGE], "--seed"),
    (["demo", "--players", "cautious,wizard"], "--players"),
    (["demo", "--players", "human,rule28"], "--players"),
    (["demo", "--players", "bold,,bold"], "--players"),
    (["spec", "extra"], "unrecognized arguments: extra"),
    (["show"], "state"),
    (["show", "-"], "stdin"),
    (["moves"], "state"),
    (["moves", "-"], "stdin"),
    (["perft", "-"], "stdin"),
    (["odds"], "give a state"),
    (["odds", "-"], "stdin"),
    (["odds", "--table", "-/- - 0r"], "not both"),
    (["explain"], "state"),
    (["explain", "-"], "stdin"),
    (["explain", "-/- - 0r", "7+10", "extra"], "unrecognized arguments: extra"),
    (["simulate", "--games", "0"], "--games"),
    (["simulate", "--games", "-5"], "--games"),
    (["simulate", "--games", HUGE], "--games"),
    (["simulate", "--processes", "-1"], "--processes"),
    (["simulate", "--processes", "0"], "--processes"),
    (["simulate", "--processes", "100000"], "--processes"),
    (["simulate", "--seed", "-1"], "--seed"),
    (["simulate", "--players", "rule28,nobody"], "--players"),
    (["simulate", "--players", "human,rule28"], "--players"),
    (["play", "--delay", "-1"], "--delay"),
    (["play", "--delay", "nan"], "--delay"),
    (["play", "--delay", "1e308"], "--delay"),
    (["play", "--first-player", "-1"], "--first-player"),
    (["play", "--first-player", "3"], "first_player"),
    (["play", "--columns-to-win", "0"], "--columns-to-win"),
    (["play", "--columns-to-win", "11", "--players", "human,rule28,rule28,rule28"], "R15"),
    (["play", "--seed", "-1"], "--seed"),
    (["play", "--seed", HUGE], "--seed"),
    (["play", "--players", "human,robot"], "--players"),
    (["play", "--players", "human,human,human,human,human"], "--players"),
    (["play", "--variant", "C"], "--variant"),
    (["play", "--record", "-"], "--record"),
    (["play", "--record", FOLDER], "folder"),
    (["play", "--record", "{tmp}/no/such/x.jsonl"], "cannot create"),
    (["play", "--record", EXISTING], "--force"),
    (["play", "--resume", MISSING], "no such record"),
    (["play", "--resume", FOLDER], "folder"),
    (["play", "--resume", "-"], "--resume"),
    (["play", "--resume", UNREADABLE], "cannot read"),
    pytest.param(
        ["play", "--resume", "/dev/zero"],
        "a character device",
        marks=pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero"),
    ),
    (["verify"], "GAME.jsonl"),
    pytest.param(["verify", MISSING], "missing.jsonl"),
    pytest.param(["verify", FOLDER], "folder"),
    pytest.param(["verify", "-"], "-"),
    (["verify", UNREADABLE], "error"),
    (["serve", "extra"], "unrecognized arguments: extra"),
    (["conform", "--known-failures", MISSING, *PORT], "missing.jsonl"),
    (["conform", "--known-failures", FOLDER, *PORT], "folder"),
    (["conform", "--known-failures", "-", *PORT], "-"),
    (["conform", "--known-failures", UNREADABLE, *PORT], "error"),
    (["conform", "--report", "{tmp}/no/such/r.json", *PORT], "r.json"),
    (["conform", "--timeout", "x", *PORT], "--timeout"),
    pytest.param(["conform", "--timeout", "0", *PORT], "timeout"),
    pytest.param(["conform", "--timeout", "-1", *PORT], "timeout"),
    pytest.param(["conform", "--max-failures", "-1", *PORT], "max-failures"),
    pytest.param(["conform", "--vectors", MISSING, *PORT], "vectors"),
    pytest.param(["conform", "--vectors", FOLDER, *PORT], "vectors"),
    pytest.param(
        ["conform", "--run", "nomatch*", "--", sys.executable, "-m", "cantstop", "serve"],
        "nomatch",
    ),
    # Every game: --game, and each game's own players, states and configurations.
    (["spec", "--game", "nosuch"], "--game"),
    (["show", "--game", "nosuch", "x"], "--game"),
    (["show", "--game", "tower", "-"], "stdin"),
    (["moves", "--game", "tower", "-"], "stdin"),
    (["perft", "--game", "finishline", "-"], "stdin"),
    (["demo", "--game", "tower", "--players", "runner"], "--players"),
    (["demo", "--game", "finishline", "--players", "rule28,random"], "--players"),
    (["demo", "--game", "tower", "--players", "human,runner"], "--players"),
    (["demo", "--game", "tower", "--seed", "-1"], "--seed"),
    (["simulate", "--game", "tower", "--players", "runner,nobody"], "--players"),
    # The rows are formatted with {tmp}, so braces of JSON are doubled.
    (["simulate", "--game", "finishline", "--rules", "{{nope"], "--rules"),
    (["simulate", "--game", "tower", "--rules", '{{"players": 3}}'], "--rules"),
    (["simulate", "--game", "tower", "--rules", '{{"board": "nope"}}'], "R12.3"),
    (["simulate", "--game", "finishline", "--games", "0"], "--games"),
    (["play", "--game", "tower", "--variant", "A"], "--variant"),
    (["play", "--game", "tower", "--columns-to-win", "2"], "--columns-to-win"),
    (["play", "--game", "finishline", "--resume", EXISTING], "names no game (a Can't Stop record)"),
    (["play", "--game", "finishline", "--players", "human"], "--players"),
    (["play", "--game", "finishline", "--players", "human,wizard"], "--players"),
    (["play", "--game", "tower", "--first-player", "3"], "R3.2"),
    (["play", "--game", "tower", "--record", FOLDER], "folder"),
]


def _subcommands() -> list[str]:
    parser = build_parser()
    (sub,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return list(sub.choices)


def _check_one_line_exit_2(
    argv: list[str], fragment: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status = main(argv)
    err = capsys.readouterr().err
    assert "Traceback" not in err
    lines = err.splitlines()
    assert status == 2, err
    assert len(lines) == 1, err
    assert lines[0].startswith(f"cantstop {argv[0]}: error: "), err
    assert fragment in lines[0], err
    assert len(lines[0]) <= MAX_LINE + 40, err


@pytest.mark.parametrize(("argv", "fragment"), BAD_ARGUMENTS)
def test_bad_arguments_are_one_line_and_exit_2(
    argv: list[str], fragment: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each subcommand refuses bad options with ``cantstop CMD: error: ...`` alone, status 2."""
    (tmp_path / "folder").mkdir()
    (tmp_path / "existing.jsonl").write_text('{"record":"cantstop","version":1,"rules":{}}\n')
    unreadable = _unreadable(tmp_path) if UNREADABLE in argv else None
    argv = [a.format(tmp=tmp_path, unreadable=unreadable) for a in argv]
    _check_one_line_exit_2(argv, fragment, capsys)


@pytest.mark.parametrize("command", _subcommands())
def test_every_subcommand_refuses_an_unknown_option(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Every registered subcommand, those added later included, keeps the one-line form."""
    # A subcommand that requires an argument may complain of its absence first.
    _check_one_line_exit_2([command, "--no-such-option"], "", capsys)


def test_the_table_covers_every_subcommand() -> None:
    """The table of bad arguments has rows for each subcommand the project ships."""
    covered = {getattr(row, "values", row)[0][0] for row in BAD_ARGUMENTS}  # type: ignore[index]
    shipped = {"demo", "spec", "show", "moves", "perft", "odds", "simulate", "play"}
    shipped |= {"verify", "conform", "serve", "explain"}
    assert shipped <= set(_subcommands())
    assert covered == shipped


def test_no_command_and_an_unknown_command_are_one_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The top-level parser keeps the one-line form too."""
    assert main([]) == 2
    assert capsys.readouterr().err.startswith("cantstop: error: ")
    assert main(["nosuch"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "invalid choice: 'nosuch'" in err


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    """``cantstop --version`` prints the package's version and exits 0."""
    assert main(["--version"]) == 0
    assert capsys.readouterr().out.strip() == f"cantstop {cantstop.__version__}"
    done = subprocess.run(
        [sys.executable, "-m", "cantstop", "--version"], capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == f"cantstop {importlib.metadata.version('cantstop')}"


def test_moves_of_a_state_that_is_not_choosing_says_why(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``moves`` on a state that is not choosing names what the player is doing, not ``none``."""
    assert main(["moves", "-/- 7:1 0d"]) == 0
    out = capsys.readouterr().out.strip()
    assert out.startswith("player 0 is deciding whether to roll or stop")
    assert main(["moves", "-/- - 1r"]) == 0
    assert capsys.readouterr().out.startswith("player 1 is about to roll")
    assert main(["moves", "2:3,3:5,4:7/- - 0x"]) == 0
    assert capsys.readouterr().out.startswith("the game is over: player 0 won")
    # A bust is not a state of its own: a roll that busts passes the turn (R10.2).
    assert main(["moves", "-/- 2:1,3:1,4:1 0c6666"]) == 1
    assert "(rule R10.1)" in capsys.readouterr().err


def test_show_draws_the_legend_and_the_position(capsys: pytest.CaptureFixture[str]) -> None:
    """``show`` ends with the position in notation, ready to paste, and a legend."""
    assert main(["show", "7:2/- 7:3 0d"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[-2] == "position: 7:2/- 7:3 0d"
    assert lines[-1].startswith("legend: 0 1 squares of players 0 and 1, ^ neutral marker")


# -- One report for every command -------------------------------------------------------------


class _Terminal(io.StringIO):
    """A stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def test_report_error_names_the_kind_of_problem_by_its_status() -> None:
    """Usage and file errors are 2, a broken rule 1, a bug 3; each is one line with the prefix."""
    cases: list[tuple[BaseException | str, int, str]] = [
        (UsageError("give a state"), 2, "cantstop show: error: give a state\n"),
        (
            FileNotFoundError(2, "No such file or directory", "x.jsonl"),
            2,
            "cantstop show: error: x.jsonl: No such file or directory\n",
        ),
        (InvalidRules("players must be 1 to 4, not 5", "R15.1"), 1, "(rule R15.1)\n"),
        ("2 examples fail", 1, "cantstop show: error: 2 examples fail\n"),
        (KeyError("x"), 3, "cantstop show: error: internal error, a bug in cantstop: KeyError"),
    ]
    for problem, status, text in cases:
        err = io.StringIO()
        assert report_error("show", problem, err) == status
        assert err.getvalue().count("\n") == 1
        assert err.getvalue().startswith("cantstop show: error: ")
        assert text in err.getvalue()


def test_an_internal_error_shows_its_traceback_when_asked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A bug is status 3 and one line saying how to see more; CANTSTOP_TRACEBACK shows where."""

    def broken() -> None:
        raise ZeroDivisionError("division by zero")

    try:
        broken()
    except ZeroDivisionError as exc:
        bug = exc
    monkeypatch.delenv("CANTSTOP_TRACEBACK", raising=False)
    err = io.StringIO()
    assert report_error("show", bug, err) == 3
    assert err.getvalue() == (
        "cantstop show: error: internal error, a bug in cantstop: ZeroDivisionError: "
        "division by zero (set CANTSTOP_TRACEBACK=1 to see where)\n"
    )
    for off in ("", "0"):
        monkeypatch.setenv("CANTSTOP_TRACEBACK", off)
        err = io.StringIO()
        report_error("show", bug, err)
        assert err.getvalue().count("\n") == 1
    monkeypatch.setenv("CANTSTOP_TRACEBACK", "1")
    err = io.StringIO()
    assert report_error("show", bug, err) == 3
    first, *rest = err.getvalue().splitlines()
    assert first == (
        "cantstop show: error: internal error, a bug in cantstop: ZeroDivisionError: "
        "division by zero"
    )
    assert rest[0] == "Traceback (most recent call last):"
    assert any("in broken" in line for line in rest)
    assert rest[-1] == "ZeroDivisionError: division by zero"


def test_a_command_that_hits_a_bug_exits_3_with_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """Through the command line: a bug inside a command is status 3, never a traceback."""
    import cantstop.text

    def broken(*args: object) -> int:
        raise KeyError("x")

    monkeypatch.delenv("CANTSTOP_TRACEBACK", raising=False)
    monkeypatch.setattr(cantstop.text, "render_board", broken)
    err = io.StringIO()
    monkeypatch.setattr(sys, "stderr", err)
    assert main(["show", "- - 0r"]) == 3
    assert err.getvalue().startswith("cantstop show: error: internal error, a bug in cantstop")
    assert "Traceback" not in err.getvalue()


def test_the_caret_is_shown_at_a_terminal_only() -> None:
    """A notation error's text and caret follow the line at a terminal; a pipe gets one line."""
    try:
        parse_state("7:2/- 7:99 0d")
    except NotationError as exc:
        error = exc
    pipe, terminal = io.StringIO(), _Terminal()
    report_error("show", error, pipe)
    report_error("show", error, terminal)
    assert pipe.getvalue().count("\n") == 1
    # Position 8 is the 9 of 99: the caret stands under it, two spaces in, as the text is.
    assert terminal.getvalue().splitlines()[1:] == ["  7:2/- 7:99 0d", "          ^"]


def test_a_report_is_never_longer_than_its_bound() -> None:
    """A message quoting a 120 KB text is cut, and says how much was left out."""
    err = io.StringIO()
    report_error("show", UsageError("bad: " + "x" * 120_000), err)
    line = err.getvalue()
    assert len(line) <= MAX_LINE + len("cantstop show: error: \n")
    assert "more characters)" in line


#: Commands given a 120,000-character argument where a short one belongs.
LONG = "x" * 120_000
LONG_ARGUMENTS = [
    ["show", LONG],
    ["moves", "7:2/- 7:99 0d" + LONG],
    ["demo", "--players", LONG],
    ["simulate", "--players", LONG],
    ["play", "--players", LONG],
    ["play", "--variant", LONG],
    ["play", "--seed", LONG],
    ["odds", LONG],
    ["perft", LONG],
    ["explain", LONG],
    ["explain", "-/- - 0r", LONG],
    ["show", "--game", "tower", LONG],
    ["moves", "--game", "finishline", LONG],
    ["perft", "--game", "tower", LONG],
    ["demo", "--game", "finishline", "--players", LONG],
    ["simulate", "--game", "tower", "--players", LONG],
    ["play", "--game", "tower", "--players", LONG],
]


@pytest.mark.parametrize("argv", LONG_ARGUMENTS, ids=lambda argv: " ".join(a[:12] for a in argv))
def test_a_long_argument_is_quoted_short(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    """Whatever a command quotes of a long argument, its error line stays short."""
    status = main(argv)
    err = capsys.readouterr().err
    assert status in (1, 2)
    assert err.count("\n") == 1
    assert err.startswith(f"cantstop {argv[0]}: error: ")
    assert len(err) <= MAX_LINE + 40


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module is not None:
            found.add(node.module)
    return found


#: The modules that hold command-line code besides the commands package: the entry points,
#: and Can't Stop's own part of the commands, which its layer object gives them.
COMMAND_CODE = {
    "cantstop/cli.py",
    "cantstop/__main__.py",
    "cantstop/commandline.py",
    "cantstop/playcommand.py",
    "cantstop/solvecommand.py",
}
#: Modules run with ``python -m`` whose ``main`` hands the command line over to
#: ``cantstop/commands``.
HANDS_OVER = {"cantstop/study.py"}


def test_rule_modules_import_neither_argparse_nor_the_commands() -> None:
    """Argparse and the commands live in ``cantstop/commands``; no other module reaches them.

    The conformance package's own command modules are left to it.
    """
    package = ROOT / "cantstop"
    for path in sorted(package.rglob("*.py")):
        name = path.relative_to(ROOT).as_posix()
        if name in COMMAND_CODE or name.startswith(("cantstop/commands/", "cantstop/conformance")):
            continue
        imported = _imports(path)
        assert "argparse" not in imported, name
        if name in HANDS_OVER:
            continue
        assert not {m for m in imported if m.startswith(("cantstop.commands", "cantstop.cli"))}, (
            name
        )


def test_spec_check_reports_failing_examples_on_stderr(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A failing example is listed on stdout and ends in the error line and status 1."""
    from cantstop.spec import load_spec
    from dicekit import spec as layer

    example = load_spec().examples[0]
    monkeypatch.setattr(
        layer,
        "iter_failures",
        lambda game, spec: iter([(example, f"{example.id}: wrong")]),
    )
    assert main(["spec", "--check"]) == 1
    captured = capsys.readouterr()
    assert f"{example.id}: wrong" in captured.out
    first = f"{example.id}: wrong"
    assert captured.err == (
        f"cantstop spec: error: 1 example fails against the engine; the first: {first}\n"
    )


def test_spec_of_can_t_stop_that_does_not_read_is_one_error_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Can't Stop's spec is read as every game's: a malformed file is status 1, no traceback."""
    from dicekit import spec as layer

    def malformed(game: object) -> None:
        raise ValueError("rules/05-placing.md:12: an example block without an id")

    monkeypatch.setattr(layer, "load_game_spec", malformed)
    assert main(["spec"]) == 1
    assert capsys.readouterr().err == (
        "cantstop spec: error: the spec of Can't Stop does not read: "
        "rules/05-placing.md:12: an example block without an id\n"
    )


#: The command-line modules and the modules of the terminal game and its players.
COMMAND_LINE_MODULES = [
    *sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "cantstop" / "commands").glob("*.py")),
    "cantstop/cli.py",
    "cantstop/demo.py",
    "cantstop/play.py",
    "cantstop/players.py",
    "cantstop/savedgames.py",
    "cantstop/simulate.py",
    "cantstop/text.py",
]


@pytest.mark.parametrize("name", COMMAND_LINE_MODULES)
def test_each_module_is_short_and_says_its_concern(name: str) -> None:
    """No module is over 600 lines, and its docstring's first line names what it is for."""
    text = (ROOT / name).read_text(encoding="utf-8")
    assert text.count("\n") <= 600
    doc = ast.get_docstring(ast.parse(text))
    assert doc is not None, name
    first = doc.splitlines()[0]
    assert first.endswith("."), name
    assert len(first) > 20, name


#: Runs that fail a rule (exit status 1), one or more per command that can: each must say so
#: in its one error line on stderr, whatever it prints on stdout.
FAILING_RUNS = [
    ["show", "-/- - 9r"],
    ["moves", "-/- 2:1,3:1,4:1 0c6666"],
    ["perft", "7:2/- 7:99 0d"],
    ["odds", "-/- - 0c3455"],
    ["play", "--resume", "{tmp}/bad.jsonl"],
    ["explain", "7:2/- - 0c3455", "7"],
    ["explain", "7:2/- - 0c3455", "8+9+10"],
    ["show", "--game", "tower", "R0,12/B5 B 9t @ours"],
    ["moves", "--game", "finishline", "..../..../..../..../..../.... 0/0 0c37"],
    ["perft", "--game", "finishline", "..../..0./..../..../0.../.... 0/0 1c34"],
    ["perft", "--game", "tower", "R0,0/B0,0 - 0c35 @ours"],
]


@pytest.mark.parametrize("argv", FAILING_RUNS, ids=lambda argv: argv[0])
def test_a_failed_rule_is_reported_on_stderr(
    argv: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Status 1 always comes with the one ``cantstop CMD: error:`` line on stderr."""
    (tmp_path / "bad.jsonl").write_text('{"record":"cantstop","version":1}\n{"action":7}\n')
    status = main([a.format(tmp=tmp_path) for a in argv])
    captured = capsys.readouterr()
    assert status == 1
    assert captured.err.count("\n") == 1, captured.err
    assert captured.err.startswith(f"cantstop {argv[0]}: error: ")
    assert "error" not in captured.out
