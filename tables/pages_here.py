"""The table pages open in this process, by room: a change committed here is pushed to them
at once, not after its group message has gone round the channel layer.

The process that commits a change holds the table as saved (:meth:`tables.frames.FrameCache.
offer`), so its own pages need nothing from the group message: on Redis it went out to the
server and came back, and on a busy process each leg waited its turn on the event loop. The
message still goes out, for the pages of the other processes; a page here that already
shows its version is sent nothing by it (:meth:`tables.consumers.TableConsumer.table_changed`).

>>> import asyncio
>>> class Page:
...     def __init__(self) -> None:
...         self.got: list[int] = []
...     async def push_change(self, version: int) -> None:
...         self.got.append(version)
>>> async def pushed() -> list[int]:
...     here, page = PagesHere(), Page()
...     here.join("123456", page)
...     await here.push("123456", 7)
...     here.leave("123456", page)
...     await here.push("123456", 8)
...     return page.got
>>> asyncio.run(pushed())
[7]
"""

from __future__ import annotations

import logging
from typing import Protocol

from tables.per_loop import PerLoop

__all__ = ["PageHere", "PagesHere", "pages_here"]

logger = logging.getLogger(__name__)


class PageHere(Protocol):
    async def push_change(self, version: int) -> None:
        """Show the room as of ``version`` (or later)."""


class PagesHere:
    """This process's (this event loop's) open table pages, by room number."""

    def __init__(self) -> None:
        self.rooms: dict[str, list[PageHere]] = {}

    def join(self, number: str, page: PageHere) -> None:
        self.rooms.setdefault(number, []).append(page)

    def leave(self, number: str, page: PageHere) -> None:
        pages = self.rooms.get(number, [])
        if page in pages:
            pages.remove(page)
        if not pages:
            self.rooms.pop(number, None)

    async def push(self, number: str, version: int) -> None:
        """Push room ``number`` as of ``version`` to each of its pages here, in turn: one
        page failing (its socket closing meanwhile) does not keep it from the others."""
        for page in list(self.rooms.get(number, ())):
            try:
                await page.push_change(version)
            except Exception:
                logger.exception("table %s: pushing a change to a page here failed", number)


_pages = PerLoop(PagesHere)


def pages_here() -> PagesHere:
    """This process's pages (one registry per event loop, like its frame cache)."""
    return _pages.get()
