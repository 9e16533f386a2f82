"""config.serve: daphne's command line, closing an oversized message with 1009 (autobahn's
default dropped the TCP connection: the page saw 1006 and no reason)."""

from __future__ import annotations

import asyncio
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import websockets

REPO = Path(__file__).resolve().parents[2]
SERVER = "config.serve"
APP = "tests.config.accepting_app:application"


def _spare_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def served() -> Iterator[str]:
    port = _spare_port()
    process = subprocess.Popen(
        [sys.executable, "-m", SERVER, "-b", "127.0.0.1", "-p", str(port), APP],
        cwd=REPO,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            assert process.poll() is None, "config.serve exited"
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                    break
            except OSError:
                assert time.monotonic() < deadline, "config.serve did not listen"
                time.sleep(0.1)  # polling a port; there is no event to wait on
        yield f"ws://127.0.0.1:{port}/ws/"
    finally:
        process.terminate()
        process.wait(timeout=10)


async def _send(url: str, payload: str | bytes) -> int | None:
    """Send one message; the close code the server answered with (None: still open)."""
    async with websockets.connect(url, max_size=None) as ws:
        await ws.send(payload)
        try:
            await asyncio.wait_for(ws.recv(), timeout=10)
        except websockets.ConnectionClosed as closed:
            return closed.rcvd.code if closed.rcvd else 1006
        return None


def test_an_oversized_message_is_closed_with_1009(served: str) -> None:
    assert asyncio.run(_send(served, "x" * (2 * 1024 * 1024))) == 1009
    assert asyncio.run(_send(served, b"\0" * (2 * 1024 * 1024))) == 1009


def test_messages_under_the_limit_pass(served: str) -> None:
    assert asyncio.run(_send(served, "x" * 1000)) is None
