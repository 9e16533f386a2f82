"""``python -m config.serve``: daphne, closing an oversized WebSocket message with 1009.

daphne hands its message size limit (``--websocket_max_message_size``, 1 MiB) to autobahn,
whose default on a violation is to drop the TCP connection (``failByDrop``): the page sees no
close code and can't tell why. This is daphne's own command line, with the same arguments,
whose server tells autobahn, once listening, to close with 1009 (message too big) instead.
Run it as you would run ``daphne``: ``python -m config.serve -b 0.0.0.0 -p 8000
config.asgi:application``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from daphne.cli import CommandLineInterface
from daphne.server import Server

from config import collector

__all__ = ["CleanCloseServer", "CommandLine", "main"]


class CleanCloseServer(Server):  # type: ignore[misc]
    """daphne's server whose WebSocket protocol fails connections with a close frame."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        ready: Callable[[], None] | None = kwargs.get("ready_callable")

        def on_ready() -> None:
            # The factory exists once the server listens; each new connection copies its
            # options, so every socket from here on closes cleanly.
            self.ws_factory.setProtocolOptions(failByDrop=False)
            # The application is imported and the server set up: what lives now lives on.
            collector.settle()
            if ready is not None:
                ready()

        kwargs["ready_callable"] = on_ready
        super().__init__(*args, **kwargs)


class CommandLine(CommandLineInterface):  # type: ignore[misc]
    server_class = CleanCloseServer


def main() -> None:
    CommandLine.entrypoint()


if __name__ == "__main__":
    main()
