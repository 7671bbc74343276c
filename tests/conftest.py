"""Shared test settings: Hypothesis profiles (``HYPOTHESIS_PROFILE=ci|dev|thorough|mutation``).

- ``ci``, the default under ``CI=true``: derandomized, so every run meets the same
  examples and a failure reproduces; no example database; a fixed number of
  examples and steps, which bounds the run's time.
- ``dev``, the local default: random examples (``--hypothesis-seed N`` fixes them).
  A property that fails is saved in the example database, ``.hypothesis/examples/``
  (git-ignored), and its failing example is tried first on every later run, until
  the property holds for it; Hypothesis then deletes it.  So a saved failure keeps
  failing only while the bug it found is there, and nothing else is read from the
  database: no doctest or example depends on what Hypothesis draws, and the
  searches of ``test_strategies.py`` use no database.  A failure also prints the
  seed and a ``@reproduce_failure`` blob; ``rm -rf .hypothesis`` forgets every
  saved example.  The health check for slow data generation is off, since a busy
  machine would trip it.
- ``thorough``: fifty times the examples and longer state-machine runs, for a
  nightly or pre-release run (``HYPOTHESIS_PROFILE=thorough python -m pytest``).
- ``mutation``: what ``tools/mutation.sh`` runs for every mutant: derandomized, and
  fewer examples, since the suite runs once per mutant.

Tests that do much work per example ask for a fraction of the profile's
``max_examples`` (``settings().max_examples``), so every profile scales them.
"""

from __future__ import annotations

import os
import re
from collections.abc import Generator

import pytest
from hypothesis import HealthCheck, settings

from cantstop import _tables
from tests.extras import EXTRAS, reason

settings.register_profile(
    "ci",
    derandomize=True,
    database=None,
    max_examples=100,
    stateful_step_count=100,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "dev",
    max_examples=100,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "thorough",
    max_examples=5000,
    stateful_step_count=200,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "mutation",
    derandomize=True,
    database=None,
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))


@pytest.fixture(autouse=True, scope="session")
def _empty_move_tables() -> None:
    """Start every test session with the kernel's memo tables empty.

    The move and bust tables of :mod:`cantstop._tables` fill as positions are
    met. A session that runs in a process forked from another (as a mutation
    run does for each mutant) would otherwise read entries computed by the
    parent, and a broken table function could go unnoticed.
    """
    for table in (_tables.MOVES, _tables._BUSTS, _tables._MOVE, _tables._MOVE_TUPLES):
        table.clear()


_COULD_NOT_IMPORT = re.compile(r"could not import '([\w.]+)'")


def _name_the_extra(report: pytest.CollectReport | pytest.TestReport) -> None:
    """Reword a bare ``pytest.importorskip`` skip to name the extra that installs the module."""
    if report.skipped and isinstance(report.longrepr, tuple):
        path, line, message = report.longrepr
        found = _COULD_NOT_IMPORT.search(message)
        if found and found.group(1).split(".")[0] in EXTRAS:
            report.longrepr = (path, line, f"Skipped: {reason(found.group(1))}")


@pytest.hookimpl(wrapper=True)
def pytest_make_collect_report(
    collector: pytest.Collector,
) -> Generator[None, pytest.CollectReport, pytest.CollectReport]:
    """Name the extra a skipped test file needs."""
    report = yield
    _name_the_extra(report)
    return report


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    """Name the extra a skipped test needs."""
    report = yield
    _name_the_extra(report)
    return report
