"""Every module of the packages, the proofs and the docs extensions: short, and saying its concern.

A module of ``cantstop/``, ``dicekit/``, ``finishline/``, ``tower/``,
``proofs/`` or ``docs/_ext/`` is at most 600 lines, and the first line of
its docstring is a sentence that says what the module is for; no two
modules of one folder tree open with the same line, since two modules with
one concern would be one module.
"""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
#: The folder trees whose modules are held to the layout.
TREES = ("cantstop", "dicekit", "finishline", "tower", "proofs", "docs/_ext")
#: The most lines a module may have.
MOST_LINES = 600


def _modules() -> list[Path]:
    return sorted(path for tree in TREES for path in (ROOT / tree).rglob("*.py"))


def _tree(path: Path) -> str:
    relative = path.relative_to(ROOT).as_posix()
    return next(tree for tree in TREES if relative.startswith(f"{tree}/"))


def first_line(path: Path) -> str:
    """Return the first line of the module docstring of ``path``, or ``""`` without one."""
    docstring = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")))
    return docstring.splitlines()[0] if docstring else ""


def test_the_trees_hold_the_modules_they_are_known_for() -> None:
    """The scan finds modules in every tree (a renamed folder would leave a tree unchecked)."""
    found = {_tree(path) for path in _modules()}
    assert found == set(TREES)
    assert ROOT / "cantstop" / "game.py" in _modules()
    assert ROOT / "docs" / "_ext" / "dicekit_site.py" in _modules()


def problems(path: Path) -> list[str]:
    """Return what is wrong with the module at ``path``: too long, no docstring, a vague line."""
    found = []
    lines = path.read_text(encoding="utf-8").count("\n")
    if lines > MOST_LINES:
        found.append(f"{lines} lines, over {MOST_LINES}")
    first = first_line(path)
    if not first:
        found.append("no module docstring")
    elif not first.endswith((".", ":")) or len(first) <= 20:
        found.append(f"the docstring's first line is no sentence saying the concern: {first!r}")
    return found


@pytest.mark.parametrize("path", _modules(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_each_module_is_short_and_says_its_concern(path: Path) -> None:
    """At most 600 lines; the docstring's first line is a sentence of more than 20 characters."""
    assert problems(path) == []


def test_no_two_modules_of_a_tree_open_with_the_same_line() -> None:
    """Each module of a folder tree states a concern of its own."""
    seen: dict[tuple[str, str], list[str]] = defaultdict(list)
    for path in _modules():
        seen[_tree(path), first_line(path)].append(path.relative_to(ROOT).as_posix())
    assert [paths for paths in seen.values() if len(paths) > 1] == []


def test_a_long_module_and_poor_docstrings_are_caught(tmp_path: Path) -> None:
    """The check fails where it should: 601 lines, no docstring, a first line that says nothing."""
    long = tmp_path / "long.py"
    long.write_text('"""A module that goes on for far too long."""\n' + "x = 1\n" * 600)
    assert problems(long) == ["601 lines, over 600"]
    bare = tmp_path / "bare.py"
    bare.write_text("x = 1\n")
    assert problems(bare) == ["no module docstring"]
    vague = tmp_path / "vague.py"
    vague.write_text('"""Helpers"""\n')
    assert problems(vague) == [
        "the docstring's first line is no sentence saying the concern: 'Helpers'"
    ]


def test_the_readme_table_names_what_ls_shows() -> None:
    """Each path of the README's table of the layer and the games exists (vectors once written)."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    table = readme[readme.index("| | Package |") : readme.index("A game's vectors are written")]
    rows = [line for line in table.splitlines() if line.startswith("| ") and "---" not in line]
    assert [row.split(" | ")[0] for row in rows[1:]] == [
        "| the layer",
        "| *Can't Stop*",
        "| the finish-line race (source 003)",
        "| Off to the Tower (source 002)",
    ]
    for row in rows[1:]:
        for cell in row.split(" | ")[1:]:
            for path in re.findall(r"`([\w./]+)`", cell):
                if "once written" in cell:
                    assert (ROOT / path.replace("conformance/vN/", "")).is_dir(), path
                else:
                    assert (ROOT / path.replace("vN/", "v1/")).exists(), path


@pytest.mark.parametrize("package", ["cantstop", "dicekit", "finishline", "tower"])
def test_no_exported_name_shadows_a_module_of_its_package(package: str) -> None:
    """``import PACKAGE.NAME`` always means the module: no name in ``__all__`` is also a module."""
    import importlib
    import pkgutil

    module = importlib.import_module(package)
    submodules = {info.name for info in pkgutil.iter_modules(module.__path__)}
    assert "explanation" in submodules or package != "cantstop"  # the check sees the modules
    assert set(module.__all__) & submodules == set()
