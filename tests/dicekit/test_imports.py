"""The import graph: the layer imports no game, and no game imports another, its commands included.

Read from the source with :mod:`ast`, so that an import inside a function, a
relative import and a module named to ``importlib.import_module`` all count.
No module names every game: each game registers itself by its entry point
(:mod:`dicekit.registry`), and everything of a game names its own package and
the layer alone.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from dicekit import registry

ROOT = Path(__file__).resolve().parents[2]
LAYER = "dicekit"
GAMES = ("cantstop", "finishline", "tower")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def named_modules(path: Path, module: str | None = None) -> set[str]:
    """Return the modules ``path`` imports, or names to ``importlib.import_module`` as text.

    ``module`` is the file's module name (by default, its place in the repository).
    """
    package = module or _module_name(path)
    if path.name != "__init__.py":
        package = package.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                found.add(".".join([*base, *([node.module] if node.module else [])]))
            elif node.module:
                found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            text = node.value
            named = any(text == game or text.startswith(f"{game}.") for game in (*GAMES, LAYER))
            if named and all(part.isidentifier() for part in text.split(".")):
                found.add(text)
    return found


def _tops(path: Path) -> set[str]:
    return {module.split(".")[0] for module in named_modules(path)}


def _sources(package: str) -> list[Path]:
    return sorted((ROOT / package).rglob("*.py"))


@pytest.mark.parametrize("path", _sources(LAYER), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_the_layer_imports_no_game(path: Path) -> None:
    """A module of dicekit names no game, not even in an import inside a function."""
    assert not _tops(path) & set(GAMES)


@pytest.mark.parametrize(
    "path",
    [p for game in GAMES for p in _sources(game)],
    ids=lambda p: p.relative_to(ROOT).as_posix(),
)
def test_a_game_names_only_itself_and_the_layer(path: Path) -> None:
    """A game's module imports no other game, the modules of the command line included."""
    own = path.relative_to(ROOT).parts[0]
    assert not _tops(path) & (set(GAMES) - {own})


def test_no_module_names_every_game_the_entry_points_register_them() -> None:
    """No module imports the games by name; each is registered by its entry point instead."""
    naming = {
        path.relative_to(ROOT).as_posix()
        for game in GAMES
        for path in _sources(game)
        if len(_tops(path) & set(GAMES)) > 1
    }
    assert naming == set()
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert sorted(registry.read_table(pyproject)) == sorted(GAMES)


def test_the_check_sees_every_way_of_naming_a_module(tmp_path: Path) -> None:
    """An import in a function, an import_module string and a relative import are all seen."""
    sample = tmp_path / "sample.py"
    sample.write_text(
        "import importlib\n"
        "def f():\n"
        "    from finishline.layer import GAME\n"
        "    return importlib.import_module('tower.layer')\n"
        "from . import harness\n"
        "NOTE = 'the tower of a game'\n",
        encoding="utf-8",
    )
    found = named_modules(sample, "cantstop.conformance.sample")
    assert found == {"importlib", "finishline.layer", "tower.layer", "cantstop.conformance"}
    assert {"finishline", "tower"} <= {name.split(".")[0] for name in found}
