"""The table socket under generated abuse, through the real ASGI application.

Hypothesis sends a seated player's socket malformed and deeply nested JSON, wrong types,
unknown actions, lone surrogates, oversized and binary frames, moves on stale and future
steps, moves for tiles the seat does not hold, fields naming another table, and floods, at
this table or at another where the player also sits; and it tries handshakes without a
session or from other origins. After each example both tables' state and version are
byte-identical, the socket closed with its cleanup done (no page counted, no page left to beat for,
no socket slot held), and the server still answers a fresh socket with the board.

The tables stand at the player's own turn with the clock pushed an hour out, so nothing
moves unless an input is applied.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings as django_settings
from django.core.cache import cache
from django.test import Client
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from config.asgi import application
from engine.hand import HandState
from engine.tiles import format_tile
from tables.models import Hand, Room, Seat
from tables.play.windows import public_step
from tests.tables.factories import beaten, run_until_my_turn, start_with_bots

pytestmark = pytest.mark.django_db(transaction=True)

ORIGIN = "http://127.0.0.1:8000"
CLOSE_WAIT = 10
"""Seconds a closed socket's cleanup may take on a busy machine (the test client's own default
of one second would cancel it halfway)."""
QUIET = 0.12
"""Seconds without a frame after which a socket has handled everything sent to it."""
FUZZ = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@dataclass
class Tables:
    rooms: tuple[Room, Room]
    session: str
    steps: dict[str, int]
    other_seat_tiles: list[str]


@pytest.fixture
def tables(user: Any, settings: Any) -> Tables:
    """alice at her own turn at two tables (bots in the other seats), nothing due for an hour."""
    settings.TABLE_BOT_DELAY_SECONDS = 0
    settings.TABLE_CONNECTS_PER_MINUTE = 10**6  # every example opens sockets anew
    rooms = []
    steps = {}
    for _ in range(2):
        room = start_with_bots(user)
        run_until_my_turn(room, user)
        later = timezone.now() + timedelta(hours=1)
        Room.objects.filter(pk=room.pk).update(deadline=later, turn_deadline=later)
        room.refresh_from_db()
        rooms.append(room)
        steps[room.number] = public_step(room)
    client = Client()
    client.force_login(user)
    assert rooms[0].state is not None
    hand = HandState.from_json(rooms[0].state["hand"])
    other = sorted(
        {format_tile(k) for k in hand.hands[1]} - {format_tile(k) for k in hand.hands[0]}
    )
    return Tables(
        rooms=(rooms[0], rooms[1]),
        session=client.cookies[django_settings.SESSION_COOKIE_NAME].value,
        steps=steps,
        other_seat_tiles=other or ["9z"],
    )


def snapshot(room: Room) -> str:
    """Everything the table is, as bytes: the room row, its seats, its hands' logs."""
    fresh = Room.objects.get(pk=room.pk)
    seats = list(
        Seat.objects.filter(room=room)
        .order_by("index")
        .values("index", "ready", "tuoguan", "connections", "bot", "user_id")
    )
    hands = list(Hand.objects.filter(room=room).order_by("number").values("actions", "result"))
    return json.dumps(
        {"state": fresh.state, "version": fresh.version, "status": fresh.status}
        | {"seats": seats, "hands": hands},
        sort_keys=True,
        default=str,
    )


# ---------------------------------------------------------------- what a hostile page sends

MOVES = ("discard", "chi", "peng", "gang", "hu", "pass")
SURROGATES = ("\\ud800", "\\udfff", "x\\udc00y", "\\ud83d")
json_scalars = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(allow_nan=True), st.text(max_size=30)
)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=12,
)


@st.composite
def moves(draw: Any) -> dict[str, Any]:
    """A move on a stale or future step (never the table's own: that one could be legal),
    for a tile the seat may not hold, with fields naming another table."""
    message: dict[str, Any] = {
        "action": draw(st.sampled_from(MOVES)),
        "step": draw(st.one_of(st.integers(-5, 300), st.text(max_size=5), json_values)),
    }
    if draw(st.booleans()):
        message["tile"] = draw(st.one_of(st.sampled_from(["1m", "5z", "0m", "10p"]), json_values))
    if draw(st.booleans()):
        message["tiles"] = draw(json_values)
    if draw(st.booleans()):
        message["room"] = draw(st.sampled_from(["OTHER", "999999"]))
    return message


table_messages = st.one_of(
    st.just({"action": "tuoguan", "on": "0"}),  # asks for what already is: a no-op
    st.just({"action": "ready"}),  # the hand is still being played
    st.just({"action": "end_match"}),  # only between hands
    st.fixed_dictionaries({"action": json_values}),  # wrong types
    st.fixed_dictionaries({"action": st.text(max_size=40)}),  # unknown actions
)

frames = st.one_of(
    moves().map(lambda m: ("move", m)),
    table_messages.map(lambda m: ("text", json.dumps(m))),
    json_values.map(lambda v: ("text", json.dumps(v))),  # any JSON at all
    st.text(max_size=200).map(lambda t: ("text", t)),  # malformed
    st.integers(500, 20000).map(lambda n: ("text", "[" * n)),  # nested past the stack
    st.integers(500, 20000).map(lambda n: ("text", '{"a":' * n)),
    st.sampled_from(SURROGATES).map(lambda s: ("text", '{"action": "' + s + '"}')),
    st.sampled_from(SURROGATES).map(
        lambda s: ("text", '{"action": "discard", "tile": "' + s + '", "step": 0}')
    ),
    st.integers(4097, 200_000).map(lambda n: ("text", json.dumps({"action": "x" * n}))),
    st.binary(max_size=300).map(lambda b: ("bytes", b)),
)


