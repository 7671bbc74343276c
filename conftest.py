"""Doctest collection: an adapter module whose framework is missing is left out, except in CI.

The adapters import their framework when imported, so ``--doctest-modules``
could not even collect them without it.  CI installs every extra
(``.ci/run``) and runs them all; elsewhere they are skipped when the
framework is absent, like their tests (``tests/extras.py``).
"""

from __future__ import annotations

import importlib.util
import os

#: Adapter modules and the framework each imports.
_ADAPTERS = {
    "cantstop/openspiel.py": "pyspiel",
    "dicekit/openspiel.py": "pyspiel",
    "dicekit/openspiel_state.py": "pyspiel",
    "finishline/openspiel.py": "pyspiel",
    "tower/openspiel.py": "pyspiel",
    "cantstop/envs/__init__.py": "numpy",
    "cantstop/envs/_table.py": "numpy",
    "cantstop/envs/_batch.py": "numpy",
    "cantstop/envs/_kernel.py": "numba",
    "cantstop/envs/gymnasium.py": "gymnasium",
    "cantstop/envs/vector.py": "gymnasium",
    "cantstop/envs/pettingzoo.py": "pettingzoo",
    "cantstop/solve": "numba",
}

collect_ignore = (
    []
    if os.environ.get("CI") == "true"
    else [path for path, module in _ADAPTERS.items() if importlib.util.find_spec(module) is None]
)

# Every game's proofs and the layer's proofs kit import z3 (the ``proofs`` extra).
_PROOFS = ["dicekit/proofs/*.py", "proofs/*.py", "finishline/proofs/*.py", "tower/proofs/*.py"]
collect_ignore_glob = [] if importlib.util.find_spec("z3") else _PROOFS
