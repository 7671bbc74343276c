"""The conformance package's layout: one concern a module, the game-neutral line, frozen files."""

from __future__ import annotations

import ast
import shutil
import sys
from pathlib import Path

import pytest

from cantstop.conformance import generate
from dicekit.conformance.frozen import FrozenError, check_frozen, read_frozen

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "cantstop" / "conformance"
LAYER = ROOT / "dicekit" / "conformance"

#: The sha256 of every file of each released suite version, as recorded when it was released:
#: the frozen-hash list (``spec/conformance/frozen.json``) must keep them.
RELEASED: dict[str, dict[str, str]] = {
    "v1": {
        "apply.json": "aa4ab44af610f78c950db8ff793ea9ae1c91a431d6c7324c47c15d1f7e05eca2",
        "games.json": "7dfb002b694692eae0a1835e91d1a3fef293276a35491515ba2adf486f9c702e",
        "illegal.json": "dd047b5ff80616b715467154038accb4a6fb8e7b6d47dd656addc00f671826b4",
        "invalid.json": "dfe901809024c41ff653207e3f78f3f1cf51cd5436eb8efaca31bfa35e1304ea",
        "moves.json": "c8c84823ee05e9d3b38eff63bac223f0f9623caeeb247e0a9e78f7cd8651238d",
        "notation.json": "5d4ddd227c51cd5055657f7ba858d0fd3267e4d57ccc43a9b42bcafab994f422",
        "perft.json": "3707feab51ed1a52774866c55b5eb8e0fb709dcffc7b9c1630dde525461619a9",
        "rolls.json": "0d8a035313648e41a2effc3922a9062da75aae5a044413727dd6071601fbab3a",
        "schema.json": "1812ee56f38cf0122dc05ad98d0358410f65f683687bd9bc3e879ed166851574",
        "spec-examples.json": "c20fff6baf7caa6115d109aa6678c703e4fad46e1ee0f2337a2e52154163f66c",
    },
    # Released on 2026-12-04.
    "v2": {
        "apply.json": "f38e1800cf621d05b5db1166cde83ab91a2cf68e0a6d7613dfaeaad4d0d36e85",
        "explain.json": "55651f161439dd62066695f5809bfa71b910d1ef137ac97a17a7e9da7d574c23",
        "games.json": "0e36c4e7a4e247aed69b6f5c97ccf3207d2df8fbbc166e233abc0342f9484a64",
        "illegal.json": "e80379b9bef24eaa9145638880e316d9158e034e6b226bed3f212490339b72b8",
        "invalid.json": "1f2a2ce44c4f240f050af582c7328b8be2d2adc85d3192e29e232f79a961b9e8",
        "moves.json": "8d53f8fd8e1039c4ce6d1876a8a8bdd7f1237437ab3c2f45591fb042e0ccea87",
        "notation.json": "201e12826e9aac51352ef52ec36b76ef0ed00517c6e601a66c3e7975e6fbaa85",
        "perft.json": "244e1433a9ed24d183f0ccc7eabc340101e03bae66531fefd6e9ae347bed64b7",
        "rolls.json": "e2f8877992e4934389a55608c2ad21812f380441f35231d5a6623b222df14e93",
        "schema.json": "d93f6fb3c98664c87151224eb75bfe6bb1313434c6ab167ecb62b01c537e3e96",
        "spec-examples.json": "e9d021523227a13eef9893c6c75617201bd1c46416a6a5d2a56c7df5a8dcd2d9",
    },
}


def _modules() -> list[Path]:
    return sorted([*PACKAGE.rglob("*.py"), *LAYER.rglob("*.py")])


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(ROOT)))
def test_each_module_is_short_and_names_its_concern(path: Path) -> None:
    """Under 600 lines, and a module docstring whose first line says what the module holds."""
    text = path.read_text(encoding="utf-8")
    assert text.count("\n") < 600
    docstring = ast.get_docstring(ast.parse(text))
    assert docstring, path
    first = docstring.splitlines()[0]
    assert first.endswith((".", ":")), first
    assert len(first) > 20, first


def _imports(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


@pytest.mark.parametrize("path", sorted(LAYER.glob("*.py")), ids=lambda p: p.name)
def test_the_game_neutral_layer_imports_no_game(path: Path) -> None:
    """A module of ``dicekit.conformance`` imports the standard library and the layer alone."""
    for module in _imports(path):
        top = module.split(".")[0]
        assert top in sys.stdlib_module_names or top == "dicekit", (path.name, module)


def test_the_layer_check_is_not_vacuous(tmp_path: Path) -> None:
    """The import check sees an import of the engine, at the top or inside a function."""
    sample = tmp_path / "sample.py"
    sample.write_text("def f():\n    from cantstop.state import State\n", encoding="utf-8")
    assert "cantstop.state" in _imports(sample)


def test_the_frozen_list_holds_every_released_version() -> None:
    """spec/conformance/frozen.json lists v1 and v2 with the hashes recorded at their releases."""
    assert read_frozen(ROOT / "spec" / "conformance") == RELEASED


def test_released_vector_files_never_change() -> None:
    """Every file of a released suite version keeps its hash, and no file is added."""
    assert check_frozen(ROOT / "spec" / "conformance") == []


def test_the_frozen_check_sees_a_change_a_removal_and_an_addition(tmp_path: Path) -> None:
    """A copy of v1 with one byte changed, one file gone and one added: three problems."""
    for version in ("v1", "v2"):
        shutil.copytree(ROOT / "spec" / "conformance" / version, tmp_path / version)
    shutil.copy(ROOT / "spec" / "conformance" / "frozen.json", tmp_path / "frozen.json")
    assert check_frozen(tmp_path) == []
    with (tmp_path / "v1" / "perft.json").open("ab") as file:
        file.write(b" ")
    (tmp_path / "v1" / "rolls.json").unlink()
    (tmp_path / "v1" / "extra.json").write_text("{}", encoding="utf-8")
    assert check_frozen(tmp_path) == [
        "v1/extra.json was added after v1 was released",
        "v1/perft.json has changed since v1 was released",
        "v1/rolls.json is missing; v1 was released with it",
    ]


def test_the_generator_refuses_to_write_a_released_version(tmp_path: Path) -> None:
    """Regenerating into v1 or v2 is refused before a file is written, by the command as well."""
    for version in ("v1", "v2"):
        with pytest.raises(FrozenError, match="frozen"):
            generate.write(ROOT / "spec" / "conformance" / version)
    assert check_frozen(ROOT / "spec" / "conformance") == []
