"""Several server processes sharing one table: two ``python -m config.serve`` (daphne)
processes on the test's PostgreSQL database and a Redis channel layer, as in production.

The four players of one table sit on alternate processes and play (the load benchmark's
clients, speaking what the page's htmx sends); then all four put themselves on 托管 and the
clock plays, its deadlines armed in every open page on both processes; then one process is
killed with SIGKILL mid-hand, its players reconnect to the other, and the hand finishes.

Checked: every page sees the table's versions in order, past the killed hand's end; the clock
commits no faster than one beat per deadline (a deadline advanced by both processes would
double the rate); after the kill the hand ends, and its stored result is what the engine
makes of its stored action log.

Needs ``REDIS_URL`` and a PostgreSQL ``DATABASE_URL`` (CI's second pass sets both).
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import time
from dataclasses import dataclass, field
from typing import Any

import pytest
import websockets
from django.conf import settings

from engine.hand_log import replay
from engine.rules import Rules
from tables.models import Hand, Room
from tests.load.client import choose, move_text
from tests.load.server import Server, database_url, free_port, seat_tables, server_env
from tests.load.wire import Frame, parse_frame

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

GONE = (OSError, TimeoutError, websockets.ConnectionClosed, websockets.InvalidHandshake)
"""How a page finds its server gone: then it reconnects."""

BEAT = 0.15
"""The servers' TABLE_BOT_DELAY_SECONDS: the clock's pace while everyone is on 托管."""


@pytest.fixture
def shared_services() -> str:
    if not os.environ.get("REDIS_URL"):
        pytest.skip("several processes share a table only through Redis: set REDIS_URL")
    if "postgresql" not in settings.DATABASES["default"]["ENGINE"]:
        pytest.skip("several processes need a shared database: set a PostgreSQL DATABASE_URL")
    return os.environ["REDIS_URL"]


@dataclass
class Page:
    """One player's open table page: reads every push, plays while ``acting``, and when its
    server goes away reconnects to the next one, as htmx's WebSocket extension does."""

    seat: int
    number: str
    cookie: str
    ports: list[int]
    acting: bool = True
    seen: list[tuple[float, int, int | None, str | None]] = field(default_factory=list)
    reconnects: int = 0
    ws: Any = None
    rng: random.Random = field(default_factory=lambda: random.Random(7))

    @property
    def versions(self) -> list[int]:
        return [v for _, v, _, _ in self.seen]

    async def run(self, stop: asyncio.Event) -> None:
        while not stop.is_set():
            port = self.ports[0]
            origin = f"http://127.0.0.1:{port}"
            try:
                async with websockets.connect(
                    f"ws://127.0.0.1:{port}/ws/table/{self.number}/",
                    additional_headers={"Cookie": f"sessionid={self.cookie}", "Origin": origin},
                    max_size=2**22,
                    open_timeout=20,
                ) as ws:
                    self.ws = ws
                    await self._read(ws, stop, f"{origin}/r/{self.number}/")
            except (
                OSError,
                websockets.ConnectionClosed,
                websockets.InvalidHandshake,
                TimeoutError,
            ):
                if stop.is_set():
                    return
                self.reconnects += 1
                self.ports = self.ports[1:] + self.ports[:1]
                await asyncio.sleep(0.2)

    async def _read(self, ws: Any, stop: asyncio.Event, page_url: str) -> None:
        acted_on: int | None = None
        step: int | None = None
        controls: Frame | None = None  # the last frame with the seat's own part: its buttons
        while not stop.is_set():
            try:
                text = await asyncio.wait_for(ws.recv(), timeout=0.5)
            except TimeoutError:
                continue
            frame = parse_frame(text)
            if frame.private:
                # Also a push of the seat's part alone: in a window asking two seats, the
                # other's answer moves the step on and brings this seat new buttons. Pressing
                # the old ones again was refused every time, and the table stalled.
                controls = frame
            if frame.version is None:
                if frame.error and self.acting and controls is not None:
                    # Refused (the table moved on meanwhile): the page keeps its buttons, and
                    # the player looks again and presses what is still there.
                    await asyncio.sleep(0.3)
                    control = choose(controls, self.rng)
                    if control is not None:
                        await ws.send(move_text(control, step=step, page_url=page_url))
                continue
            self.seen.append((time.monotonic(), frame.version, frame.hand, frame.phase))
            if frame.step is not None:
                step = frame.step
            if self.acting and frame.version != acted_on:
                control = choose(frame, self.rng)
                if control is not None:
                    acted_on = frame.version
                    await ws.send(move_text(control, step=step, page_url=page_url))


