"""Browser tests: real Chromium (Playwright) against a real daphne serving the test database.

One daphne process serves the whole session. It reads and writes the same test database as
the test process (``transactional_db``: what a test sets up through the services is
committed, so the server sees it), and shares Redis with it when ``REDIS_URL`` is set.

* SQLite: pytest-django's test database is normally in memory, which no other process can
  open, so while these tests are collected it is a file (``SQLITE_PATH`` for the server).
* PostgreSQL: the server gets a ``DATABASE_URL`` naming the test database Django created.

Every test skips with a message when there is no Chromium (``/usr/bin/chromium`` or
``chromium`` on PATH). Playwright never downloads a browser here: it launches that one.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from django.conf import settings

from tests.audit.lighthouse import CHROMIUM_ARGS
from tests.browser.driver import PHONE

REPO = Path(__file__).resolve().parents[2]
SCREENSHOTS = REPO / "artifacts" / "screenshots"
SERVER_START_SECONDS = 30
TAIL_LINES = 200
QUIET_SECONDS = 15

# Pages mark whether their table WebSocket is open (htmx's ws extension fires these events).
WS_SCRIPT = """
document.addEventListener("htmx:wsOpen", function () { window.__wsOpen = true; });
document.addEventListener("htmx:wsClose", function () { window.__wsOpen = false; });
"""


def find_chromium() -> str | None:
    if os.path.exists("/usr/bin/chromium"):
        return "/usr/bin/chromium"
    return shutil.which("chromium")


CHROMIUM = find_chromium()
NO_CHROMIUM = (
    "no Chromium found (neither /usr/bin/chromium nor `chromium` on PATH); "
    "install Debian's chromium (apt-get install chromium fonts-wqy-zenhei) to run the browser tests"
)


def _use_sqlite_file() -> None:
    """Give an SQLite test database a file name, so the daphne subprocess can open it.

    Done when this conftest is imported (collection), before pytest-django creates the test
    database for the session; the whole session then uses the file (PostgreSQL is untouched).
    """
    db = settings.DATABASES["default"]
    if CHROMIUM is None or not db["ENGINE"].endswith("sqlite3"):
        return
    folder = "/dev/shm" if os.path.isdir("/dev/shm") else tempfile.gettempdir()
    db.setdefault("TEST", {})["NAME"] = os.path.join(
        folder, f"shangrao-browser-tests-{os.getpid()}.sqlite3"
    )


_use_sqlite_file()


# ---------------------------------------------------------------- the server


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _database_env(db: dict[str, Any]) -> dict[str, str]:
    if db["ENGINE"].endswith("sqlite3"):
        return {"SQLITE_PATH": str(db["NAME"])}
    if "postgresql" in db["ENGINE"]:
        user = quote(str(db.get("USER") or ""), safe="")
        password = quote(str(db.get("PASSWORD") or ""), safe="")
        auth = f"{user}:{password}@" if password else (f"{user}@" if user else "")
        host = db.get("HOST") or "127.0.0.1"
        port = f":{db['PORT']}" if db.get("PORT") else ""
        return {"DATABASE_URL": f"postgres://{auth}{host}{port}/{quote(str(db['NAME']))}"}
    raise RuntimeError(f"browser tests cannot share a {db['ENGINE']} test database")


@dataclass
class Server:
    url: str
    process: subprocess.Popen[bytes]
    log_path: Path

    def log_size(self) -> int:
        return self.log_path.stat().st_size if self.log_path.exists() else 0

    def log_since(self, offset: int = 0) -> str:
        with self.log_path.open("rb") as f:
            f.seek(offset)
            lines = f.read().decode("utf-8", "replace").splitlines()
        if len(lines) > TAIL_LINES:
            lines = [f"… {len(lines) - TAIL_LINES} earlier lines left out", *lines[-TAIL_LINES:]]
        return "\n".join(lines)

    def check_alive(self) -> None:
        if self.process.poll() is not None:
            pytest.fail(
                f"daphne exited with {self.process.returncode}:\n{self.log_since()}", pytrace=False
            )


def _wait_until_serving(server: Server) -> None:
    deadline = time.monotonic() + SERVER_START_SECONDS
    last: Exception | None = None
    while time.monotonic() < deadline:
        server.check_alive()
        try:
            with urllib.request.urlopen(f"{server.url}/accounts/login/", timeout=5) as response:
                if response.status == 200:
                    return
        except OSError as exc:  # not listening yet
            last = exc
        time.sleep(0.1)  # polling the port; there is no event to wait on
    pytest.fail(f"daphne did not answer in {SERVER_START_SECONDS}s ({last}):\n{server.log_since()}")


def daphne_start(db: dict[str, Any], folder: Path) -> Server:
    """daphne on a free port, serving the database ``db`` (a connection's settings), its log
    in ``folder``; up and answering when this returns."""
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "SQLITE_PATH")}
    env.update(_database_env(db))
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DEBUG": "1",
            "SECRET_KEY": settings.SECRET_KEY,  # sessions made by the tests must decode there
            "TABLE_BOT_DELAY_SECONDS": "0.2",
            "TABLE_CLAIM_PAUSE_SECONDS": "0.3",  # every discard holds a window, shortly
            "PYTHONUNBUFFERED": "1",
        }
    )
    port = _free_port()
    log_path = folder / "daphne.log"
    daphne = Path(sys.executable).with_name("daphne")
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [str(daphne), "-b", "127.0.0.1", "-p", str(port), "config.asgi:application"],
            cwd=REPO,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    server = Server(url=f"http://127.0.0.1:{port}", process=process, log_path=log_path)
    try:
        _wait_until_serving(server)
    except BaseException:
        daphne_stop(server)
        raise
    return server


def daphne_stop(server: Server) -> None:
    if server.process.poll() is not None:
        return
    server.process.terminate()
    try:
        server.process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        server.process.kill()
        server.process.wait(timeout=10)


@pytest.fixture(scope="session")
def daphne_server(
    django_db_setup: None, django_db_blocker: Any, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Server]:
    """daphne on a free port, serving the session's test database."""
    if CHROMIUM is None:
        pytest.skip(NO_CHROMIUM)
    from django.db import connection

    with django_db_blocker.unblock():
        db = dict(connection.settings_dict)
    server = daphne_start(db, tmp_path_factory.mktemp("daphne"))
    try:
        yield server
    finally:
        daphne_stop(server)


@pytest.fixture
def own_server(daphne_server: Server, transactional_db: None, tmp_path: Path) -> Iterator[Server]:
    """A second daphne on the same test database, for a test that stops it (the session's
    server serves every other test and keeps running)."""
    from django.db import connection

    server = daphne_start(dict(connection.settings_dict), tmp_path)
    try:
        yield server
    finally:
        daphne_stop(server)


@pytest.fixture
def server(
    daphne_server: Server, transactional_db: None, request: pytest.FixtureRequest
) -> Iterator[Server]:
    """The running server, for one test with committed (transactional) database access.

    At the end (after the test's browser contexts have closed) it waits for the server to
    let go of the database, so that emptying the tables does not race the server's last
    writes (on PostgreSQL, TRUNCATE against a table move is a deadlock).
    """
    daphne_server.check_alive()
    request.node.daphne_log_offset = daphne_server.log_size()
    request.node.daphne_server = daphne_server
    yield daphne_server
    _wait_until_quiet()


def _wait_until_quiet() -> None:
    from django.db import connection

    from tables.models import Seat

    deadline = time.monotonic() + QUIET_SECONDS
    while time.monotonic() < deadline:
        busy = Seat.objects.filter(connections__gt=0).exists()
        if not busy and connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute(
                    "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                    " AND pid <> pg_backend_pid() AND state <> 'idle'"
                )
                busy = bool(cursor.fetchone()[0])
        if not busy:
            return
        time.sleep(0.05)  # polling the database; the server sends no event when it is done


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    """A failing browser test shows what the server logged meanwhile."""
    report = yield
    server: Server | None = getattr(item, "daphne_server", None)
    if report.failed and server is not None:
        offset = getattr(item, "daphne_log_offset", 0)
        report.sections.append((f"daphne log ({report.when})", server.log_since(offset)))
    return report


# ---------------------------------------------------------------- the browser


@pytest.fixture(scope="module")
def chromium(daphne_server: Server) -> Iterator[Any]:
    """Chromium for one test module.

    Playwright's sync API keeps an asyncio loop marked as running in this thread while it is
    open, so Django's ORM (setting tables up, checking them) must be told that this is fine,
    and nothing else may run meanwhile: pytest-asyncio tests could not start their own loop.
    Hence module scope, and the database (``daphne_server``) is set up before the loop.
    """
    if CHROMIUM is None:
        pytest.skip(NO_CHROMIUM)
    from playwright.sync_api import sync_playwright

    saved = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=list(CHROMIUM_ARGS))
            try:
                yield browser
            finally:
                browser.close()
    finally:
        if saved is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = saved


