"""An ASGI application that accepts every WebSocket and echoes it: for test_serve's daphne,
which tests the server's handling of frames, not the site.

``frozen?`` is answered, not echoed: ``True`` once a list made when the socket connected is
out of the collector's sight (``config.collector``'s pacer froze it), else ``False``."""

from __future__ import annotations

import gc
from typing import Any


async def application(scope: dict[str, Any], receive: Any, send: Any) -> None:
    if scope["type"] != "websocket":
        return
    made: list[object] = [object()]
    while True:
        message = await receive()
        if message["type"] == "websocket.connect":
            await send({"type": "websocket.accept"})
        elif message["type"] == "websocket.receive":
            text = message.get("text") or "bytes"
            if text == "frozen?":
                text = str(not any(o is made for o in gc.get_objects()))
            await send({"type": "websocket.send", "text": text})
        else:
            return
