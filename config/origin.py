"""Which pages may open a WebSocket here: only the site's own, by full origin.

Channels' ``AllowedHostsOriginValidator`` compares only the Origin's host, so a page served
from another port or over plain http on the same host could open a player's socket. Here the
Origin must be the very origin the handshake was sent to (scheme, host and port, the Host
being one of ``ALLOWED_HOSTS``), or one listed in ``CSRF_TRUSTED_ORIGINS`` (as for forms). A
handshake without an Origin is refused: browsers always send one.

>>> same_origin("http://127.0.0.1:8000", "http", "127.0.0.1:8000")
True
>>> same_origin("https://127.0.0.1:8000", "http", "127.0.0.1:8000")
False
>>> same_origin("http://127.0.0.1:9000", "http", "127.0.0.1:8000")
False
>>> same_origin("https://example.com", "https", "example.com:443")
True
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import split_domain_port, validate_host

__all__ = ["SameOriginValidator", "origin_allowed", "same_origin"]

DEFAULT_PORTS = {"http": 80, "https": 443}


def _parts(origin: str) -> tuple[str, str, int] | None:
    try:
        url = urlsplit(origin.strip())
        port = url.port
    except ValueError:
        return None
    if url.scheme not in DEFAULT_PORTS or not url.hostname:
        return None
    return url.scheme, url.hostname.lower(), port or DEFAULT_PORTS[url.scheme]


def same_origin(origin: str, scheme: str, host: str) -> bool:
    """Is ``origin`` the origin of ``scheme``://``host`` (default ports filled in)?"""
    theirs = _parts(origin)
    return theirs is not None and theirs == _parts(f"{scheme}://{host}")


def _scheme(scope: dict[str, Any], headers: dict[bytes, bytes]) -> str:
    proxy = getattr(settings, "SECURE_PROXY_SSL_HEADER", None)
    if proxy:  # behind a TLS-terminating proxy the socket itself is plain ws
        name = proxy[0].removeprefix("HTTP_").replace("_", "-").lower().encode()
        if headers.get(name, b"").decode("latin-1") == proxy[1]:
            return "https"
    return "https" if scope.get("scheme") == "wss" else "http"


def origin_allowed(scope: dict[str, Any]) -> bool:
    """May this WebSocket handshake's page use the site's sockets?"""
    headers = dict(scope.get("headers", []))
    origin = headers.get(b"origin", b"").decode("latin-1")
    host = headers.get(b"host", b"").decode("latin-1")
    if not origin:
        return False
    if any(same_origin(origin, *_split(o)) for o in settings.CSRF_TRUSTED_ORIGINS):
        return True
    domain, _port = split_domain_port(host)
    allowed = list(settings.ALLOWED_HOSTS)
    if settings.DEBUG and not allowed:
        allowed = [".localhost", "127.0.0.1", "[::1]"]  # as Django allows in DEBUG
    return (
        bool(domain)
        and validate_host(domain, allowed)
        and same_origin(origin, _scheme(scope, headers), host)
    )


def _split(trusted: str) -> tuple[str, str]:
    scheme, _, rest = trusted.partition("://")
    return scheme, rest


class SameOriginValidator:
    """ASGI middleware: WebSocket handshakes from another origin are refused (403)."""

    def __init__(self, application: Any) -> None:
        self.application = application

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope["type"] == "websocket" and not origin_allowed(scope):
            return await WebsocketDenier()(scope, receive, send)
        return await self.application(scope, receive, send)
