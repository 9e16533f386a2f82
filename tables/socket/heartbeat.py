"""One heartbeat per process for all its open pages.

An open page renews its socket slots' leases (:mod:`tables.play.page_leases`) and, for a seated
player, tells :mod:`tables.play.presence` that the page is still there. A beat per page would
be a transaction per page every interval on the one database thread, each holding up the
moves queued behind it; so the pages of a process join one beat that renews every page's
slots and writes every seat in one transaction.

The beat also catches up pages that missed a change. On Redis the channel layer does not keep
a message published while a process is reconnecting (``config.env.REDIS_CHANNEL_LAYER``):
the pages of that process would show the table as it was until its next change, and a page
whose turn it became would not know it. Each beat compares the version every page's last
push was made from with the room's version at the beat before, and tells the tables whose
pages are behind that, as a change would.

The beat's queries run on a thread of their own where the database takes writers at once
(PostgreSQL): on Channels' one database thread its write and its read held up the moves
queued behind them, up to a tenth of a second every interval on a busy process. SQLite takes
one writer at a time, so there the beat stays on the database thread, with the moves.

A player whose page a full process turns away (1013, :mod:`tables.socket.limits`) knocks: the
page retries with backoff, and until it gets in, the beats write that player's seat as
present, for as long as the knocks go on (:meth:`Beat.knocked`). A seated player kept out by
load alone is not put on 托管 as gone; their turn timer still runs, as for anyone.

A page joins when its socket is set up and leaves in its cleanup, which runs however the
socket ends (:class:`tables.socket.consumer.TableConsumer`): a page that left is not beaten, so a
seat whose pages are all gone goes stale as :mod:`tables.play.presence` expects.

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
import time
from collections.abc import Awaitable, Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, ParamSpec, TypeVar, cast

from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from django.db import connections
from django.utils import timezone

from tables.play import events, page_leases, presence
from tables.rooms import selectors
from tables.socket.loop_local import PerLoop

if TYPE_CHECKING:
    from tables.socket.pushes import Shown

__all__ = ["KNOCKS_KEPT_SECONDS", "Beat", "Page", "beat", "beat_thread_call", "pages_beat"]

logger = logging.getLogger(__name__)

KNOCKS_KEPT_SECONDS = 70.0
"""How long a page turned away for load counts its player present: longer than the longest
wait between two retries of htmx's ws extension (64 s), so a player who keeps retrying is
never stale, and one who gave up goes on 托管 about a minute later than usual."""

P = ParamSpec("P")
R = TypeVar("R")

_beat_thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="table-beat")


def beat_thread_call(func: Callable[P, R]) -> Callable[P, Awaitable[R]]:
    """``func`` run, awaited, where the beat queries: on PostgreSQL its own thread and
    connection, so that moves need not wait for it; on SQLite the database thread."""
    if connections["default"].vendor == "sqlite":
        return cast("Callable[P, Awaitable[R]]", database_sync_to_async(func))

    def closing(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return func(*args, **kwargs)
        finally:
            # One call an interval: a connection kept between them would only be one more
            # for PostgreSQL to hold (and one a test's database could not be dropped past),
            # and none is left to go stale.
            connections.close_all()

    return sync_to_async(closing, thread_sensitive=False, executor=_beat_thread)


@dataclass(frozen=True)
class Page:
    """What a beat renews for one open page."""

    channel: str
    number: str
    user_id: int | None
    """The player whose seat at room ``number`` this page counts as open (None: a spectator,
    or a page not counted)."""
    slots: tuple[str, ...]
    shown: Shown | None = field(default=None, compare=False)
    """What the page shows, as its pushes keep it (None: not known, not caught up)."""
    tell: Callable[[int], Awaitable[object]] | None = field(default=None, compare=False)
    """Pushes the page up to a room version, without the channel layer (when it is down)."""


def pages_beat(pages: Iterable[Page], now: datetime | None = None) -> None:
    """Renew every page's slot leases and report every counted seat still open: one write."""
    pages = list(pages)
    page_leases.socket_slots_renew({slot: p.channel for p in pages for slot in p.slots})
    seats = {(p.number, p.user_id) for p in pages if p.user_id is not None}
    presence.heartbeats(seats, now=now or timezone.now())