async def quiet(pages: list[Page], seconds: float = 1.0) -> None:
    """Until no page has been pushed anything for ``seconds``."""
    while True:
        last = max((p.seen[-1][0] for p in pages if p.seen), default=0.0)
        if time.monotonic() - last >= seconds:
            return
        await asyncio.sleep(0.1)


def past(hand: int | None, phase: str | None, number: int) -> bool:
    """Does a frame of ``hand`` in ``phase`` show hand ``number`` over?"""
    return hand is not None and (hand > number or (hand == number and phase == "ended"))


async def db(query: Any) -> Any:
    """``query()`` in a worker thread, which then lets go of its database connection (else
    it would keep the test database open when pytest-django drops it)."""
    from django.db import connection

    def run() -> Any:
        try:
            return query()
        finally:
            connection.close()

    return await asyncio.to_thread(run)


def hand_in_play(number: str) -> Hand | None:
    return Hand.objects.filter(room__number=number, ended_at__isnull=True).first()


async def scenario(servers: list[Server], number: str, cookies: tuple[str, ...]) -> list[Page]:
    ports = [s.port for s in servers]
    pages = [
        Page(seat=i, number=number, cookie=cookies[i], ports=ports[i % 2 :] + ports[: i % 2])
        for i in range(4)
    ]
    stop = asyncio.Event()
    tasks = [asyncio.create_task(p.run(stop)) for p in pages]
    try:
        # 1. Four players on two processes play a few moves.
        first = await db(lambda: Room.objects.get(number=number).version)
        deadline = time.monotonic() + 60
        while min((p.versions[-1] if p.versions else 0) for p in pages) < first + 16:
            recent = [p.versions[-5:] for p in pages]
            assert time.monotonic() < deadline, f"the players did not get to play: {recent}"
            await asyncio.sleep(0.1)

        for p in pages:
            p.acting = False
        await quiet(pages)
        # 2. Everyone on 托管: the clock plays; every page on both processes arms it.
        for p in pages:
            await p.ws.send(json.dumps({"action": "tuoguan", "on": "1"}))
        await asyncio.sleep(1.0)
        start, t0 = await db(lambda: Room.objects.get(number=number).version), time.monotonic()
        await asyncio.sleep(6 * BEAT)
        now = await db(lambda: Room.objects.get(number=number).version)
        commits, seconds = now - start, time.monotonic() - t0
        assert 0 < commits <= seconds / BEAT + 1, f"{commits} commits in {seconds:.1f}s"
        # 3. One process dies mid-hand; its pages move to the other and the hand finishes.
        # The clock may have just ended a hand (a quick 胡): then the next deal is a beat away.
        while (hand := await db(lambda: hand_in_play(number))) is None:
            assert time.monotonic() < t0 + 30, "the clock dealt no next hand"
            await asyncio.sleep(BEAT)
        servers[1].proc.kill()
        servers[1].proc.wait(10)
        deadline = time.monotonic() + 150
        while not await db(Hand.objects.filter(pk=hand.pk, ended_at__isnull=False).exists):
            last = [p.seen[-1][1:] if p.seen else None for p in pages]
            assert time.monotonic() < deadline, f"the hand never finished after the kill: {last}"
            await asyncio.sleep(0.2)
        ended = await db(lambda: Hand.objects.get(pk=hand.pk).number)
        # Every page follows the table past that hand (its end, or the next deal: a busy page
        # may render only the later of two quick commits).
        while not all(any(past(h, phase, ended) for _, _, h, phase in p.seen) for p in pages):
            assert time.monotonic() < deadline, "a page never followed the table past the hand"
            await asyncio.sleep(0.1)
        return pages
    finally:
        stop.set()
        await asyncio.gather(*tasks, return_exceptions=True)


