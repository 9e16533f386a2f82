"""``python -m tests.load.beat``: how long the database thread waits for a process's beat.

Each process beats once an interval for all its open pages (:mod:`tables.socket.heartbeat`): their
socket slots renewed, their seats' ``last_seen`` written, the rooms' versions read. Where the
beat runs on Channels' one database thread, every move and read queued behind it waits for
all of it. This seats N tables of four people, then, B times: starts a beat of their 4N pages
(three socket slots each, as a socket takes), asks the database thread for nothing 2 ms
later, and times how long that took to come back, and the beat as a whole::

    python -m tests.load.beat --tables 200 --database-url postgres://… --redis-url redis://…

It prints one line of JSON. Without ``--database-url`` it runs on a scratch SQLite file,
where the beat shares the database thread by design. ``--on-database-thread`` puts the beat
there on PostgreSQL too, as it was before it had a thread of its own: the same run, before
and after.
"""

from __future__ import annotations

import asyncio
import json
import statistics
import sys
import time
from collections.abc import Sequence
from typing import Any

from tests.load.server import command_parser, database_ready, seat_tables


def _ms(values: list[float]) -> dict[str, float]:
    return {
        "median_ms": round(1000 * statistics.median(values), 1),
        "max_ms": round(1000 * max(values), 1),
    }


async def _beats(count: int, *, on_database_thread: bool) -> dict[str, Any]:
    from channels.db import database_sync_to_async

    from tables.models import Seat
    from tables.socket import heartbeat
    from tables.socket.pushes import Shown

    seats = await database_sync_to_async(
        lambda: list(Seat.objects.values_list("room__number", "user_id", "room__version"))
    )()
    if on_database_thread:
        heartbeat.beat_thread_call = database_sync_to_async
    beat = heartbeat.Beat()
    for i, (number, user_id, version) in enumerate(seats):
        # Pages up to date: the catch-up reads every room's version and tells nobody.
        page = heartbeat.Page(
            f"c{i}", number, user_id, (f"{i}a", f"{i}b", f"{i}c"), Shown(version=version)
        )
        beat.pages[page.channel] = page
    waited: list[float] = []
    took: list[float] = []
    for _ in range(count):
        started = time.perf_counter()
        beating = asyncio.ensure_future(beat.beat_once())
        await asyncio.sleep(0.002)
        asked = time.perf_counter()
        await database_sync_to_async(lambda: None)()
        waited.append(time.perf_counter() - asked)
        await beating
        took.append(time.perf_counter() - started)
        await asyncio.sleep(0.1)
    return {"pages": len(beat.pages), "waited": _ms(waited), "beat": _ms(took)}


def main(argv: Sequence[str] | None = None) -> int:
    p = command_parser("python -m tests.load.beat", __doc__)
    p.add_argument("--tables", type=int, default=200)
    p.add_argument("--beats", type=int, default=30)
    p.add_argument("--database-url", default=None, help="default: a scratch SQLite file")
    p.add_argument("--redis-url", default=None)
    p.add_argument("--on-database-thread", action="store_true", help="the beat as before")
    args = p.parse_args(argv)
    database_ready(args.database_url, args.redis_url, "beat")
    seat_tables(args.tables, turn_seconds=120)
    print(
        json.dumps(
            {
                "tables": args.tables,
                "beats": args.beats,
                "on_database_thread": args.on_database_thread,
                **asyncio.run(_beats(args.beats, on_database_thread=args.on_database_thread)),
            }
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
