"""The table's WebSocket consumer, driven by Channels' ``WebsocketCommunicator``.

The leak check walks every message one seat receives during whole bot-driven hands and
finds no tile of another seat's concealed hand, no seed and no wall.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections import Counter
from datetime import datetime, timedelta
from html.parser import HTMLParser
from typing import Any, ClassVar

import pytest
from asgiref.sync import sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.conf import settings as django_settings
from django.test import Client
from django.utils import timezone

from engine.hand import HandState
from engine.hand_log import replay
from engine.rules import Rules
from engine.tiles import format_tile, parse_tiles
from engine.views import seat_view
from tables.models import Hand, Room, Seat
from tables.play import clock, inputs
from tables.play.protocol import SetTuoguan
from tables.rooms import services
from tables.socket import heartbeat
from tables.socket.consumer import TableConsumer
from tables.socket.deadline_once import ticks
from tables.socket.routing import websocket_urlpatterns
from tests.tables.factories import (
    beaten,
    drain,
    run_bots_until_human,
    start_with_bots,
    start_with_four_people,
)

pytestmark = pytest.mark.django_db(transaction=True)


class TileCollector(HTMLParser):
    """Face-up tiles (``data-tile``) of a fragment, outside the action bar and settlement.

    The 听牌 hints (``#hints``) show kinds the seat waits on, not tiles on the table: they are
    left out here, and ``tests/engine/test_hints.py`` checks that they depend on nothing the
    seat can't see."""

    SKIP_IDS = ("actions", "settlement")
    IGNORE_IDS = ("hints",)

    def __init__(self) -> None:
        super().__init__()
        self.tiles: Counter[str] = Counter()
        self.all_tiles: Counter[str] = Counter()
        self.depth_stack: list[tuple[bool, bool]] = []
        self.skipping = 0
        self.ignoring = 0
        self.step: int | None = None
        self.hand = 0
        self.phase: str | None = None

    VOID: ClassVar[set[str]] = {"br", "img", "input", "meta", "link", "hr"}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if a.get("data-step") is not None:
            self.step = int(a["data-step"] or 0)
            self.hand = int(a.get("data-hand") or 0)
            self.phase = a.get("data-phase")
        skip = a.get("id") in self.SKIP_IDS
        ignore = a.get("id") in self.IGNORE_IDS
        if tag not in self.VOID:
            self.depth_stack.append((skip, ignore))
            self.skipping += skip
            self.ignoring += ignore
        code = a.get("data-tile")
        if code and not self.ignoring:
            self.all_tiles[code] += 1
            if not self.skipping:
                self.tiles[code] += 1

    def handle_endtag(self, tag: str) -> None:
        if tag in self.VOID or not self.depth_stack:
            return
        skip, ignore = self.depth_stack.pop()
        self.skipping -= skip
        self.ignoring -= ignore


def collect(html: str) -> TileCollector:
    parser = TileCollector()
    parser.feed(html)
    return parser


def allowed_tiles(view: dict[str, Any]) -> Counter[str]:
    """What a seat may see face up: its own tiles and everything public."""
    allowed: Counter[str] = Counter()

    def add(text: str | None) -> None:
        if text:
            allowed.update(parse_tiles_codes(text))

    add(view.get("hand"))
    for river in view["rivers"]:
        allowed.update(river)
    for row in view["melds"]:
        for m in row:
            add(m["tiles"])
    allowed.update(view["burned"])  # turned face up by gang replacement draws
    allowed[view["indicator"]] += 1
    allowed[view["bao"]] += 1
    if "window" in view and view["window"]["tile"]:
        allowed[view["window"]["tile"]] += 1
    return allowed


def public_part(html: str) -> str:
    """The ``#table-public`` part of a pushed fragment (up to the private part or the clock)."""
    start = html.index('<div id="table-public"')
    ends = [html.find(m, start) for m in ('<div id="table-private"', '<i id="table-clock"')]
    return html[start : min(e for e in ends if e >= 0)]


def parse_tiles_codes(text: str) -> list[str]:
    return [format_tile(k) for k in parse_tiles(text)]


@pytest.fixture(autouse=True)
def _fast_bots(settings: Any) -> None:
    settings.TABLE_BOT_DELAY_SECONDS = 0


@pytest.fixture
def application() -> Any:
    return URLRouter(websocket_urlpatterns)


async def connect(application: Any, room: Room, user: Any) -> WebsocketCommunicator:
    comm = WebsocketCommunicator(application, f"/ws/table/{room.number}/")
    comm.scope["user"] = user
    comm.scope["cookies"] = {
        django_settings.LANGUAGE_COOKIE_NAME: "en",
        django_settings.CSRF_COOKIE_NAME: "k" * 32,  # the page load set it; forms reuse it
    }
    connected, _ = await comm.connect()
    assert connected
    return comm


async def test_anonymous_connections_are_closed(application: Any, user: Any) -> None:
    room = await sync_to_async(start_with_bots)(user)
    comm = WebsocketCommunicator(application, f"/ws/table/{room.number}/")
    from django.contrib.auth.models import AnonymousUser

    comm.scope["user"] = AnonymousUser()
    connected, code = await comm.connect()
    assert not connected or code == 4401
    await comm.disconnect()


async def test_a_page_gets_its_own_view_on_connect(application: Any, user: Any) -> None:
    room = await sync_to_async(start_with_bots)(user)
    comm = await connect(application, room, user)
    html = await comm.receive_from(timeout=5)
    assert 'id="live"' in html and 'hx-swap-oob="morph"' in html
    assert 'id="my-hand"' in html
    seat = await sync_to_async(Seat.objects.get)(room=room, index=0)
    assert seat.connections == 1
    await comm.disconnect()
    await sync_to_async(seat.refresh_from_db)()
    assert seat.connections == 0 and seat.disconnected_at is not None


async def test_bad_input_gets_an_error_only_for_that_page(application: Any, user: Any) -> None:
    room = await sync_to_async(start_with_bots)(user)
    comm = await connect(application, room, user)
    await comm.receive_from(timeout=5)
    version = room.version
    for bad in ("not json", json.dumps({"action": "discard", "tile": "9z", "step": 0}), "x" * 5000):
        await comm.send_to(text_data=bad)
        reply = await comm.receive_from(timeout=5)
        while 'id="table-error"' not in reply:  # a bot move may be pushed in between
            reply = await comm.receive_from(timeout=5)
        assert 'role="alert"' in reply
    await sync_to_async(room.refresh_from_db)()
    assert room.state is not None
    await comm.disconnect()
    assert version <= room.version  # only bots moved; nothing of ours was applied


async def test_full_stack_with_a_session_cookie(user: Any) -> None:
    """Through config.asgi: origin check and session authentication."""
    from config.asgi import application as full

    room = await sync_to_async(start_with_bots)(user)
    client = Client()
    await sync_to_async(client.force_login)(user)
    session = client.cookies[django_settings.SESSION_COOKIE_NAME].value
    comm = WebsocketCommunicator(
        full,
        f"/ws/table/{room.number}/",
        headers=[
            (b"origin", b"http://127.0.0.1:8000"),
            (b"host", b"127.0.0.1:8000"),
            (b"cookie", f"sessionid={session}".encode()),
        ],
    )
    connected, _ = await comm.connect()
    assert connected
    html = await comm.receive_from(timeout=5)
    assert 'id="my-hand"' in html
    await comm.disconnect()


async def test_foreign_origins_are_refused(user: Any) -> None:
    from config.asgi import application as full

    room = await sync_to_async(start_with_bots)(user)
    comm = WebsocketCommunicator(
        full, f"/ws/table/{room.number}/", headers=[(b"origin", b"http://evil.example")]
    )
    connected, _ = await comm.connect()
    assert not connected


def state_at(hand: Hand, step: int) -> HandState:
    rules = Rules.from_json(hand.rules)
    return replay(rules, hand.seed, None, hand.actions[:step], dealer=hand.dealer)


async def read_until_summary(comm: WebsocketCommunicator) -> list[str]:
    messages: list[str] = []
    while True:
        html = await comm.receive_from(timeout=20)
        messages.append(html)
        if 'id="match-summary"' in html:
            return messages


STEPS_SEEN: dict[tuple[int, int], int] = {}
"""(hand shown, public step) -> the engine's step last saved under it (``tables.play.windows``)."""


@pytest.fixture(autouse=True)
def _steps_seen(monkeypatch: Any) -> None:
    """Pages show the public step; the leak check replays the log up to the engine's."""
    from tables.play import windows

    STEPS_SEEN.clear()
    update = windows.counters_update

    def recorded(t: Any, key: list[Any]) -> None:
        update(t, key)
        if t.hand is not None:
            shown = t.match.hand_no + (0 if t.hand.phase == "ended" else 1)
            at = (shown, windows.public_step(t.room))
            STEPS_SEEN[at] = max(STEPS_SEEN.get(at, 0), t.hand.step)

    monkeypatch.setattr(windows, "counters_update", recorded)


async def check_seat_messages(messages: list[str], hands: list[Hand], seat: int) -> int:
    """Every fragment pushed to ``seat``: the deal's commitment, but no seed, no wall, no tile
    it may not see."""
    seeds = [h.seed for h in hands]
    checked = 0
    for html in messages:
        assert not any(seed in html for seed in seeds)
        assert "wall" not in re.sub(r"wall-left|Tiles left in the wall", "", html)
        parsed = collect(html)
        if parsed.step is None:
            continue
        hand = hands[parsed.hand - 1]  # data-hand numbers the hand shown, ended or not
        assert hand.seed_hash in html  # the deal's commitment, never the seed
        step = STEPS_SEEN[(parsed.hand, parsed.step)]
        state = await sync_to_async(state_at)(hand, step)
        view = seat_view(state, seat)
        allowed = allowed_tiles(view)
        if parsed.phase == "ended":
            # The settlement lays every hand open: that, and no more, becomes public.
            for text in view["result"]["hands"]:
                allowed.update(parse_tiles_codes(text))
            if view["result"].get("winning_tile"):
                allowed[view["result"]["winning_tile"]] += 1
        extra = parsed.tiles - allowed
        assert not extra, f"seat {seat} hand {parsed.hand} step {parsed.step}: {dict(extra)}"
        # The public part, the same bytes for every page, holds no concealed tile of anyone.
        public = collect(public_part(html)).tiles
        spectator = allowed_tiles(seat_view(state, None))
        if parsed.phase == "ended":
            spectator.update(allowed - allowed_tiles(view))  # the settlement's open hands
        assert not (public - spectator), f"public part, step {parsed.step}: {public - spectator}"
        # The action bar and settlement repeat tiles (a 碰 shows three): kinds must be allowed.
        assert set(parsed.all_tiles) <= set(allowed), f"seat {seat} step {parsed.step}"
        checked += 1
    return checked


async def test_no_message_leaks_another_seats_tiles(application: Any, make_user: Any) -> None:
    """Four people on 托管 play two hands; every fragment each seat is pushed is checked."""
    users = [await sync_to_async(make_user)(f"p{i}") for i in range(4)]
    room = await sync_to_async(start_with_four_people)(users)
    comms = [await connect(application, room, u) for u in users]
    pushed = [await read_until_summary(c) for c in comms]
    for c in comms:
        await c.disconnect()
    hands = await sync_to_async(lambda: list(Hand.objects.filter(room=room).order_by("number")))()
    assert len(hands) == 2 and all(h.ended_at is not None for h in hands)
    for seat in range(4):
        # Changes that come faster than the pages read share one read (tables.socket.pushes), and a
        # page is pushed only what changed for it: fewer frames than moves, and how many
        # depends on the machine's speed. Each hand's deal and end are always among them, so
        # a seat has at least four checked frames; fewer would mean the check saw nothing.
        assert await check_seat_messages(pushed[seat], hands, seat) >= 4


async def test_a_seat_on_tuoguan_beside_bots_sees_nothing_hidden(
    application: Any, user: Any
) -> None:
    """Seat 0 on 托管 and three bots play two hands; the next deal is checked too."""
    room = await sync_to_async(start_with_bots)(user, tuoguan=True, hands=2, seed="leak-bots")
    comm = await connect(application, room, user)
    messages = await read_until_summary(comm)
    await comm.disconnect()
    hands = await sync_to_async(lambda: list(Hand.objects.filter(room=room).order_by("number")))()
    assert len(hands) == 2
    assert await check_seat_messages(messages, hands, 0) > 20


async def test_a_spectator_sees_only_public_information(
    application: Any, user: Any, make_user: Any
) -> None:
    room = await sync_to_async(start_with_bots)(user)
    watcher = await sync_to_async(make_user)("watcher")
    comm = await connect(application, room, watcher)
    html = await comm.receive_from(timeout=5)
    await comm.disconnect()
    parsed = collect(html)
    assert 'id="my-hand"' not in html and "ws-send" not in html
    await sync_to_async(room.refresh_from_db)()
    assert room.state is not None
    state = HandState.from_json(room.state["hand"])
    public = allowed_tiles(seat_view(state, None))
    assert not (parsed.tiles - public)


async def test_the_waiting_room_updates_when_someone_sits_down(
    application: Any, user: Any, make_user: Any
) -> None:
    from tables.play import events

    room = await sync_to_async(services.room_create)(
        owner=user, name="Wait", is_public=True, rules=Rules(), match_length=None, turn_seconds=20
    )
    comm = await connect(application, room, user)
    first = await comm.receive_from(timeout=5)
    assert 'data-action="add-bot"' in first and "csrfmiddlewaretoken" in first
    bob = await sync_to_async(make_user)("bob", display_name="小明")
    await sync_to_async(services.seat_take)(room=room, user=bob, index=2)
    await events.table_changed_async(room.number)
    # The page may first get the push of its own arrival (its seat now counts as online).
    update = await receive_matching(comm, "小明")
    assert 'id="live"' in update
    await comm.disconnect()


async def test_pushes_follow_the_browsers_language_without_a_cookie(
    application: Any, user: Any
) -> None:
    """No language cookie: Accept-Language decides, as it does for the page itself."""
    room = await sync_to_async(start_with_bots)(user)
    pages = {}
    for accept in ("en-US,en;q=0.9", "zh-CN,zh;q=0.9"):
        comm = WebsocketCommunicator(
            application,
            f"/ws/table/{room.number}/",
            headers=[(b"accept-language", accept.encode())],
        )
        comm.scope["user"] = user
        comm.scope["cookies"] = {}
        connected, _ = await comm.connect()
        assert connected
        pages[accept[:2]] = await comm.receive_from(timeout=5)
        await comm.disconnect()
    assert "Auto-play" in pages["en"] and "托管" not in pages["en"]
    assert "托管" in pages["zh"]


async def test_a_socket_to_a_missing_room_is_closed(application: Any, user: Any) -> None:
    comm = WebsocketCommunicator(application, "/ws/table/999999/")
    comm.scope["user"] = user
    connected, code = await comm.connect()
    assert not connected or code == 4404
    await comm.disconnect()


# ---------------------------------------------------------------- trust: bad input, crashes, floods


async def _error_line(comm: WebsocketCommunicator) -> str:
    reply: str = await comm.receive_from(timeout=5)
    while 'id="table-error"' not in reply:  # a bot move may be pushed in between
        reply = await comm.receive_from(timeout=5)
    return reply


async def _seat0(room: Room) -> Seat:
    return await sync_to_async(Seat.objects.get)(room=room, index=0)


async def test_deep_json_and_lone_surrogates_are_refused_and_the_socket_stays(
    application: Any, user: Any
) -> None:
    """Each used to crash the consumer (RecursionError; UnicodeEncodeError echoing the action),
    closing with 1011 and leaving the seat counted as open forever."""
    room = await sync_to_async(start_with_bots)(user)
    comm = await connect(application, room, user)
    await comm.receive_from(timeout=5)
    for frame in ("[" * 3000, '{"action": "\\ud800"}', '{"action": "discard", "tile": "\\udfff"}'):
        await comm.send_to(text_data=frame)
        assert 'role="alert"' in await _error_line(comm)
    await comm.send_to(text_data='{"action": "fly"}')  # and it still answers
    assert "Unknown move fly" in await _error_line(comm)
    await comm.disconnect(timeout=10)
    assert (await _seat0(room)).connections == 0
    assert beaten() == []


async def test_cleanup_runs_when_leaving_the_group_fails(
    application: Any, user: Any, monkeypatch: Any
) -> None:
    """A channel layer refusing group_discard ("Too many connections") skipped the rest."""
    from channels.layers import InMemoryChannelLayer

    async def refuse(self: Any, group: str, channel: str) -> None:
        raise ConnectionError("Too many connections")

    room = await sync_to_async(start_with_bots)(user)
    comm = await connect(application, room, user)
    await comm.receive_from(timeout=5)
    monkeypatch.setattr(InMemoryChannelLayer, "group_discard", refuse)
    await comm.disconnect(timeout=10)
    seat = await _seat0(room)
    assert seat.connections == 0 and seat.disconnected_at is not None
    assert beaten() == []


async def test_a_consumer_that_crashes_leaves_no_count_and_no_task(
    application: Any, user: Any, monkeypatch: Any
) -> None:
    from tables.play import events
    from tables.socket import pushes

    room = await sync_to_async(start_with_bots)(user)
    comm = await connect(application, room, user)
    await comm.receive_from(timeout=5)

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("rendering failed")

    monkeypatch.setattr(pushes, "table_frame", broken)  # a running table's push
    await events.table_changed_async(room.number)
    with pytest.raises(RuntimeError, match="rendering failed"):
        await comm.receive_from(timeout=5)
    assert (await _seat0(room)).connections == 0
    assert beaten() == []


async def test_one_beat_renews_every_page_of_a_process_in_one_write(
    application: Any, make_user: Any, settings: Any, monkeypatch: Any
) -> None:
    """Each page used to beat on its own: a write per page per interval on the one database
    thread, every burst holding up the moves behind it."""
    settings.TABLE_HEARTBEAT_SECONDS = 0.5
    written: list[list[heartbeat.Page]] = []
    monkeypatch.setattr(heartbeat.beat(), "write", written.append)
    users = [await sync_to_async(make_user)(f"p{i}") for i in range(4)]
    watcher = await sync_to_async(make_user)("watcher")
    room = await sync_to_async(start_with_four_people)(users)
    comms = [await connect(application, room, u) for u in [*users, *users[:2], watcher]]
    await asyncio.sleep(1.2)
    assert 2 <= len(written) <= 3  # one write per interval, not one per page
    pages = written[-1]
    assert len(pages) == 7
    counted = [*(u.pk for u in users), users[0].pk, users[1].pk]  # the watcher: not counted
    assert sorted(p.user_id for p in pages if p.user_id is not None) == sorted(counted)
    assert [p.user_id for p in pages].count(None) == 1
    await comms[0].disconnect(timeout=10)
    assert len(heartbeat.beat().pages) == 6
    for comm in comms[1:]:
        await comm.disconnect(timeout=10)
    assert beaten() == []


async def test_sockets_are_limited_per_account_at_a_room(
    application: Any, user: Any, make_user: Any, settings: Any
) -> None:
    settings.TABLE_SOCKETS_PER_ACCOUNT_ROOM = 2
    room = await sync_to_async(start_with_bots)(user)
    watcher = await sync_to_async(make_user)("watcher")
    first = [await connect(application, room, watcher) for _ in range(2)]
    extra = WebsocketCommunicator(application, f"/ws/table/{room.number}/")
    extra.scope["user"] = watcher
    connected, code = await extra.connect()
    assert not connected and code == 4429
    other = await connect(application, room, user)  # another account is not affected
    await first[0].disconnect(timeout=10)  # a closed socket frees its slot
    again = await connect(application, room, watcher)
    for comm in (first[1], other, again):
        await comm.disconnect(timeout=10)


async def test_sockets_are_limited_per_account_and_per_room(
    application: Any, user: Any, make_user: Any, settings: Any
) -> None:
    settings.TABLE_SOCKETS_PER_ACCOUNT = 1
    settings.TABLE_SPECTATORS_PER_ROOM = 1  # alice sits: only carol counts here
    room = await sync_to_async(start_with_bots)(user)
    elsewhere = await sync_to_async(start_with_bots)(await sync_to_async(make_user)("bob"))
    comms = [await connect(application, room, user)]
    refused = WebsocketCommunicator(application, f"/ws/table/{elsewhere.number}/")
    refused.scope["user"] = user
    assert await refused.connect() == (False, 4429)
    comms.append(await connect(application, room, await sync_to_async(make_user)("carol")))
    full = WebsocketCommunicator(application, f"/ws/table/{room.number}/")
    full.scope["user"] = await sync_to_async(make_user)("dave")
    assert await full.connect() == (False, 4429)
    for comm in comms:
        await comm.disconnect(timeout=10)


async def test_inputs_that_change_nothing_push_nothing(
    application: Any, user: Any, make_user: Any
) -> None:
    """托管 off while not on 托管, 2,000 times, used to commit and push 2,000 boards."""
    from tests.tables.factories import run_bots_until_human

    room = await sync_to_async(start_with_bots)(user)
    await sync_to_async(run_bots_until_human)(room, timezone.now())
    player = await connect(application, room, user)
    watcher = await connect(application, room, await sync_to_async(make_user)("watcher"))
    await drain([player, watcher])  # the first board, and the one after the player came in
    await sync_to_async(room.refresh_from_db)()
    version = room.version
    for _ in range(5):
        await player.send_to(text_data='{"action": "tuoguan", "on": "0"}')
    assert await watcher.receive_nothing(timeout=0.5)
    assert await player.receive_nothing(timeout=0.1)
    await sync_to_async(room.refresh_from_db)()
    assert room.version == version
    for comm in (player, watcher):
        await comm.disconnect(timeout=10)


async def test_a_flood_gets_one_refusal_and_is_dropped(
    application: Any, user: Any, settings: Any
) -> None:
    settings.TABLE_INPUT_RATE = 0.001
    settings.TABLE_INPUT_BURST = 3
    room = await sync_to_async(start_with_bots)(user)
    comm = await connect(application, room, user)
    await comm.receive_from(timeout=5)
    for _ in range(10):
        await comm.send_to(text_data="not json")
    errors = [await _error_line(comm) for _ in range(4)]
    assert sum("not a move" in e for e in errors) == 3
    assert "Too many inputs" in errors[3]
    while not await comm.receive_nothing(timeout=0.3):  # bots' boards only, no more errors
        assert 'id="table-error"' not in await comm.receive_from()
    await comm.disconnect(timeout=10)


async def receive_matching(comm: WebsocketCommunicator, needle: str) -> str:
    """The next message containing ``needle`` (pushes of the table may come first)."""
    while True:
        message = str(await comm.receive_from(timeout=5))
        if needle in message:
            return message


async def test_a_phrase_reaches_every_page_without_changing_the_table(
    application: Any, user: Any, make_user: Any
) -> None:
    from django.core.cache import cache

    await sync_to_async(cache.clear)()
    room = await sync_to_async(services.room_create)(
        owner=user, name="Chat", is_public=True, rules=Rules(), match_length=None, turn_seconds=20
    )
    bob = await sync_to_async(make_user)("bob")
    await sync_to_async(services.seat_take)(room=room, user=bob, index=1)
    alice_page = await connect(application, room, user)
    bob_page = await connect(application, room, bob)
    await receive_matching(bob_page, 'id="live"')
    await receive_matching(alice_page, 'id="live"')
    await receive_matching(alice_page, 'id="live"')  # pushed again once bob's page counted
    await sync_to_async(room.refresh_from_db)()
    version = room.version
    await bob_page.send_to(text_data=json.dumps({"action": "phrase", "phrase": "2"}))
    bubble = await receive_matching(alice_page, "phrase-bubble")
    assert 'data-seat="1"' in bubble and "Well played!" in bubble
    assert 'hx-swap-oob="beforeend:#phrases"' in bubble
    assert "phrase-bubble" in await receive_matching(bob_page, "phrase-bubble")
    await bob_page.send_to(text_data=json.dumps({"action": "phrase", "phrase": "0"}))
    refused = await receive_matching(bob_page, 'id="table-error"')
    assert "Wait a moment" in refused
    await sync_to_async(room.refresh_from_db)()
    assert room.version == version  # chat is not a change of the table
    await alice_page.disconnect()
    await bob_page.disconnect()


async def test_a_push_that_leaves_the_deadline_keeps_the_alarm_waiting_for_it() -> None:
    """Most pushes leave the table's deadline where it was: the page's alarm stays (four
    timers cancelled and made again per change was needless work); a new deadline, or none,
    replaces it."""
    consumer = TableConsumer()
    due = timezone.now() + timedelta(seconds=60)
    consumer.arm(due)
    first = consumer.alarm
    consumer.arm(due)
    assert consumer.alarm is first and first is not None and not first.cancelled()
    later = due + timedelta(seconds=5)
    consumer.arm(later)
    assert first.cancelled() and consumer.alarm is not first and consumer.timer_for == later
    consumer.arm(None)
    assert consumer.alarm is None and consumer.timer_for is None


async def test_an_alarm_that_rings_ticks_once_even_if_the_next_push_comes_meanwhile(
    monkeypatch: Any,
) -> None:
    """The tick an alarm starts runs to its end: a push that arms the next deadline while
    the tick waits for the database must not cancel it (its change must reach the pages)."""
    consumer = TableConsumer()
    consumer.number = "123456"
    started, release = asyncio.Event(), asyncio.Event()
    ticked: list[datetime] = []

    async def once(number: str, deadline: datetime, tick: Any, met: Any) -> tuple[bool, None]:
        ticked.append(deadline)
        started.set()
        await release.wait()
        return True, None

    monkeypatch.setattr(ticks(), "once", once)
    due = timezone.now()
    consumer.arm(due)
    await asyncio.wait_for(started.wait(), 2)
    assert consumer.alarm is None and consumer.ticking is not None
    consumer.arm(due + timedelta(seconds=60))  # a push with the next deadline
    running = consumer.ticking
    release.set()
    await asyncio.wait_for(running, 2)
    assert not running.cancelled() and ticked == [due] and consumer.ticking is None
    consumer.arm(None)


async def test_four_pages_of_a_process_tick_each_deadline_once(
    application: Any, make_user: Any, monkeypatch: Any
) -> None:
    """Four people's pages on 托管 (the clock plays every move): each deadline is ticked by one
    page of the process, not four, so no tick finds nothing to do."""
    users = [await sync_to_async(make_user)(f"p{i}") for i in range(4)]
    room = await sync_to_async(start_with_four_people)(users)
    results: list[bool] = []
    advance = clock.advance

    def counted(number: str, now: Any = None) -> Any:
        change = advance(number, now)
        results.append(change is not None)
        return change

    monkeypatch.setattr(clock, "advance", counted)
    comms = [await connect(application, room, u) for u in users]
    deadline = asyncio.get_running_loop().time() + 20
    while len(results) < 12 and asyncio.get_running_loop().time() < deadline:
        for c in comms:
            while not await c.receive_nothing(timeout=0.05):
                await c.receive_from()
    for c in comms:
        await c.disconnect()
    assert len(results) >= 12 and all(results), results


async def test_pushes_do_not_wait_for_the_database_thread(application: Any, user: Any) -> None:
    """A page's messages are handled on the event loop: while the one database thread is
    busy (a move's commit, the beat), a message for the page still reaches it. Channels'
    own dispatch hopped to that thread first for every message."""
    import threading

    from channels.db import database_sync_to_async
    from channels.layers import get_channel_layer

    from tables.play import events

    room = await sync_to_async(start_with_bots)(user)
    page = await connect(application, room, user)
    await drain([page])
    busy, release = threading.Event(), threading.Event()

    def hold_the_thread() -> None:
        busy.set()
        release.wait(timeout=10)

    holding = asyncio.ensure_future(database_sync_to_async(hold_the_thread)())
    try:
        await asyncio.get_running_loop().run_in_executor(None, busy.wait, 5)
        layer = get_channel_layer()
        await layer.group_send(
            events.group_name(room.number),
            {"type": "table.phrase", "seat": 1, "phrase": 2, "user": user.pk},
        )
        bubble = await page.receive_from(timeout=2)
        assert "phrase-bubble" in bubble
        assert not holding.done()
    finally:
        release.set()
        await holding
    await page.disconnect(timeout=10)


async def test_a_page_that_missed_a_change_catches_up_on_a_later_beat(
    application: Any, make_user: Any, settings: Any
) -> None:
    """On Redis a message published while a process reconnects is not kept for it. The
    change below is committed and never told (as if its message was lost): the beat after
    the one that read the new version finds the page still behind it and pushes it, and
    the beats after that push nothing more."""
    from tests.tables.socket.test_pushes import dealer_discards, four_people_waiting

    settings.TABLE_HEARTBEAT_SECONDS = 0.5
    users = [await sync_to_async(make_user)(f"p{i}") for i in range(4)]
    room = await sync_to_async(four_people_waiting)(users)
    page = await connect(application, room, users[1])
    await drain([page])
    await sync_to_async(dealer_discards)(room, users)  # committed, not told
    await sync_to_async(room.refresh_from_db)()
    frame = await page.receive_from(timeout=3)
    assert f'data-version="{room.version}"' in frame
    assert await page.receive_nothing(timeout=1.2)  # caught up: the beats stay quiet
    await page.disconnect(timeout=10)
    assert beaten() == []


# ---------------------------------------------------------------- trust, round three


async def test_a_seated_player_gets_in_however_many_spectators_fill_the_room(
    application: Any, user: Any, make_user: Any, settings: Any
) -> None:
    """N1: two accounts fill the spectators' cap of 4 (two sockets each); a fifth spectator
    socket is refused, the seated owner's own page is not."""
    settings.TABLE_SOCKETS_PER_ROOM = 4  # the one cap of every socket before spectators had theirs
    settings.TABLE_SPECTATORS_PER_ROOM = 4
    settings.TABLE_SPECTATOR_SOCKETS_PER_ACCOUNT = 2
    room = await sync_to_async(start_with_bots)(user)
    watchers = [await sync_to_async(make_user)(f"w{i}") for i in range(3)]
    pages = [await connect(application, room, watchers[i // 2]) for i in range(4)]
    refused = WebsocketCommunicator(application, f"/ws/table/{room.number}/")
    refused.scope["user"] = watchers[2]
    connected, code = await refused.connect()
    assert not connected and code == 4429
    owner = await connect(application, room, user)  # asserts it was let in
    assert 'id="table-private"' in await owner.receive_from(timeout=5)
    for p in [*pages, owner]:
        await p.disconnect()


async def test_pushed_forms_carry_a_masked_csrf_token(application: Any, user: Any) -> None:
    """The pages' forms carry Django's masked token; so must the pushed ones (#38)."""
    from django.middleware.csrf import (  # type: ignore[attr-defined]  # not in the stubs
        _unmask_cipher_token,
    )

    room = await sync_to_async(services.room_create)(
        owner=user, name="Wait", is_public=True, rules=Rules(), match_length=None, turn_seconds=20
    )
    comm = await connect(application, room, user)
    first = await comm.receive_from(timeout=5)
    tokens = set(re.findall(r'name="csrfmiddlewaretoken" value="([^"]+)"', first))
    assert len(tokens) == 1
    (token,) = tokens
    assert token != "k" * 32 and len(token) == 64
    assert _unmask_cipher_token(token) == "k" * 32
    await comm.disconnect()
    # A cookie Django never set (wrong length, characters a token can't hold) is not masked:
    # the socket still opens, and its forms carry none.
    for bad in ("k" * 31, "ü" * 32):
        odd = WebsocketCommunicator(application, f"/ws/table/{room.number}/")
        odd.scope["user"] = user
        odd.scope["cookies"] = {django_settings.CSRF_COOKIE_NAME: bad}
        connected, _ = await odd.connect()
        assert connected
        assert "csrfmiddlewaretoken" not in await odd.receive_from(timeout=5)
        await odd.disconnect()


async def test_a_phrase_bubble_names_the_seat_not_the_account(
    application: Any, make_user: Any
) -> None:
    users = [await sync_to_async(make_user)(f"p{i}") for i in range(4)]
    room = await sync_to_async(start_with_four_people)(users)
    spectator = await sync_to_async(make_user)("watcher")
    speaker = await connect(application, room, users[2])
    watcher = await connect(application, room, spectator)
    await drain([speaker, watcher])
    await speaker.send_json_to({"action": "phrase", "phrase": "1"})
    bubble = await receive_matching(watcher, "phrase-bubble")
    assert 'data-seat="2"' in bubble and "data-sender" not in bubble
    assert f'"{users[2].pk}"' not in bubble
    await speaker.disconnect()
    await watcher.disconnect()


async def test_a_second_page_opening_and_closing_pushes_nothing(
    application: Any, make_user: Any, settings: Any
) -> None:
    """N5: with one page open the seat is online; a second page opening and closing ten times
    changes nothing anyone sees: no commit, no push. Opening pages is rate-limited: past 11
    in the minute (here), the twelfth is refused."""
    settings.TABLE_CONNECTS_PER_MINUTE = 11
    users = [await sync_to_async(make_user)(f"p{i}") for i in range(4)]
    room = await sync_to_async(start_with_four_people)(users)
    spectator = await sync_to_async(make_user)("watcher")
    first = await connect(application, room, users[1])
    watcher = await connect(application, room, spectator)
    await drain([first, watcher])
    version = (await Room.objects.aget(pk=room.pk)).version
    for _ in range(10):
        second = await connect(application, room, users[1])
        await second.disconnect()
    assert await watcher.receive_nothing(timeout=0.5)
    assert (await Room.objects.aget(pk=room.pk)).version == version
    churn = WebsocketCommunicator(application, f"/ws/table/{room.number}/")
    churn.scope["user"] = users[1]
    connected, code = await churn.connect()
    assert not connected and code == 4429
    await first.disconnect()
    await watcher.disconnect()


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def _redis_up(port: int) -> Any:
    """A private Redis (the shared one is never stopped), ready for commands."""
    import subprocess

    proc = subprocess.Popen(
        ["redis-server", "--port", str(port), "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
    )
    for _ in range(100):
        try:
            _reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.close()
            return proc
        except OSError:
            await asyncio.sleep(0.05)
    raise AssertionError("redis-server did not start")


async def test_a_redis_outage_degrades_and_the_table_catches_up(
    application: Any, make_user: Any, settings: Any, caplog: Any
) -> None:
    """N4: with the channel layer's Redis stopped, a move is committed and its sender's socket
    stays open and sees it; the clock keeps ticking; a new socket is refused with 1013 and
    one log line; once Redis is back the other page catches up at its heartbeat."""
    import logging

    from channels.layers import channel_layers

    from config import env

    port = _free_port()
    proc = await _redis_up(port)
    settings.CHANNEL_LAYERS = {
        "default": env.channel_layer_config({"REDIS_URL": f"redis://127.0.0.1:{port}/0"})
    }
    settings.TABLE_HEARTBEAT_SECONDS = 0.5
    settings.TABLE_BOT_DELAY_SECONDS = 0.2
    channel_layers.backends.clear()
    users = [await sync_to_async(make_user)(f"p{i}") for i in range(4)]
    room = await sync_to_async(start_with_four_people)(users)
    await Seat.objects.filter(room=room).aupdate(tuoguan=False)
    mover = await connect(application, room, users[0])
    other = await connect(application, room, users[1])
    await drain([mover, other])
    try:
        proc.terminate()
        proc.wait(timeout=10)
        caplog.clear()
        with caplog.at_level(logging.WARNING):
            for u in users[1:]:  # the other three on 托管 too, told nobody: the clock plays
                await sync_to_async(inputs.table_act)(
                    number=room.number, user=u, message=SetTuoguan(on=True)
                )
            await mover.send_json_to({"action": "tuoguan", "on": "1"})
            own = await receive_matching(mover, 'data-badge="tuoguan"')
            assert "tuoguan-banner" in own
            seat = await Seat.objects.aget(room=room, index=0)
            assert seat.tuoguan
            # The clock's ticks commit, fail to tell anyone, push this page and tick again.
            version = (await Room.objects.aget(pk=room.pk)).version
            await asyncio.sleep(2.0)
            assert (await Room.objects.aget(pk=room.pk)).version >= version + 3
            late = WebsocketCommunicator(application, f"/ws/table/{room.number}/")
            late.scope["user"] = users[2]
            connected, _ = await late.connect(timeout=10)
            assert connected
            closing = await late.receive_output(timeout=10)
            assert closing == {"type": "websocket.close", "code": 1013}
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
        assert any("unreachable" in r.getMessage() for r in caplog.records)
        # Still open: it answers the next input (refused: the step is long gone).
        await mover.send_json_to({"action": "pass", "step": "0"})
        assert "table-error" in await receive_matching(mover, "table-error")
    finally:
        proc = await _redis_up(port)
    try:
        caught_up = await receive_matching(other, 'data-badge="tuoguan"')
        assert 'id="table-public"' in caught_up
    finally:
        for c in (mover, other):
            await c.disconnect(timeout=10)
        proc.terminate()
        proc.wait(timeout=10)


async def test_a_page_opening_is_pushed_once_already_showing_its_seat_online(
    application: Any, user: Any
) -> None:
    """The first push is made after the seat is counted: it shows the opener online, and no
    second push follows to correct a badge that was never true (#38)."""
    room = await sync_to_async(start_with_bots)(user)
    await sync_to_async(run_bots_until_human)(room, timezone.now())  # then the table waits
    page = await connect(application, room, user)
    first = await page.receive_from(timeout=5)
    assert 'id="table-public"' in first
    assert 'data-badge="offline"' not in first  # the three others are bots, never offline
    assert await page.receive_nothing(timeout=1.0)
    await page.disconnect()


async def test_an_eviction_closes_only_the_named_users_pages(application: Any, user: Any) -> None:
    # A club removed someone (clubs.services): their pages at its rooms close, others stay.
    from channels.layers import get_channel_layer

    from tables.play.events import group_name

    room = await sync_to_async(start_with_bots)(user)
    comm = await connect(application, room, user)
    await comm.receive_from(timeout=5)
    layer = get_channel_layer()
    await layer.group_send(group_name(room.number), {"type": "table.evict", "user_id": -1})
    # still open: bad input gets its error (a bot move may be pushed in between)
    await comm.send_to(text_data="not json")
    reply = await comm.receive_output(timeout=5)
    while reply["type"] == "websocket.send" and 'id="table-error"' not in reply["text"]:
        reply = await comm.receive_output(timeout=5)
    assert reply["type"] == "websocket.send"
    await layer.group_send(group_name(room.number), {"type": "table.evict", "user_id": user.pk})
    outputs: list[dict[str, Any]] = []
    while not outputs or outputs[-1]["type"] != "websocket.close":
        outputs.append(await comm.receive_output(timeout=5))
    assert outputs[-1] == {"type": "websocket.close", "code": 4404}
    await comm.disconnect()
