"""tables.socket.limits: the token bucket and how full a process is."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.core.cache import cache

from tables.socket import limits
from tables.socket.limits import ProcessLoad, TokenBucket
from tests.tables.factories import page_open, start_with_bots


@pytest.fixture(autouse=True)
def _clean_cache() -> Iterator[None]:
    cache.clear()
    yield
    cache.clear()


def test_the_bucket_refills_at_its_rate_up_to_its_burst() -> None:
    bucket = TokenBucket(rate=10, burst=20, now=0.0)
    assert sum(bucket.take(0.0) for _ in range(50)) == 20
    assert sum(bucket.take(1.0) for _ in range(50)) == 10  # one second: ten more
    assert sum(bucket.take(100.0) for _ in range(50)) == 20  # never more than the burst


def test_a_full_process_refuses_newcomers_before_seated_players() -> None:
    load = ProcessLoad(sockets=8, lag_seconds=0.25)
    load.open = 7
    assert not load.full(seated=False)
    load.open = 8  # full: a page with no seat waits, a seated player's still gets in
    assert load.full(seated=False) and not load.full(seated=True)
    load.open = 10  # a quarter more: nobody
    assert load.full(seated=True)
    load.open = 0
    load.late(0.5)  # the loop half a second late: newcomers wait, seated players come in
    assert load.full(seated=False) and not load.full(seated=True)
    load.late(1.5)
    assert load.full(seated=True)


def test_a_stall_is_forgotten_within_seconds() -> None:
    load = ProcessLoad(sockets=8, lag_seconds=0.25)
    load.late(2.0)
    for _ in range(20):  # five seconds of samples on time
        load.late(0.0)
    assert not load.full(seated=True) and not load.full(seated=False)


@pytest.mark.django_db(transaction=True)
async def test_a_full_process_closes_a_spectator_with_1013_and_takes_the_player(
    monkeypatch: Any, make_user: Any
) -> None:
    """The page's socket extension retries a 1013 with backoff; the seated player gets in."""
    from channels.routing import URLRouter
    from channels.testing import WebsocketCommunicator

    from tables.socket.routing import websocket_urlpatterns

    player = await sync_to_async(make_user)("player")
    watcher = await sync_to_async(make_user)("watcher")
    room = await sync_to_async(start_with_bots)(player)
    load = ProcessLoad(sockets=1, lag_seconds=10.0)
    monkeypatch.setattr(limits, "process_load", lambda: load)
    seated = await page_open(room, player)
    assert load.open == 1  # the process is full now
    comm = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/table/{room.number}/")
    comm.scope["user"] = watcher
    connected, _ = await comm.connect()
    assert connected  # accepted, then closed: the close code reaches the page
    assert await comm.receive_output(timeout=5) == {"type": "websocket.close", "code": 1013}
    assert load.open == 1
    await seated.disconnect()
    await asyncio.sleep(0)
    assert load.open == 0


@pytest.mark.django_db(transaction=True)
async def test_a_seated_player_turned_away_by_a_full_process_is_not_taken_for_gone(
    monkeypatch: Any, make_user: Any
) -> None:
    """Refused with 1013 before any database work, the player knocks; the process's beat keeps
    their seat present while they retry, so the grace period does not put them on 托管."""
    from datetime import timedelta

    from channels.routing import URLRouter
    from channels.testing import WebsocketCommunicator
    from django.utils import timezone

    from tables.models import Seat
    from tables.play.presence import gone_since
    from tables.socket import heartbeat
    from tables.socket.routing import websocket_urlpatterns

    player = await sync_to_async(make_user)("kept-out")
    room = await sync_to_async(start_with_bots)(player)
    long_ago = timezone.now() - timedelta(minutes=5)
    await sync_to_async(Seat.objects.filter(room=room, user=player).update)(
        connections=0, disconnected_at=long_ago
    )
    monkeypatch.setattr(limits, "process_load", lambda: ProcessLoad(sockets=0, lag_seconds=10.0))
    comm = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/table/{room.number}/")
    comm.scope["user"] = player
    connected, _ = await comm.connect()
    assert connected
    assert await comm.receive_output(timeout=5) == {"type": "websocket.close", "code": 1013}
    await sync_to_async(heartbeat.pages_beat)(heartbeat.beat().knocking())
    seat = await sync_to_async(Seat.objects.get)(room=room, user=player)
    assert gone_since(seat, timezone.now()) is None
