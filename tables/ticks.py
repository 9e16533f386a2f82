"""One tick per room and deadline in each process, however many of its pages wait for it.

Every open page's consumer keeps a timer for the table's deadline (:mod:`tables.clock`), so
a table with four pages in a process has four timers firing at the same moment. Only one of
them needs to call :func:`tables.clock.advance`: the others would each open a transaction,
lock the room and find nothing due. Here the pages of a process take turns per room, and a
page whose deadline has already been ticked in this process skips it. A tick that failed or
was cancelled is not counted, so the next page still calls. Other processes tick on their
own; :func:`tables.clock.advance` stays safe to call from all of them at once.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import TypeVar

from tables.per_loop import PerLoop, Rooms

__all__ = ["MAX_ROOMS", "Ticks", "ticks"]

MAX_ROOMS = 4096
"""Rooms whose last tick is remembered per process; the least recently ticked go first."""

T = TypeVar("T")


class Ticks:
    """Per process (per event loop): the last deadline ticked for each room."""

    def __init__(self, max_rooms: int = MAX_ROOMS) -> None:
        self.rooms: Rooms[datetime] = Rooms(max_rooms)

    async def once(
        self, number: str, deadline: datetime, advance: Callable[[], Awaitable[T]]
    ) -> tuple[bool, T | None]:
        """Run ``advance`` for room ``number``'s ``deadline`` unless this process already has:
        ``(True, its result)``, or ``(False, None)`` when skipped."""
        async with self.rooms.lock(number):
            last = self.rooms.get(number)
            if last is not None and last >= deadline:
                return False, None
            result = await advance()
            self.rooms.put(number, deadline)
            return True, result


_ticks = PerLoop(Ticks)


def ticks() -> Ticks:
    """This process's ticks (one per event loop: its locks belong to that loop)."""
    return _ticks.get()
