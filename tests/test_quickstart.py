"""The README's quick start as a newcomer types it, and the skips that name their extra.

* the test command makes a virtual environment before it installs anything
  (Debian's Python refuses to install outside one), runs the tests on every
  core, and is the command CI runs (``.ci/run``, "tests (README)");
* the test extra brings what that command needs (pytest-xdist, and filelock
  for the shared documentation build);
* every optional module the tests import is installed by the extra its skip
  names, and a bare ``pytest.importorskip`` skip is reworded to name it.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from tests.conftest import _name_the_extra
from tests.extras import EXTRAS, reason

ROOT = Path(__file__).resolve().parent.parent


def _quick_start() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    start = text.index("## Quick start")
    block = re.search(r"```sh\n(.*?)```", text[start:], re.DOTALL)
    assert block is not None
    return [line.split("  #")[0].strip() for line in block.group(1).splitlines()]


def _extras() -> dict[str, list[str]]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras: dict[str, list[str]] = project["optional-dependencies"]
    return extras


def _distribution(requirement: str) -> str:
    return re.split(r"[<>=!~\[ ]", requirement, maxsplit=1)[0].lower().replace("_", "-")


def test_the_quick_start_makes_a_venv_before_installing_and_runs_the_tests_in_parallel() -> None:
    lines = _quick_start()
    venv = lines.index("python3 -m venv .venv && . .venv/bin/activate")
    tests = next(i for i, line in enumerate(lines) if "pytest" in line)
    assert venv < tests
    assert not any("pip install" in line for line in lines[:venv])
    assert lines[tests] == "python3 -m pip install -e '.[test]' && python3 -m pytest -n auto"


def test_ci_runs_the_readmes_test_command() -> None:
    tests = next(line for line in _quick_start() if "pytest" in line)
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert ci[ci.index('echo "== tests (README)"') + 1] == tests


def test_the_test_extra_brings_what_the_test_command_needs() -> None:
    test = {_distribution(r) for r in _extras()["test"]}
    assert {"pytest", "pytest-xdist", "filelock", "hypothesis"} <= test


@pytest.mark.parametrize("module", sorted(EXTRAS))
def test_the_extra_a_skip_names_installs_the_module(module: str) -> None:
    extra, distribution = EXTRAS[module]
    extras = _extras()
    assert distribution.lower().replace("_", "-") in {_distribution(r) for r in extras[extra]}
    assert reason(module) == f"needs the {extra} extra: pip install -e '.[{extra}]'"
    assert reason(f"{module}.sub") == reason(module)


def test_a_module_no_extra_installs_has_no_reason() -> None:
    with pytest.raises(KeyError, match="'nonesuch' is not an optional module"):
        reason("nonesuch")


@pytest.mark.parametrize(
    ("message", "reworded"),
    [
        (
            "Skipped: could not import 'z3': No module named 'z3'",
            "Skipped: needs the proofs extra: pip install -e '.[proofs]'",
        ),
        (
            "Skipped: could not import 'lxml.etree': No module named 'lxml'",
            "Skipped: needs the test extra: pip install -e '.[test]'",
        ),
        # Neither a bare import skip nor a module of an extra: left as written.
        ("Skipped: no /dev/zero", "Skipped: no /dev/zero"),
        (
            "Skipped: could not import 'nonesuch': No module named 'nonesuch'",
            "Skipped: could not import 'nonesuch': No module named 'nonesuch'",
        ),
    ],
)
def test_a_bare_import_skip_is_reworded_to_name_the_extra(message: str, reworded: str) -> None:
    report = pytest.CollectReport("tests/x.py", "skipped", ("tests/x.py", 3, message), [])
    _name_the_extra(report)
    assert report.longrepr == ("tests/x.py", 3, reworded)
    passed = pytest.CollectReport("tests/x.py", "passed", None, [])
    _name_the_extra(passed)
    assert passed.longrepr is None
