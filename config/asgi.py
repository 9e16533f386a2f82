"""ASGI entry point: HTTP through Django, WebSockets through Channels."""

from __future__ import annotations

import importlib
import importlib.util
import os
from typing import Any

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

# Set up Django (apps, settings) before importing anything that touches models.
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402


def websocket_urlpatterns() -> list[Any]:
    """The tables app's WebSocket routes, or none while it has no routing module."""
    if importlib.util.find_spec("tables.routing") is None:
        return []
    routing = importlib.import_module("tables.routing")
    return list(routing.websocket_urlpatterns)


application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": AllowedHostsOriginValidator(
            AuthMiddlewareStack(URLRouter(websocket_urlpatterns()))
        ),
    }
)
