"""Rooms in known states for the tables tests, and ways to drive their tables."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta
from typing import Any

from channels.testing import WebsocketCommunicator
from django.utils import timezone

from engine.hand import HandState, legal_actions, waiting_on
from engine.rules import Rules
from tables.models import Hand, Room, Seat
from tables.play import clock, inputs
from tables.play.protocol import parse_message
from tables.play.table import Table, load_table
from tables.play.windows import public_step
from tables.rooms import services
from tables.socket import heartbeat


def start_with_bots(
    user: Any, *, hands: int | None = 8, tuoguan: bool = False, seed: str | None = None
) -> Room:
    """A started room: ``user`` in seat 0 (on 托管 if asked) and three basic bots."""
    room = services.room_create(
        owner=user,
        name="Friday",
        is_public=True,
        rules=Rules(),
        match_length=hands,
        turn_seconds=20,
    )
    for i in (1, 2, 3):
        services.bot_add(room=room, by_user=user, index=i)
    services.seat_ready(room=room, user=user, ready=True)
    if tuoguan:
        Seat.objects.filter(room=room, index=0).update(tuoguan=True)
    services.match_start(room=room, by_user=user, first_seed=seed)
    room.refresh_from_db()
    return room


def start_with_four_people(users: list[Any]) -> Room:
    """Four people seated in order, all on 托管 so the bots play every seat; two hands."""
    owner = users[0]
    room = services.room_create(
        owner=owner,
        name="Leak check",
        is_public=True,
        rules=Rules(),
        match_length=2,
        turn_seconds=20,
    )
    for i, u in enumerate(users[1:], start=1):
        services.seat_take(room=room, user=u, index=i)
    for u in users:
        services.seat_ready(room=room, user=u, ready=True)
    Seat.objects.filter(room=room).update(tuoguan=True)
    services.match_start(room=room, by_user=owner, first_seed="leak-people")
    room.refresh_from_db()
    return room


def room_form_data(**extra: Any) -> dict[str, Any]:
    """What the room form posts for an open-ended standard room, with ``extra`` on top."""
    data: dict[str, Any] = {
        "name": "Friday",
        "is_public": "on",
        "profile": "standard",
        "match_length": "",
        "turn_seconds": "20",
    }
    for key, value in Rules().to_json().items():
        if key == "profile":
            continue
        if isinstance(value, bool):
            if value:
                data[key] = "on"
        else:
            data[key] = str(value)
    data.update(extra)
    return data


def send(room: Room, user: Any, payload: Any, now: datetime | None = None) -> None:
    """What the table's consumer does with a page's message: parse it, then act."""
    inputs.table_act(number=room.number, user=user, message=parse_message(payload), now=now)


def hand_of(room: Room) -> HandState:
    """The room's current hand, read fresh from the database."""
    room.refresh_from_db()
    assert room.state is not None
    return HandState.from_json(room.state["hand"])


def step_shown(room: Room) -> int:
    """The step the room's pages show and moves name (``tables.play.windows``), read fresh."""
    room.refresh_from_db()
    return public_step(room)


def move_json(room: Room, state: HandState, seat: int, index: int = 0) -> dict[str, Any]:
    """The page's message for the seat's ``index``-th legal action."""
    action = legal_actions(state, seat)[index].to_json()
    return {"action": action.pop("type"), "step": step_shown(room), **action}


def tables_until_hand_ends(room: Room, limit: int = 800) -> Iterator[Table]:
    """The room's table as stored, then after each change the clock makes (every seat
    automatic), the last one once the current hand has ended. ``room`` is kept fresh."""
    now = timezone.now()
    for _ in range(limit):
        room.refresh_from_db()
        table = load_table(room)
        assert table is not None and table.hand is not None
        yield table
        if table.hand.phase == "ended":
            return
        assert room.deadline is not None
        now = max(now, room.deadline)
        clock.advance(room.number, now=now)
    raise AssertionError("the hand never ended")


