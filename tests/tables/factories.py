"""Rooms in known states for the tables tests."""

from __future__ import annotations

from typing import Any

from engine.rules import Rules
from tables import services
from tables.models import Room, Seat


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
