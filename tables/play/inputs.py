"""A running table's inputs: a page's message and a page opened or closed. One transaction each.

Each locks the room's row, lets ``moves`` or ``presence`` act, books a hand that ended and
commits with the next deadline (``clock``), whose commit sends the change's event to every
page (:mod:`tables.play.events`); a refusal is :class:`~tables.play.protocol.PlayError` and
changes nothing. Each returns what it committed, or None when nothing changed.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import datetime

from django.db import transaction
from django.utils import timezone

from accounts.models import User
from tables.models import Seat
from tables.play import clock, events, moves, page_leases, presence
from tables.play.protocol import Message
from tables.play.rows import room_locked
from tables.play.table import Table, VoteState, load_table, table_locked

__all__ = [
    "seat_connect",
    "seat_disconnect",
    "table_act",
    "table_change",
]


def table_change(
    number: str, user: User, change: Callable[[Table, Seat], bool], now: datetime | None = None
) -> clock.Committed | None:
    """Lock the table, let ``change`` act for ``user``'s seat, book a hand it ended, commit.

    ``change`` says whether it changed anything: an input that changes nothing (托管 off
    while not on 托管, 准备 twice) is not committed, so the version stays and nobody is sent
    a new board. Returns what it committed, or None."""
    read_at = time.time()
    with transaction.atomic():
        t = table_locked(number)
        # The clock is read once the room is locked (tables.play.clock.advance says why).
        now = now or timezone.now()
        clock.catch_up(t, now)  # a window whose pause has run is closed before anything else
        seat = moves.seat_playing(t, user)
        if not change(t, seat):
            return None
        moves.hand_book_if_ended(t, now)
        clock.table_commit(t, now)
        return clock.committed(t, read_at)


def table_act(
    *, number: str, user: User, message: Message, now: datetime | None = None
) -> clock.Committed | None:
    """Apply what ``user`` sent at table ``number`` (parsed by :func:`tables.play.protocol.
    parse_message`); :class:`~tables.play.protocol.PlayError` changes nothing. Returns what it
    committed, or None: the input asked for what already was."""
    return table_change(number, user, lambda t, seat: moves.message_apply(t, seat, message), now)


def seat_connect(*, number: str, user: User, now: datetime | None = None) -> clock.Committed | None:
    """A page of ``user`` opened the table; what that committed (None: not ``user``'s
    table, or the seat was online already: nothing to commit or show)."""
    return _pages(number, user, +1, now)


def seat_disconnect(
    *, number: str, user: User, now: datetime | None = None
) -> clock.Committed | None:
    """A page of ``user`` closed (its socket's slots already given back); when it was the
    seat's last, the seat goes offline, and after the grace period on 托管."""
    return _pages(number, user, -1, now)


def _pages(number: str, user: User, delta: int, now: datetime | None) -> clock.Committed | None:
    read_at = time.time()
    with transaction.atomic():
        room = room_locked(number)
        now = now or timezone.now()  # once locked (tables.play.clock.advance says why)
        if room is None or not user.is_authenticated:
            return None
        seat = Seat.objects.filter(room=room, user=user).first()
        if seat is None:
            return None
        # The pages are counted by their sockets' leases, so a killed process's run out
        # (tables.play.page_leases); only a change between online and offline is committed and
        # shown.
        pages = page_leases.account_sockets_at(user_id=user.pk, number=number)
        if not presence.seat_pages_count(seat, max(pages, 1) if delta > 0 else pages, now):
            return None
        t = load_table(room)
        if t is None:
            room.version += 1
            room.save(update_fields=["version"])
            change = clock.Committed(room=room, table=None, votes=VoteState(), read_at=read_at)
            events.change_send_on_commit(change)
            return change
        clock.catch_up(t, now)
        if delta > 0:
            presence.turn_refreshed_on_return(t, seat, now)
        clock.table_commit(t, now)
        return clock.committed(t, read_at)
