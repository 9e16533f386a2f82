"""ASGI entry point: HTTP through Django, WebSockets through Channels."""

from __future__ import annotations

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

# Set up Django (apps, settings) before importing anything that touches models.
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddleware  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.sessions import CookieMiddleware, SessionMiddleware  # noqa: E402

from config.origin import SameOriginValidator  # noqa: E402
from config.session_cookie import SessionKeyFilter  # noqa: E402
from config.websocket import with_fallback  # noqa: E402
from tables.socket.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        # The full origin (scheme, host, port) must be the site's own (config.origin); paths
        # that lead nowhere are refused at the handshake (config.websocket). Channels'
        # AuthMiddlewareStack, with a malformed session cookie dropped before its look-up.
        "websocket": SameOriginValidator(
            CookieMiddleware(
                SessionKeyFilter(
                    SessionMiddleware(
                        AuthMiddleware(URLRouter(with_fallback(websocket_urlpatterns)))
                    )
                )
            )
        ),
    }
)
