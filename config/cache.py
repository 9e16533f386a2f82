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
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

from django.core.cache.backends.redis import RedisCache
from redis.exceptions import ConnectionError, TimeoutError

__all__ = ["ResilientRedisCache"]

logger = logging.getLogger(__name__)

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
