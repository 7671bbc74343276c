"""The command line names no game but where games register, and reads what each game declares.

A source scan of every module of ``cantstop/commands/`` but the registration
(``games.py``): no import of a registered game's package, beyond the command
line's own and the few modules listed with their reason; no ``DEFAULT``; no
comparison with a game's name; no help text with a game's title.  Modules
kept at their path for a game's own commands hold nothing but the names
they pass on.  Each rule is first seen failing on a broken source.

A game installed as its own distribution, with command-line hooks
(:mod:`dicekit.commandline`), gets them from the commands with no edit here:
its option in a command's help and run, refused for another game, its
seats without ``--players`` and a command of its own.
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from dicekit import registry

ROOT = Path(__file__).resolve().parents[1]
COMMANDS = ROOT / "cantstop" / "commands"
#: The one module of the command line that names games: where ``--game`` is registered.
REGISTRATION = "games.py"
#: Modules kept at their documented path for one game's own commands: they pass names on.
KEPT = {"solve.py": "cantstop.solvecommand", "vectors.py": "cantstop.conformance.tools"}
#: Modules of a game's package that the command line may import, and why.
ALLOWED = {
    # The command line's own package.
    "cantstop.commands": "the command line itself",
    # The program's version, which is the distribution's and no game's.
    "cantstop.__version__": "the program's version",
    # The program's games folder and the creation of new record files, for every game.
    "cantstop.savedgames": "the folder where the program keeps every game's records",
}


def _games() -> dict[str, tuple[str, str]]:
    """Return each registered game's name, with its package and its title."""
    return {
        name: (target.partition(":")[0].split(".")[0], registry.load_game(name).info.title)
        for name, target in registry.registered().items()
    }


def _allowed(module: str) -> bool:
    return any(module == allowed or module.startswith(allowed + ".") for allowed in ALLOWED)


def _docstrings(tree: ast.AST) -> set[int]:
    """Return the ids of the docstring nodes of ``tree``: prose, not behaviour."""
    found = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        first = body[0] if isinstance(body, list) and body else None
        if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
            found.add(id(first.value))
    return found


def naming(source: str, games: dict[str, tuple[str, str]]) -> list[str]:
    """Return every place where ``source`` names one of ``games`` rather than reading its data."""
    tree = ast.parse(source)
    packages = {package for package, _ in games.values()}
    titles = [title for _, title in games.values()]
    prose = _docstrings(tree)
    found = []
    for node in ast.walk(tree):
        line = getattr(node, "lineno", 0)
        imported: list[str] = []
        if isinstance(node, ast.Import):
            imported = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module is not None:
            imported = [f"{node.module}.{alias.name}" for alias in node.names]
        for module in imported:
            if module.split(".")[0] in packages and not _allowed(module):
                found.append(f"line {line}: imports {module}")
        if isinstance(node, ast.Name) and node.id == "DEFAULT":
            found.append(f"line {line}: reads DEFAULT")
        if isinstance(node, ast.alias) and node.name == "DEFAULT":
            found.append("imports DEFAULT")
        if isinstance(node, ast.Compare):
            for side in (node.left, *node.comparators):
                if isinstance(side, ast.Constant) and side.value in games:
                    found.append(f"line {line}: compares with the game {side.value!r}")
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in prose:
            for title in titles:
                if title in node.value:
                    found.append(f"line {line}: says {title!r}")
    return found


def passes_on(source: str, target: str) -> bool:
    """Return whether ``source`` only passes on ``target``'s names (docstring, import, __all__)."""
    body = ast.parse(source).body
    kinds = [type(node).__name__ for node in body]
    imported = body[1] if len(body) > 1 else None
    return (
        kinds == ["Expr", "ImportFrom", "Assign"]
        and isinstance(imported, ast.ImportFrom)
        and imported.module == target
    )


def _modules() -> list[Path]:
    return sorted(path for path in COMMANDS.glob("*.py") if path.name != REGISTRATION)


