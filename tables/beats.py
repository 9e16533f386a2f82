"""One heartbeat per process for all its open pages.

An open page renews its socket slots' leases (:mod:`tables.limits`) and, for a seated
player, tells :mod:`tables.presence` that the page is still there. Each page used to beat on
its own: with 800 pages a process wrote 800 times every interval, each write its own
transaction on the one database thread, and each held up the moves queued behind it (a
quarter of that thread's time at 200 tables). Here the pages of a process join one beat that
renews every page's slots and writes every seat in one transaction.

A page joins when its socket is set up and leaves in its cleanup, which runs however the
socket ends (:class:`tables.consumers.TableConsumer`): a page that left is not beaten, so a
seat whose pages are all gone goes stale as :mod:`tables.presence` expects.

>>> import asyncio
>>> async def joined() -> list[str]:
...     beat = Beat(write=lambda pages: None)
...     beat.join(Page(channel="c1", number="123456", user_id=None, slots=()))
...     channels = list(beat.pages)
...     await beat.leave("c1")
...     return channels
>>> asyncio.run(joined())
['c1']
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime

from channels.db import database_sync_to_async
from django.db import transaction
from django.utils import timezone

from tables import limits, presence
from tables.per_loop import PerLoop

__all__ = ["Beat", "Page", "beat", "pages_beat"]

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Page:
    """What a beat renews for one open page."""

    channel: str
    number: str
    user_id: int | None
    """The player whose seat at room ``number`` this page counts as open (None: a spectator,
    or a page not counted)."""
    slots: tuple[str, ...]


def pages_beat(pages: Iterable[Page], now: datetime | None = None) -> None:
    """Renew every page's slot leases and report every counted seat still open: one write."""
    pages = list(pages)
    limits.socket_slots_renew({slot: p.channel for p in pages for slot in p.slots})
    seats = {(p.number, p.user_id) for p in pages if p.user_id is not None}
    with transaction.atomic():
        presence.heartbeats(seats, now=now or timezone.now())


class Beat:
    """The pages of one process (one event loop) and the task that beats for them."""

    def __init__(self, write: Callable[[list[Page]], None] = pages_beat) -> None:
        self.write = write
        self.pages: dict[str, Page] = {}
        self.task: asyncio.Task[None] | None = None

    def join(self, page: Page) -> None:
        self.pages[page.channel] = page
        if self.task is None or self.task.done():
            self.task = asyncio.create_task(self._run())

    async def leave(self, channel: str) -> None:
        """The page closed: no beat renews it from now on (the last page stops the task)."""
        self.pages.pop(channel, None)
        if not self.pages and self.task is not None:
            task, self.task = self.task, None
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)

    async def _run(self) -> None:
        interval = presence.heartbeat_interval().total_seconds()
        while self.pages:
            await asyncio.sleep(interval)
            try:
                await database_sync_to_async(self.write)(list(self.pages.values()))
            except Exception:
                # The next beat tries again; leases and presence outlast a missed beat.
                logger.exception("heartbeat of %d pages failed", len(self.pages))


_beat = PerLoop(Beat)


def beat() -> Beat:
    """This process's beat (one per event loop: its task belongs to that loop)."""
    return _beat.get()
