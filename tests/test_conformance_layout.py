"""The conformance package's layout: one concern a module, the game-neutral line, frozen files."""

from __future__ import annotations

import ast
import hashlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "cantstop" / "conformance"
LAYER = PACKAGE / "layer"

#: The sha256 of every file of each released suite version: a released file never changes.
RELEASED: dict[str, dict[str, str]] = {
    "v1": {
        "apply.json": "d881a73ecbb3fc01dd0820fadf2e890f1abb11c01594c7ab729d49eac7b0537f",
        "explain.json": "1033af2b3f17a956401f47952a94687243f9d9ff0aa83db79714fb807bbbc0fc",
        "games.json": "1fdbb2bbb5d3486b46638984cb05634653fd349b3afe6c6f3e675ca99aaa5edc",
        "illegal.json": "dd047b5ff80616b715467154038accb4a6fb8e7b6d47dd656addc00f671826b4",
        "invalid.json": "458614c828cd1eb00d09a3087163eef95fe8d9f9cf60ff882a14f311689bbfd5",
        "moves.json": "d6860a3af07afea82965dcf3dc65ace7ed23e43cc9a1e809977a107bd1d01ed5",
        "notation.json": "f74d8572771566652dfea40aa792a3da602ec7e46bf8b6f06eafe6beb8e27b15",
        "perft.json": "910279bbcdf0505e10dd4030a052224a41a23d66680101d4d4c164e175a60d79",
        "rolls.json": "0c86fddb0e40219a5baf51f7d8b2137b1ab63f2fa451f55600b823608c6ac8fd",
        "schema.json": "c8132afaa942bada8b4d75ca9da7148b06ddac42d84fbbd7595ca9c988e569d1",
        "spec-examples.json": "5aae94be00fd3d2f1dfc2d06bd7a03540d7fa3dfd6830c69751802197ea856f2",
    },
}


def _modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(PACKAGE)))
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
    """A module of ``cantstop.conformance.layer`` imports the standard library and the layer."""
    for module in _imports(path):
        top = module.split(".")[0]
        assert top != "dicekit", module
        if top == "cantstop":
            assert module.startswith("cantstop.conformance.layer"), (path.name, module)


def test_the_layer_check_is_not_vacuous(tmp_path: Path) -> None:
    """The import check sees an import of the engine, at the top or inside a function."""
    sample = tmp_path / "sample.py"
    sample.write_text("def f():\n    from cantstop.game import State\n", encoding="utf-8")
    assert "cantstop.game" in _imports(sample)


@pytest.mark.parametrize("version", sorted(RELEASED))
def test_released_vector_files_never_change(version: str) -> None:
    """Every file of a released suite version keeps its hash, and no file is added."""
    folder = ROOT / "spec" / "conformance" / version
    found = {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in folder.glob("*.json")}
    assert found == RELEASED[version]
