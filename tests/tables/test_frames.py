"""tables.frames: one read and one public render per change per process, shared by its pages."""

from __future__ import annotations

import json
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.conf import settings as django_settings

from engine.hand import HandState
from engine.tiles import format_tile
from tables import frames, live, notify, services
from tables.models import Room, Seat
from tables.protocol import parse_text
from tables.routing import websocket_urlpatterns
from tests.tables.factories import start_with_four_people

pytestmark = pytest.mark.django_db(transaction=True)


def four_people_waiting(users: list[Any]) -> Room:
    """Four people seated, none on 托管, the turn timer long: nothing moves on its own."""
    room = start_with_four_people(users)
    Seat.objects.filter(room=room).update(tuoguan=False)
    Room.objects.filter(pk=room.pk).update(turn_seconds=600)
    room.refresh_from_db()
    return room


async def connect(room: Room, user: Any) -> WebsocketCommunicator:
    comm = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/table/{room.number}/")
    comm.scope["user"] = user
    comm.scope["cookies"] = {django_settings.LANGUAGE_COOKIE_NAME: "en"}
    connected, _ = await comm.connect()
    assert connected
    return comm


async def drain(comms: list[WebsocketCommunicator]) -> list[list[str]]:
    """Every message each page got until all are quiet."""
    got: list[list[str]] = [[] for _ in comms]
    for i, c in enumerate(comms):
        while not await c.receive_nothing(timeout=0.3):
            got[i].append(await c.receive_from())
    return got


def dealer_discards(room: Room, users: list[Any]) -> None:
    room.refresh_from_db()
    assert room.state is not None
    state = HandState.from_json(room.state["hand"])
    tile = format_tile(state.hands[state.turn][0])
    message = parse_text(json.dumps({"action": "discard", "tile": tile, "step": state.step}))
    services.table_act(number=room.number, user=users[state.turn], message=message)


def public_part(html: str) -> str:
    """``#table-public`` as pushed (it ends where the private part or the clock begins)."""
    start = html.index('<div id="table-public"')
    ends = [html.find(m, start) for m in ('<div id="table-private"', '<i id="table-clock"')]
    return html[start : min(e for e in ends if e >= 0)]


async def test_four_pages_share_one_read_and_one_public_render_per_change(
    make_user: Any,
) -> None:
    users = [await sync_to_async(make_user)(f"p{i}") for i in range(4)]
    room = await sync_to_async(four_people_waiting)(users)
    comms = [await connect(room, u) for u in users]
    await drain(comms)
    cache = frames.frame_cache()
    loads = cache.loads
    await sync_to_async(dealer_discards)(room, users)
    await notify.table_changed_async(room.number)
    got = await drain(comms)
    assert [len(g) for g in got] == [1, 1, 1, 1]
    assert cache.loads == loads + 1  # one read for the four pages
    publics = {public_part(g[0]) for g in got}
    assert len(publics) == 1  # the very same bytes for everyone
    for g in got:  # pushed out of band: the page keeps its root and swaps the parts
        root = g[0][: g[0].index(">") + 1]
        assert root.startswith('<div id="table-public"') and 'hx-swap-oob="true"' in root
    snap = cache.snapshots[room.number]
    assert len(snap.public) == 1 and len(snap.private) == 4
    for c in comms:
        await c.disconnect()


async def test_a_push_sends_only_what_changed_for_that_page(make_user: Any) -> None:
    users = [await sync_to_async(make_user)(f"p{i}") for i in range(4)]
    room = await sync_to_async(four_people_waiting)(users)
    comms = [await connect(room, u) for u in users]
    first = await drain(comms)
    assert first[0][0].startswith('<div id="live" hx-swap-oob="true"><section class="table"')
    assert 'data-me="0"' in first[0][0] and 'data-me="3"' in first[3][0]
    # Nothing changed for anyone: a message about the same table pushes nothing.
    await notify.table_changed_async(room.number)
    assert await drain(comms) == [[], [], [], []]
    # The dealer discards: everyone's public part changes; the dealer's own part too.
    await sync_to_async(dealer_discards)(room, users)
    await notify.table_changed_async(room.number)
    got = await drain(comms)
    dealer = next(
        i for i, g in enumerate(first) if 'class="tile-row tile-hand can-discard"' in g[0]
    )
    for i, g in enumerate(got):
        assert len(g) == 1 and 'id="table-public"' in g[0] and 'id="table-clock"' in g[0]
        if i == dealer:
            assert 'id="table-private"' in g[0]
    for c in comms:
        await c.disconnect()


def test_a_snapshot_reads_the_room_in_three_queries(
    make_user: Any, django_assert_num_queries: Any
) -> None:
    users = [make_user(f"p{i}") for i in range(4)]
    room = four_people_waiting(users)
    # The room, its seats with their users, the 解散 votes (the hand's id and commitment are
    # in the room's state).
    with django_assert_num_queries(3):
        snap = frames.snapshot_load(room.number)
    assert snap.table is not None and snap.table.hand_id is not None
    assert snap.table.seed_hash is not None
    assert snap.room is not None and snap.deadline == snap.room.deadline
    assert frames.snapshot_load("999999").room is None


async def test_a_seat_whose_view_did_not_change_is_not_rendered_again(
    make_user: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    users = [await sync_to_async(make_user)(f"p{i}") for i in range(4)]
    room = await sync_to_async(four_people_waiting)(users)
    comms = [await connect(room, u) for u in users]
    await drain(comms)
    renders: list[int] = []
    render = live.render_private_view

    def counted(view: Any, *, csrf_token: str) -> Any:
        renders.append(view.mine.seat)
        return render(view, csrf_token=csrf_token)

    monkeypatch.setattr("tables.frames.render_private_view", counted)
    await sync_to_async(dealer_discards)(room, users)
    await notify.table_changed_async(room.number)
    got = await drain(comms)
    changed = [i for i, g in enumerate(got) if g and 'id="table-private"' in g[0]]
    # Rendered exactly for the seats whose part changed (the discarder's, the next drawer's),
    # and the others' parts came from the previous change's renders.
    assert sorted(renders) == changed and 0 < len(changed) < 4
    for c in comms:
        await c.disconnect()
