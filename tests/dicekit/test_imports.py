"""The import graph: the layer imports no game, and no game imports another, its commands included.

Read from the source with :mod:`ast`, so that an import inside a function, a
relative import and a module named to ``importlib.import_module`` all count.
No module names every game: each game registers itself by its entry point
(:mod:`dicekit.registry`), and everything of a game names its own package and
the layer alone.  The layer does not even name a game: no module path,
quoted name or OpenSpiel name of a game in its code, docstrings or doctests
(the imports of its doctests are read with :mod:`doctest` and :mod:`ast`).
"""

from __future__ import annotations

import ast
import doctest
import re
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


#: A game named in text: a module path (``finishline.layer``), its name quoted, its OpenSpiel name.
_NAMED = re.compile(
    r"\b(?:cantstop|finishline|tower)\.[A-Za-z_]"
    r"|[\"'](?:cantstop|finishline|tower)[\"']"
    r"|\bpython_(?:cant_stop|finishline|tower)\b"
)


def game_references(path: Path) -> list[str]:
    """Return the lines of ``path`` that name a game, and the games its doctests import.

    The command's name (``cantstop verify``) is no game's: only a module
    path, a quoted name or an OpenSpiel name counts.
    """
    text = path.read_text(encoding="utf-8")
    found = [
        f"{number}: {line.strip()}"
        for number, line in enumerate(text.splitlines(), start=1)
        if _NAMED.search(line)
    ]
    parser = doctest.DocTestParser()
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and ">>>" in node.value:
            for example in parser.get_examples(node.value):
                try:
                    tree = ast.parse(example.source)
                except SyntaxError:
                    continue
                for statement in ast.walk(tree):
                    names = (
                        [statement.module or ""]
                        if isinstance(statement, ast.ImportFrom)
                        else [alias.name for alias in getattr(statement, "names", [])]
                        if isinstance(statement, ast.Import)
                        else []
                    )
                    games = {name.split(".")[0] for name in names} & set(GAMES)
                    found += [f"doctest imports {game}" for game in sorted(games)]
    return found


def _tops(path: Path) -> set[str]:
    return {module.split(".")[0] for module in named_modules(path)}


def _sources(package: str) -> list[Path]:
    return sorted((ROOT / package).rglob("*.py"))


@pytest.mark.parametrize("path", _sources(LAYER), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_the_layer_imports_no_game(path: Path) -> None:
    """A module of dicekit names no game, not even in an import inside a function."""
    assert not _tops(path) & set(GAMES)


@pytest.mark.parametrize("path", _sources(LAYER), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_the_layer_names_no_game(path: Path) -> None:
    """No module of dicekit names a game: not in code, docstrings, comments or doctests."""
    assert game_references(path) == []


def test_the_names_check_sees_paths_quoted_names_and_doctest_imports(tmp_path: Path) -> None:
    """A module path, a quoted name, an OpenSpiel name and a doctest's import are all seen."""
    sample = tmp_path / "sample.py"
    sample.write_text(
        '''"""A module.

        >>> import finishline
        >>> from tower.layer import GAME
        """

        NAME = "cantstop"
        SPIEL = "python_cant_stop"
        SEE = "the records of cantstop.record"
        COMMAND = "run cantstop verify on it"
        '''.replace("        ", ""),
        encoding="utf-8",
    )
    found = game_references(sample)
    # Lines 4 (a module path), 7, 8 and 9; the command's name on line 10 is no game's.
    assert [line.split(":")[0] for line in found[:4]] == ["4", "7", "8", "9"]
    assert found[4:] == ["doctest imports finishline", "doctest imports tower"]


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
