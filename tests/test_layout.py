"""Every module of the packages, the proofs and the docs extensions: short, and saying its concern.

A module of ``cantstop/``, ``dicekit/``, ``finishline/``, ``tower/``,
``proofs/`` or ``docs/_ext/`` is at most 600 lines, and the first line of
its docstring is a sentence that says what the module is for; no two
modules of one folder tree open with the same line, since two modules with
one concern would be one module.

The games are laid out one way (:data:`CONCERNS`): each concern has one
name in every game.  ``finishline/`` and ``tower/`` hold the same set of
top-level entries, each a concern of the table, and Can't Stop holds each of
them too.  Can't Stop keeps its mandated top level, so four of its places
are where the repository's root keeps them (:data:`CANTSTOP_AT_ROOT`): its
rules spec is ``spec/``, its z3 proofs the package ``proofs/``, its
JavaScript port ``examples/ports/javascript/`` and its sample record
``examples/records/``; its package's guide is the repository's
``README.md``.  A game may hold data that one of its rules requires beside
the table (:data:`RULE_DATA`: Off to the Tower's shipped boards, R2.7).
"""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from pathlib import Path

import pytest

from cantstop import __all__ as cantstop_names

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


#: Each top-level entry of a game's package, and the concern it holds, the same in every game.
CONCERNS: dict[str, str] = {
    "__init__.py": "the package and its public names",
    "README.md": "the package's guide: what each path holds",
    "py.typed": "the marker that the package ships type hints",
    "actions.py": "the actions, chance's included",
    "board.py": "the board",
    "config.py": "configurations of a game",
    "state.py": "states and the transitions between them",
    "decide.py": "the rules' decisions: legal actions, and why anything else is refused",
    "invariants.py": "the state invariants",
    "tags.py": "the rule tags of an answer, for the diagnosis",
    "errors.py": "the game's errors",
    "notation.py": "the one-line text notation",
    "jsonform.py": "the JSON forms",
    "layer.py": "the game object GAME of the layer's protocol",
    "openspiel.py": "the OpenSpiel game",
    "svg.py": "board pictures in SVG",
    "text.py": "board pictures in plain text",
    "players.py": "the built-in players",
    "strategies.py": "Hypothesis strategies",
    "simulate.py": "python -m GAME.simulate, the layer's simulation of the game",
    "study.py": "the seeded-bug study of the JavaScript port",
    "proofs": "the z3 proofs",
    "ports": "the second implementations: ports/javascript/",
    "spec": "the rules spec, notation and examples",
    "examples": "a sample game record",
}
#: Where Can't Stop's mandated top level keeps a concern: at the repository's root.
CANTSTOP_AT_ROOT: dict[str, str] = {
    "README.md": "README.md",
    "proofs": "proofs",
    "ports": "examples/ports",
    "spec": "spec",
    "examples": "examples/records",
}
#: Data a game's own rules require besides the table, with the rule.
RULE_DATA: dict[str, dict[str, str]] = {"tower": {"boards": "R2.7: the shipped boards are files"}}


def top_level(package: str) -> set[str]:
    """Return the entries of a package's folder that the layout speaks of (no caches)."""
    return {p.name for p in (ROOT / package).iterdir() if p.name != "__pycache__"}


@pytest.mark.parametrize("package", ["finishline", "tower"])
def test_a_game_holds_the_concerns_of_the_table_and_nothing_else(package: str) -> None:
    """Every concern under its one name, and no entry the table does not know."""
    assert top_level(package) - set(RULE_DATA.get(package, {})) == set(CONCERNS)
    assert (ROOT / package / "ports" / "javascript" / "port.js").is_file()
    assert (ROOT / package / "proofs" / "__main__.py").is_file()
    assert (ROOT / package / "spec" / "rules").is_dir()


def test_the_two_games_have_the_same_top_level() -> None:
    """The finish-line race and Off to the Tower differ only by the data their rules name."""
    data = {name for names in RULE_DATA.values() for name in names}
    assert top_level("finishline") - data == top_level("tower") - data


def test_cantstop_holds_every_concern_of_the_table() -> None:
    """Can't Stop has each entry of the two games, at the repository's root where mandated."""
    missing = []
    for name in CONCERNS:
        place = (
            ROOT / CANTSTOP_AT_ROOT[name] if name in CANTSTOP_AT_ROOT else ROOT / "cantstop" / name
        )
        if not place.exists():
            missing.append(name)
    assert missing == []
    assert not set(CANTSTOP_AT_ROOT) & top_level("cantstop")  # one place for each
    assert (ROOT / "examples" / "ports" / "javascript" / "port.js").is_file()
    assert (ROOT / "proofs" / "__main__.py").is_file()
    assert (ROOT / "spec" / "rules").is_dir()


def test_cantstop_keeps_its_public_names_and_documented_module_paths() -> None:
    """Every name of ``cantstop.__all__`` imports, and every module docs/api.md documents."""
    import importlib

    package = importlib.import_module("cantstop")
    assert [name for name in cantstop_names if not hasattr(package, name)] == []
    api = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    documented = re.findall(r"^\.\. automodule:: ([\w.]+)$", api, flags=re.MULTILINE)
    assert "cantstop.study" in documented
    for module in documented:
        importlib.import_module(module)


def test_the_study_answers_at_its_older_path_too() -> None:
    """``cantstop.conformance.study`` is :mod:`cantstop.study` itself, and runs as a command."""
    import subprocess
    import sys

    import cantstop.conformance.study as older
    import cantstop.study as study

    assert older is study
    runs = [
        subprocess.run(
            [sys.executable, "-m", module, "--held-out", "--help"],
            capture_output=True,
            text=True,
            check=False,
        )
        for module in ("cantstop.conformance.study", "cantstop.study")
    ]
    assert [run.returncode for run in runs] == [0, 0]
    assert runs[0].stdout == runs[1].stdout
    assert "usage: python -m cantstop.conformance.study --held-out" in runs[0].stdout
