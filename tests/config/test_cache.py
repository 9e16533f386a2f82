"""config.cache and the Redis options of config.env: pages keep working while Redis is down,
and nothing fails once it is back.

The fault tests run a private ``redis-server`` on a spare port (stopped and started again
here) and skip when it is not installed; the others point the cache at a closed port.
"""

from __future__ import annotations

import asyncio
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client
from django.utils.module_loading import import_string

from config import env
from config.cache import ResilientRedisCache

REDIS_SERVER = shutil.which("redis-server")
needs_redis = pytest.mark.skipif(
    REDIS_SERVER is None, reason="redis-server is not installed (apt-get install redis-server)"
)


def spare_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def redis_layer(url: str) -> Any:
    """The channel layer production configures for ``url``."""
    config = env.channel_layer_config({"REDIS_URL": url})
    return import_string(config["BACKEND"])(**config["CONFIG"])


def resilient(url: str) -> ResilientRedisCache:
    config = env.cache_config({"REDIS_URL": url})
    return ResilientRedisCache(config["LOCATION"], {"OPTIONS": config["OPTIONS"]})


def test_a_cache_that_cannot_reach_redis_answers_like_an_empty_one(caplog: Any) -> None:
    cache = resilient(f"redis://127.0.0.1:{spare_port()}/0")
    started = time.monotonic()
    assert cache.get("k", "default") == "default"
    assert cache.get_many(["a", "b"]) == {}
    assert cache.add("k", 1) is True  # fail open: a limit counted here stops limiting
    assert cache.incr("k", 3) == 3
    assert cache.set("k", 1) is None
    assert cache.touch("k") is False
    assert cache.delete("k") is False
    assert not cache.has_key("k")
    assert time.monotonic() - started < 5
    assert "cache unreachable" in caplog.text


@pytest.mark.django_db
def test_pages_are_served_while_redis_is_down(settings: Any, user: Any) -> None:
    """With Django's own RedisCache a room page answered 500 while Redis was down."""
    from tests.tables.factories import start_with_bots

    room = start_with_bots(user)
    settings.CACHES = {
        "default": {
            "BACKEND": "config.cache.ResilientRedisCache",
            "LOCATION": f"redis://127.0.0.1:{spare_port()}/0",
            "OPTIONS": env.cache_config({"REDIS_URL": "redis://x"})["OPTIONS"],
        }
    }
    client = Client()
    client.force_login(user)
    assert client.get(f"/r/{room.number}/").status_code == 200
    assert client.get("/").status_code == 200
    assert client.get("/r/999999/").status_code == 404  # a miss, not a 500


class PrivateRedis:
    """A redis-server of the test's own on a spare port, stopped and started at will."""

    def __init__(self) -> None:
        self.port = spare_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        assert REDIS_SERVER is not None
        subprocess.run(
            [
                REDIS_SERVER,
                *("--port", str(self.port), "--bind", "127.0.0.1"),
                *("--save", "", "--appendonly", "no", "--daemonize", "yes"),
            ],
            check=True,
            capture_output=True,
        )
        self._wait(up=True)

    def stop(self) -> None:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=2) as s:
                s.sendall(b"SHUTDOWN NOSAVE\r\n")
                s.recv(64)
        except OSError:
            pass
        self._wait(up=False)

    def _wait(self, *, up: bool) -> None:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                    if up:
                        return
            except OSError:
                if not up:
                    return
            time.sleep(0.05)  # polling a port; there is no event to wait on
        raise RuntimeError(f"redis-server on {self.port} did not {'start' if up else 'stop'}")


@pytest.fixture
def redis() -> Iterator[PrivateRedis]:
    if REDIS_SERVER is None:
        pytest.skip("redis-server is not installed (apt-get install redis-server)")
    server = PrivateRedis()
    server.start()
    yield server
    server.stop()


@needs_redis
def test_the_cache_heals_without_an_error_after_a_redis_restart(
    redis: PrivateRedis, caplog: Any
) -> None:
    """Django's RedisCache without retries failed the first call on each pooled connection."""
    cache = resilient(redis.url)
    cache.set("k", "before")
    assert cache.get("k") == "before"
    redis.stop()
    assert cache.get("k", "down") == "down"  # down: a miss, not an error
    redis.start()
    caplog.clear()
    cache.set("k", "after")  # the pooled connection is stale: retried on a fresh one
    assert cache.get("k") == "after"
    assert "cache unreachable" not in caplog.text


async def _heard(layer: Any, receiving: asyncio.Future[Any], group: str) -> dict[str, Any]:
    """Publish to ``group`` until the page waiting in ``receiving`` hears it (10 s at most).

    A message published before a process has subscribed again after a Redis restart is not
    kept for it (the Pub/Sub layer's trade, ``config.env.REDIS_CHANNEL_LAYER``), so the test
    asks what a table's next change would: that one arrives."""
    deadline = time.monotonic() + 10
    n = 0
    while time.monotonic() < deadline:
        n += 1
        await layer.group_send(group, {"type": "table.changed", "version": n})
        done, _ = await asyncio.wait({receiving}, timeout=0.2)
        if done:
            return dict(receiving.result())
    raise AssertionError(f"nothing reached the page in 10 s ({n} messages sent)")


