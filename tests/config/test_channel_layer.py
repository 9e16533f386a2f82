"""config.channel_layer: the in-memory layer sweeps for expired entries at most once a second."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from config.channel_layer import PacedInMemoryChannelLayer


async def test_messages_go_through_as_with_channels_own_layer() -> None:
    layer = PacedInMemoryChannelLayer()
    channels = [await layer.new_channel() for _ in range(3)]
    for c in channels:
        await layer.group_add("table.1", c)
    await layer.group_send("table.1", {"type": "table.changed"})
    got = await asyncio.gather(*(layer.receive(c) for c in channels))
    assert got == [{"type": "table.changed"}] * 3


async def test_the_sweep_runs_once_per_interval_and_still_expires(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    layer = PacedInMemoryChannelLayer(expiry=60)
    sweeps: list[int] = []
    sweep = PacedInMemoryChannelLayer.__mro__[1]._clean_expired

    def counted(self: Any) -> None:
        sweeps.append(1)
        sweep(self)

    monkeypatch.setattr(PacedInMemoryChannelLayer.__mro__[1], "_clean_expired", counted)
    clock = [1000.0]
    monkeypatch.setattr("config.channel_layer.time.monotonic", lambda: clock[0])
    stale = await layer.new_channel()
    await layer.send(stale, {"type": "old"})
    for _ in range(50):  # many sends and group sends within one interval: one sweep
        await layer.group_send("table.1", {"type": "table.changed"})
    assert len(sweeps) == 1
    # The message is a minute old: the next sweep, an interval later, removes it.
    layer.channels[stale]._queue[0] = (0.0, {"type": "old"})
    clock[0] += layer.sweep_seconds
    await layer.group_send("table.1", {"type": "table.changed"})
    assert len(sweeps) == 2 and stale not in layer.channels
