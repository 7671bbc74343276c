"""The board and its equipment: the columns 2 to 12, their standard heights, the markers (R1).

What a configuration may change (another board's heights, R15.3) is in
:mod:`cantstop.config`; these are the fixed parts and the standard board.

>>> COLUMNS[0], COLUMNS[-1], STANDARD_HEIGHTS[7], MARKERS
(2, 12, 13, 3)
"""

from __future__ import annotations

from cantstop.columnmap import ColumnMap

__all__ = ["COLUMNS", "MARKERS", "STANDARD_HEIGHTS"]

#: Every column a sum of two dice can name (R1.1).
COLUMNS: tuple[int, ...] = tuple(range(2, 13))

#: The number of neutral markers a turn may use (R1.4).
MARKERS = 3

#: The standard board: column to number of spaces (R1.1).
STANDARD_HEIGHTS = ColumnMap(
    {2: 3, 3: 5, 4: 7, 5: 9, 6: 11, 7: 13, 8: 11, 9: 9, 10: 7, 11: 5, 12: 3}
)

#: The tallest column a custom board may have, so that notation can write it (R15.3).
MAX_HEIGHT = 999
