"""The seeded-bug study, kept at this path: see :mod:`cantstop.study`.

``from cantstop.conformance.study import run_study`` keeps working, and
``python -m cantstop.conformance.study`` runs the same command as ``python
-m cantstop.study``; the study lives in :mod:`cantstop.study`.

>>> from cantstop.study import run_study as moved
>>> run_study is moved
True
"""

from __future__ import annotations

import sys

from cantstop import study as _study
from cantstop.study import *  # noqa: F403  (every name of the study, at its former path)

__all__ = _study.__all__

if __name__ == "__main__":  # pragma: no cover
    sys.exit(_study.main())
