"""The configuration, kept at this path: see :mod:`cantstop.config` and :mod:`cantstop.board`.

``from cantstop.rules import Rules`` keeps working; the configuration
(:class:`Rules`, :class:`Variant`, the player counts) lives in
:mod:`cantstop.config`, and the board's fixed parts (the columns, the
standard heights, the markers) in :mod:`cantstop.board`.

>>> from cantstop.config import Rules as ConfigRules
>>> Rules is ConfigRules
True
"""

from cantstop.board import COLUMNS, MARKERS, MAX_HEIGHT, STANDARD_HEIGHTS
from cantstop.config import MAX_PLAYERS, MIN_PLAYERS, Rules, Variant

__all__ = [
    "COLUMNS",
    "MARKERS",
    "MAX_HEIGHT",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "STANDARD_HEIGHTS",
    "Rules",
    "Variant",
]
