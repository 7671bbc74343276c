"""The research page (``docs/research.md``) as a newcomer follows it, and the README's words on it.

* every doctest block of the page runs, in order and in one namespace, as
  Sphinx's doctest builder runs them (without building the site);
* the install commands of the page and of the README's "Game-AI frameworks"
  section are the same, install from the clone (``-e '.[EXTRA]'``: cantstop
  is not on a package index), and name extras that ``pyproject.toml`` has,
  with the frameworks the adapters import;
* the README's words on how to reach each adapter work as written, and so does
  the page's ``gymnasium.make`` by module path, in a fresh interpreter.
"""

from __future__ import annotations

import doctest
import re
import subprocess
import sys
import tomllib
from pathlib import Path

from tests.extras import require

require("pyspiel")
require("gymnasium")
require("pettingzoo")

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "research.md"
README = ROOT / "README.md"

#: The flags of Sphinx's doctest builder, which runs the page on the site.
FLAGS = doctest.ELLIPSIS | doctest.IGNORE_EXCEPTION_DETAIL | doctest.DONT_ACCEPT_TRUE_FOR_1


def _doctest_blocks(text: str) -> list[str]:
    return re.findall(r"^```\{doctest\}\n(.*?)^```$", text, flags=re.MULTILINE | re.DOTALL)


def _readme_section() -> str:
    text = README.read_text(encoding="utf-8")
    start = text.index("## Game-AI frameworks")
    return text[start : text.index("\n## ", start + 1)]


def test_every_snippet_of_the_research_page_runs() -> None:
    blocks = _doctest_blocks(PAGE.read_text(encoding="utf-8"))
    assert len(blocks) >= 6
    namespace: dict[str, object] = {}
    exec("import cantstop\nfrom cantstop import *\n", namespace)  # the site's doctest setup
    # One test of all the blocks: names carry from block to block, as on the site.
    test = doctest.DocTestParser().get_doctest(
        "\n".join(blocks), namespace, "research", str(PAGE), 0
    )
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    runner.run(test)
    summary = runner.summarize(verbose=False)
    assert summary.attempted > 30
    assert summary.failed == 0, f"{summary.failed} of {summary.attempted} examples failed"


def _installs(text: str) -> list[str]:
    return re.findall(r"pip install (-e '\.\[\w+\]'|'cantstop\[\w+\]')", text)


def test_install_commands_are_the_same_on_the_page_and_in_the_readme_and_work_from_a_clone() -> (
    None
):
    page = _installs(PAGE.read_text(encoding="utf-8"))
    readme = _installs(_readme_section())
    assert page == readme == ["-e '.[openspiel]'", "-e '.[rl]'"]
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"][
        "optional-dependencies"
    ]
    assert any(name.startswith("open_spiel") for name in extras["openspiel"])
    assert {name.split(">")[0] for name in extras["rl"]} >= {"gymnasium", "pettingzoo", "numpy"}


def test_the_readme_names_what_to_import_and_it_works() -> None:
    section = " ".join(_readme_section().split())
    assert "`import cantstop.envs.gymnasium`" in section
    assert '`gymnasium.make("cantstop/Solitaire-v0")`' in section
    assert '`pyspiel.load_game("python_cant_stop")`' in section
    import gymnasium
    import pyspiel

    import cantstop.envs.gymnasium
    import cantstop.openspiel

    assert isinstance(
        gymnasium.make("cantstop/Solitaire-v0").unwrapped, cantstop.envs.gymnasium.CantStopEnv
    )
    assert pyspiel.load_game("python_cant_stop").num_players() == 2
    assert cantstop.openspiel.GAME_NAME == "python_cant_stop"


def test_the_pages_make_by_module_path_imports_the_module_itself() -> None:
    """The page's ``gymnasium.make`` by module path works in a fresh interpreter."""
    page = " ".join(PAGE.read_text(encoding="utf-8").split())
    call = 'gymnasium.make("cantstop.envs.gymnasium:cantstop/Solitaire-v0")'
    assert f"`{call}` imports the module itself" in page
    script = f"import gymnasium\nenv = {call}\nprint(type(env.unwrapped).__module__)\n"
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
        cwd=ROOT,
    )
    assert done.stdout == "cantstop.envs.gymnasium\n"
