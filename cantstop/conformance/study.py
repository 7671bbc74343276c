"""The seeded-bug study's former path, kept: :mod:`cantstop.study` under its older name.

``import cantstop.conformance.study`` gives the module :mod:`cantstop.study`
itself (the same object, so its names are one set), and ``python -m
cantstop.conformance.study`` runs that module's command.
"""

from __future__ import annotations

import sys

from cantstop import study as _study
from cantstop.study import *  # noqa: F403  (the names, for readers and type checkers)

__all__ = _study.__all__

if __name__ == "__main__":  # pragma: no cover
    sys.exit(_study.main())
sys.modules[__name__] = _study
