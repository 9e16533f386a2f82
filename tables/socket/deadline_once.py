"""One tick per room and deadline in each process, however many of its pages wait for it.

Every open page's consumer keeps a timer for the table's deadline (:mod:`tables.play.clock`), so
a table with four pages in a process has four timers firing at the same moment. Only one of
them needs to call :func:`tables.play.clock.advance`: the others would each open a transaction,
lock the room and find nothing due. Here the pages of a process take turns per room, and a
page whose deadline has already been ticked in this process skips it. A tick that failed or
was cancelled is not counted, so the next page still calls. Other processes tick on their
own; :func:`tables.play.clock.advance` stays safe to call from all of them at once.

A tick does whatever is due when it runs, not only its own deadline. When the process falls
behind (a busy database thread, a saturated loop), the ticks of a table queue up here while
the table moves on: a tick for an old deadline meets a later one. It then counts as the tick
of the deadline it met, so the pages queued behind it for deadlines up to that one skip,
rather than each opening a transaction that finds nothing due. No later deadline is skipped
so: every change reads the clock once it holds the room's lock (:func:`tables.play.clock.advance`),
so whatever commits after the tick schedules from a later moment than any deadline it met.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import TypeVar

from tables.socket.loop_local import PerLoop, Rooms

__all__ = ["MAX_ROOMS", "Ticks", "ticks"]

MAX_ROOMS = 4096
"""Rooms whose last tick is remembered per process; the least recently ticked go first."""

T = TypeVar("T")


class Ticks:
    """Per process (per event loop): the last deadline ticked for each room."""

    def __init__(self, max_rooms: int = MAX_ROOMS) -> None:
        self.rooms: Rooms[datetime] = Rooms(max_rooms)

    async def once(
        self,
        number: str,
        deadline: datetime,
        advance: Callable[[], Awaitable[T]],
        met: Callable[[T], datetime | None] = lambda result: None,
    ) -> tuple[bool, T | None]:
        """Run ``advance`` for room ``number``'s ``deadline`` unless this process already has:
        ``(True, its result)``, or ``(False, None)`` when skipped. ``met(result)`` is the
        deadline the run actually met, when later than ``deadline``."""
        async with self.rooms.locked(number):
            last = self.rooms.get(number)
            if last is not None and last >= deadline:
                return False, None
            result = await advance()
            reached = met(result)
            self.rooms.put(number, deadline if reached is None else max(deadline, reached))
            return True, result


_ticks = PerLoop(Ticks)


def ticks() -> Ticks:
    """This process's ticks (one per event loop: its locks belong to that loop)."""
    return _ticks.get()
