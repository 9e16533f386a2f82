"""WebSocket routes of the tables app."""

from __future__ import annotations

from django.urls import re_path

from tables.socket.consumer import TableConsumer

websocket_urlpatterns = [
    re_path(r"^ws/table/(?P<number>\d{6})/$", TableConsumer.as_asgi()),
]
