"""tables.pages_here: a change committed in this process reaches this process's pages at once,
not after its group message has gone round the channel layer."""

from __future__ import annotations

import json
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from engine.hand import HandState
from engine.tiles import format_tile
from tables import frames, notify
from tables.models import Room
from tables.pages_here import PagesHere, pages_here
from tests.tables.factories import drain
from tests.tables.test_frames import connect, four_people_waiting

pytestmark = pytest.mark.django_db(transaction=True)


def _discard_text(room: Room) -> tuple[int, str]:
    """The seat to discard and the input its page sends to discard its first tile."""
    room.refresh_from_db()
    assert room.state is not None
    state = HandState.from_json(room.state["hand"])
    tile = format_tile(state.hands[state.turn][0])
    return state.turn, json.dumps({"action": "discard", "tile": tile, "step": state.step})


async def _four_pages(make_user: Any) -> tuple[Room, list[WebsocketCommunicator]]:
    users = [await sync_to_async(make_user)(f"p{i}") for i in range(4)]
    room = await sync_to_async(four_people_waiting)(users)
    pages = [await connect(room, u) for u in users]
    await drain(pages)
    return room, pages


async def test_a_change_made_here_reaches_the_pages_here_without_its_message(
    make_user: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The group message still goes out (for other processes' pages), but this process's
    pages do not wait for it: here it is recorded and never delivered."""
    told: list[tuple[str, int | None]] = []

    async def tell(number: str, version: int | None = None) -> None:
        told.append((number, version))

    monkeypatch.setattr(notify, "table_changed_async", tell)
    room, pages = await _four_pages(make_user)  # each page's coming in is a change too
    told.clear()
    seat, text = await sync_to_async(_discard_text)(room)
    await pages[seat].send_to(text_data=text)
    got = await drain(pages)
    await sync_to_async(room.refresh_from_db)()
    assert told == [(room.number, room.version)]
    for g in got:
        assert len(g) == 1 and f'data-version="{room.version}"' in g[0]
    for page in pages:
        await page.disconnect()
    assert room.number not in pages_here().rooms


async def test_the_message_that_follows_pushes_nothing_more(
    make_user: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With the channel layer delivering, each page gets the change once, and the message
    that comes after the push here is not even looked at: one frame built per page."""
    room, pages = await _four_pages(make_user)
    built: list[int] = []
    table_frame = frames.table_frame

    def counted(*args: Any, **kwargs: Any) -> str:
        built.append(1)
        return table_frame(*args, **kwargs)

    monkeypatch.setattr(frames, "table_frame", counted)
    seat, text = await sync_to_async(_discard_text)(room)
    await pages[seat].send_to(text_data=text)
    got = await drain(pages)
    assert [len(g) for g in got] == [1, 1, 1, 1]
    assert len(built) == 4
    for page in pages:
        await page.disconnect()


async def test_a_page_that_fails_keeps_the_change_from_no_other() -> None:
    got: list[str] = []

    class Page:
        def __init__(self, name: str) -> None:
            self.name = name

        async def push_change(self, version: int) -> None:
            if self.name == "closing":
                raise ConnectionError("the socket closed meanwhile")
            got.append(f"{self.name}@{version}")

    here = PagesHere()
    for name in ("a", "closing", "b"):
        here.join("123456", Page(name))
    await here.push("123456", 9)
    assert got == ["a@9", "b@9"]
