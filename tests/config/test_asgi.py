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
