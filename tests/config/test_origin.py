"""config.origin: a WebSocket handshake must come from the site's own origin (scheme, host,
port) or a trusted one, through the real ASGI application."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings as django_settings
from django.test import Client

from config.asgi import application
from config.origin import origin_allowed
from tests.tables.factories import start_with_bots

HOST = "127.0.0.1:8000"


def scope(origin: str | None, host: str = HOST, scheme: str = "ws", **headers: str) -> Any:
    raw = [(b"host", host.encode())]
    if origin is not None:
        raw.append((b"origin", origin.encode()))
    raw += [(k.replace("_", "-").encode(), v.encode()) for k, v in headers.items()]
    return {"type": "websocket", "scheme": scheme, "headers": raw}


@pytest.mark.parametrize(
    ("origin", "allowed"),
    [
        ("http://127.0.0.1:8000", True),
        ("https://127.0.0.1:8000", False),  # another scheme: used to pass (host-only check)
        ("http://127.0.0.1:8001", False),  # another port: used to pass
        ("http://127.0.0.1", False),
        ("http://evil.example", False),
        ("null", False),
        ("", False),
        (None, False),
        ("http://[::1", False),
    ],
)
def test_only_the_sites_own_origin_is_allowed(origin: str | None, allowed: bool) -> None:
    assert origin_allowed(scope(origin)) is allowed


def test_the_host_must_be_an_allowed_host(settings: Any) -> None:
    settings.ALLOWED_HOSTS = ["play.example"]
    assert origin_allowed(scope("https://play.example", "play.example", "wss"))
    assert not origin_allowed(scope("http://evil.example", "evil.example"))


def test_trusted_origins_are_allowed(settings: Any) -> None:
    settings.CSRF_TRUSTED_ORIGINS = ["https://mahjong.example"]
    assert origin_allowed(scope("https://mahjong.example"))
    assert not origin_allowed(scope("http://mahjong.example"))


def test_behind_a_tls_proxy_the_forwarded_scheme_counts(settings: Any) -> None:
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    assert origin_allowed(scope("https://127.0.0.1:8000", x_forwarded_proto="https"))
    assert not origin_allowed(scope("https://127.0.0.1:8000"))


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("origin", "connects"),
    [
        ("http://127.0.0.1:8000", True),
        ("https://127.0.0.1:8000", False),
        ("http://127.0.0.1:9", False),
    ],
)
async def test_the_application_refuses_other_origins(
    user: Any, origin: str, connects: bool
) -> None:
    room = await sync_to_async(start_with_bots)(user)
    client = Client()
    await sync_to_async(client.force_login)(user)
    session = client.cookies[django_settings.SESSION_COOKIE_NAME].value
    comm = WebsocketCommunicator(
        application,
        f"/ws/table/{room.number}/",
        headers=[
            (b"origin", origin.encode()),
            (b"host", HOST.encode()),
            (b"cookie", f"sessionid={session}".encode()),
        ],
    )
    connected, _ = await comm.connect()
    assert connected is connects
    await comm.disconnect()