def _text(kind: str, value: Any, tables: Tables, number: str) -> tuple[str | None, bytes | None]:
    if kind == "bytes":
        return None, value
    if kind == "move":
        message = dict(value)
        step = message["step"]
        if isinstance(step, int) and step == tables.steps[number]:
            message["step"] = step + 1  # a future step
        if message.get("room") == "OTHER":
            message["room"] = tables.rooms[1].number
        if message.get("tile") == "5z":
            message["tile"] = tables.other_seat_tiles[0]  # a tile of another seat's hand
        return json.dumps(message), None
    return value, None


async def open_socket(number: str, headers: list[tuple[bytes, bytes]]) -> WebsocketCommunicator:
    return WebsocketCommunicator(application, f"/ws/table/{number}/", headers=headers)


def player_headers(tables: Tables, origin: str = ORIGIN) -> list[tuple[bytes, bytes]]:
    return [
        (b"origin", origin.encode()),
        (b"host", b"127.0.0.1:8000"),
        (b"cookie", f"sessionid={tables.session}; django_language=en".encode()),
    ]


async def drain(comm: WebsocketCommunicator) -> list[Any]:
    """Everything the socket was sent until it goes quiet (every input has been handled)."""
    out = []
    while not await comm.receive_nothing(timeout=QUIET):
        out.append(await comm.receive_output())
    return out


async def snapshots(tables: Tables) -> list[str]:
    return [await sync_to_async(snapshot)(room) for room in tables.rooms]


async def still_answers(tables: Tables) -> None:
    comm = await open_socket(tables.rooms[0].number, player_headers(tables))
    connected, _ = await comm.connect()
    assert connected
    assert 'id="live"' in await comm.receive_from(timeout=5)
    await comm.disconnect(timeout=CLOSE_WAIT)


async def cleaned_up(tables: Tables) -> None:
    assert beaten() == []
    for room in tables.rooms:
        seat = await sync_to_async(Seat.objects.get)(room=room, index=0)
        assert seat.connections == 0
    # Every slot of this account is free again (the lease keys name the account).
    user_id = tables.rooms[0].owner_id
    keys = [
        f"tables:sockets:user:{user_id}:{i}"
        for i in range(django_settings.TABLE_SOCKETS_PER_ACCOUNT)
    ]
    assert await sync_to_async(cache.get_many)(keys) == {}


@FUZZ
@given(batch=st.lists(frames, min_size=1, max_size=30), at_other_table=st.booleans())
async def test_no_frame_changes_a_table_or_breaks_the_socket(
    tables: Tables, batch: list[tuple[str, Any]], at_other_table: bool
) -> None:
    number = tables.rooms[1 if at_other_table else 0].number
    comm = await open_socket(number, player_headers(tables))
    connected, _ = await comm.connect()
    assert connected
    await drain(comm)  # the board, and the board after the seat came in
    before = await snapshots(tables)
    for kind, value in batch:
        text, data = _text(kind, value, tables, number)
        # As daphne passes a frame on (send_to refuses an empty one, which a page may send).
        frame = {"type": "websocket.receive", "text": text} if data is None else {"bytes": data}
        await comm.send_input({"type": "websocket.receive", **frame})
    replies = await drain(comm)
    assert all(r["type"] == "websocket.send" for r in replies)  # refused, never closed
    assert await snapshots(tables) == before
    await comm.disconnect(timeout=CLOSE_WAIT)
    await cleaned_up(tables)
    await still_answers(tables)


BAD_ORIGINS = st.one_of(
    st.sampled_from(
        [
            "https://127.0.0.1:8000",
            "http://127.0.0.1:8001",
            "http://127.0.0.1",
            "http://evil.example",
            "null",
            "",
        ]
    ),
    st.text(max_size=40),
)


@FUZZ
@given(
    origin=st.one_of(st.just(ORIGIN), BAD_ORIGINS),
    session=st.one_of(st.just("real"), st.none(), st.text(max_size=40)),
)
async def test_only_the_sites_own_pages_with_a_session_get_a_socket(
    tables: Tables, origin: str, session: str | None
) -> None:
    before = await snapshots(tables)
    headers = [(b"origin", origin.encode("utf-8", "replace")), (b"host", b"127.0.0.1:8000")]
    if session is not None:
        cookie = tables.session if session == "real" else session
        headers.append((b"cookie", f"sessionid={cookie}".encode("utf-8", "replace")))
    comm = await open_socket(tables.rooms[0].number, headers)
    connected, _ = await comm.connect()
    assert connected is (origin == ORIGIN and session == "real")
    if connected:
        await drain(comm)
    await comm.disconnect(timeout=CLOSE_WAIT)
    await cleaned_up(tables)
    after = await snapshots(tables)
    # A page that opened and closed counts itself in and out: the game itself is untouched.
    assert [json.loads(a)["state"] for a in after] == [json.loads(b)["state"] for b in before]
    if not connected:
        assert after == before
    await still_answers(tables)
