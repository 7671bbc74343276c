"""The registry of games (dicekit.registry): games found by entry point, a new one with no edit.

The toy game of these tests is installed as a distribution of its own (a
``dist-info`` folder with its entry point, on the path of a child process),
and every command of the command line then offers and plays it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest

from dicekit import registry

ROOT = Path(__file__).resolve().parents[2]


def _install_toy(site: Path, target: str = "tests.dicekit.toy:TOY") -> None:
    """Install a distribution ``toygame`` whose one entry point registers ``target`` as ``toy``."""
    info = site / "toygame-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: toygame\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(f"[{registry.GROUP}]\ntoy = {target}\n")


def _cantstop(site: Path, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(site), str(ROOT)]))
    return subprocess.run(
        [sys.executable, "-m", "cantstop", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=300,
        check=False,
    )


@pytest.fixture(scope="module")
def toy_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    site = tmp_path_factory.mktemp("site")
    _install_toy(site)
    return site


def test_the_distribution_registers_its_three_games() -> None:
    assert {"cantstop", "finishline", "tower"} <= set(registry.names())
    for name in ("cantstop", "finishline", "tower"):
        assert registry.load_game(name).info.name == name


def test_a_source_tree_without_installed_entry_points_still_finds_its_games(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Run from a clone, with nothing installed, the tree's pyproject.toml names the games."""
    monkeypatch.setattr(metadata, "entry_points", lambda **_: [])
    assert registry.names() == ("cantstop", "finishline", "tower")
    assert registry.load_game("tower").info.title == "Off to the Tower"


def test_the_table_is_read_from_pyproject_text() -> None:
    text = (
        '[project]\nname = "x"\n'
        f'[project.entry-points."{registry.GROUP}"]\nmine = "pkg.layer:GAME"\n'
        '[project.entry-points."other.group"]\nnot_a_game = "pkg:x"\n'
    )
    assert registry.read_table(text) == {"mine": "pkg.layer:GAME"}
    assert registry.read_table('[project]\nname = "x"\n') == {}


def test_an_unknown_name_is_refused_naming_the_games() -> None:
    with pytest.raises(registry.RegistryError, match=r"no game is called 'chess'.*tower"):
        registry.load_game("chess")


def test_an_entry_that_is_not_a_game_object_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(
        registry,
        "registered",
        lambda: {
            "path": "os:path",
            "gone": "no_such_module_here:GAME",
            "tower": "tower.layer:GAME",
        },
    )
    with pytest.raises(registry.RegistryError, match="not the game object"):
        registry.load_game("path")
    with pytest.raises(registry.RegistryError, match="no_such_module_here"):
        registry.load_game("gone")


def test_a_game_installed_by_entry_point_is_offered_by_every_command(toy_site: Path) -> None:
    """``--game`` lists the toy, installed as its own distribution, with no edit here."""
    for command in ("spec", "show", "moves", "perft", "demo", "simulate", "play", "serve"):
        result = _cantstop(toy_site, command, "--help")
        assert result.returncode == 0, result.stderr
        assert "toy" in result.stdout, command
    assert "toy" not in _cantstop(ROOT / "tests", "demo", "--help").stdout


def test_a_game_installed_by_entry_point_is_played_by_the_commands(toy_site: Path) -> None:
    spec = _cantstop(toy_site, "spec", "--game", "toy", "--check")
    assert spec.returncode == 0
    assert spec.stdout.splitlines()[-1] == "15 passed, 0 failed"
    moves = _cantstop(toy_site, "moves", "--game", "toy", "0,0/4/0d")
    assert (moves.returncode, moves.stdout) == (0, "hold\n")
    perft = _cantstop(toy_site, "perft", "--game", "toy", "0,0/4/0d")
    assert perft.returncode == 0
    assert "choices=5" in perft.stdout
    demo = _cantstop(toy_site, "demo", "--game", "toy", "--seed", "1")
    assert demo.returncode == 0
    assert "wins after" in demo.stdout
    simulate = _cantstop(toy_site, "simulate", "--game", "toy", "--games", "10", "--seed", "1")
    assert simulate.returncode == 0
    assert "win rate" in simulate.stdout
    bad = _cantstop(toy_site, "show", "--game", "toy", "0,0/9/0q")
    assert bad.returncode == 1
    assert bad.stderr.startswith("cantstop show: error: ")
    served = _cantstop(
        toy_site, "serve", "--game", "toy", stdin=json.dumps({"op": "hello", "seq": 1}) + "\n"
    )
    assert served.returncode == 0
    assert json.loads(served.stdout.splitlines()[0])["game"] == "toy"


def test_a_broken_registration_is_one_error_line(tmp_path: Path) -> None:
    _install_toy(tmp_path, "tests.dicekit.no_such_toy:TOY")
    result = _cantstop(tmp_path, "demo", "--game", "toy")
    assert result.returncode == 2
    assert result.stderr.startswith("cantstop demo: error: the game 'toy' is registered as")
    assert "Traceback" not in result.stderr
