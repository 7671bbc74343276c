"""An immutable, hashable mapping from column number to an integer."""

from __future__ import annotations

from collections.abc import ItemsView, Iterable, Iterator, KeysView, Mapping, ValuesView
from typing import overload

__all__ = ["ColumnMap"]


class ColumnMap(Mapping[int, int]):
    """An immutable mapping from column number to an integer, kept in column order.

    Used for board heights, marker and square positions and column owners.  Two
    column maps are equal when they hold the same items, and equal maps hash
    alike, so states that contain them are values.

    >>> m = ColumnMap({10: 1, 7: 3})
    >>> list(m.items())
    [(7, 3), (10, 1)]
    >>> m == {7: 3, 10: 1}
    True
    >>> m.set(7, 4)
    ColumnMap({7: 4, 10: 1})

    :meth:`items`, :meth:`keys` and :meth:`values` are read-only views of the
    map's own dict, as fast as a dict's; a map pickles as that dict alone.

    >>> import pickle
    >>> pickle.loads(pickle.dumps(m)) == m, m.items() == {(7, 3), (10, 1)}
    (True, True)
    """

    __slots__ = ("_dict", "_hash", "_items")

    _dict: dict[int, int]
    _items: tuple[tuple[int, int], ...]
    _hash: int

    @overload
    def __init__(self) -> None: ...
    @overload
    def __init__(self, items: Mapping[int, int] | Iterable[tuple[int, int]]) -> None: ...

    def __init__(self, items: Mapping[int, int] | Iterable[tuple[int, int]] = ()) -> None:
        pairs = items.items() if isinstance(items, Mapping) else items
        ordered = tuple(sorted(pairs))
        self._dict = dict(ordered)
        self._items = tuple(self._dict.items())
        self._hash = hash(self._items)

    @classmethod
    def _from_sorted_dict(cls, d: dict[int, int]) -> ColumnMap:
        """Wrap a dict whose keys are already in increasing order (no copy)."""
        m = object.__new__(cls)
        m._dict = d
        m._items = tuple(d.items())
        m._hash = hash(m._items)
        return m

    def __reduce__(self) -> tuple[object, ...]:
        # The dict alone: the items and the hash are made again from it.
        return _load, (self._dict,)

    def __getitem__(self, column: int) -> int:
        return self._dict[column]

    def items(self) -> ItemsView[int, int]:
        """Return a read-only view of the (column, value) pairs, in column order."""
        return self._dict.items()

    def keys(self) -> KeysView[int]:
        """Return a read-only view of the columns, in order."""
        return self._dict.keys()

    def values(self) -> ValuesView[int]:
        """Return a read-only view of the values, in column order."""
        return self._dict.values()

    def __contains__(self, column: object) -> bool:
        return column in self._dict

    def __iter__(self) -> Iterator[int]:
        return iter(self._dict)

    def __len__(self) -> int:
        return len(self._dict)

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        if isinstance(other, ColumnMap):
            return self._items == other._items
        if isinstance(other, Mapping):
            return self._dict == dict(other.items())
        return NotImplemented

    def __repr__(self) -> str:
        return f"ColumnMap({self._dict!r})"

    def set(self, column: int, value: int) -> ColumnMap:
        """Return a copy in which ``column`` maps to ``value``."""
        d = dict(self._dict)
        d[column] = value
        return ColumnMap._from_sorted_dict(dict(sorted(d.items())))

    def without(self, column: int) -> ColumnMap:
        """Return a copy without ``column`` (the same map if it is absent).

        >>> ColumnMap({7: 3, 10: 1}).without(7)
        ColumnMap({10: 1})
        """
        if column not in self._dict:
            return self
        return ColumnMap._from_sorted_dict({c: v for c, v in self._items if c != column})


def _load(items: dict[int, int]) -> ColumnMap:
    """Return the map a pickle holds: its dict, in column order."""
    return ColumnMap._from_sorted_dict(items)
