"""The server side of a load run: a scratch database with seated tables, and daphne processes.

The database is set up in this process through Django (the same settings the server reads), so
the tables are real rooms started by the real services; the players' sessions are made directly,
which keeps the login limiter out of the measurement.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

import psutil

if TYPE_CHECKING:
    import psycopg

REPO = Path(__file__).resolve().parents[2]

__all__ = [
    "REPO",
    "SeatedTable",
    "Server",
    "ServiceCpu",
    "database_create",
    "database_url",
    "free_port",
    "migrate",
    "postgres_server",
    "run_command",
    "run_module",
    "seat_tables",
    "server_env",
]


@dataclass(frozen=True)
class SeatedTable:
    number: str
    cookies: tuple[str, str, str, str]
    """Each seat's ``sessionid`` cookie, seat order."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def database_url(db: Mapping[str, Any]) -> str:
    """The URL of a Django database (a ``connection.settings_dict``) for a server process:
    a test database is one the test process made, so the server must be told its name.

    >>> database_url({"ENGINE": "django.db.backends.postgresql", "NAME": "test_x",
    ...               "USER": "postgres", "HOST": "127.0.0.1", "PORT": 5432})
    'postgres://postgres@127.0.0.1:5432/test_x'
    >>> database_url({"ENGINE": "django.db.backends.sqlite3", "NAME": "/tmp/db.sqlite3"})
    'sqlite:////tmp/db.sqlite3'
    """
    if db["ENGINE"].endswith("sqlite3"):
        return f"sqlite:///{db['NAME']}"
    user = quote(str(db.get("USER") or ""), safe="")
    password = quote(str(db.get("PASSWORD") or ""), safe="")
    auth = f"{user}:{password}@" if password else (f"{user}@" if user else "")
    host = db.get("HOST") or "127.0.0.1"
    port = f":{db['PORT']}" if db.get("PORT") else ""
    return f"postgres://{auth}{host}{port}/{quote(str(db['NAME']))}"


def postgres_server(url: str) -> psycopg.Connection[Any]:
    """A connection, in autocommit, to the maintenance database of the PostgreSQL server
    that ``url`` names: where databases are created and dropped."""
    import dj_database_url
    import psycopg

    db = dj_database_url.parse(url)
    return psycopg.connect(
        dbname="postgres",
        host=str(db.get("HOST") or "127.0.0.1"),
        port=int(db.get("PORT") or 5432),
        user=str(db.get("USER") or ""),
        password=str(db.get("PASSWORD") or ""),
        autocommit=True,
    )


def database_create(url: str) -> bool:
    """Create the PostgreSQL database ``url`` names if it does not exist (True if it was
    created); an SQLite file is created by the migration itself."""
    import dj_database_url
    from psycopg import sql

    db = dj_database_url.parse(url)
    if not db["ENGINE"].endswith("postgresql"):
        return False
    with postgres_server(url) as conn:
        if conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [db["NAME"]]).fetchone():
            return False
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(db["NAME"])))
        return True


def migrate(env: Mapping[str, str]) -> None:
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=REPO,
        env=dict(env),
        check=True,
    )


def seat_tables(
    count: int, *, turn_seconds: int, first_seed: str | None = None
) -> list[SeatedTable]:
    """``count`` started rooms, four people each, with a logged-in session per person."""
    import django

    django.setup()
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    from accounts.models import User
    from engine.rules import Rules
    from tables.models import Seat
    from tables.rooms import services

    run = f"{int(time.time()) % 100000:05d}"
    tables: list[SeatedTable] = []
    for t in range(count):
        users = [
            User.objects.create_user(username=f"load{run}t{t}s{i}", password=None) for i in range(4)
        ]
        room = services.room_create(
            owner=users[0],
            name=f"load {t}",
            is_public=False,
            rules=Rules(),
            match_length=None,
            turn_seconds=turn_seconds,
        )
        for i, user in enumerate(users[1:], start=1):
            services.seat_take(room=room, user=user, index=i)
        Seat.objects.filter(room=room).update(ready=True)
        services.match_start(room=room, by_user=users[0], first_seed=first_seed)
        cookies: list[str] = []
        for user in users:
            session = SessionStore()
            session[SESSION_KEY] = str(user.pk)
            session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
            session[HASH_SESSION_KEY] = user.get_session_auth_hash()
            session.create()
            assert session.session_key is not None
            cookies.append(session.session_key)
        tables.append(SeatedTable(room.number, (cookies[0], cookies[1], cookies[2], cookies[3])))
    return tables


class Server:
    """One daphne process on a port of its own; its CPU time and memory as the OS counts them."""

    def __init__(self, env: Mapping[str, str], port: int) -> None:
        self.port = port
        self.log = open(f"/tmp/load-daphne-{port}.log", "w")  # noqa: SIM115
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "config.serve",  # daphne, as production starts it
                "-b",
                "127.0.0.1",
                "-p",
                str(port),
                "config.asgi:application",
            ],
            cwd=REPO,
            env=dict(env),
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )
        self.ps = psutil.Process(self.proc.pid)
        self._cpu0 = 0.0

    def wait_ready(self, seconds: float = 30) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            if self.proc.poll() is not None:
                raise RuntimeError(f"daphne exited: see /tmp/load-daphne-{self.port}.log")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("daphne did not start")

    def rss(self) -> int:
        return int(self.ps.memory_info().rss)

    def start_cpu(self) -> None:
        t = self.ps.cpu_times()
        self._cpu0 = float(t.user + t.system)

    def cpu_seconds(self) -> float:
        t = self.ps.cpu_times()
        return float(t.user + t.system) - self._cpu0

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        self.log.close()


