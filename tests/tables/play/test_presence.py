"""tables.play.presence: open pages counted per seat, heartbeats, present or gone since when."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.utils import timezone

from tables.models import Room, Seat
from tables.play import inputs, page_leases, presence
from tests.tables.factories import run_bots_until_human, start_with_four_people


def test_two_tabs_count_as_connected_until_both_close(started: Room, user: Any) -> None:
    """Pages are counted by their sockets' slots (tables.play.page_leases), as the consumer
    takes them."""
    tabs = [
        page_leases.socket_slots_take(
            user_id=user.pk, number=started.number, channel=c, seated=True
        )
        for c in ("t1", "t2")
    ]
    assert inputs.seat_connect(number=started.number, user=user)
    assert inputs.seat_connect(number=started.number, user=user) is None  # still online
    page_leases.socket_slots_release(keys=tabs[0] or [], channel="t1")
    assert inputs.seat_disconnect(number=started.number, user=user) is None
    seat = Seat.objects.get(room=started, index=0)
    assert seat.connections >= 1 and seat.disconnected_at is None
    page_leases.socket_slots_release(keys=tabs[1] or [], channel="t2")
    inputs.seat_disconnect(number=started.number, user=user)
    seat.refresh_from_db()
    assert seat.connections == 0 and seat.disconnected_at is not None


def test_a_count_left_by_a_crashed_server_goes_stale(
    started: Room, user: Any, settings: Any
) -> None:
    settings.TABLE_HEARTBEAT_SECONDS = 10
    now = timezone.now()
    inputs.seat_connect(number=started.number, user=user, now=now)
    seat = Seat.objects.get(room=started, index=0)
    assert presence.present(seat, now + timedelta(seconds=20))
    # The server died without closing the page: no heartbeat, no disconnect.
    later = now + timedelta(seconds=26)
    assert not presence.present(seat, later)
    assert presence.gone_since(seat, later) == now + timedelta(seconds=25)
    # The page reconnects to a new server: the old count does not linger.
    inputs.seat_connect(number=started.number, user=user, now=later)
    seat.refresh_from_db()
    assert seat.connections == 1 and presence.present(seat, later)


def test_heartbeats_keep_a_page_present(started: Room, user: Any, settings: Any) -> None:
    settings.TABLE_HEARTBEAT_SECONDS = 10
    now = timezone.now()
    inputs.seat_connect(number=started.number, user=user, now=now)
    presence.heartbeats({(started.number, user.pk)}, now=now + timedelta(seconds=20))
    seat = Seat.objects.get(room=started, index=0)
    assert presence.present(seat, now + timedelta(seconds=40))


def test_a_beat_reaches_exactly_the_seats_whose_pages_are_open(
    make_user: Any, django_assert_num_queries: Any
) -> None:
    users = [make_user(f"p{i}") for i in range(4)]
    rooms = [start_with_four_people(users), start_with_four_people(users)]
    now = timezone.now() + timedelta(hours=1)
    # Pages: p0 at the first room, p1 at the second. p0 also sits at the second room and p1
    # at the first, with no page open there: those seats must not look present.
    open_pages = {(rooms[0].number, users[0].pk), (rooms[1].number, users[1].pk)}
    with django_assert_num_queries(2):
        presence.heartbeats(open_pages, now=now)
    beaten = {
        (s.room.number, s.user_id)
        for s in Seat.objects.select_related("room").filter(last_seen=now)
    }
    assert beaten == open_pages


def test_reconnecting_after_downtime_gives_a_fresh_turn(started: Room, user: Any) -> None:
    state = run_bots_until_human(started, timezone.now())
    assert state.phase != "ended", "the hand ended before seat 0 acted"
    assert started.turn_deadline is not None
    much_later = started.turn_deadline + timedelta(minutes=5)
    inputs.seat_connect(number=started.number, user=user, now=much_later)
    started.refresh_from_db()
    assert started.turn_deadline == much_later + timedelta(seconds=started.turn_seconds)
    assert not Seat.objects.get(room=started, index=0).tuoguan


def test_a_beating_page_keeps_its_seat_online(started: Room, user: Any) -> None:
    """A close counted while the cache was unreachable (Redis down: no leases read) takes the
    seat offline though another page of it is open; that page's next beat puts it back."""
    now = timezone.now()
    Seat.objects.filter(room=started, index=0).update(connections=0, disconnected_at=now)
    presence.heartbeats([(started.number, user.pk)], now=now)
    seat = Seat.objects.get(room=started, index=0)
    assert seat.connections == 1 and seat.disconnected_at is None and seat.last_seen == now