def run_clock_until_hand_ends(room: Room, limit: int = 800) -> HandState:
    """Let the clock play (every seat automatic) until the current hand has ended."""
    *_, table = tables_until_hand_ends(room, limit)
    assert table.hand is not None
    return table.hand


def run_bots_until_human(room: Room, now: datetime, limit: int = 400) -> HandState:
    """Let the table's clock run (bots move) until seat 0 must act or the hand ends."""
    for _ in range(limit):
        state = hand_of(room)
        if state.phase == "ended" or 0 in waiting_on(state):
            return state
        assert room.deadline is not None
        now = max(now, room.deadline)
        assert clock.advance(room.number, now=now)
    raise AssertionError("the bots never handed over")


def run_until_my_turn(room: Room, user: Any) -> HandState:
    """Seat 0 passes every claim until it is on its own turn."""
    for _ in range(100):
        state = run_bots_until_human(room, timezone.now())
        assert state.phase != "ended", "the hand ended before seat 0's turn"
        if state.phase == "turn":
            return state
        send(room, user, {"action": "pass", "step": step_shown(room)})
    raise AssertionError("seat 0 never got a turn")


def play_out_hand(room: Room, user: Any, now: datetime) -> HandState:
    """Seat 0 always takes its first legal action; the bots play the rest."""
    for _ in range(600):
        state = run_bots_until_human(room, now)
        if state.phase == "ended":
            return state
        send(room, user, move_json(room, state, 0))
    raise AssertionError("the hand never ended")


def play_out(room: Room) -> None:
    """Run the table's clock until the match is over (bots and 托管 seats play every move)."""
    now = timezone.now()
    for _ in range(1200):
        room.refresh_from_db()
        if room.status == Room.Status.FINISHED:
            return
        assert room.deadline is not None
        now = max(now, room.deadline) + timedelta(milliseconds=1)
        clock.advance(room.number, now=now)
    raise AssertionError("the match did not end")


def played_hand(user: Any, *, seed: str = "ledger-hand") -> Hand:
    """A room with ``user`` (on 托管) and three bots, one whole hand played by the table's clock.

    The default deal is known to end in a win: a 流局 without gangs would leave nothing to pay.
    """
    room = start_with_bots(user, hands=1, tuoguan=True, seed=seed)
    play_out(room)
    hand = Hand.objects.get(room=room, number=1)
    assert hand.result is not None and hand.result["winners"], "the known deal must end in a win"
    return hand


def beaten() -> list[str]:
    """The pages this process still beats for, and its beat's task if it still runs: both
    empty once every socket's cleanup ran (call from the test's event loop)."""
    beat = heartbeat.beat()
    return [*beat.pages, *(["task"] if beat.task is not None else [])]


async def drain(comms: list[WebsocketCommunicator]) -> list[list[str]]:
    """Every message each page got until all are quiet."""
    got: list[list[str]] = [[] for _ in comms]
    for i, c in enumerate(comms):
        while not await c.receive_nothing(timeout=0.3):
            got[i].append(await c.receive_from())
    return got


async def page_open(room: Room, user: Any) -> WebsocketCommunicator:
    """A page of ``user`` open at ``room``'s table, in English, its socket accepted."""
    from channels.routing import URLRouter
    from django.conf import settings

    from tables.socket.routing import websocket_urlpatterns

    comm = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/table/{room.number}/")
    comm.scope["user"] = user
    comm.scope["cookies"] = {settings.LANGUAGE_COOKIE_NAME: "en"}
    connected, _ = await comm.connect()
    assert connected
    return comm


def four_people_in_play(users: list[Any]) -> Room:
    """Four people at a table in play, none on 托管 (so nobody moves but them)."""
    room = start_with_four_people(users)
    for u in users:
        send(room, u, {"action": "tuoguan", "on": "0"})
    room.refresh_from_db()
    assert not Seat.objects.filter(room=room, tuoguan=True).exists()
    return room
