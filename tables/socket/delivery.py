"""A committed change, from the thread that committed it to this process's pages.

:mod:`tables.play.events` sends a change's event when its transaction commits, in the thread
that ran it (Channels' database thread). Registered there by :func:`attach`, :func:`deliver`
hands the change to the event loop of this process's pages: the committed table becomes the
room's snapshot (:meth:`tables.socket.pushes.FrameCache.offer`), so this process's pages are
pushed from it as saved, and the event goes to every process through the channel layer, whose
message wakes each page's consumer (``table_changed``), this process's included.

When the layer can't carry the event (Redis down), this process's pages of the table are
pushed at once from here (:func:`pages_tell`), and the other processes' pages catch up at their
heartbeat (:mod:`tables.socket.heartbeat`) or when they reconnect. A held window's close,
which is no commit, reaches each process's pages the same way, from that process's own tick
(``tables.socket.consumer``).
"""

from __future__ import annotations

import asyncio
import contextvars
import logging

from tables.play import events
from tables.play.clock import Committed
from tables.socket import heartbeat, pushes

__all__ = ["attach", "deliver", "pages_tell"]

logger = logging.getLogger(__name__)

_loop: asyncio.AbstractEventLoop | None = None
"""The event loop this process's pages run on (one per server process; each test has its own,
and the last one that opened a page is the one in use)."""

_sending: set[asyncio.Task[None]] = set()
"""Events being sent (kept: the loop holds tasks weakly)."""


def attach() -> None:
    """Called on the event loop by each page that opens: changes committed from now on in
    this process are delivered to this loop."""
    global _loop
    _loop = asyncio.get_running_loop()
    events.delivery_register(deliver)


def deliver(change: Committed) -> bool:
    """Hand ``change`` to the pages' event loop (from any thread); False when there is none
    running, and the caller sends the event itself."""
    loop = _loop
    if loop is None or loop.is_closed() or not loop.is_running():
        return False
    # In a context of its own, not the committing thread's: that one is inside a
    # ``sync_to_async`` call, and anything it started would be refused the database thread.
    loop.call_soon_threadsafe(_arrived, change, context=contextvars.Context())
    return True


def _arrived(change: Committed) -> None:
    number = change.room.number
    pushes.frame_cache().offer(number, change)
    task = asyncio.ensure_future(_announce(number, change.version))
    _sending.add(task)
    task.add_done_callback(_sending.discard)


async def _announce(number: str, version: int) -> None:
    try:
        await events.table_changed_async(number, version=version)
    except Exception as exc:
        logger.warning("table %s: telling the pages failed: %s", number, exc)
        await pages_tell(number, version)


async def pages_tell(number: str, version: int) -> None:
    """Push this process's pages of room ``number`` up to room version ``version`` (or a
    snapshot caught up since, :func:`tables.play.clock.catch_up`), without the channel layer."""
    for page in heartbeat.beat().room_pages(number):
        if page.tell is not None:
            try:
                await page.tell(version)
            except Exception as exc:
                logger.warning("table %s: pushing the change failed: %s", number, exc)
