"""``python -m tests.load``: play N four-player tables against daphne and report the figures.

Examples::

    python -m tests.load --tables 10 --think 2 --hands 1
    python -m tests.load --tables 10 --think 0 --seconds 30
    python -m tests.load --tables 50 --think 2 --processes 2 \\
        --database-url postgres://postgres@127.0.0.1:5432/load --redis-url redis://127.0.0.1:6379/3
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import sys
import time
from collections.abc import Sequence
from typing import Any

from tests.load.client import Player, TableRun
from tests.load.cycle import yardstick_ms
from tests.load.server import (
    Server,
    ServiceCpu,
    command_parser,
    database_ready,
    free_port,
    seat_tables,
)

DRAIN_SECONDS = 5.0
"""How long moves sent in the window may take to land once it closes."""

HANDSHAKES_AT_ONCE = 32
"""Sockets being opened at once (the listen backlog is 50)."""

AT_ONCE = ("discard", "hu", "ready")
"""Presses every screen shows as soon as they are taken. A 过 (and a claim) is shown when its
claim window closes, the claim pause after the discard, by design: reported apart."""


def _pct(values: Sequence[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _services(args: argparse.Namespace) -> tuple[str, ...]:
    """The names of the run's database and channel-layer processes on this machine."""
    names: tuple[str, ...] = ()
    if args.database_url and args.database_url.startswith("postgres"):
        names += ("postgres",)
    if args.redis_url:
        names += ("redis-server",)
    return names


def timeline(timed: Sequence[tuple[float, float]], *, start: float) -> list[dict[str, Any]]:
    """Each second of the window (by when the move was sent): how many moves, their p50,
    p99 and slowest latency in ms. A pause of the server shows as one bad second among good.

    >>> timeline([(10.2, 0.020), (10.9, 0.030), (12.5, 0.2)], start=10.0)
    [{'second': 0, 'moves': 2, 'p50_ms': 30.0, 'p99_ms': 30.0, 'max_ms': 30.0}, \
{'second': 2, 'moves': 1, 'p50_ms': 200.0, 'p99_ms': 200.0, 'max_ms': 200.0}]
    """
    seconds: dict[int, list[float]] = {}
    for sent, latency in timed:
        seconds.setdefault(int(sent - start), []).append(latency)
    return [
        {
            "second": second,
            "moves": len(values),
            "p50_ms": round(_pct(values, 0.50) * 1000, 1),
            "p99_ms": round(_pct(values, 0.99) * 1000, 1),
            "max_ms": round(max(values) * 1000, 1),
        }
        for second, values in sorted(seconds.items())
    ]


