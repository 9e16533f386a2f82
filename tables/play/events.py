"""Telling a table's open pages that something changed, once the change is committed.

The service that makes a change to a running table (:mod:`tables.play.inputs`,
:func:`tables.play.clock.advance`) calls :func:`change_send_on_commit` inside its transaction;
when the transaction commits, the change's event goes out (as zulip's
``send_event_on_commit``), and never for a change rolled back. The event carries no tiles, only
when it was sent (after the commit) and the room's version it committed: each process reads
the table once for all its pages (:mod:`tables.socket.pushes`), and a read begun after that
moment, or one that saw that version, has the change.

A process that runs pages registers a delivery (:func:`delivery_register`): it gets the change
as committed, so its own pages are pushed from the table as saved without reading it again,
and it sends the event from its event loop. Without one (a management command, a test with no
page open) the event is sent from the committing thread. This package never imports the
socket side; the socket side registers itself here.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

if TYPE_CHECKING:
    from tables.play.clock import Committed

__all__ = [
    "Delivery",
    "change_send_on_commit",
    "delivery_register",
    "group_name",
    "member_evicted",
    "table_changed",
    "table_changed_async",
    "table_changed_message",
]

logger = logging.getLogger(__name__)

Delivery = Callable[["Committed"], bool]
"""Takes a committed change to this process's pages and sends its event; False when it can't
here (no event loop of pages in this process), and the event is sent from the caller."""

_deliveries: list[Delivery] = []


def delivery_register(deliver: Delivery) -> None:
    """Give every change committed from now on to ``deliver`` first (registered once)."""
    if deliver not in _deliveries:
        _deliveries.append(deliver)


def change_send_on_commit(change: Committed) -> None:
    """Send ``change``'s event when the transaction under way commits (inside it)."""
    transaction.on_commit(partial(_change_send, change), robust=True)


def _change_send(change: Committed) -> None:
    for deliver in _deliveries:
        if deliver(change):
            return
    try:
        table_changed(change.room.number, version=change.version)
    except Exception as exc:
        # The change is committed: the pages catch up at their heartbeat or when they reconnect.
        logger.warning("table %s: telling the pages failed: %s", change.room.number, exc)


def group_name(number: str) -> str:
    """The Channels group of every page open on room ``number``."""
    return f"table.{number}"


def table_changed_message(version: int | None = None) -> dict[str, Any]:
    message: dict[str, Any] = {"type": "table.changed", "at": time.time()}
    if version is not None:
        message["version"] = version
    return message


async def table_changed_async(number: str, version: int | None = None) -> None:
    """``version``: the room's version the change committed, when it is a change to the game
    (``room.version`` goes up with every one); None for anything else (the seats, a page)."""
    layer = get_channel_layer()
    if layer is not None:
        await layer.group_send(group_name(number), table_changed_message(version))


def table_changed(number: str, version: int | None = None) -> None:
    """From synchronous code (views), after the change has been committed."""
    async_to_sync(table_changed_async)(number, version)


def member_evicted(number: str, user_id: int) -> None:
    """A club removed ``user_id``: their pages at its room ``number`` close (the consumer's
    ``table_evict``)."""
    layer = get_channel_layer()
    if layer is not None:
        async_to_sync(layer.group_send)(
            group_name(number), {"type": "table.evict", "user_id": user_id}
        )