class ServiceCpu:
    """The CPU that the machine's other processes of a name use over a measured window.

    PostgreSQL and Redis share the machine's cores with the servers and the clients, so on two
    processes they are part of where the time goes. PostgreSQL runs a process per
    connection: a process that starts in the window counts from zero, and one that ends in it
    is lost (the servers keep their connections, so few do).

    >>> cpu = ServiceCpu(("postgres",))
    >>> cpu.shares(wall=60.0)  # doctest: +SKIP
    {'postgres': 0.21}
    """

    def __init__(self, names: tuple[str, ...]) -> None:
        self.names = names
        self._start = self._read()

    def _read(self) -> dict[int, tuple[str, float]]:
        seen: dict[int, tuple[str, float]] = {}
        for p in psutil.process_iter(["name", "cpu_times"]):
            name, times = p.info["name"], p.info["cpu_times"]
            if name in self.names and times is not None:
                seen[p.pid] = (name, float(times.user + times.system))
        return seen

    def shares(self, wall: float) -> dict[str, float]:
        """Cores used by each name since this was made, over ``wall`` seconds."""
        used = dict.fromkeys(self.names, 0.0)
        for pid, (name, cpu) in self._read().items():
            start = self._start.get(pid)
            used[name] += cpu - (start[1] if start and start[0] == name else 0.0)
        return {name: round(seconds / wall, 2) for name, seconds in used.items()}


def server_env(
    database_url: str, redis_url: str | None, *, claim_pause: float | None = None
) -> dict[str, str]:
    """The environment of a server process: production's settings but for the database, the
    secret and the hosts. An SQLite file is given as ``SQLITE_PATH``, so the server builds
    the database settings a deployment without ``DATABASE_URL`` gets. The claim pause is the
    deployment's default (``config.settings``) unless ``claim_pause`` says otherwise."""
    env = {k: v for k, v in os.environ.items() if k not in _OURS}
    env.update(
        DEBUG="0",
        SECRET_KEY="load-benchmark-only-" + "x" * 40,
        ALLOWED_HOSTS="127.0.0.1,localhost",
        SECURE_COOKIES="0",
        DJANGO_SETTINGS_MODULE="config.settings",
    )
    if database_url.startswith(SQLITE_URL):
        env["SQLITE_PATH"] = database_url.removeprefix(SQLITE_URL)
    else:
        env["DATABASE_URL"] = database_url
    if redis_url:
        env["REDIS_URL"] = redis_url
    if claim_pause is not None:
        env["TABLE_CLAIM_PAUSE_SECONDS"] = str(claim_pause)
    return env


SQLITE_URL = "sqlite:///"
_OURS = ("DATABASE_URL", "REDIS_URL", "SQLITE_PATH", "TABLE_CLAIM_PAUSE_SECONDS")
"""Set by :func:`server_env` alone: a value in the caller's shell must not leak into a run."""


def run_module(
    module: str, *args: str, timeout: float = 180, under: Sequence[str] = ()
) -> subprocess.CompletedProcess[str]:
    """Run benchmark command ``python -m module args`` (``under`` a program that runs it, such
    as valgrind) in a process of its own: it sets up Django on its own scratch database, so
    the caller's database settings are left out. A failed run raises with its stderr."""
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    argv = [*under, sys.executable, "-m", module, *args]
    done = subprocess.run(argv, cwd=REPO, env=env, capture_output=True, text=True, timeout=timeout)
    if done.returncode != 0:
        raise RuntimeError(f"python -m {module} failed:\n{done.stderr}")
    return done


def run_command(module: str, *args: str, timeout: float = 180) -> dict[str, Any]:
    """:func:`run_module`, and the JSON the command prints."""
    result: dict[str, Any] = json.loads(run_module(module, *args, timeout=timeout).stdout)
    return result


def command_parser(prog: str, doc: str | None) -> argparse.ArgumentParser:
    """A benchmark command's arguments, its module's docstring as its help."""
    return argparse.ArgumentParser(
        prog=prog, description=doc, formatter_class=argparse.RawDescriptionHelpFormatter
    )


def database_ready(
    database_url: str | None,
    redis_url: str | None,
    name: str,
    *,
    claim_pause: float | None = None,
) -> dict[str, str]:
    """This process pointed at ``database_url`` (None: a scratch SQLite file, in a folder
    named after the command ``name``), which is created and migrated if need be; the
    environment it and its servers run with."""
    url = database_url or f"{SQLITE_URL}{tempfile.mkdtemp(prefix=f'{name}-')}/db.sqlite3"
    env = server_env(url, redis_url, claim_pause=claim_pause)
    for key in _OURS:
        os.environ.pop(key, None)
    os.environ.update(env)
    database_create(url)
    migrate(env)
    return env
