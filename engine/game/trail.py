"""An append-only sequence that shares its past: each game state keeps its own history for free.

A game's state after every event is kept (undo is a pop), and each state has the turns
played so far. With tuples, every turn copied the whole history into the next state, so
replaying a long log took time (and memory) growing with the square of its length. A
:class:`Trail` appends and replaces its last item in constant time, sharing everything
before with the trail it came from; reading it as a whole builds a tuple once, kept.

It reads like the tuple it stands for, and compares equal to it:

>>> turns = Trail().then("Ann banks 550").then("Bob farkles")
>>> turns[-1], len(turns), turns == ("Ann banks 550", "Bob farkles")
('Bob farkles', 2, True)
>>> turns.but_last("Bob banks 300")[1], turns[1]
('Bob banks 300', 'Bob farkles')
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any, Generic, TypeVar, overload

__all__ = ["Trail"]

T = TypeVar("T")


class Trail(Sequence[T], Generic[T]):
    """An immutable sequence: :meth:`then` appends, :meth:`but_last` replaces the last item."""

    __slots__ = ("_last", "_before", "_size", "_items")

    _last: T
    _before: Trail[T] | None
    _size: int
    _items: tuple[T, ...] | None

    def __init__(self, items: Iterable[T] = ()) -> None:
        values = tuple(items)
        self._before, self._size, self._items = None, 0, ()
        if values:
            before: Trail[T] = Trail()
            for item in values[:-1]:
                before = before.then(item)
            self._last, self._before, self._size, self._items = values[-1], before, len(values), values

    @classmethod
    def _node(cls, last: T, before: Trail[T]) -> Trail[T]:
        node: Trail[T] = object.__new__(cls)
        node._last, node._before, node._size, node._items = last, before, before._size + 1, None
        return node

    @property
    def before(self) -> Trail[T] | None:
        """This trail without its last item: the very trail it grew from, shared, not copied
        (None when empty)."""
        return self._before

    def then(self, item: T) -> Trail[T]:
        """This trail with ``item`` added at the end (this one is unchanged)."""
        return Trail._node(item, self)

    def but_last(self, item: T) -> Trail[T]:
        """This trail with its last item replaced by ``item``."""
        if self._before is None:
            raise IndexError("An empty trail has no last item to replace.")
        return Trail._node(item, self._before)

    def as_tuple(self) -> tuple[T, ...]:
        """Every item, first to last (built once, then kept)."""
        if self._items is not None:
            return self._items
        tail: list[T] = []
        node: Trail[T] | None = self
        while node is not None and node._items is None:
            tail.append(node._last)
            node = node._before
        tail.reverse()
        self._items = (node._items if node is not None and node._items else ()) + tuple(tail)
        return self._items

    def __len__(self) -> int:
        return self._size

    def __bool__(self) -> bool:
        return self._size > 0

    @overload
    def __getitem__(self, index: int) -> T: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[T, ...]: ...

    def __getitem__(self, index: int | slice) -> T | tuple[T, ...]:
        if index == -1 and self._size:
            return self._last
        return self.as_tuple()[index]

    def __iter__(self) -> Iterator[T]:
        return iter(self.as_tuple())

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if isinstance(other, Trail):
            return self._size == other._size and self.as_tuple() == other.as_tuple()
        if isinstance(other, tuple):
            return self._size == len(other) and self.as_tuple() == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.as_tuple())

    def __repr__(self) -> str:
        return repr(self.as_tuple())

    def __reduce__(self) -> tuple[Any, ...]:
        return (Trail, (self.as_tuple(),))
