"""Telling a table's open pages that something changed. The message carries no tiles: each
connection re-reads the table and renders its own seat's view."""

from __future__ import annotations

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer


def group_name(number: str) -> str:
    """The Channels group of every page open on room ``number``."""
    return f"table.{number}"


def table_changed_message() -> dict[str, str]:
    return {"type": "table.changed"}


async def table_changed_async(number: str) -> None:
    layer = get_channel_layer()
    if layer is not None:
        await layer.group_send(group_name(number), table_changed_message())


def table_changed(number: str) -> None:
    """From synchronous code (views), after the change has been committed."""
    async_to_sync(table_changed_async)(number)
