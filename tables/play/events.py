"""Telling a table's open pages that something changed. The message carries no tiles, only
when it was sent (after the change was committed) and, for a change to the game, the room's
version it committed: each process reads the table once for all its pages
(:mod:`tables.socket.pushes`), and a read begun after that moment, or one that saw that version,
has the change."""

from __future__ import annotations

import time
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer


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


def table_changed(number: str) -> None:
    """From synchronous code (views), after the change has been committed."""
    async_to_sync(table_changed_async)(number)


def member_evicted(number: str, user_id: int) -> None:
    """A club removed ``user_id``: their pages at its room ``number`` close (the consumer's
    ``table_evict``)."""
    layer = get_channel_layer()
    if layer is not None:
        async_to_sync(layer.group_send)(
            group_name(number), {"type": "table.evict", "user_id": user_id}
        )
