"""Who has a page open at a table: counting pages, heartbeats, present or gone since when.

A seat counts its open pages (``seat.connections``); each process beats every
:func:`heartbeat_interval` for all its open pages (:mod:`tables.socket.heartbeat`). A count
whose beats stopped (a server died without closing its sockets) is stale: the seat counts as
gone from its last beat on.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models.functions import Greatest

from tables.models import Seat
from tables.play.table import Table, must_act, seat_automatic

__all__ = [
    "gone_since",
    "heartbeat_interval",
    "heartbeats",
    "present",
    "seat_pages_count",
    "turn_refreshed_on_return",
]


def heartbeat_interval() -> timedelta:
    """How often an open page's consumer reports that it is still there."""
    return timedelta(seconds=float(getattr(settings, "TABLE_HEARTBEAT_SECONDS", 4)))


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


def heartbeats(seats: Iterable[tuple[str, int]], *, now: datetime) -> None:
    """Pages are still open: for each ``(room number, user id)``, that user's seat there
    (called every :func:`heartbeat_interval` for all the pages of a process, :mod:`tables.
    beats`): two queries however many seats, in one transaction."""
    wanted = set(seats)
    if not wanted:
        return
    # Locked in one order, and a seat a move holds is left for the next beat (its page is
    # present for 2.5 intervals): the beat runs beside the moves (tables.socket.heartbeat), and
    # waiting on their locks could deadlock with one.
    with transaction.atomic(savepoint=False):  # within the caller's, if any: no savepoint
        found = (
            Seat.objects.select_for_update(skip_locked=True, of=("self",))
            .filter(room__number__in={n for n, _ in wanted}, user_id__in={u for _, u in wanted})
            .order_by("pk")
            .values_list("pk", "room__number", "user_id")
        )
        # The two IN lists also match a user's seat at another of the listed rooms.
        ids = [pk for pk, number, user_id in found if (number, user_id) in wanted]
        # A seat with a page beating is online, even if a close counted while the cache
        # could not be read (a Redis outage) took it offline.
        Seat.objects.filter(pk__in=ids).update(
            last_seen=now, connections=Greatest("connections", 1), disconnected_at=None
        )


def seat_pages_count(seat: Seat, pages: int, now: datetime) -> bool:
    """The seat's player has ``pages`` pages open now (a page just opened or closed): saved,
    and True, only when that takes the seat online or offline (N5: a second page opening or
    closing commits nothing and pushes nothing)."""
    online = pages > 0
    if online == present(seat, now) and (online or seat.connections == 0):
        return False
    # Gone since the last beat of a count already stale, else since now.
    seat.disconnected_at = None if online else (gone_since(seat, now) or now)
    seat.connections = pages
    if online:
        seat.last_seen = now
    seat.save(update_fields=["connections", "disconnected_at", "last_seen"])
    return True


def turn_refreshed_on_return(t: Table, seat: Seat, now: datetime) -> None:
    """A player opens the table after their turn timer ran out while no page was open (a
    restart: nobody's clock ran): they get a fresh turn, not 托管."""
    room = t.room
    waiting_on_me = seat.index in must_act(t) and not seat_automatic(seat)
    if waiting_on_me and room.turn_deadline and room.turn_deadline < now:
        room.turn_deadline = now + timedelta(seconds=room.turn_seconds)
