"""What a table socket's handshake says about its page, as its HTTP requests would: the
page's language, its origin and the CSRF token its pushed forms carry."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest
from django.middleware.csrf import CSRF_ALLOWED_CHARS, CSRF_SECRET_LENGTH, get_token
from django.utils import translation

__all__ = ["scope_csrf_token", "scope_language", "scope_origin"]


def scope_language(scope: dict[str, Any]) -> str:
    """The page's language, chosen as for its HTTP requests: the cookie, then Accept-Language."""
    request = HttpRequest()
    request.COOKIES = dict(scope.get("cookies", {}))
    headers = dict(scope.get("headers", []))
    accept = headers.get(b"accept-language")
    if accept:
        request.META["HTTP_ACCEPT_LANGUAGE"] = accept.decode("latin-1")
    return translation.get_language_from_request(request)


def scope_csrf_token(scope: dict[str, Any]) -> str:
    """The CSRF token the page's forms carry, masked as Django masks it for a page (a fresh
    mask per socket, so pushed bytes never repeat the cookie's secret); "" without a cookie."""
    secret = str(dict(scope.get("cookies", {})).get(settings.CSRF_COOKIE_NAME, ""))
    if len(secret) != CSRF_SECRET_LENGTH or not set(secret) <= set(CSRF_ALLOWED_CHARS):
        return ""  # none, or not one Django set: the page's next load sets a good one
    request = HttpRequest()
    request.META["CSRF_COOKIE"] = secret
    return get_token(request)


def scope_origin(scope: dict[str, Any]) -> str:
    """The page's origin, from the handshake's Host header (links in pushed fragments)."""
    headers = dict(scope.get("headers", []))
    host = headers.get(b"host", b"127.0.0.1").decode("latin-1")
    scheme = "https" if scope.get("scheme") == "wss" else "http"
    return f"{scheme}://{host}"
