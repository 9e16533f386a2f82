"""The live part of a room page (``#live``): the seats while waiting, then the table.

One function builds it for both paths, the page view and the WebSocket consumer, so a page
that reloads and a page that is pushed an update show exactly the same thing. A running
table is two fragments: the public one (:mod:`tables.screen.public`), the same bytes for
every viewer, and the viewer's own (:mod:`tables.screen.private`); the page's root
``<section class="table" data-me="…">`` says whose seat sits at the bottom. Their tiles refer
to the sprite the room page inlines (``tiles_local``), so pushes carry short references.
"""

from __future__ import annotations

import time
from typing import Any

from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

from accounts.models import User
from tables.models import Room
from tables.play import clock
from tables.play.table import load_table
from tables.rooms import selectors
from tables.rooms.invites import first_empty_seat, invite_qr_svg
from tables.screen import rule_labels
from tables.screen.board import seat_index_of
from tables.screen.private import render_private
from tables.screen.public import render_public

LIVE_TEMPLATE = "tables/_live.html"


def clock_tag() -> SafeString:
    """The server's time (ms), sent with the table: the page's countdown (``data-ends-at``,
    absolute) then needs no synchronised clock on the phone."""
    return mark_safe(f'<i id="table-clock" hidden data-now="{int(time.time() * 1000)}"></i>')


STEP_VALS = 'js:{step: Number(document.getElementById("table-public").dataset.step)}'
"""Every move a page sends carries the step of the public part it shows (htmx evaluates this
``hx-vals`` on the root at send time), so a seat's own part need not change with every step
and is pushed only when its contents change."""


def table_root(seat: int | None, public: str, private: str, *, room_name: str) -> SafeString:
    """The table's root: whose seat sits at the bottom, the room's name as the page's heading
    for screen readers (the bar has no room for it on a phone), then both parts and the
    server's time."""
    return format_html(
        '<section class="table" data-me="{}" hx-vals=\'{}\'><h1 class="sr-only">{}</h1>'
        "{}{}{}</section>",
        "" if seat is None else seat,
        STEP_VALS,
        room_name,
        mark_safe(public),
        mark_safe(private),
        clock_tag(),
    )


def live_context(
    room: Room, user: User | None, *, invite_url: str, csrf_token: str = ""
) -> dict[str, Any]:
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
        "summary": rule_labels.rules_summary(room.rules),
        "invite_url": invite_url,
        "all_filled": all(not s.is_empty for s in seats),
        "all_ready": all(s.ready for s in seats if not s.is_empty),
        "table": None,
        "first_empty": first_empty_seat(seats),
    }
    if context["waiting"]:
        context["invite_qr"] = invite_qr_svg(invite_url)
    table = load_table(room)
    if table is not None and table.hand is not None:
        clock.catch_up(table, timezone.now())
        seat = seat_index_of(table, user)
        context["table"] = table_root(
            seat,
            render_public(table),
            render_private(table, seat, csrf_token=csrf_token),
            room_name=room.name,
        )
    return context


def render_live(
    number: str, user: User | None, *, invite_url: str, csrf_token: str
) -> tuple[str, Room | None]:
    """The ``#live`` fragment for a push (swapped out-of-band by htmx), and the room read."""
    room = selectors.room_by_number(number)
    if room is None:
        return "", None
    context = live_context(room, user, invite_url=invite_url, csrf_token=csrf_token)
    context.update({"csrf_token": csrf_token, "user": user, "oob": True})
    return render_to_string(LIVE_TEMPLATE, context), room
