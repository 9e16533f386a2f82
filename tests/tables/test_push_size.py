"""What the table pushes weighs: every push of a bot-played hand, recorded and measured.

Tiles refer to the sprite the room page inlines once (``<use href="#t-5m">``), so no push carries
a tile drawing. The sizes are printed (``pytest -s``). With inline SVG faces this hand's pushes
had a median of 37 KB and reached 98 KB; with the external sprite, 10.6 KB and 24.1 KB; with the
public part and the seat's own part pushed apart (the latter only when it changed), short
references and no whitespace between tags, 7.2 KB and 17.8 KB; 8.2 KB and 13.7 KB once the
seat's own part carries the 解散 control and, for the owner (whose pushes these are), the
owner's tools.
"""

from __future__ import annotations

import re
import statistics
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.conf import settings as django_settings

from tables.socket.routing import websocket_urlpatterns
from tests.tables.factories import start_with_bots

pytestmark = pytest.mark.django_db(transaction=True)

DRAWING = re.compile(r"<(path|circle|rect|line|polygon|polyline|ellipse|text|symbol|g)[\s>/]")
USE = re.compile(r'<use href="([^"]*)"')
BETWEEN_TAGS = re.compile(r">\s+<")


@pytest.fixture(autouse=True)
def _fast_bots(settings: Any) -> None:
    settings.TABLE_BOT_DELAY_SECONDS = 0


async def record_pushes(user: Any, seed: str) -> list[str]:
    """Every push seat 0 (on 托管 beside three bots) gets over one whole hand."""
    room = await sync_to_async(start_with_bots)(user, tuoguan=True, hands=1, seed=seed)
    comm = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/table/{room.number}/")
    comm.scope["user"] = user
    comm.scope["cookies"] = {django_settings.LANGUAGE_COOKIE_NAME: "en"}
    connected, _ = await comm.connect()
    assert connected
    pushes: list[str] = []
    while not pushes or 'id="match-summary"' not in pushes[-1]:
        pushes.append(await comm.receive_from(timeout=20))
    await comm.disconnect()
    return pushes


async def test_a_whole_hand_of_pushes_draws_no_tile_and_stays_small(user: Any) -> None:
    pushes = await record_pushes(user, "push-size")
    sizes = sorted(len(p.encode()) for p in pushes)
    print(
        f"\n{len(pushes)} pushes: median {statistics.median(sizes) / 1024:.1f} KB, "
        f"max {sizes[-1] / 1024:.1f} KB, total {sum(sizes) / 1024:.0f} KB"
    )
    assert len(pushes) > 20
    for html in pushes:  # only references into the sprite, never a drawing
        assert not DRAWING.search(html), DRAWING.search(html)
        # The fragments are kept compact (tables.screen.memo.compact), none of the whitespace
        # between tags that the parts they are put in once had taken out of every push.
        assert not BETWEEN_TAGS.search(html), BETWEEN_TAGS.search(html)
    refs = [href for html in pushes for href in USE.findall(html)]
    assert refs and all(re.fullmatch(r"#t-[\w-]+", r) for r in refs)  # the page inlines the sprite
    assert statistics.median(sizes) <= 9 * 1024
    assert sizes[-1] <= 24 * 1024


async def test_the_load_clients_read_every_real_push_as_a_full_parse_would(user: Any) -> None:
    """``tests.load.wire`` reads a push without controls from its root tag alone: on every
    push of a whole hand that reading equals the full HTML parse."""
    from tests.load import wire

    pushes = await record_pushes(user, "push-size")
    peeked = 0
    for html in pushes:
        full = wire._parse(html)
        assert wire.parse_frame(html) == full
        if not full.controls and not full.private:
            peeked += 1
            assert wire._peek(html) == full
    assert peeked > 0
