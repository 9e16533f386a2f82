"""A socket's session cookie is looked up only if it can be a session key.

Django's session keys are lower-case letters and digits; a hostile cookie with a NUL byte made
PostgreSQL refuse the session query, a 500 at the WebSocket handshake. Such a cookie is dropped
(the socket is then simply not logged in). It sits between Channels' cookie parsing and its
session middleware, so it reads the parsed cookies rather than parsing headers itself.
"""

from __future__ import annotations

import string
from typing import Any

from django.conf import settings

__all__ = ["SessionKeyFilter", "is_session_key"]

_KEY_CHARS = frozenset(string.ascii_lowercase + string.digits)


def is_session_key(value: str) -> bool:
    """Whether ``value`` could be a session key Django made: 8-40 lowercase letters and digits.

    >>> is_session_key("qjpnior3yq9qjj8319vt46el5msmea97"), is_session_key("ab\\x00cdefgh")
    (True, False)
    """
    return 8 <= len(value) <= 40 and set(value) <= _KEY_CHARS


class SessionKeyFilter:
    """ASGI middleware: drop ``scope["cookies"]``'s session cookie unless it is a possible key."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    async def __call__(self, scope: Any, receive: Any, send: Any) -> Any:
        cookies = scope.get("cookies") or {}
        name = settings.SESSION_COOKIE_NAME
        if name in cookies and not is_session_key(cookies[name]):
            scope = {**scope, "cookies": {k: v for k, v in cookies.items() if k != name}}
        return await self.inner(scope, receive, send)
