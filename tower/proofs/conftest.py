"""Collect the doctests of ``tower/proofs/`` only where z3 (the ``proofs`` extra) is installed."""

from __future__ import annotations

import importlib.util

collect_ignore_glob = [] if importlib.util.find_spec("z3") else ["*.py"]
