"""Rooms in each state the accessibility tests look at, set up through the services and the
table's clock (in the test process) before a page opens them.

Each waits on a person who is not at the page (or on nobody), so the page holds still while
axe reads it: the server's clock acts only once a deadline passes, and the viewer's turn
lasts :data:`tests.audit.pages.TURN_SECONDS`.
"""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from engine.hand import legal_actions, waiting_on
from engine.rules import Rules
from tables.models import Room, Seat
from tables.play import clock
from tables.rooms import services
from tests.audit.pages import TURN_SECONDS
from tests.tables.factories import (
    hand_of,
    move_json,
    run_bots_until_human,
    run_clock_until_hand_ends,
    run_until_my_turn,
    send,
    start_with_bots,
)

CLAIM_SEEDS = [f"a11y-claim-{i}" for i in range(40)]


def _slow(room: Room) -> Room:
    Room.objects.filter(pk=room.pk).update(turn_seconds=TURN_SECONDS)
    room.refresh_from_db()
    return room


def waiting_room(owner: Any, name: str = "周五牌局") -> Room:
    """A private room of ``owner``'s, waiting for players: the one an invite link opens."""
    return services.room_create(
        owner=owner, name=name, is_public=False, rules=Rules(), match_length=None, turn_seconds=20
    )


def own_turn(user: Any, seed: str = "a11y-turn") -> Room:
    """``user`` (seat 0, with three bots) on their own turn."""
    room = _slow(start_with_bots(user, hands=None, seed=seed))
    run_until_my_turn(room, user)
    return room


def mid_hand(user: Any, seed: str = "layout-square", turns: int = 7) -> Room:
    """``user`` (seat 0, with three bots) on their own turn ``turns`` discards in: every river
    has tiles."""
    room = _slow(start_with_bots(user, hands=None, seed=seed))
    for _turn in range(turns):
        state = run_until_my_turn(room, user)
        send(room, user, move_json(room, state, 0))
    run_until_my_turn(room, user)
    return room


def timed_out(user: Any) -> Room:
    """:func:`mid_hand`, then ``user``'s seat put on 托管 by a timeout: the banner shows."""
    room = mid_hand(user)
    Seat.objects.filter(room=room, index=0).update(
        tuoguan=True, tuoguan_reason=Seat.TuoguanReason.TIMEOUT
    )
    return room


def claim(user: Any) -> Room:
    """``user`` (seat 0, with three bots) asked whether to claim a discard: the first deal
    of :data:`CLAIM_SEEDS` whose hand offers seat 0 a 碰, 吃 or 杠 while it discards the tile
    it drew."""
    for seed in CLAIM_SEEDS:
        room = _slow(start_with_bots(user, hands=None, seed=seed))
        for _ in range(200):
            state = run_bots_until_human(room, timezone.now())
            if state.phase == "ended":
                break
            if state.phase != "turn":
                return room
            discards = [a.type == "discard" for a in legal_actions(state, 0)]
            send(room, user, move_json(room, state, 0, discards.index(True)))
    raise AssertionError("no deal offers seat 0 a claim")


def settlement(user: Any) -> Room:
    """The first of two hands over (``user`` on 托管 played it): its settlement shows."""
    room = start_with_bots(user, hands=2, tuoguan=True, seed="ledger-hand")
    run_clock_until_hand_ends(room)
    Seat.objects.filter(room=room, index=0).update(tuoguan=False)
    return _slow(room)


def tuoguan(users: list[Any]) -> Room:
    """``users[0]`` on 托管 in a room of four people, the table waiting on another of them."""
    owner = users[0]
    room = services.room_create(
        owner=owner, name="托管", is_public=True, rules=Rules(), match_length=None, turn_seconds=20
    )
    for i, u in enumerate(users[1:], start=1):
        services.seat_take(room=room, user=u, index=i)
    for u in users:
        services.seat_ready(room=room, user=u, ready=True)
    services.match_start(room=room, by_user=owner, first_seed="a11y-tuoguan")
    Seat.objects.filter(room=room, index=0).update(tuoguan=True)
    room = _slow(room)
    now = timezone.now()
    for _ in range(50):
        state = hand_of(room)
        if 0 not in waiting_on(state):
            return room
        room.refresh_from_db()
        assert room.deadline is not None
        now = max(now, room.deadline)
        clock.advance(room.number, now=now)
    raise AssertionError("the table never left seat 0")