@needs_redis
async def test_the_channel_layer_heals_after_a_redis_restart(redis: PrivateRedis) -> None:
    """A socket's handshake (group_add) on a stale pooled connection used to fail with 500;
    and a page's subscription must come back by itself, without the page reconnecting."""
    layer = redis_layer(redis.url)
    channel = await layer.new_channel()
    await layer.group_add("table-1", channel)
    receiving = asyncio.ensure_future(layer.receive(channel))  # a page's pending receive
    assert (await _heard(layer, receiving, "table-1"))["type"] == "table.changed"
    receiving = asyncio.ensure_future(layer.receive(channel))
    redis.stop()
    redis.start()
    late = await layer.new_channel()  # a page opening now, on the stale connection
    await layer.group_add("table-1", late)
    assert (await _heard(layer, receiving, "table-1"))["type"] == "table.changed"
    assert (await asyncio.wait_for(layer.receive(late), timeout=2))["type"] == "table.changed"
    await layer.flush()


@needs_redis
async def test_a_process_busy_for_a_burst_of_changes_misses_none_of_them(
    redis: PrivateRedis,
) -> None:
    """A process that has not read its pages' messages for a while still gets every one. The
    list-based layer dropped them beyond its capacity (100 by default, counted over all of a
    process's sockets), and their tables stalled."""
    layer = redis_layer(redis.url)
    sockets = [await layer.new_channel() for _ in range(4)]
    for i, channel in enumerate(sockets):
        await layer.group_add(f"table-{i}", channel)
    changes = 150  # spread over four tables, none read yet
    for n in range(changes):
        await layer.group_send(f"table-{n % 4}", {"type": "table.changed", "version": n})
    got = []
    for n in range(changes):  # a dropped message would leave receive() waiting for ever
        message = await asyncio.wait_for(layer.receive(sockets[n % 4]), timeout=2)
        got.append(message["version"])
    assert got == list(range(changes))
    await layer.flush()


@needs_redis
async def test_many_pages_opening_at_once_all_hear_their_table_on_few_connections(
    redis: PrivateRedis,
) -> None:
    """redis-py 8 caps a pool at 100 connections and fails the 101st command in flight ("Too
    many connections"): 200 tables' pages joining their groups at once failed. The Pub/Sub
    layer sends its commands one at a time on a process's own connections."""
    import redis.asyncio as aioredis

    layer = redis_layer(redis.url)
    pages = await asyncio.gather(*(layer.new_channel() for _ in range(400)))
    await asyncio.gather(*(layer.group_add(f"table-{n % 100}", p) for n, p in enumerate(pages)))
    await asyncio.gather(
        *(layer.group_send(f"table-{n}", {"type": "x", "table": n}) for n in range(100))
    )
    heard = await asyncio.wait_for(asyncio.gather(*(layer.receive(p) for p in pages)), 10)
    assert [m["table"] for m in heard] == [n % 100 for n in range(400)]
    watcher = aioredis.Redis.from_url(redis.url)
    try:
        clients = (await watcher.info("clients"))["connected_clients"]
    finally:
        await watcher.aclose()
    assert clients <= 3  # the layer's subscriber and its publisher, and the watcher
    await asyncio.gather(*(layer.group_discard(f"table-{n % 100}", p) for n, p in enumerate(pages)))
    await layer.flush()


async def test_a_redis_that_hangs_fails_a_publish_instead_of_holding_the_process(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The layer sends a process's commands one at a time: a publish that waited for ever on
    a Redis that accepted the connection and then hung would hold up every page."""
    from redis.exceptions import TimeoutError as RedisTimeoutError

    async def never_answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        while await reader.read(4096):
            pass
        writer.close()

    hung = await asyncio.start_server(never_answer, "127.0.0.1", 0)
    port = hung.sockets[0].getsockname()[1]
    monkeypatch.setattr(env, "REDIS_COMMAND_SECONDS", 0.3)
    layer = redis_layer(f"redis://127.0.0.1:{port}/0")
    try:
        with pytest.raises(RedisTimeoutError):
            # Retried, each try bounded: well within the 20 s that would mean "for ever".
            await asyncio.wait_for(layer.group_send("table-1", {"type": "x"}), timeout=20)
    finally:
        hung.close()
        await layer.flush()


@needs_redis
def test_leases_are_renewed_in_one_script_as_the_cache_stores_them(redis: PrivateRedis) -> None:
    """A lease its holder has starts again; one that ran out is taken back; one another
    holder took is left to it; the values read back through the cache as it wrote them."""
    import redis as redis_py

    cache = resilient(redis.url)
    raw = redis_py.Redis(port=redis.port)
    cache.set("held", "c1", timeout=1)
    cache.set("taken", "other", timeout=1)
    cache.set("an-int", 7, timeout=1)  # stored as a number, not pickled: still compared
    commands = raw.info("commandstats")
    cache.leases_renew({"held": "c1", "gone": "c2", "taken": "c3", "an-int": 7}, timeout=60)
    after = raw.info("commandstats")
    assert after["cmdstat_eval"]["calls"] - commands.get("cmdstat_eval", {}).get("calls", 0) == 1
    assert cache.get_many(["held", "gone", "taken", "an-int"]) == {
        "held": "c1",
        "gone": "c2",
        "taken": "other",
        "an-int": 7,
    }
    ttl = {k: raw.pttl(cache.make_key(k)) for k in ("held", "gone", "taken", "an-int")}
    assert 59_000 < ttl["held"] <= 60_000 and 59_000 < ttl["gone"] <= 60_000
    assert 59_000 < ttl["an-int"] <= 60_000
    assert ttl["taken"] <= 1_000  # not its lease to renew
    cache.leases_renew({}, timeout=60)  # nothing to do, no call


def test_renewing_leases_without_redis_changes_nothing_and_raises_nothing(caplog: Any) -> None:
    cache = resilient(f"redis://127.0.0.1:{spare_port()}/0")
    assert cache.leases_renew({"k": "c"}, timeout=60) is None
    assert "cache unreachable" in caplog.text
