"""tables.socket.table_threads: a table's database work runs on a few threads on PostgreSQL,
on Channels' one database thread on SQLite."""

from __future__ import annotations

import threading

import pytest
from django.db import connections

from tables.models import Room
from tables.socket.table_threads import table_thread_call


@pytest.mark.django_db(transaction=True)
async def test_the_work_runs_where_the_database_takes_it_and_reads_the_database() -> None:
    def where() -> tuple[str, int]:
        return threading.current_thread().name, Room.objects.count()

    name, rooms = await table_thread_call(where)()
    assert rooms == 0
    if connections["default"].vendor == "sqlite":
        assert not name.startswith("table-db")  # one writer at a time: Channels' thread
    else:
        assert name.startswith("table-db")


def test_the_pool_has_as_many_threads_as_the_setting_says(
    settings: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tables.socket import table_threads

    monkeypatch.setattr(table_threads, "_pool", None)
    settings.TABLE_DB_THREADS = 2  # type: ignore[attr-defined]
    pool = table_threads._executor()
    assert pool._max_workers == 2
    assert table_threads._executor() is pool  # made once, on first use
    pool.shutdown()
