"""What a process keeps per event loop: objects that hold asyncio locks (they belong to the
loop that made them; in a server that is one per process, and each test's loop gets its
own), and :class:`Rooms`, the bounded per-room memory such objects keep.

>>> import asyncio
>>> made = PerLoop(list)
>>> async def same() -> bool:
...     return made.get() is made.get()
>>> asyncio.run(same())
True
"""

from __future__ import annotations

import asyncio
import weakref
from collections import OrderedDict
from collections.abc import Callable
from typing import Generic, TypeVar

__all__ = ["PerLoop", "Rooms"]

T = TypeVar("T")
V = TypeVar("V")


class PerLoop(Generic[T]):
    """``make()``'s result for the running event loop, made the first time it is asked for."""

    def __init__(self, make: Callable[[], T]) -> None:
        self.make = make
        self.made: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, T] = (
            weakref.WeakKeyDictionary()
        )

    def get(self) -> T:
        loop = asyncio.get_running_loop()
        found = self.made.get(loop)
        if found is None:
            found = self.made[loop] = self.make()
        return found


class Rooms(Generic[V]):
    """A value and a lock per room, for at most ``max_rooms`` rooms: the least recently used
    go first (their locks with them, unless held).

    >>> rooms: Rooms[int] = Rooms(max_rooms=2)
    >>> for number in ("1", "2", "3"):
    ...     rooms.put(number, int(number))
    >>> list(rooms.values), rooms.get("1")
    (['2', '3'], None)
    """

    def __init__(self, max_rooms: int) -> None:
        self.max_rooms = max_rooms
        self.values: OrderedDict[str, V] = OrderedDict()
        self.locks: dict[str, asyncio.Lock] = {}

    def lock(self, number: str) -> asyncio.Lock:
        return self.locks.setdefault(number, asyncio.Lock())

    def get(self, number: str) -> V | None:
        return self.values.get(number)

    def used(self, number: str) -> None:
        """Room ``number`` was just used: it goes last."""
        self.values.move_to_end(number)

    def put(self, number: str, value: V) -> None:
        self.values[number] = value
        self.values.move_to_end(number)
        while len(self.values) > self.max_rooms:
            old, _ = self.values.popitem(last=False)
            if old in self.locks and not self.locks[old].locked():
                del self.locks[old]
