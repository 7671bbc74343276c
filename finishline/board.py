"""The board: six rows of four cells, the finish line beyond row 1, and forward and sideways.

Cells are :class:`Cell` values, numbered row by row from the finish line:
``A1`` is 0, ``D1`` is 3, ``A2`` is 4 and ``D6`` is 23, which is also the
order in which the notation lists them (N2.3).  Spec chapter R1.

>>> Cell.C2.row, Cell.C2.letter, Cell.C2.forward, Cell.C2.text
(2, 'C', <Cell.C1: 2>, 'C2')
>>> Cell.C1.forward is None  # forward of row 1 is across the line
True
>>> [c.text for c in Cell.A5.neighbours]
['B5']
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from typing import TypeAlias

__all__ = ["CELLS", "LETTERS", "ROWS", "Board", "Cell", "board_from", "cell_at"]

#: The rows, numbered like a die's faces; row 1 lies next to the finish line (R1.1, R1.2).
ROWS: tuple[int, ...] = (1, 2, 3, 4, 5, 6)
#: The letters of a row's cells, from left to right (R1.1).
LETTERS = "ABCD"


class Cell(enum.IntEnum):
    """One of the 24 cells, named by its letter and row (R1.1); its value is its index."""

    A1 = 0
    B1 = 1
    C1 = 2
    D1 = 3
    A2 = 4
    B2 = 5
    C2 = 6
    D2 = 7
    A3 = 8
    B3 = 9
    C3 = 10
    D3 = 11
    A4 = 12
    B4 = 13
    C4 = 14
    D4 = 15
    A5 = 16
    B5 = 17
    C5 = 18
    D5 = 19
    A6 = 20
    B6 = 21
    C6 = 22
    D6 = 23

    @property
    def row(self) -> int:
        """The cell's row, 1 to 6."""
        return self.value // 4 + 1

    @property
    def letter(self) -> str:
        """The cell's letter, ``'A'`` to ``'D'``."""
        return LETTERS[self.value % 4]

    @property
    def text(self) -> str:
        """The cell's name in the notation, such as ``'C2'``."""
        return self.name

    @property
    def forward(self) -> Cell | None:
        """The cell directly above, one row nearer the line; ``None`` from row 1 (R1.2)."""
        return Cell(self.value - 4) if self.value >= 4 else None

    @property
    def neighbours(self) -> tuple[Cell, ...]:
        """The cells beside this one in its row, left first (R7.1); A and D have one each."""
        column = self.value % 4
        return tuple(Cell(self.value + d) for d in (-1, 1) if 0 <= column + d < 4)

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"<Cell.{self.name}: {self.value}>"


#: Every cell, in the order of their indices (row 1 first, A first within a row).
CELLS: tuple[Cell, ...] = tuple(Cell)


def cell_at(row: int, letter: str) -> Cell:
    """Return the cell of ``letter`` in ``row``.

    >>> cell_at(5, 'B')
    <Cell.B5: 17>
    """
    return Cell((row - 1) * 4 + LETTERS.index(letter))


#: A board: for each of the 24 cells, in the order of :class:`Cell`, the player whose
#: counter stands there, or ``None``.
Board: TypeAlias = tuple[int | None, ...]


def board_from(counters: Mapping[Cell, int]) -> Board:
    """Return the board with the counters of ``counters``, from cell to player, and no others.

    >>> board = board_from({Cell.C2: 0, Cell.B5: 1})
    >>> board[Cell.C2], board[Cell.A1], len(board)
    (0, None, 24)
    """
    cells: list[int | None] = [None] * 24
    for cell, player in counters.items():
        cells[Cell(cell)] = player
    return tuple(cells)
