"""config.asgi: one application for the pages (HTTP) and the live table (WebSocket)."""

from __future__ import annotations

import pytest
from channels.testing import HttpCommunicator

from config.asgi import application


@pytest.mark.django_db(transaction=True)
async def test_http_requests_reach_the_django_pages() -> None:
    page = HttpCommunicator(
        application, "GET", "/accounts/login/", headers=[(b"host", b"127.0.0.1")]
    )
    response = await page.get_response()
    assert response["status"] == 200
    assert b'name="username"' in response["body"]


async def test_a_websocket_path_that_is_not_a_table_is_refused() -> None:
    from channels.testing import WebsocketCommunicator

    comm = WebsocketCommunicator(
        application,
        "/ws/elsewhere/",
        headers=[(b"origin", b"http://127.0.0.1:8000"), (b"host", b"127.0.0.1:8000")],
    )
    with pytest.raises(ValueError, match="No route found"):
        await comm.connect()