class Beat:
    """The pages of one process (one event loop) and the task that beats for them."""

    def __init__(
        self,
        write: Callable[[list[Page]], None] = pages_beat,
        versions: Callable[[Iterable[str]], dict[str, int]] = selectors.room_versions,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.write = write
        self.versions = versions
        self.clock = clock
        self.rooms: dict[str, int] = {}
        """Each room's version as the last beat read it."""
        self.pages: dict[str, Page] = {}
        self.rooms_pages: dict[str, dict[str, Page]] = {}
        """The same pages by room number: a window's close pushes one room's pages."""
        self.knocks: dict[tuple[str, int], float] = {}
        """``(room number, user id)`` of pages turned away for load → when last (``clock``)."""
        self.task: asyncio.Task[None] | None = None

    def room_pages(self, number: str) -> list[Page]:
        """This process's pages of room ``number``."""
        return list(self.rooms_pages.get(number, {}).values())

    def knocked(self, number: str, user_id: int) -> None:
        """A page of ``user_id`` at room ``number`` was turned away for load and will retry:
        the beats count that player's seat (if any) as present while the knocks go on."""
        self.knocks[(number, user_id)] = self.clock()

    def knocking(self) -> list[Page]:
        """The players turned away lately, as pages with no slots (their seats only); a
        player who has not knocked for :data:`KNOCKS_KEPT_SECONDS` is dropped."""
        recent = self.clock() - KNOCKS_KEPT_SECONDS
        self.knocks = {key: at for key, at in self.knocks.items() if at >= recent}
        return [
            Page(channel=f"knocking.{number}.{user_id}", number=number, user_id=user_id, slots=())
            for number, user_id in self.knocks
        ]

    def join(self, page: Page) -> None:
        self.pages[page.channel] = page
        self.rooms_pages.setdefault(page.number, {})[page.channel] = page
        if self.task is None or self.task.done():
            self.task = asyncio.create_task(self._run())

    async def leave(self, channel: str) -> None:
        """The page closed: no beat renews it from now on (the last page stops the task)."""
        page = self.pages.pop(channel, None)
        if page is not None:
            room = self.rooms_pages.get(page.number, {})
            room.pop(channel, None)
            if not room:
                self.rooms_pages.pop(page.number, None)
        if not self.pages and self.task is not None:
            task, self.task = self.task, None
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)

    async def _run(self) -> None:
        interval = presence.heartbeat_interval().total_seconds()
        while self.pages:
            await asyncio.sleep(interval)
            await self.beat_once()

    async def beat_once(self) -> None:
        """Renew every page, then catch up the pages behind; a failure is logged, not raised."""
        try:
            await beat_thread_call(self.write)([*self.pages.values(), *self.knocking()])
        except Exception:
            # The next beat tries again; leases and presence outlast a missed beat.
            logger.exception("heartbeat of %d pages failed", len(self.pages))
        try:
            await self.catch_up()
        except Exception as exc:
            # The channel layer is down (Redis): the next beat tries again.
            logger.warning("catching up %d pages failed: %s", len(self.pages), exc)

    async def catch_up(self) -> None:
        """Tell each table whose pages here still show less than the version its room had
        at the last beat: a change that old has missed them, where one made since may only
        be on its way (a busy process pushes a second or more late, and telling every such
        table again would make it busier still). A page that is up to date is sent nothing
        by the push this causes."""
        shown: dict[str, int] = {}
        for page in self.pages.values():
            version = page.shown.version if page.shown is not None else None
            if version is not None:
                shown[page.number] = min(version, shown.get(page.number, version))
        before, self.rooms = self.rooms, await beat_thread_call(self.versions)(shown)
        for number, version in self.rooms.items():
            if number in before and shown[number] < before[number]:
                await events.table_changed_async(number, version=version)


_beat = PerLoop(Beat)


def beat() -> Beat:
    """This process's beat (one per event loop: its task belongs to that loop)."""
    return _beat.get()
