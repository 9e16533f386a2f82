"""Where a table's moves, ticks and reads run: on PostgreSQL a pool of their own, on SQLite
Channels' one database thread.

Channels runs every ``database_sync_to_async`` call on one thread per process, shared with
everything else a page asks of the database. On PostgreSQL the tables' work runs on a pool
of its own instead, ``TABLE_DB_THREADS`` threads, each with its own connection, kept between
calls (``CONN_MAX_AGE``) and checked before and after each call as Channels checks its own
(``close_old_connections``). Changes to different tables need not wait for each other: the
room's row lock (:mod:`tables.play.table`) orders the changes of one table, whichever thread
or process makes them. One thread is the default: in paired runs at 400 tables on two
processes four threads gave a higher p99 than one (``docs/performance.md``); a process is
bound by its one core, which more threads only contend for. SQLite takes one writer at a
time: there a second thread would only wait for the first, so the work stays on Channels'
thread.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import ParamSpec, TypeVar, cast

from channels.db import DatabaseSyncToAsync, database_sync_to_async
from django.conf import settings
from django.db import connections

__all__ = ["table_thread_call"]

P = ParamSpec("P")
R = TypeVar("R")

_pool: ThreadPoolExecutor | None = None


def _executor() -> ThreadPoolExecutor:
    """The pool, made on first use: the setting is read once Django is configured."""
    global _pool
    if _pool is None:
        threads = max(1, int(getattr(settings, "TABLE_DB_THREADS", 1)))
        _pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="table-db")
    return _pool


def table_thread_call(func: Callable[P, R]) -> Callable[P, Awaitable[R]]:
    """``func`` run, awaited, on a thread of the tables' pool (PostgreSQL) or Channels' database
    thread (SQLite); old connections closed around it either way."""
    if connections["default"].vendor == "sqlite":
        return cast("Callable[P, Awaitable[R]]", database_sync_to_async(func))
    return cast(
        "Callable[P, Awaitable[R]]",
        DatabaseSyncToAsync(func, thread_sensitive=False, executor=_executor()),
    )
