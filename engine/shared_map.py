"""An immutable mapping that shares all but a small part with the one it came from.

A tournament's state after every event is kept (undo is a pop), and each state holds
its players and each round's results. With dicts, every sign-up would copy every player
into the next state, and replaying a long log would take time growing with the square
of its length. A :class:`SharedMap` is split into buckets by key: :meth:`~SharedMap.set`
copies one small bucket and the row of buckets, and shares the rest.

It reads as the dict it stands for, in key order (player and table numbers), and
compares equal to it:

>>> players = SharedMap().set(2, "Bob").set(1, "Ann")
>>> players[1], len(players), list(players), players.without(2) == {1: "Ann"}
('Ann', 2, [1, 2], True)
"""

from __future__ import annotations

from collections.abc import Hashable, ItemsView, Iterator, KeysView, Mapping, ValuesView
from itertools import chain
from types import MappingProxyType
from typing import Any, Final, Generic, TypeVar, overload

__all__ = ["SharedMap"]

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")
T = TypeVar("T")

_WIDTH: Final = 64
_EMPTY: Final[tuple[dict[Any, Any], ...]] = ({},) * _WIDTH
"""No bucket is ever changed once made: a change copies it first."""


class SharedMap(Mapping[K, V], Generic[K, V]):
    """An immutable mapping: :meth:`set` and :meth:`without` give a new one, this one is unchanged."""

    __slots__ = ("_buckets", "_size", "_view")

    def __init__(self) -> None:
        """An empty mapping: the others are made from it by :meth:`set`."""
        self._buckets: tuple[dict[K, V], ...] = _EMPTY
        self._size = 0
        self._view: Mapping[K, V] | None = None

    def _with(self, index: int, bucket: dict[K, V], size: int) -> SharedMap[K, V]:
        changed: SharedMap[K, V] = object.__new__(SharedMap)
        changed._buckets = self._buckets[:index] + (bucket,) + self._buckets[index + 1 :]
        changed._size, changed._view = size, None
        return changed

    def set(self, key: K, value: V) -> SharedMap[K, V]:
        """This mapping with ``key`` set to ``value``."""
        index = hash(key) % _WIDTH
        bucket = dict(self._buckets[index])
        size = self._size if key in bucket else self._size + 1
        bucket[key] = value
        return self._with(index, bucket, size)

    def without(self, key: K) -> SharedMap[K, V]:
        """This mapping without ``key`` (:class:`KeyError` if it has none)."""
        index = hash(key) % _WIDTH
        bucket = dict(self._buckets[index])
        del bucket[key]
        return self._with(index, bucket, self._size - 1)

    def __getitem__(self, key: K) -> V:
        return self._buckets[hash(key) % _WIDTH][key]

    def __contains__(self, key: object) -> bool:
        return key in self._buckets[hash(key) % _WIDTH]

    @overload
    def get(self, key: K, /) -> V | None: ...

    @overload
    def get(self, key: K, /, default: V | T) -> V | T: ...

    def get(self, key: K, /, default: Any = None) -> Any:
        return self._buckets[hash(key) % _WIDTH].get(key, default)

    def __len__(self) -> int:
        return self._size

    def __iter__(self) -> Iterator[K]:
        return iter(self.view())

    def keys(self) -> KeysView[K]:
        return self.view().keys()

    def items(self) -> ItemsView[K, V]:
        return self.view().items()

    def values(self) -> ValuesView[V]:
        return self.view().values()

    def view(self) -> Mapping[K, V]:
        """Every item in key order, as a read-only dict made once (on the first walk through
        the items): what a screen reads over and over, at a dict's speed. A fold only sets
        and looks up, and never makes one."""
        if self._view is None:
            self._view = MappingProxyType(dict(sorted(chain.from_iterable(bucket.items() for bucket in self._buckets))))
        return self._view

    def __repr__(self) -> str:
        return f"SharedMap({dict(self.items())!r})"
