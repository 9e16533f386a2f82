"""The Redis cache, degrading instead of failing while Redis is unreachable.

Django's own ``RedisCache`` raises on every call while Redis is down, so every page that
touches the cache answers 500. Here a call that cannot reach Redis is logged and answered as
an empty cache would answer: reads miss, writes are dropped, ``add`` reports success and
``incr`` counts from nothing. So pages keep working, and limits counted in the cache (room
numbers guessed, socket slots) stop limiting rather than refusing everyone until Redis is back.

Healing is redis-py's: a connection that went stale while Redis restarted fails its next
command, which the connection pool retries on a fresh connection (``retry`` in
:func:`config.env.cache_config`), and idle connections are checked every
``health_check_interval`` seconds before use.

Why not django-redis with ``IGNORE_EXCEPTIONS``: it answers every call it could not make with
None (``get_many`` with ``{}``), so ``add`` would refuse every socket slot and every phrase
while Redis is down (the limits would shut everyone out rather than stop limiting), and
``incr`` would hand the room-number limit None to compare. Each of those calls would need its
own answer again, which is what the dozen lines below give, on Django's own backend.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Mapping
from functools import cached_property, wraps
from typing import Any, TypeVar

import redis
from django.core.cache.backends.redis import RedisCache, RedisSerializer
from redis.exceptions import ConnectionError, TimeoutError

__all__ = ["ResilientRedisCache"]

_LEASES_RENEW = """
for i, key in ipairs(KEYS) do
  local held = redis.call('GET', key)
  if held == ARGV[i + 1] then
    redis.call('PEXPIRE', key, ARGV[1])
  elseif not held then
    redis.call('SET', key, ARGV[i + 1], 'PX', ARGV[1])
  end
end
return 0
"""
"""KEYS: the leases; ARGV: their lifetime in ms, then each one's holder as stored."""

logger = logging.getLogger(__name__)

SERIALIZER = RedisSerializer()
"""How Django's RedisCache stores a value when its options name no serializer (ours don't)."""

UNREACHABLE = (ConnectionError, TimeoutError, OSError)

F = TypeVar("F", bound=Callable[..., Any])


def _or(fallback: Callable[..., Any]) -> Callable[[F], F]:
    """Run the method; if Redis can't be reached, log it and answer ``fallback(*args)``."""

    def wrap(method: F) -> F:
        @wraps(method)
        def call(self: RedisCache, *args: Any, **kwargs: Any) -> Any:
            try:
                return method(self, *args, **kwargs)
            except UNREACHABLE as exc:
                logger.warning("cache unreachable, %s answered as a miss: %s", method.__name__, exc)
                return fallback(*args, **kwargs)

        return call  # type: ignore[return-value]

    return wrap


def _default(key: str, default: Any = None, *args: Any, **kwargs: Any) -> Any:
    return default


def _nothing(*args: Any, **kwargs: Any) -> None:
    return None


def _false(*args: Any, **kwargs: Any) -> bool:
    return False


def _true(*args: Any, **kwargs: Any) -> bool:
    return True


def _empty(*args: Any, **kwargs: Any) -> dict[str, Any]:
    return {}


def _none_failed(*args: Any, **kwargs: Any) -> list[str]:
    return []


def _delta(key: str, delta: int = 1, *args: Any, **kwargs: Any) -> int:
    return delta


class ResilientRedisCache(RedisCache):
    """``django.core.cache.backends.redis.RedisCache`` that degrades while Redis is down."""

    def __init__(self, server: str | list[str], params: dict[str, Any]) -> None:
        super().__init__(server, params)
        servers = re.split("[;,]", server) if isinstance(server, str) else server
        self._script_url = servers[0]  # the server Django's RedisCache writes to
        self._script_options = dict(params.get("OPTIONS", {}))

    get = _or(_default)(RedisCache.get)
    get_many = _or(_empty)(RedisCache.get_many)
    has_key = _or(_false)(RedisCache.has_key)
    add = _or(_true)(RedisCache.add)
    set = _or(_nothing)(RedisCache.set)
    set_many = _or(_none_failed)(RedisCache.set_many)
    touch = _or(_false)(RedisCache.touch)
    delete = _or(_false)(RedisCache.delete)
    delete_many = _or(_nothing)(RedisCache.delete_many)
    incr = _or(_delta)(RedisCache.incr)
    clear = _or(_false)(RedisCache.clear)

    @cached_property
    def _script_client(self) -> redis.Redis:
        """A client for the scripts, with the cache's options: Django's RedisCache keeps its
        own client private, so this one is made from the same URL (a pool of its own)."""
        return redis.Redis.from_url(self._script_url, **self._script_options)

    @_or(_nothing)
    def leases_renew(self, leases: Mapping[str, Any], timeout: float) -> None:
        """For each ``key: holder`` of ``leases``: start the key's ``timeout`` (seconds) again
        if ``holder`` has it, set it to ``holder`` if nobody has it (it ran out), and leave it
        to whoever holds it otherwise; in one round trip, run by Redis as one script.

        ``get_many``, ``set_many`` and an ``add`` per lease that ran out do the same in two
        round trips, but redis-py builds and parses a command per key, for every slot of every
        page (``tables.play.page_leases``), on the thread the moves wait for. Values are stored
        as Django's client stores them (:class:`RedisSerializer`, its default), so ``get``
        reads them back."""
        if not leases:
            return
        keys = [self.make_key(key) for key in leases]
        holders = [SERIALIZER.dumps(holder) for holder in leases.values()]
        self._script_client.eval(_LEASES_RENEW, len(keys), *keys, int(timeout * 1000), *holders)
