"""Friendly 403/404/500 pages, and unrouted WebSocket paths refused at the handshake."""

from __future__ import annotations

import logging

import pytest
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied
from django.template import loader
from django.test import Client, RequestFactory
from django.utils import translation
from django.views import defaults

from config.websocket import NOT_FOUND_CODE

pytestmark = pytest.mark.django_db


def test_404_page_is_chinese_by_default_with_a_way_back_to_the_lobby() -> None:
    response = Client().get("/no/such/page/")
    assert response.status_code == 404
    html = response.content.decode()
    assert "页面不存在" in html
    assert 'href="/" data-action="lobby"' in html
    assert 'class="site-header"' in html  # the site's own frame, not Django's bare page


def test_404_page_in_english_for_an_english_browser() -> None:
    response = Client(headers={"accept-language": "en"}).get("/no/such/page/")
    assert response.status_code == 404
    html = response.content.decode()
    assert "Page not found" in html and "Back to the lobby" in html
    assert "页面不存在" not in html


def test_403_page_has_the_sites_look() -> None:
    request = RequestFactory().get("/somewhere/")
    request.user = AnonymousUser()
    with translation.override("zh-hans"):  # what LocaleMiddleware sets for a Chinese browser
        response = defaults.permission_denied(request, PermissionDenied())
    assert response.status_code == 403
    html = response.content.decode()
    assert "无权访问" in html and 'data-action="lobby"' in html


def test_500_handler_renders_its_page() -> None:
    with translation.override("zh-hans"):
        response = defaults.server_error(RequestFactory().get("/"))
    assert response.status_code == 500
    html = response.content.decode()
    assert "出错了" in html and 'href="/"' in html


def test_500_page_renders_without_any_context() -> None:
    html = loader.get_template("500.html").render()
    assert 'data-status="500"' in html


def _ws(path: str) -> WebsocketCommunicator:
    from config.asgi import application

    return WebsocketCommunicator(
        application,
        path,
        headers=[(b"origin", b"http://127.0.0.1:8000"), (b"host", b"127.0.0.1:8000")],
    )


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("path", ["/ws/nowhere/", "/", "/ws/table/12/", "/ws/table/123456/x/"])
async def test_an_unrouted_websocket_path_is_refused_cleanly(
    path: str, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING):
        comm = _ws(path)
        connected, code = await comm.connect()
    assert not connected
    assert code == NOT_FOUND_CODE
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]


@pytest.mark.django_db(transaction=True)
async def test_the_table_route_still_answers() -> None:
    """The catch-all comes after the real routes: a table path still reaches its consumer
    (which closes an anonymous socket itself, with its own code)."""
    comm = _ws("/ws/table/123456/")
    connected, code = await comm.connect()
    assert not connected
    assert code != NOT_FOUND_CODE
