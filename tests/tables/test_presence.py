"""tables.presence: open pages counted per seat, heartbeats, present or gone since when."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.utils import timezone

from tables import presence, services
from tables.models import Room, Seat
from tests.tables.factories import run_bots_until_human


def test_two_tabs_count_as_connected_until_both_close(started: Room, user: Any) -> None:
    services.seat_connect(number=started.number, user=user)
    services.seat_connect(number=started.number, user=user)
    services.seat_disconnect(number=started.number, user=user)
    seat = Seat.objects.get(room=started, index=0)
    assert seat.connections == 1 and seat.disconnected_at is None
    services.seat_disconnect(number=started.number, user=user)
    seat.refresh_from_db()
    assert seat.connections == 0 and seat.disconnected_at is not None


def test_a_count_left_by_a_crashed_server_goes_stale(
    started: Room, user: Any, settings: Any
) -> None:
    settings.TABLE_HEARTBEAT_SECONDS = 10
    now = timezone.now()
    services.seat_connect(number=started.number, user=user, now=now)
    seat = Seat.objects.get(room=started, index=0)
    assert presence.present(seat, now + timedelta(seconds=20))
    # The server died without closing the page: no heartbeat, no disconnect.
    later = now + timedelta(seconds=26)
    assert not presence.present(seat, later)
    assert presence.gone_since(seat, later) == now + timedelta(seconds=25)
    # The page reconnects to a new server: the old count does not linger.
    services.seat_connect(number=started.number, user=user, now=later)
    seat.refresh_from_db()
    assert seat.connections == 1 and presence.present(seat, later)


def test_heartbeats_keep_a_page_present(started: Room, user: Any, settings: Any) -> None:
    settings.TABLE_HEARTBEAT_SECONDS = 10
    now = timezone.now()
    services.seat_connect(number=started.number, user=user, now=now)
    presence.heartbeat(number=started.number, user=user, now=now + timedelta(seconds=20))
    seat = Seat.objects.get(room=started, index=0)
    assert presence.present(seat, now + timedelta(seconds=40))


def test_reconnecting_after_downtime_gives_a_fresh_turn(started: Room, user: Any) -> None:
    state = run_bots_until_human(started, timezone.now())
    assert state.phase != "ended", "the hand ended before seat 0 acted"
    assert started.turn_deadline is not None
    much_later = started.turn_deadline + timedelta(minutes=5)
    services.seat_connect(number=started.number, user=user, now=much_later)
    started.refresh_from_db()
    assert started.turn_deadline == much_later + timedelta(seconds=started.turn_seconds)
    assert not Seat.objects.get(room=started, index=0).tuoguan
