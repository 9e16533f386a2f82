from __future__ import annotations

import os
import secrets
import time

import psutil
import pytest
from psycopg import sql

from tests.load.server import ServiceCpu, database_create, postgres_server


def test_an_sqlite_file_is_left_to_the_migration(tmp_path: object) -> None:
    assert database_create(f"sqlite:///{tmp_path}/db.sqlite3") is False


@pytest.mark.skipif(
    not os.environ.get("DATABASE_URL", "").startswith("postgres"),
    reason="needs PostgreSQL (DATABASE_URL)",
)
def test_a_missing_postgres_database_is_created_once() -> None:
    name = f"load_test_{secrets.token_hex(4)}"
    url = os.environ["DATABASE_URL"].rsplit("/", 1)[0] + "/" + name
    try:
        assert database_create(url) is True
        assert database_create(url) is False  # there now: left as it is
    finally:
        with postgres_server(url) as conn:
            conn.execute(sql.SQL("DROP DATABASE IF EXISTS {}").format(sql.Identifier(name)))


def test_a_service_s_cpu_counts_what_its_processes_used_in_the_window() -> None:
    me = psutil.Process().name()
    cpu = ServiceCpu((me, "no-such-service"))
    start = time.process_time()
    while time.process_time() - start < 0.3:  # this process is one of the name's
        pass
    shares = cpu.shares(wall=1.0)
    assert shares["no-such-service"] == 0.0
    assert 0.25 <= shares[me] <= 5.0  # 0.3 s of ours, with whatever else runs under the name
