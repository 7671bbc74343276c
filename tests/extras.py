"""Optional frameworks in tests: a skip naming the extra to install, an error under ``CI=true``."""

from __future__ import annotations

import importlib
import os
from types import ModuleType

import pytest

#: Each optional module the tests import, with the extra of ``pyproject.toml``
#: that installs it and the distribution that extra lists.
EXTRAS: dict[str, tuple[str, str]] = {
    "hypothesis": ("test", "hypothesis"),
    "jsonschema": ("test", "jsonschema"),
    "lxml": ("test", "lxml"),
    "z3": ("proofs", "z3-solver"),
    "sphinx": ("docs", "sphinx"),
    "myst_parser": ("docs", "myst-parser"),
    "pyspiel": ("openspiel", "open_spiel"),
    "gymnasium": ("rl", "gymnasium"),
    "pettingzoo": ("rl", "pettingzoo"),
    "numpy": ("rl", "numpy"),
    "numba": ("solve", "numba"),
    "ray": ("ray", "ray"),
    "playwright": ("browser", "playwright"),
    "pytest_playwright": ("browser", "pytest-playwright"),
}

#: What the tests need from the system rather than from an extra, and how Debian installs it.
NODE_REASON = "needs Node.js for the JavaScript port: apt-get install nodejs"
CHROMIUM_REASON = (
    "needs Chromium and the browser extra: apt-get install chromium; pip install -e '.[browser]'"
)


def reason(module: str) -> str:
    """Return the skip reason for a missing ``module``: the extra to install, and how."""
    top = module.split(".")[0]
    if top not in EXTRAS:
        raise KeyError(f"{module!r} is not an optional module of the tests (tests/extras.py)")
    extra = EXTRAS[top][0]
    return f"needs the {extra} extra: pip install -e '.[{extra}]'"


def require(module: str) -> ModuleType:
    """Import ``module``; skip the calling test or file without it, unless CI must run it.

    The skip's reason names the extra that installs ``module`` (:data:`EXTRAS`).
    CI installs every extra (``.ci/run``), so there a missing framework is an
    error, not a skip.
    """
    __tracebackhide__ = True  # a skip is reported at the line of the test file that called this
    why = reason(module)
    if os.environ.get("CI") == "true":
        return importlib.import_module(module)
    found: ModuleType = pytest.importorskip(module, reason=why)
    return found
