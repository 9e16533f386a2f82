"""Rooms in known states for the tables tests."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.utils import timezone

from engine.rules import Rules
from tables import play, services
from tables.models import Hand, Room, Seat


def start_with_bots(
    user: Any, *, hands: int | None = 8, tuoguan: bool = False, seed: str | None = None
) -> Room:
    """A started room: ``user`` in seat 0 (on 托管 if asked) and three basic bots."""
    room = services.create_room(user, "Friday", True, Rules(), hands, 20)
    for i in (1, 2, 3):
        services.add_bot(room, user, i)
    services.set_ready(room, user, True)
    if tuoguan:
        Seat.objects.filter(room=room, index=0).update(tuoguan=True)
    services.start_match(room, user, first_seed=seed)
    room.refresh_from_db()
    return room


def play_out(room: Room) -> None:
    """Run the table's clock until the match is over (bots and 托管 seats play every move)."""
    now = timezone.now()
    for _ in range(1200):
        room.refresh_from_db()
        if room.status == Room.Status.FINISHED:
            return
        assert room.deadline is not None
        now = max(now, room.deadline) + timedelta(milliseconds=1)
        play.advance(room.number, now=now)
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