def test_four_players_on_two_processes_and_one_killed(shared_services: str) -> None:
    from django.db import connection

    (table,) = seat_tables(1, turn_seconds=120)
    env = server_env(database_url(connection.settings_dict), shared_services)
    env.update(
        SECRET_KEY=settings.SECRET_KEY,
        TABLE_BOT_DELAY_SECONDS=str(BEAT),
        # as in the test process (tests/conftest.py): no claim pause, so moves come at the beat
        TABLE_CLAIM_PAUSE_SECONDS="0",
    )
    servers = [Server(env, free_port()) for _ in range(2)]
    try:
        for s in servers:
            s.wait_ready()
        pages = asyncio.run(scenario(servers, table.number, table.cookies))
    finally:
        for s in servers:
            s.stop()
    for p in pages:
        assert p.versions == sorted(p.versions), f"seat {p.seat} saw the table out of order"
    assert [p.reconnects > 0 for p in pages] == [False, True, False, True]
    ended = list(Hand.objects.filter(room__number=table.number, ended_at__isnull=False))
    assert ended and all(h.result is not None for h in ended)
    for hand in ended:  # the book is what the engine makes of the stored log
        state = replay(
            Rules.from_json(hand.rules), hand.seed, None, hand.actions, dealer=hand.dealer
        )
        assert state.result == hand.result, f"hand {hand.number}"


async def page_counts_after_a_kill(
    servers: list[Server], number: str, cookie: str, user_id: int
) -> dict[str, Any]:
    """Seat 0's page on the second process; that process is killed and the page reconnects
    to the first at once. What the seat's page count and presence did then."""
    from tables.models import Seat
    from tables.play import page_leases

    def count() -> int:
        return page_leases.account_sockets_at(user_id=user_id, number=number)

    async def page(port: int) -> Any:
        origin = f"http://127.0.0.1:{port}"
        ws = await websockets.connect(
            f"ws://127.0.0.1:{port}/ws/table/{number}/",
            additional_headers={"Cookie": f"sessionid={cookie}", "Origin": origin},
            max_size=2**22,
        )
        await asyncio.wait_for(ws.recv(), timeout=20)
        return ws

    doomed = await page(servers[1].port)
    await asyncio.sleep(0.5)
    assert await asyncio.to_thread(count) == 1
    servers[1].proc.kill()
    servers[1].proc.wait(10)
    killed = time.monotonic()
    del doomed  # its process is gone: nothing closes it
    survivor = await page(servers[0].port)
    with_ghost = await asyncio.to_thread(count)
    while await asyncio.to_thread(count) > 1:
        assert time.monotonic() < killed + 30, "the killed process's page never stopped counting"
        await asyncio.sleep(0.1)
    expired = time.monotonic() - killed
    await survivor.close()
    await asyncio.sleep(1.0)
    seat = await db(lambda: Seat.objects.get(room__number=number, index=0))
    return {"with_ghost": with_ghost, "expired": expired, "seat": seat}


def test_a_killed_processs_pages_stop_counting_within_ten_seconds(shared_services: str) -> None:
    """N6: a page whose process was killed counted on for 37.5 s (and a page that reconnected
    meanwhile kept its count). Pages are now counted by their sockets' leases: the dead
    page's lapses within 2.5 heartbeats of its last renewal (10 s), and once the surviving
    page closes too, the seat is offline at once, its grace starting then."""
    from django.db import connection

    from tables.models import Seat

    (table,) = seat_tables(1, turn_seconds=120)
    user_id = Seat.objects.get(room__number=table.number, index=0).user_id
    assert user_id is not None
    env = server_env(database_url(connection.settings_dict), shared_services)
    env.update(SECRET_KEY=settings.SECRET_KEY, TABLE_CLAIM_PAUSE_SECONDS="0")
    servers = [Server(env, free_port()) for _ in range(2)]
    try:
        for s in servers:
            s.wait_ready()
        seen = asyncio.run(
            page_counts_after_a_kill(servers, table.number, table.cookies[0], user_id)
        )
    finally:
        for s in servers:
            s.stop()
    print(f"count with the ghost {seen['with_ghost']}, ghost gone after {seen['expired']:.1f} s")
    assert seen["with_ghost"] == 2  # the dead page's lease, and the new page's
    assert seen["expired"] <= 10.5  # the lease: 2.5 beats of 4 s from its last renewal
    assert seen["seat"].connections == 0 and seen["seat"].disconnected_at is not None
