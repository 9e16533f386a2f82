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
REDIS_COMMAND_SECONDS = 5.0
"""How long the channel layer waits for Redis to answer a command (a publish or a
subscribe) before it fails. The layer sends them one at a time per process, so a Redis that
accepted the connection and then hung would otherwise hold up every page of the process."""

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


CONN_MAX_AGE = 600
"""Seconds a thread keeps its database connection, on every backend. Django's default (0)
closes it at the end of each request, and Channels runs ``close_old_connections`` around
every ``database_sync_to_async`` call: every move, read and beat on the table's socket opened
a connection of its own (on SQLite a file opened and its two PRAGMAs run each time). A kept
connection is still closed after an error that made it unusable, and after this long."""


def database_config(environ: Mapping[str, str], base_dir: Path) -> dict[str, Any]:
    """SQLite at ``base_dir/db.sqlite3`` (or ``SQLITE_PATH``) unless DATABASE_URL is set;
    connections are kept (:data:`CONN_MAX_AGE`) either way."""
    url = environ.get("DATABASE_URL", "")
    if url:
        config: dict[str, Any] = dict(dj_database_url.parse(url, conn_max_age=CONN_MAX_AGE))
        if str(config["ENGINE"]).endswith("sqlite3"):  # an SQLite file by URL: the same care
            config["OPTIONS"] = {**config.get("OPTIONS", {}), **SQLITE_OPTIONS}
        return config
    return {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": environ.get("SQLITE_PATH") or base_dir / "db.sqlite3",
        "OPTIONS": dict(SQLITE_OPTIONS),
        "CONN_MAX_AGE": CONN_MAX_AGE,
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
    """In-memory channel layer (:mod:`config.channel_layer`) unless REDIS_URL is set; then
    channels_redis's Pub/Sub layer, which delivers a group message once per process.

    The process's subscriptions wait on one connection with a timeout of their own (0.1 s a
    poll), so the socket timeout bounds only commands. After a Redis restart redis-py
    reconnects and subscribes again; the retry covers the first command on a stale
    connection.
    """
    url = environ.get("REDIS_URL", "")
    if url:
        from redis.asyncio.retry import Retry
        from redis.backoff import ExponentialBackoff
        from redis.exceptions import ConnectionError

        host = {
            "address": url,
            "socket_timeout": REDIS_COMMAND_SECONDS,
            "socket_connect_timeout": REDIS_CONNECT_SECONDS,
            # After a Redis restart a pooled connection is dead: retry on a fresh one rather
            # than failing the socket that happened to pick it.
            "retry": Retry(ExponentialBackoff(cap=0.5, base=0.05), REDIS_RETRIES),
            "retry_on_error": [ConnectionError],
            "health_check_interval": REDIS_HEALTH_CHECK_SECONDS,
        }
        return {"BACKEND": REDIS_CHANNEL_LAYER, "CONFIG": {"hosts": [host]}}
    return {"BACKEND": "config.channel_layer.PacedInMemoryChannelLayer"}


REDIS_CHANNEL_LAYER = "channels_redis.pubsub.RedisPubSubChannelLayer"
"""Why Pub/Sub and not channels_redis's list-based ``RedisChannelLayer``: a change to a table
is one ``PUBLISH`` that each process with a page of the table hears once and hands to its
pages in memory. The list-based layer ran a script that pushed one message per page and
each page popped its own in a round trip, a cost that grew with the pages, not the
processes. What it gives up: a message published while a process is reconnecting is not kept
for it, where the lists kept messages for a minute. Within two heartbeats the process finds
its pages behind their room's version and tells their tables again
(:mod:`tables.socket.heartbeat`)."""


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
