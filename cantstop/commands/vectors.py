"""The command lines of the vector generator and the study, kept at this path.

They are Can't Stop's own maintainer tools, and live with its conformance
suite: see :mod:`cantstop.conformance.tools`.
"""

from cantstop.conformance.tools import generate_main, study_main

__all__ = ["generate_main", "study_main"]
