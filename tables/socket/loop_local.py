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
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Generic, TypeVar

from cachetools import LRUCache

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


class _Held:
    """A room's lock and how many tasks hold it or wait for it."""

    __slots__ = ("lock", "users")

    def __init__(self) -> None:
        self.lock = asyncio.Lock()
        self.users = 0


class Rooms(Generic[V]):
    """A value per room, for at most ``max_rooms`` rooms (the least recently used go first),
    and a lock per room for as long as some task holds it or waits for it.

    >>> rooms: Rooms[int] = Rooms(max_rooms=2)
    >>> for number in ("1", "2", "3"):
    ...     rooms.put(number, int(number))
    >>> list(rooms.values), rooms.get("1")
    (['2', '3'], None)
    >>> async def under_lock() -> list[str]:
    ...     async with rooms.locked("9"):
    ...         return list(rooms.locks)
    >>> asyncio.run(under_lock()), list(rooms.locks)
    (['9'], [])
    """

    def __init__(self, max_rooms: int) -> None:
        self.max_rooms = max_rooms
        self.values: LRUCache[str, V] = LRUCache(maxsize=max_rooms)
        self.locks: dict[str, _Held] = {}

    @asynccontextmanager
    async def locked(self, number: str) -> AsyncIterator[None]:
        """Hold room ``number``'s lock. The lock is dropped when its last user leaves, however
        it leaves, so a failed read or an evicted room leaves none behind; a user is counted
        from before it waits, so a lock with a waiter (even one being woken) is never dropped
        and replaced by a second lock for the same room."""
        held = self.locks.get(number)
        if held is None:
            held = self.locks[number] = _Held()
        held.users += 1
        try:
            async with held.lock:
                yield
        finally:
            held.users -= 1
            if not held.users:
                del self.locks[number]

    def get(self, number: str) -> V | None:
        return self.values.get(number)

    def used(self, number: str) -> None:
        """Room ``number`` was just used: it goes last."""
        self.values.get(number)  # a look-up is a use (cachetools.LRUCache)

    def put(self, number: str, value: V) -> None:
        self.values[number] = value  # the least recently used room goes when full