def test_the_scan_sees_the_games_and_the_modules() -> None:
    """The registry gives the scan three packages and their titles; the modules are there."""
    games = _games()
    assert {package for package, _ in games.values()} >= {"cantstop", "finishline", "tower"}
    assert games["tower"][1] == "Off to the Tower"
    names = {path.name for path in _modules()}
    assert {"demo.py", "odds.py", "play.py", "playany.py", "state.py", "options.py"} <= names
    assert set(KEPT) <= names


@pytest.mark.parametrize("path", _modules(), ids=lambda p: p.name)
def test_no_module_of_the_command_line_names_a_game(path: Path) -> None:
    """Only the registration names games; a kept module only passes names on."""
    source = path.read_text(encoding="utf-8")
    if path.name in KEPT:
        assert passes_on(source, KEPT[path.name])
    else:
        assert naming(source, _games()) == []


def test_the_scan_catches_each_way_of_naming_a_game() -> None:
    """A source that special-cases games by name fails on every rule, line by line."""
    broken = textwrap.dedent(
        '''
        """Can't Stop in a docstring is prose, and allowed."""
        from cantstop.commands.games import DEFAULT
        from cantstop.odds import three_column_report
        import finishline.layer
        from cantstop import __version__
        from cantstop.commands.options import read_state

        def run(args):
            if args.game != DEFAULT:
                return 1
            if args.game == "tower":
                return 2
            raise ValueError("--table is Can't Stop's")
        '''
    )
    # The docstring, the command line's own modules and the version pass; the rest does not.
    assert sorted(naming(broken, _games())) == [
        "imports DEFAULT",
        "line 10: reads DEFAULT",
        "line 12: compares with the game 'tower'",
        'line 14: says "Can\'t Stop"',
        "line 4: imports cantstop.odds.three_column_report",
        "line 5: imports finishline.layer",
    ]


def test_the_scan_catches_a_kept_module_that_holds_code() -> None:
    """A module kept at its path that does more than pass on one module's names is refused."""
    kept = (COMMANDS / "solve.py").read_text(encoding="utf-8")
    assert passes_on(kept, "cantstop.solvecommand")
    assert not passes_on(kept + "\nif True:\n    pass\n", "cantstop.solvecommand")
    assert not passes_on(kept, "cantstop.conformance.tools")
    second = kept + "from cantstop.odds import three_column_report\n"
    assert not passes_on(second, "cantstop.solvecommand")


# -- a game installed by entry point, with hooks of its own ----------------------------------

HOOKED = '''
"""The toy game with command-line hooks, installed as a distribution of its own."""

import argparse
from dataclasses import replace

from dicekit.commandline import CommandHooks
from dicekit.protocol import Capability
from tests.dicekit.toy import Toy


class Hooks(CommandHooks):
    def add_options(self, command, parser):
        if command != "moves":
            return ()
        parser.add_argument("--count", action="store_true", help="count the legal actions")
        return ("--count",)

    def default_seats(self, command):
        return "random,random,random" if command == "demo" else None

    def command_modules(self):
        return ("hookedtoy",)

    def run(self, command, args):
        if command == "moves" and args.count:
            state = GAME.parse_state(args.state)
            print(f"{len(GAME.legal_actions(state))} legal actions")
            return 0
        return None


def add_commands(sub):
    rule = sub.add_parser("toyrule", help="say what wins the toy game")
    rule.set_defaults(run=lambda args: print("20 points win (R1.2)") or 0)


class HookedToy(Toy):
    info = replace(Toy.info, capabilities=Toy.info.capabilities | {Capability.COMMAND_LINE})

    def command_line(self):
        return Hooks()


GAME = HookedToy()
'''


@pytest.fixture(scope="module")
def hooked_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    site = tmp_path_factory.mktemp("hooked")
    (site / "hookedtoy.py").write_text(HOOKED, encoding="utf-8")
    info = site / "hookedtoy-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: hookedtoy\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(f"[{registry.GROUP}]\ntoy = hookedtoy:GAME\n")
    return site


