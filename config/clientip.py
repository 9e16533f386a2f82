"""The client's IP address, for the limits counted per address (logins, room numbers guessed).

``REMOTE_ADDR`` for a page, the ASGI scope's ``client`` for a WebSocket. Behind reverse
proxies the address is the last proxy's, so ``X-Forwarded-For`` is read, but only when
``TRUSTED_PROXY_COUNT`` says how many proxies of ours append to it: the entry that many from
the right is the one our first proxy saw; anything left of it the client may have written.

>>> forwarded_ip("6.6.6.6, 203.0.113.9, 10.0.0.2", 2)
'203.0.113.9'
>>> forwarded_ip("203.0.113.9", 2) is None
True
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest

__all__ = ["axes_ip", "forwarded_ip", "request_ip", "scope_ip"]

UNKNOWN = "unknown"


def forwarded_ip(header: str, proxies: int) -> str | None:
    """The address ``proxies`` trusted proxies saw in ``header`` (X-Forwarded-For), if any."""
    hops = [hop.strip() for hop in header.split(",") if hop.strip()]
    if proxies <= 0 or len(hops) < proxies:
        return None
    return hops[-proxies]


def _ip(remote: str | None, forwarded: str | None) -> str:
    proxies = int(getattr(settings, "TRUSTED_PROXY_COUNT", 0))
    if proxies and forwarded:
        ip = forwarded_ip(forwarded, proxies)
        if ip:
            return ip
    return remote or UNKNOWN


def request_ip(request: HttpRequest | None) -> str:
    """The address a page request came from."""
    if request is None:
        return UNKNOWN
    return _ip(request.META.get("REMOTE_ADDR"), request.META.get("HTTP_X_FORWARDED_FOR"))


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
    return _ip(client[0], forwarded.decode("latin-1") if forwarded else None)
