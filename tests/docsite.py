"""The documentation site, built once per test session for every test that reads it.

``CANTSTOP_SITE=DIR`` uses a site already built there (``python -m sphinx -n -W
-b html docs DIR``) instead of building one, to rerun the page tests quickly.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parent.parent / "docs"

_BUILT: list[Path] = []


def built_site(factory: pytest.TempPathFactory) -> Path:
    """Return the HTML site built from ``docs/`` (nitpicky, warnings as errors)."""
    if not _BUILT:
        given = os.environ.get("CANTSTOP_SITE")
        if given:
            out = Path(given).resolve()
            assert (out / "index.html").is_file(), f"CANTSTOP_SITE={given} holds no built site"
        else:
            out = factory.mktemp("site")
            build = subprocess.run(
                [sys.executable, "-m", "sphinx", "-E", "-n", "-W", "-q", "-b", "html", DOCS, out],
                capture_output=True,
                text=True,
                timeout=600,
                check=False,
            )
            assert build.returncode == 0, build.stdout + build.stderr
        _BUILT.append(out)
    return _BUILT[0]
