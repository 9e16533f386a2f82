"""tables.socket.heartbeat: the catch-up of pages that missed a change (the rest of the beat is
tested with the consumer, in test_consumer.py)."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterable
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.db import connection

from tables.play import events
from tables.socket import heartbeat
from tables.socket.pushes import Shown

# The beat reads through database_sync_to_async, which tidies the thread's connections.
pytestmark = pytest.mark.django_db


def _page(channel: str, number: str, version: int | None) -> heartbeat.Page:
    return heartbeat.Page(
        channel=channel, number=number, user_id=None, slots=(), shown=Shown(version=version)
    )


@pytest.fixture
def told(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, int | None]]:
    got: list[tuple[str, int | None]] = []

    async def tell(number: str, version: int | None = None) -> None:
        got.append((number, version))

    monkeypatch.setattr(events, "table_changed_async", tell)
    return got


async def test_only_a_change_older_than_a_beat_is_told_again(told: list[Any]) -> None:
    rooms = {"111111": 6, "222222": 4}
    asked: list[list[str]] = []

    def versions(numbers: Iterable[str]) -> dict[str, int]:
        asked.append(sorted(numbers))
        return {n: v for n, v in rooms.items() if n in numbers}

    beat = heartbeat.Beat(write=lambda pages: None, versions=versions)
    late = _page("a", "111111", 5)  # its push of version 6 may still be on its way
    beat.pages = {"a": late, "b": _page("b", "111111", 6), "c": _page("c", "222222", 4)}
    await beat.catch_up()
    assert told == []  # the first beat has nothing to compare with
    await beat.catch_up()
    assert told == [("111111", 6)]  # a beat later it still shows 5: it missed 6
    told.clear()
    assert late.shown is not None
    late.shown.version = 6  # the push arrived
    rooms["222222"] = 5  # a new change, on its way to page c
    await beat.catch_up()
    assert told == []
    assert asked[-1] == ["111111", "222222"]


async def test_pages_that_show_no_table_yet_are_not_asked_about(told: list[Any]) -> None:
    asked: list[list[str]] = []

    def versions(numbers: Iterable[str]) -> dict[str, int]:
        asked.append(list(numbers))
        return {}

    beat = heartbeat.Beat(write=lambda pages: None, versions=versions)
    beat.pages = {"a": _page("a", "111111", None), "b": heartbeat.Page("b", "222222", None, ())}
    await beat.catch_up()
    await beat.catch_up()
    assert asked == [[], []] and told == []


def _thread_name() -> str:
    return threading.current_thread().name


@pytest.mark.django_db(transaction=True)
async def test_the_beat_queries_beside_the_moves_where_the_database_allows() -> None:
    """On PostgreSQL the beat has its own thread and connection: it finishes while the
    database thread is busy (with a move, say). SQLite takes one writer at a time, so there
    the beat queries on the database thread, in turn with the moves."""
    database_thread = await database_sync_to_async(_thread_name)()
    if connection.vendor == "sqlite":
        assert await heartbeat.beat_thread_call(_thread_name)() == database_thread
        return
    release = threading.Event()
    busy = asyncio.ensure_future(database_sync_to_async(release.wait)(10))
    try:
        beat_thread = await asyncio.wait_for(heartbeat.beat_thread_call(_thread_name)(), 5)
        assert not busy.done()  # the database thread was still held
    finally:
        release.set()
        await busy
    assert beat_thread != database_thread
    # The beat writes from there, and its connection is closed until the next beat.
    await heartbeat.beat_thread_call(heartbeat.pages_beat)([])


async def test_a_player_turned_away_for_load_is_beaten_while_the_knocks_go_on() -> None:
    written: list[list[heartbeat.Page]] = []
    clock = [1000.0]
    beat = heartbeat.Beat(write=written.append, versions=lambda shown: {}, clock=lambda: clock[0])
    beat.join(_page("c1", "111111", 3))
    beat.knocked("222222", 7)
    await beat.beat_once()
    knocking = [(p.number, p.user_id, p.slots) for p in written[-1] if p.channel != "c1"]
    assert knocking == [("222222", 7, ())]  # the seat only: a turned-away page holds no slot
    clock[0] += 69.9  # the ws extension waits up to 64 s between two retries
    await beat.beat_once()
    assert [p.user_id for p in written[-1] if p.channel != "c1"] == [7]
    clock[0] += 0.2  # no knock for longer than that: the player stopped trying
    await beat.beat_once()
    assert [p.channel for p in written[-1]] == ["c1"]
    await beat.leave("c1")


async def test_a_rooms_pages_are_found_by_its_number_until_they_leave() -> None:
    beat = heartbeat.Beat(write=lambda pages: None, versions=lambda shown: {})
    for channel, number in (("c1", "111111"), ("c2", "222222"), ("c3", "111111")):
        beat.join(_page(channel, number, 1))
    assert sorted(p.channel for p in beat.room_pages("111111")) == ["c1", "c3"]
    await beat.leave("c1")
    assert [p.channel for p in beat.room_pages("111111")] == ["c3"]
    await beat.leave("c3")
    assert beat.room_pages("111111") == [] and "111111" not in beat.rooms_pages
    await beat.leave("c2")