def _cantstop(site: Path | None, *args: str) -> subprocess.CompletedProcess[str]:
    path = [str(ROOT)] if site is None else [str(site), str(ROOT)]
    return subprocess.run(
        [sys.executable, "-m", "cantstop", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=dict(os.environ, PYTHONPATH=os.pathsep.join(path)),
        timeout=300,
        check=False,
    )


def test_a_games_own_option_is_in_the_help_and_runs_its_way(hooked_site: Path) -> None:
    assert "--count" in _cantstop(hooked_site, "moves", "--help").stdout
    assert "--count" not in _cantstop(None, "moves", "--help").stdout
    counted = _cantstop(hooked_site, "moves", "--game", "toy", "--count", "0,0/4/0d")
    assert (counted.returncode, counted.stdout) == (0, "1 legal actions\n")
    plain = _cantstop(hooked_site, "moves", "--game", "toy", "0,0/4/0d")
    assert (plain.returncode, plain.stdout) == (0, "hold\n")


def test_a_games_own_option_is_refused_for_another_game(hooked_site: Path) -> None:
    refused = _cantstop(hooked_site, "moves", "--game", "tower", "--count", "R0,0/B0,0 - 0t @ours")
    assert refused.returncode == 2
    assert refused.stderr == (
        "cantstop moves: error: --count is an option of The toy game; Off to the Tower has none\n"
    )
    assert refused.stdout == ""


def test_a_games_own_seats_and_command(hooked_site: Path) -> None:
    demo = _cantstop(hooked_site, "demo", "--game", "toy", "--seed", "2")
    assert demo.returncode == 0, demo.stderr
    assert "player 2" in demo.stdout  # three seats: the hooks' default, not the layer's two
    two = _cantstop(
        hooked_site, "demo", "--game", "toy", "--seed", "2", "--players", "random,random"
    )
    assert "player 2" not in two.stdout
    rule = _cantstop(hooked_site, "toyrule")
    assert (rule.returncode, rule.stdout) == (0, "20 points win (R1.2)\n")
    assert "toyrule" in _cantstop(hooked_site, "--help").stdout
    assert "toyrule" not in _cantstop(None, "--help").stdout


# -- Can't Stop's own options, as the commands read them from its hooks ----------------------


@pytest.mark.parametrize(
    ("argv", "line"),
    [
        (
            ["odds", "--game", "tower", "--table"],
            "cantstop odds: error: --table is Can't Stop's; Off to the Tower has none",
        ),
        (
            ["play", "--game", "finishline", "--variant", "B", "--columns-to-win", "4"],
            "cantstop play: error: --columns-to-win is an option of Can't Stop; "
            "The finish-line race has none",
        ),
        (
            ["play", "--game", "tower", "--variant", "A"],
            "cantstop play: error: --variant is an option of Can't Stop; Off to the Tower has none",
        ),
        (
            ["serve", "--game", "finishline", "--mutant", "short-columns"],
            "cantstop serve: error: --mutant seeds bugs in Can't Stop's rules, not in finishline's",
        ),
    ],
)
def test_cant_stops_own_options_are_refused_for_another_game(
    argv: list[str], line: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Each refusal is worded as the command words it, before anything is played or written."""
    from cantstop.commands import main

    record = tmp_path / "never.jsonl"
    extra = ["--record", str(record)] if argv[0] == "play" else []
    assert main([*argv, *extra]) == 2
    captured = capsys.readouterr()
    assert (captured.out, captured.err) == ("", line + "\n")
    assert not record.exists()


def test_cant_stops_own_options_are_its_and_in_the_help(capsys: pytest.CaptureFixture[str]) -> None:
    """The options come from Can't Stop's hooks, into the help of their commands, and work."""
    from cantstop.commands import main
    from cantstop.commands.games import default_game, hooks

    own = hooks(default_game())
    assert own.default_seats("demo") == "cautious,bold"
    for command, flags in (("odds", ["--table"]), ("serve", ["--mutant"])):
        assert main([command, "--help"]) == 0
        shown = capsys.readouterr().out
        assert all(flag in shown for flag in flags), command
    assert main(["odds", "--table"]) == 0
    assert "columns" in capsys.readouterr().out
