"""The WebSocket catch-all: a path no route matches is refused at the handshake.

Without it Channels' ``URLRouter`` raises for an unknown path, which the server logs as a
traceback and answers like a crash; a stale or mistyped socket URL is not one.
"""

from __future__ import annotations

from channels.generic.websocket import AsyncWebsocketConsumer
from django.urls import URLPattern, URLResolver, re_path

__all__ = ["NOT_FOUND_CODE", "RefuseConsumer", "with_fallback"]

NOT_FOUND_CODE = 4404
"""Close code for an unrouted path (4000-4999 are the application's own)."""


class RefuseConsumer(AsyncWebsocketConsumer):  # type: ignore[misc]
    """Closes the handshake before accepting it: the browser sees a refused connection."""

    async def connect(self) -> None:
        await self.close(code=NOT_FOUND_CODE)


def with_fallback(
    patterns: list[URLPattern | URLResolver],
) -> list[URLPattern | URLResolver]:
    """``patterns`` and then a route matching every other path, refusing it."""
    return [*patterns, re_path(r"", RefuseConsumer.as_asgi())]
