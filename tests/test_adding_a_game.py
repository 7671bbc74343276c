"""The page "Adding a game" (``docs/adding-a-game.md``) stays true to the code it describes.

* every doctest block runs, in order and in one namespace, as Sphinx's
  doctest builder runs it;
* every ``literalinclude`` names a file that exists, a ``:pyobject:`` that
  the file defines and ``:start-at:``/``:end-at:``/``:end-before:`` text it holds;
* the layout table's paths of the two games exist, and the entry points it shows
  register every game the command line knows;
* every optional protocol the page's table lists is one the code defines.
"""

from __future__ import annotations

import ast
import doctest
import re
from pathlib import Path

import pytest

from dicekit import registry
from dicekit.registry import names
from tests.extras import require

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "adding-a-game.md"
TEXT = PAGE.read_text(encoding="utf-8")
#: The flags of Sphinx's doctest builder, which runs the page on the site.
FLAGS = doctest.ELLIPSIS | doctest.IGNORE_EXCEPTION_DETAIL | doctest.DONT_ACCEPT_TRUE_FOR_1


def _blocks(kind: str) -> list[str]:
    return re.findall(r"^```\{" + kind + r"\}(.*?)^```$", TEXT, flags=re.MULTILINE | re.DOTALL)


def test_every_snippet_of_the_page_runs() -> None:
    """The page's doctests pass, names carrying from block to block as on the site."""
    require("pyspiel")  # the OpenSpiel snippet
    blocks = _blocks("doctest")
    assert len(blocks) >= 9
    test = doctest.DocTestParser().get_doctest("\n".join(blocks), {}, "adding", str(PAGE), 0)
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    runner.run(test)
    summary = runner.summarize(verbose=False)
    assert summary.attempted > 30
    assert summary.failed == 0, f"{summary.failed} of {summary.attempted} examples failed"


def _includes() -> list[tuple[Path, dict[str, str]]]:
    found = []
    for block in _blocks("literalinclude"):
        head, *options = block.strip("\n").splitlines()
        fields = {}
        for line in options:
            key, _, value = line.strip(":").partition(":")
            fields[key] = value.strip()
        found.append(((PAGE.parent / head.strip()).resolve(), fields))
    return found


@pytest.mark.parametrize("index", range(len(_includes())))
def test_every_listing_is_included_from_a_file_that_holds_it(index: int) -> None:
    """The file exists; the function it names is defined there; the marker lines occur."""
    path, options = _includes()[index]
    assert path.is_file(), path
    text = path.read_text(encoding="utf-8")
    for key in ("start-at", "end-at", "end-before"):
        if key in options:
            assert options[key].strip('"').strip("'") in text, (key, options[key])
    if "pyobject" in options:
        cls, _, method = options["pyobject"].partition(".")
        tree = ast.parse(text)
        classes = {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}
        assert method in {n.name for n in classes[cls].body if isinstance(n, ast.FunctionDef)}


def test_the_layout_table_matches_the_tree_and_the_registry_every_game() -> None:
    """The two games' folders in the table exist, and the entry points shown register every game."""
    table = TEXT[TEXT.index("| Path |") : TEXT.index("No module names every game.")]
    paths = re.findall(r"`((?:docs/|tests/)?(?:finishline|tower)/[\w/]*)`", table)
    assert len(paths) == 14  # seven rows, one folder of each game in each
    missing = [p for p in paths if not (ROOT / p).is_dir()]
    assert missing == []
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    shown = pyproject[pyproject.index('[project.entry-points."dicekit.games"]') :]
    shown = shown[: shown.index("tower = ")] + shown[shown.index("tower = ") :].split("\n")[0]
    assert sorted(registry.read_table(shown)) == list(names())


def test_every_optional_protocol_of_the_table_exists_with_its_methods() -> None:
    """Each row names a class with the methods the row lists; every capability has its row."""
    import dicekit.commandline
    import dicekit.conformance.choice
    import dicekit.conformance.families
    import dicekit.conformance.serve
    import dicekit.conformance.textfamilies
    import dicekit.protocol
    import dicekit.record
    import dicekit.spec

    modules = [
        dicekit.protocol,
        dicekit.spec,
        dicekit.conformance.serve,
        dicekit.record,
        dicekit.conformance.choice,
        dicekit.conformance.textfamilies,
        dicekit.conformance.families,
        dicekit.commandline,
    ]
    rows = re.findall(r"^\| \{class\}`~?[\w.]*?(\w+)` \| (.*?) \|", TEXT, flags=re.MULTILINE)
    assert [name for name, _ in rows] == [
        "Core",
        "Forms",
        "Game",
        "Stepping",
        "Tagging",
        "TextPicture",
        "Legend",
        "ActionSpace",
        "ChanceByChoice",
        "ServesOps",
        "HasExampleKeys",
        "OwnRecords",
        "OwnSuite",
        "BrokenSetups",
        "ChanceForms",
        "Outcomes",
        "CommandLine",
    ]
    capabilities = {c.protocol for c in dicekit.protocol.Capability if c.members}
    assert capabilities == {name for name, _ in rows[3:]}
    for name, methods in rows:
        protocol = next(getattr(m, name) for m in modules if hasattr(m, name))
        for method in re.findall(r"`(\w+)(?:\(|`)", methods):
            declared = hasattr(protocol, method) or method in protocol.__annotations__
            assert declared, (name, method)
