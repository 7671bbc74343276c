"""Optional frameworks in tests: skipped when missing, except under ``CI=true``."""

from __future__ import annotations

import importlib
import os
from types import ModuleType

import pytest


def require(module: str) -> ModuleType:
    """Import ``module``; skip the calling test file without it, unless CI must run it.

    CI installs every extra (``.ci/run``), so there a missing framework is an
    error, not a skip.
    """
    if os.environ.get("CI") == "true":
        return importlib.import_module(module)
    found: ModuleType = pytest.importorskip(module)
    return found
