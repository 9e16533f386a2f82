"""tables.socket.delivery: a change committed in the database thread reaches this process's
pages through its event loop, and every process's through the channel layer."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer

from tables.models import Room
from tables.play import events
from tables.play.clock import Committed
from tables.play.table import VoteState
from tables.socket import delivery, pushes


def _change(number: str, version: int) -> Committed:
    room = Room(number=number, version=version)
    return Committed(room=room, table=None, votes=VoteState(), read_at=time.time())


async def test_a_change_from_another_thread_is_kept_here_and_sent_to_the_group() -> None:
    layer = get_channel_layer()
    assert layer is not None
    channel = await layer.new_channel()
    await layer.group_add(events.group_name("700001"), channel)
    delivery.attach()
    # From a thread, as the database thread's commit calls it.
    assert await sync_to_async(delivery.deliver, thread_sensitive=False)(_change("700001", 41))
    message = await asyncio.wait_for(layer.receive(channel), timeout=5)
    assert message["type"] == "table.changed" and message["version"] == 41
    # The table as committed is this process's snapshot: its pages are pushed from it.
    kept = pushes.frame_cache().rooms.get("700001")
    assert kept is not None and kept.version == 41
    await layer.group_discard(events.group_name("700001"), channel)


def test_with_no_pages_loop_running_the_caller_sends_the_event() -> None:
    async def opened() -> None:
        delivery.attach()

    asyncio.run(opened())  # a page's loop that has since ended
    assert delivery.deliver(_change("700002", 1)) is False


async def test_with_the_layer_down_this_process_s_pages_of_the_table_are_pushed_at_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from tables.socket import heartbeat

    told: list[tuple[str, int]] = []

    async def down(number: str, version: int | None = None) -> None:
        raise ConnectionError("redis is down")

    def page(channel: str, number: str) -> heartbeat.Page:
        async def tell(version: int) -> Any:
            told.append((channel, version))

        return heartbeat.Page(channel=channel, number=number, user_id=None, slots=(), tell=tell)

    monkeypatch.setattr(events, "table_changed_async", down)
    beat = heartbeat.Beat(write=lambda pages: None)
    monkeypatch.setattr(heartbeat, "beat", lambda: beat)
    for channel, number in (("a", "700003"), ("b", "700004"), ("c", "700003")):
        beat.join(page(channel, number))
    delivery.attach()
    assert delivery.deliver(_change("700003", 8))
    for _ in range(20):
        await asyncio.sleep(0.01)
    assert sorted(told) == [("a", 8), ("c", 8)]  # not the other table's page
    for channel in ("a", "b", "c"):
        await beat.leave(channel)
