"""The configuration, kept at this path: see :mod:`cantstop.config` and :mod:`cantstop.board`.

``from cantstop.rules import Rules`` keeps working; the configuration
(:class:`Rules`, :class:`Variant`, the player counts) lives in
:mod:`cantstop.config`, and the board's fixed parts (the columns, the
standard heights, the markers) in :mod:`cantstop.board`.

>>> from cantstop.config import Rules as ConfigRules
>>> Rules is ConfigRules
True
"""

from cantstop.board import COLUMNS, MARKERS, STANDARD_HEIGHTS
from cantstop.board import MAX_HEIGHT as MAX_HEIGHT
from cantstop.config import MAX_PLAYERS as MAX_PLAYERS
from cantstop.config import MIN_PLAYERS as MIN_PLAYERS
from cantstop.config import Rules, Variant

__all__ = ["COLUMNS", "MARKERS", "STANDARD_HEIGHTS", "Rules", "Variant"]
