"""tables.socket.scope: the page's language, origin and CSRF token, read from a handshake."""

from __future__ import annotations

from django.conf import settings
from django.middleware.csrf import (  # type: ignore[attr-defined]  # not in the stubs
    _unmask_cipher_token,
)

from tables.socket.scope import scope_csrf_token, scope_language, scope_origin

SECRET = "abcdefghijklmnopqrstuvwxyzABCDEF"
"""32 characters a CSRF secret may hold, as Django sets it in the cookie."""


def test_the_token_is_the_cookies_secret_masked_afresh_each_time() -> None:
    scope = {"cookies": {settings.CSRF_COOKIE_NAME: SECRET}}
    first, second = scope_csrf_token(scope), scope_csrf_token(scope)
    assert len(first) == len(second) == 64 and first != second
    assert SECRET not in first
    assert _unmask_cipher_token(first) == _unmask_cipher_token(second) == SECRET


def test_no_token_for_a_cookie_django_did_not_set() -> None:
    for cookie in ("", SECRET[:31], SECRET + "G", "é" * 32, "-" * 32):
        assert scope_csrf_token({"cookies": {settings.CSRF_COOKIE_NAME: cookie}}) == ""
    assert scope_csrf_token({}) == ""


def test_language_and_origin_as_the_http_requests_have_them() -> None:
    assert scope_language({"cookies": {settings.LANGUAGE_COOKIE_NAME: "en"}}) == "en"
    assert scope_language({"headers": [(b"accept-language", b"en-US,en;q=0.9")]}) == "en"
    assert scope_language({}) == "zh-hans"
    headers = [(b"host", b"mj.example:8443")]
    assert scope_origin({"headers": headers, "scheme": "wss"}) == "https://mj.example:8443"
    assert scope_origin({"headers": headers, "scheme": "ws"}) == "http://mj.example:8443"
