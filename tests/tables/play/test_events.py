"""tables.play.events: the group message that tells a table's pages to look again, with no tiles."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer

from tables.play import events


async def _listen(number: str) -> tuple[Any, str]:
    layer = get_channel_layer()
    assert layer is not None
    channel = await layer.new_channel()
    await layer.group_add(events.group_name(number), channel)
    return layer, channel


async def test_a_page_in_the_group_gets_exactly_the_bare_message() -> None:
    layer, channel = await _listen("111111")
    _, elsewhere = await _listen("222222")
    before = time.time()
    await events.table_changed_async("111111")
    message = await asyncio.wait_for(layer.receive(channel), timeout=5)
    # No tiles, no state: only when it was sent, after the commit (a read begun later has it).
    assert set(message) == {"type", "at"} and message["type"] == "table.changed"
    assert before <= message["at"] <= time.time()
    with pytest.raises(asyncio.TimeoutError):
        await asyncio.wait_for(layer.receive(elsewhere), timeout=0.2)  # another room's page
    await layer.group_discard(events.group_name("111111"), channel)


async def test_the_synchronous_call_reaches_the_group_too() -> None:
    layer, channel = await _listen("333333")
    await sync_to_async(events.table_changed)("333333")
    message = await asyncio.wait_for(layer.receive(channel), timeout=5)
    assert message["type"] == "table.changed" and isinstance(message["at"], float)
    await layer.group_discard(events.group_name("333333"), channel)


def test_no_channel_layer_is_no_error(monkeypatch: pytest.MonkeyPatch) -> None:
    """A setup without Channels (a management command): the layer is asked for, there is none,
    and the change already committed is not undone by an error."""
    asked: list[str] = []
    monkeypatch.setattr(events, "get_channel_layer", lambda: asked.append("layer"))
    events.table_changed("123456")
    assert asked == ["layer"]
