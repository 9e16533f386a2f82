"""The client's IP address, for the limits counted per address (logins, room numbers guessed).

``REMOTE_ADDR`` for a page, the ASGI scope's ``client`` for a WebSocket. Behind reverse
proxies the address is the last proxy's, so ``X-Forwarded-For`` is read (by django-ipware),
but only when ``TRUSTED_PROXY_COUNT`` says how many proxies of ours append to it: the entry
that many from the right is the one our first proxy saw; anything left of it the client may
have written. (ipware counts the proxies named in the header: all of ours but the last,
which is the peer.)
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest
from ipware import get_client_ip

__all__ = ["axes_ip", "request_ip", "scope_ip"]

UNKNOWN = "unknown"


def _ip(meta: dict[str, Any]) -> str:
    proxies = int(getattr(settings, "TRUSTED_PROXY_COUNT", 0))
    if proxies and meta.get("HTTP_X_FORWARDED_FOR"):
        request = HttpRequest()
        request.META = meta
        ip, _routable = get_client_ip(
            request,
            proxy_count=proxies - 1,
            request_header_order=["HTTP_X_FORWARDED_FOR"],
            strict=False,  # entries the client wrote may come first
        )
        if ip is not None:
            return ip
    return meta.get("REMOTE_ADDR") or UNKNOWN


def request_ip(request: HttpRequest | None) -> str:
    """The address a page request came from."""
    if request is None:
        return UNKNOWN
    return _ip(request.META)


def axes_ip(request: HttpRequest | None, *args: Any) -> str | None:
    """django-axes' ``AXES_CLIENT_IP_CALLABLE``: the address, or None when there is none (a
    request made in code, as by ``Client.force_login``): axes stores it in an address column,
    which on PostgreSQL refuses anything else."""
    ip = request_ip(request)
    return None if ip == UNKNOWN else ip


def scope_ip(scope: dict[str, Any]) -> str:
    """The address a WebSocket came from."""
    client = scope.get("client") or (None, None)
    headers = dict(scope.get("headers", []))
    forwarded = headers.get(b"x-forwarded-for")
    meta = {"REMOTE_ADDR": client[0]}
    if forwarded:
        meta["HTTP_X_FORWARDED_FOR"] = forwarded.decode("latin-1")
    return _ip(meta)
