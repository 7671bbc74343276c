"""A shared store of captured pieces: it holds a fixed number and pushes out the oldest.

Pieces are named by their owner (a player number).  Putting a piece into a
full store pushes out the piece that has been there longest, which goes back
to its owner; taking a piece out leaves the others in their order.

>>> store = Store(capacity=1)
>>> store, out = store.put(2)
>>> store.pieces, out
((2,), None)
>>> store, out = store.put(0)
>>> store.pieces, out
((0,), 2)
>>> store.take(0).pieces
()
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Store"]


@dataclass(frozen=True, slots=True)
class Store:
    """A store of captured pieces: ``pieces`` oldest first, at most ``capacity`` of them."""

    capacity: int
    pieces: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if self.capacity < 1:
            raise ValueError(f"a store holds at least one piece, not {self.capacity}")
        if len(self.pieces) > self.capacity:
            raise ValueError(f"{len(self.pieces)} pieces in a store of {self.capacity}")

    def put(self, owner: int) -> tuple[Store, int | None]:
        """Return the store with ``owner``'s piece added, and the owner of the piece pushed out."""
        pieces = (*self.pieces, owner)
        if len(pieces) <= self.capacity:
            return Store(self.capacity, pieces), None
        return Store(self.capacity, pieces[1:]), pieces[0]

    def take(self, owner: int) -> Store:
        """Return the store without the oldest piece of ``owner``; raise ``ValueError`` if none."""
        index = self.pieces.index(owner)
        return Store(self.capacity, self.pieces[:index] + self.pieces[index + 1 :])