async def _run(
    args: argparse.Namespace, servers: list[Server], tables: list[Any]
) -> dict[str, Any]:
    runs: list[TableRun] = []
    players: list[Player] = []
    rng = random.Random(args.seed)
    handshakes = asyncio.Semaphore(HANDSHAKES_AT_ONCE)
    seated = asyncio.Event()
    for n, t in enumerate(tables):
        run = TableRun(t.number, args.hands)
        runs.append(run)
        for seat in range(4):
            server = servers[(seat if args.spread == "seat" else n) % len(servers)]
            origin = f"http://127.0.0.1:{server.port}"
            players.append(
                Player(
                    table=run,
                    seat=seat,
                    url=f"ws://127.0.0.1:{server.port}/ws/table/{t.number}/",
                    page_url=f"{origin}/r/{t.number}/",
                    headers={"Cookie": f"sessionid={t.cookies[seat]}", "Origin": origin},
                    think=args.think,
                    handshakes=handshakes,
                    seated=seated,
                    rng=random.Random(rng.random()),
                )
            )
    rss0 = sum(s.rss() for s in servers)
    tasks = [asyncio.create_task(p.play()) for p in players]
    await asyncio.wait_for(asyncio.gather(*(p.connected.wait() for p in players)), 120)
    seated.set()
    # Every table sat down at the same instant: their connections and first moves come as
    # one burst no real evening has. The tables play on through the warm-up, unmeasured.
    await asyncio.sleep(args.warmup)
    for s in servers:
        s.start_cpu()
    services = ServiceCpu(_services(args))
    for r in runs:  # count only what happens from here on
        r.timed.clear()
        r.push_sizes.clear()
        r.moves = 0
    t0 = time.perf_counter()
    client_cpu0 = time.process_time()
    deadline = t0 + args.seconds
    while time.perf_counter() < deadline and not all(r.done for r in runs):
        await asyncio.sleep(0.2)
        failed = [t for t in tasks if t.done() and t.exception() is not None]
        if failed:
            raise RuntimeError(f"a client failed: {failed[0].exception()!r}")
    wall = time.perf_counter() - t0
    # Taken with every socket open and the tables played for a while: the fragment stores
    # and snapshots have filled as they do on a long evening.
    rss1 = sum(s.rss() for s in servers)
    cpu = [s.cpu_seconds() / wall for s in servers]
    client_cpu = (time.process_time() - client_cpu0) / wall
    services_cpu = services.shares(wall)
    # The window closes: moves sent from now on are not measured, and those in flight land
    # before the sockets close (closing 800 sockets at once is no part of the evening).
    for r in runs:
        r.measuring = False
    drain_until = time.perf_counter() + DRAIN_SECONDS
    while time.perf_counter() < drain_until and any(r.in_flight for r in runs):
        await asyncio.sleep(0.05)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    latencies = [x for r in runs for x in r.latencies]
    if args.timeline:
        with open(args.timeline, "w") as fh:
            timed = [(t.sent, t.latency) for r in runs for t in r.timed]
            json.dump(timeline(timed, start=t0), fh, indent=0)
    by_action: dict[str, list[float]] = {}
    for r in runs:
        for action, times in r.by_action.items():
            by_action.setdefault(action, []).extend(times)
    at_once = [x for a in AT_ONCE for x in by_action.get(a, [])]
    sizes = [x for r in runs for x in r.push_sizes]
    moves = sum(r.moves for r in runs)
    return {
        "claim_pause_seconds": args.claim_pause_seconds,
        "tables": len(runs),
        "sockets": len(players),
        "processes": len(servers),
        "spread": args.spread,
        "think_seconds": args.think,
        "seconds": round(wall, 1),
        "warmup_seconds": args.warmup,
        "hands": sum(r.hands_done for r in runs),
        "moves": moves,
        "moves_per_second": round(moves / wall, 1),
        "p50_ms": round(_pct(latencies, 0.50) * 1000, 1),
        "p95_ms": round(_pct(latencies, 0.95) * 1000, 1),
        "p99_ms": round(_pct(latencies, 0.99) * 1000, 1),
        "measured_moves": len(latencies),
        # Discard, 胡 and 准备: shown at once. A 过 waits for its window's close (the pause).
        "at_once_p50_ms": round(_pct(at_once, 0.50) * 1000, 1),
        "at_once_p99_ms": round(_pct(at_once, 0.99) * 1000, 1),
        "pass_p99_ms": round(_pct(by_action.get("pass", []), 0.99) * 1000, 1),
        # Where the slowest moves come from, by the action pressed.
        "by_action": {
            action: {
                "moves": len(times),
                "p50_ms": round(_pct(times, 0.50) * 1000, 1),
                "p99_ms": round(_pct(times, 0.99) * 1000, 1),
            }
            for action, times in sorted(by_action.items())
        },
        # Sent in the window, but not on all four screens within DRAIN_SECONDS after it.
        "unfinished_moves": sum(r.in_flight for r in runs),
        "refused": sum(r.errors for r in runs),
        # Sockets closed with "try again later" (a full process), opened again after a backoff.
        "refused_sockets": sum(r.refused_sockets for r in runs),
        # Unfinished tables where nobody moved for the whole run: stuck, which no table should be.
        "stalled_tables": sum(1 for r in runs if r.moves == 0 and not r.done),
        "push_median_bytes": int(statistics.median(sizes)) if sizes else 0,
        "push_max_bytes": max(sizes) if sizes else 0,
        "push_bytes_total": sum(sizes),
        "server_cpu": [round(c, 2) for c in cpu],
        # Every server's CPU over the window, per move sent in it.
        "cpu_ms_per_action": round(sum(cpu) * wall / moves * 1000, 2) if moves else None,
        # The clients' own process: near 1.0, their loop, not the server, delays the screens.
        "client_cpu": round(client_cpu, 2),
        # PostgreSQL's and Redis's processes, which share the machine's cores with the rest.
        "services_cpu": services_cpu,
        "rss_per_socket_kb": round((rss1 - rss0) / len(players) / 1024, 1),
    }


