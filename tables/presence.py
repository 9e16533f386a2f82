"""Who has a page open at a table: counting pages, heartbeats, present or gone since when.

A seat counts its open pages (``seat.connections``); each page's consumer beats every
:func:`heartbeat_interval`. A count whose beats stopped (a server died without closing its
sockets) is stale: the seat counts as gone from its last beat on.
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta

from django.conf import settings
from django.utils import timezone

from accounts.models import User
from tables.models import Seat
from tables.table import Table, must_act, seat_automatic

__all__ = [
    "first_beat_after",
    "gone_since",
    "heartbeat",
    "heartbeat_interval",
    "present",
    "seat_pages_count",
    "turn_refreshed_on_return",
]


def heartbeat_interval() -> timedelta:
    """How often an open page's consumer reports that it is still there."""
    return timedelta(seconds=float(getattr(settings, "TABLE_HEARTBEAT_SECONDS", 15)))


def first_beat_after(rng: random.Random | None = None) -> float:
    """Seconds from a page's opening to its first heartbeat: a random point of the interval.

    Pages that open together (a restart reconnects every page at once) would otherwise beat
    together ever after, every beat a burst of writes that holds up the moves behind it.

    >>> 0 <= first_beat_after(random.Random(1)) < heartbeat_interval().total_seconds()
    True
    """
    return heartbeat_interval().total_seconds() * (rng or _rng).random()


_rng = random.Random()


def _stale_after() -> timedelta:
    return heartbeat_interval() * 2.5


def present(seat: Seat, now: datetime) -> bool:
    """Has this seat's player a page open? Open pages beat; a silent count is a crash's leftover."""
    if seat.connections <= 0:
        return False
    return seat.last_seen is None or now - seat.last_seen <= _stale_after()


def gone_since(seat: Seat, now: datetime) -> datetime | None:
    """Since when this seat's player has had no page open (None: connected, or a bot)."""
    if seat.bot or present(seat, now):
        return None
    if seat.connections > 0 and seat.last_seen is not None:
        return seat.last_seen + _stale_after()
    return seat.disconnected_at


def heartbeat(*, number: str, user: User, now: datetime | None = None) -> None:
    """An open page of ``user`` is still there (called every :func:`heartbeat_interval`)."""
    Seat.objects.filter(room__number=number, user=user).update(last_seen=now or timezone.now())


def seat_pages_count(seat: Seat, delta: int, now: datetime) -> None:
    """A page of the seat's player opened (``delta`` +1) or closed (-1); saved."""
    if delta > 0 and not present(seat, now):
        seat.connections = 0  # left behind by a server that stopped without closing pages
    seat.connections = max(0, seat.connections + delta)
    seat.disconnected_at = now if seat.connections == 0 else None
    if delta > 0:
        seat.last_seen = now
    seat.save(update_fields=["connections", "disconnected_at", "last_seen"])


def turn_refreshed_on_return(t: Table, seat: Seat, now: datetime) -> None:
    """A player opens the table after their turn timer ran out while no page was open (a
    restart: nobody's clock ran): they get a fresh turn, not 托管."""
    room = t.room
    waiting_on_me = seat.index in must_act(t) and not seat_automatic(seat)
    if waiting_on_me and room.turn_deadline and room.turn_deadline < now:
        room.turn_deadline = now + timedelta(seconds=room.turn_seconds)
