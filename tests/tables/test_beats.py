"""The process's one heartbeat: every page renewed once an interval, a slice at a time."""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import Any

import pytest

from tables.beats import Beat, Page

# The writes go through Channels' database thread, which checks its connection first.
pytestmark = pytest.mark.django_db(transaction=True)


def _page(n: int) -> Page:
    return Page(channel=f"c{n}", number="123456", user_id=n, slots=(f"slot{n}",))


async def _beats_for(seconds: float, beat: Beat) -> None:
    await asyncio.sleep(seconds)
    for channel in list(beat.pages):
        await beat.leave(channel)


async def test_every_page_is_written_once_an_interval_a_slice_at_a_time(settings: Any) -> None:
    """One transaction for all of a process's pages held the database thread for 30-100 ms
    every interval; each write now holds one slice of them."""
    settings.TABLE_HEARTBEAT_SECONDS = 0.3
    written: list[list[Page]] = []
    beat = Beat(write=written.append, slices=3)
    for n in range(7):
        beat.join(_page(n))
    await _beats_for(0.3 * 2.5, beat)  # two whole intervals and half of a third
    assert [sorted(p.channel for p in batch) for batch in written[:3]] == [
        ["c0", "c3", "c6"],  # dealt round in turn as they joined
        ["c1", "c4"],
        ["c2", "c5"],
    ]
    assert len(written) in (6, 7)  # three writes an interval, not one per page
    per_page = Counter(p.channel for batch in written for p in batch)
    assert sorted(per_page) == [f"c{n}" for n in range(7)]
    assert set(per_page.values()) <= {2, 3}


async def test_a_page_that_left_is_not_written_and_the_last_one_stops_the_beat(
    settings: Any,
) -> None:
    settings.TABLE_HEARTBEAT_SECONDS = 0.2
    written: list[list[Page]] = []
    beat = Beat(write=written.append, slices=2)
    for n in range(4):
        beat.join(_page(n))
    beat.join(_page(0))  # the same page joining again is not written twice
    await beat.leave("c1")
    await asyncio.sleep(0.2 * 1.5)
    assert sorted(p.channel for batch in written for p in batch) == ["c0", "c2", "c3"]
    assert beat.task is not None
    for channel in ("c0", "c2", "c3"):
        await beat.leave(channel)
    assert beat.task is None and beat.pages == {} and beat.slice_of == {}
    assert all(s == {} for s in beat.slices)


async def test_a_failed_write_does_not_stop_the_beat(settings: Any) -> None:
    settings.TABLE_HEARTBEAT_SECONDS = 0.1
    calls: list[int] = []

    def write(pages: list[Page]) -> None:
        calls.append(len(pages))
        if len(calls) == 1:
            raise RuntimeError("the cache is down")

    beat = Beat(write=write, slices=1)
    beat.join(_page(0))
    await _beats_for(0.1 * 2.5, beat)
    assert calls == [1, 1]
