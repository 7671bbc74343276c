"""The documentation site, built once per test run for every test that reads it.

``CANTSTOP_SITE=DIR`` uses a site already built there (``python -m sphinx -n -W
-b html docs DIR``) instead of building one, to rerun the page tests quickly.

Under pytest-xdist (``pytest -n auto``) the workers of one run share one
build: the first worker to need the site builds it in the run's common
temporary folder while holding a file lock, and the others wait for it and
read the same folder (or the same failure).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from filelock import FileLock

DOCS = Path(__file__).resolve().parent.parent / "docs"

_BUILT: list[Path] = []


def _shared_folder(factory: pytest.TempPathFactory) -> Path:
    """Return the temporary folder every process of this test run sees."""
    base = factory.getbasetemp()
    # An xdist worker's folder is popen-gwN inside the run's own folder.
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


def _build(shared: Path) -> Path:
    """Build the site in ``shared/site`` unless a process of this run already has."""
    out, done, failed = shared / "site", shared / "site.done", shared / "site.failed"
    with FileLock(shared / "site.lock"):
        if not done.exists() and not failed.exists():
            build = subprocess.run(
                [sys.executable, "-m", "sphinx", "-E", "-n", "-W", "-q", "-b", "html", DOCS, out],
                capture_output=True,
                text=True,
                timeout=600,
                check=False,
            )
            if build.returncode == 0:
                done.touch()
            else:
                failed.write_text(build.stdout + build.stderr, encoding="utf-8")
    assert not failed.exists(), failed.read_text(encoding="utf-8")
    return out


def built_site(factory: pytest.TempPathFactory) -> Path:
    """Return the HTML site built from ``docs/`` (nitpicky, warnings as errors)."""
    if not _BUILT:
        given = os.environ.get("CANTSTOP_SITE")
        if given:
            out = Path(given).resolve()
            assert (out / "index.html").is_file(), f"CANTSTOP_SITE={given} holds no built site"
        else:
            out = _build(_shared_folder(factory))
        _BUILT.append(out)
    return _BUILT[0]