def tuoguan_seats(numbers: Sequence[str]) -> dict[str, int]:
    """The run's seats on 托管 at its end, by reason: the players never turn it on, and think
    far less than the turn's time, so any here came from the server (a page that could not
    connect, a seat gone offline)."""
    from django.db.models import Count

    from tables.models import Seat

    rows = (
        Seat.objects.filter(room__number__in=list(numbers), tuoguan=True)
        .values("tuoguan_reason")
        .annotate(n=Count("pk"))
    )
    return {str(r["tuoguan_reason"]): int(r["n"]) for r in rows}


def main(argv: Sequence[str] | None = None) -> int:
    p = command_parser("python -m tests.load", __doc__)
    p.add_argument("--tables", type=int, default=10)
    p.add_argument("--think", type=float, default=2.0, help="seconds a player thinks per move")
    p.add_argument("--hands", type=int, default=1, help="hands each table plays (at most)")
    p.add_argument("--seconds", type=float, default=120, help="stop after this long")
    p.add_argument(
        "--warmup", type=float, default=5.0, help="seconds played, unmeasured, before the run"
    )
    p.add_argument("--processes", type=int, default=1, help="daphne processes (2+ need Redis)")
    p.add_argument(
        "--spread",
        choices=("seat", "table"),
        default="seat",
        help="with 2+ processes: a table's four players on every process (seat, the worst case)"
        " or all on one, as a proxy routing each room to one process would place them (table)",
    )
    p.add_argument("--database-url", default=None, help="default: a scratch SQLite file")
    p.add_argument("--redis-url", default=None, help="channel layer and cache (else in-memory)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument(
        "--claim-pause",
        type=float,
        default=None,
        metavar="SECONDS",
        help="TABLE_CLAIM_PAUSE_SECONDS for the servers (default: production's, the pause on)",
    )
    p.add_argument(
        "--timeline",
        default=None,
        metavar="PATH",
        help="write each second's moves, p50, p99 and slowest (ms) to PATH as JSON",
    )
    args = p.parse_args(argv)
    if args.processes > 1 and not args.redis_url:
        p.error("several processes share tables only through Redis: give --redis-url")
    env = database_ready(args.database_url, args.redis_url, "load", claim_pause=args.claim_pause)
    tables = seat_tables(args.tables, turn_seconds=120)
    from django.conf import settings

    args.claim_pause_seconds = float(settings.TABLE_CLAIM_PAUSE_SECONDS)  # as the servers read it
    yardstick_before = yardstick_ms()
    servers = [Server(env, free_port()) for _ in range(args.processes)]
    try:
        for s in servers:
            s.wait_ready()
        report = asyncio.run(_run(args, servers, tables))
    finally:
        for s in servers:
            s.stop()
    # The machine's speed just before and just after the run (its other work varies).
    report["yardstick_ms"] = [yardstick_before, yardstick_ms()]
    # The machine's other work: runnable processes, over the last minute, at the run's end.
    report["load_average"] = round(os.getloadavg()[0], 1)
    report["tuoguan_seats"] = tuoguan_seats([t.number for t in tables])
    print(json.dumps(report, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
