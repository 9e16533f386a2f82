"""The channel layers: the embedded setup's in-memory one, and Redis's for production.

**In memory** (:class:`PacedInMemoryChannelLayer`): Channels' in-memory layer with its
expiry sweep paced.
``InMemoryChannelLayer`` sweeps every channel and every group membership for expired
entries on each ``receive`` and each ``group_send``. With N pages open in the process, each
page's wait for its next message costs O(N), so one change pushed to a table's four pages
costs O(N) five times over. Expiry is coarse anyway (a message expires after a minute, a
group membership after a day), so here the sweep runs at most once per
:attr:`PacedInMemoryChannelLayer.sweep_seconds`; what it removes is the same.

**Redis** (:class:`PooledRedisChannelLayer`): channels_redis's layer whose connection pool
makes a caller wait for a free connection instead of failing. redis-py 8 caps an asyncio pool
at 100 connections and raises ``MaxConnectionsError`` ("Too many connections") for the 101st
command in flight. A process with hundreds of pages issues that many at once whenever many
pages open or close together (a group join or leave each): two processes of 200 tables each
failed to open their sockets, and 150 pages closing at once failed to leave their group.

>>> layer = PacedInMemoryChannelLayer()
>>> layer.sweep_seconds
1.0
"""

from __future__ import annotations

import time
from typing import Any

from channels.layers import InMemoryChannelLayer
from channels_redis.core import RedisChannelLayer
from redis.asyncio import BlockingConnectionPool

__all__ = ["PacedInMemoryChannelLayer", "PooledRedisChannelLayer"]

POOL_CONNECTIONS = 64
"""Redis connections a process's channel layer opens at most (per Redis host)."""
POOL_WAIT_SECONDS = 30.0
"""How long a command waits for one of them before it fails (as a dead Redis would)."""


class PacedInMemoryChannelLayer(InMemoryChannelLayer):  # type: ignore[misc]
    sweep_seconds = 1.0
    """Seconds between two sweeps for expired messages and group memberships."""

    _swept_at = float("-inf")

    def _clean_expired(self) -> None:
        now = time.monotonic()
        if now - self._swept_at < self.sweep_seconds:
            return
        self._swept_at = now
        super()._clean_expired()


class PooledRedisChannelLayer(RedisChannelLayer):  # type: ignore[misc]
    """channels_redis's layer on a pool that queues commands when all its connections are busy.

    ``hosts`` entries are given as to channels_redis, by ``address`` (``config.env``).
    """

    def create_pool(self, index: int) -> BlockingConnectionPool:
        host: dict[str, Any] = dict(self.hosts[index])
        address = host.pop("address")
        host.setdefault("max_connections", POOL_CONNECTIONS)
        host.setdefault("timeout", POOL_WAIT_SECONDS)
        return BlockingConnectionPool.from_url(address, **host)
