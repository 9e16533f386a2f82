"""Read deployment settings from environment variables.

Plain functions that take the environment as a mapping, so they can be tested
without touching ``os.environ``.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import dj_database_url

REDIS_CONNECT_SECONDS = 1.0
"""A page waits at most about this long (times the retries) for a Redis that is down."""
REDIS_RETRIES = 2
REDIS_HEALTH_CHECK_SECONDS = 15
CHANNEL_CAPACITY = 20_000
"""Messages the Redis channel layer holds for one process before it drops new ones.

All the sockets of a process share one Redis list (channels_redis's process-local channels),
and the layer's default of 100 counts that whole list: at 200 tables a process, a burst of
changes left more than 100 unread, later table messages were dropped ("channels over
capacity"), and their pages never learnt of the move: 20 of 200 tables stalled in 20 s on a
process running four database threads, a few with one."""

DEV_SECRET_KEY = "django-insecure-dev-only-shangrao-mahjong-change-me"

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_bool(environ: Mapping[str, str], name: str, default: bool) -> bool:
    """Parse a boolean environment variable.

    >>> env_bool({"DEBUG": "false"}, "DEBUG", True)
    False
    >>> env_bool({}, "DEBUG", True)
    True
    """
    raw = environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ValueError(f"{name} must be a boolean (1/0, true/false, yes/no, on/off), got {raw!r}")


def env_list(environ: Mapping[str, str], name: str, default: list[str]) -> list[str]:
    """Parse a comma-separated environment variable.

    >>> env_list({"HOSTS": "a.example, b.example"}, "HOSTS", [])
    ['a.example', 'b.example']
    """
    raw = environ.get(name)
    if raw is None:
        return list(default)
    return [item.strip() for item in raw.split(",") if item.strip()]


def secret_key(environ: Mapping[str, str], *, debug: bool) -> str:
    """The SECRET_KEY; the development default is refused when DEBUG is off."""
    key = environ.get("SECRET_KEY", "")
    if key:
        return key
    if not debug:
        raise ValueError("SECRET_KEY must be set when DEBUG is off")
    return DEV_SECRET_KEY


def database_config(environ: Mapping[str, str], base_dir: Path) -> dict[str, Any]:
    """SQLite at ``base_dir/db.sqlite3`` (or ``SQLITE_PATH``) unless DATABASE_URL is set."""
    url = environ.get("DATABASE_URL", "")
    if url:
        config: dict[str, Any] = dict(dj_database_url.parse(url, conn_max_age=600))
        if str(config["ENGINE"]).endswith("sqlite3"):  # an SQLite file by URL: the same care
            config["OPTIONS"] = {**config.get("OPTIONS", {}), **SQLITE_OPTIONS}
        return config
    return {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": environ.get("SQLITE_PATH") or base_dir / "db.sqlite3",
        "OPTIONS": dict(SQLITE_OPTIONS),
    }


SQLITE_OPTIONS: dict[str, Any] = {
    # Every table move is a write transaction: take SQLite's write lock at BEGIN, and wait
    # for it, so concurrent moves queue instead of failing with "database is locked".
    "transaction_mode": "IMMEDIATE",
    "timeout": 20,
    # Write-ahead log: pages read while a move commits (the server's and the browser tests'
    # processes share the file), and a commit syncs one file, not a journal and the database.
    # synchronous stays FULL: a commit is on disk when it returns.
    "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;",
}


def channel_layer_config(environ: Mapping[str, str]) -> dict[str, Any]:
    """In-memory channel layer (:mod:`config.channel_layer`) unless REDIS_URL is set.

    No socket timeout: a consumer waits on a blocking BZPOPMIN (5 s), and redis-py 8's
    default 5 s socket timeout would end that wait with TimeoutError, killing every idle
    WebSocket every few seconds (django/channels_redis#422).
    """
    url = environ.get("REDIS_URL", "")
    if url:
        from redis.asyncio.retry import Retry
        from redis.backoff import ExponentialBackoff
        from redis.exceptions import ConnectionError

        host = {
            "address": url,
            "socket_timeout": None,
            "socket_connect_timeout": REDIS_CONNECT_SECONDS,
            # After a Redis restart a pooled connection is dead: retry on a fresh one rather
            # than failing the socket that happened to pick it.
            "retry": Retry(ExponentialBackoff(cap=0.5, base=0.05), REDIS_RETRIES),
            "retry_on_error": [ConnectionError],
            "health_check_interval": REDIS_HEALTH_CHECK_SECONDS,
        }
        return {
            "BACKEND": "config.channel_layer.PooledRedisChannelLayer",
            "CONFIG": {"hosts": [host], "capacity": CHANNEL_CAPACITY},
        }
    return {"BACKEND": "config.channel_layer.PacedInMemoryChannelLayer"}


def cache_config(environ: Mapping[str, str]) -> dict[str, Any]:
    """Redis when REDIS_URL is set (shared by every server process: the login rate limit
    must count across them), else a per-process memory cache for the embedded setup."""
    url = environ.get("REDIS_URL", "")
    if url:
        from redis.backoff import ExponentialBackoff
        from redis.exceptions import ConnectionError, TimeoutError
        from redis.retry import Retry

        return {
            # Django's RedisCache, degrading while Redis is down (config.cache).
            "BACKEND": "config.cache.ResilientRedisCache",
            "LOCATION": url,
            "OPTIONS": {
                "socket_connect_timeout": REDIS_CONNECT_SECONDS,
                "socket_timeout": REDIS_CONNECT_SECONDS,
                "retry": Retry(ExponentialBackoff(cap=0.5, base=0.05), REDIS_RETRIES),
                "retry_on_error": [ConnectionError, TimeoutError],
                "health_check_interval": REDIS_HEALTH_CHECK_SECONDS,
            },
        }
    return {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
        "LOCATION": "shangrao-mahjong",
    }