@pytest.fixture
def new_context(chromium: Any, server: Server) -> Iterator[Callable[..., Any]]:
    """``new_context(user=None, viewport=PHONE, scale=1, locale="zh-CN")``: a fresh browser
    context (its own cookies, touch on phone-sized viewports) on the test server, logged in as
    ``user`` if given. Closed at the end of the test."""
    from django.test import Client

    contexts: list[Any] = []

    def make(
        user: Any = None,
        *,
        viewport: dict[str, int] = PHONE,
        scale: int = 1,
        locale: str = "zh-CN",
    ) -> Any:
        mobile = min(viewport["width"], viewport["height"]) < 500  # a phone, either way up
        context = chromium.new_context(
            base_url=server.url,
            viewport=viewport,
            locale=locale,
            device_scale_factor=scale,
            is_mobile=mobile,
            has_touch=mobile,
        )
        context.set_default_timeout(15_000)
        context.add_init_script(WS_SCRIPT)
        contexts.append(context)
        if user is not None:
            client = Client()
            client.force_login(user)
            cookie = client.cookies[settings.SESSION_COOKIE_NAME]
            context.add_cookies([{"name": cookie.key, "value": cookie.value, "url": server.url}])
        return context

    yield make
    for context in contexts:
        context.close()


@pytest.fixture(scope="session")
def screenshots() -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS
