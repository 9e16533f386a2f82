"""The live part of a room page (``#live``): the seats while waiting, then the table.

One function builds it for both paths, the page view and the WebSocket consumer, so a page
that reloads and a page that is pushed an update show exactly the same thing.
"""

from __future__ import annotations

from typing import Any

from django.template.loader import render_to_string

from accounts.models import User
from tables import selectors
from tables.board import board_for
from tables.invites import first_empty_seat, invite_qr_svg
from tables.models import Room
from tables.table import load_table

LIVE_TEMPLATE = "tables/_live.html"


def live_context(room: Room, user: User | None, *, invite_url: str) -> dict[str, Any]:
    """Everything ``tables/_live.html`` needs for ``user`` (None: not logged in)."""
    seats = selectors.room_with_seats(room)
    my_seat = next((s for s in seats if user is not None and s.user_id == user.pk), None)
    is_owner = user is not None and room.owner_id == user.pk
    context: dict[str, Any] = {
        "room": room,
        "seats": seats,
        "my_seat": my_seat,
        "is_owner": is_owner,
        "waiting": room.status == Room.Status.WAITING,
        "summary": selectors.rules_summary(room.rules),
        "invite_url": invite_url,
        "all_filled": all(not s.is_empty for s in seats),
        "all_ready": all(s.ready for s in seats if not s.is_empty),
        "board": None,
        "first_empty": first_empty_seat(seats),
    }
    if context["waiting"]:
        context["invite_qr"] = invite_qr_svg(invite_url)
    table = load_table(room)
    if table is not None and table.hand is not None:
        context["board"] = board_for(table, user)
    return context


def render_live(
    number: str, user: User | None, *, invite_url: str, csrf_token: str
) -> tuple[str, Room | None]:
    """The ``#live`` fragment for a push (swapped out-of-band by htmx), and the room read."""
    room = selectors.room_by_number(number)
    if room is None:
        return "", None
    context = live_context(room, user, invite_url=invite_url)
    context.update({"csrf_token": csrf_token, "user": user, "oob": True})
    return render_to_string(LIVE_TEMPLATE, context), room
