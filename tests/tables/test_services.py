from __future__ import annotations

from typing import Any

import pytest
from django.utils import translation

from engine.rules import Rules
from tables import services
from tables.models import Room, Seat
from tables.services import RoomError


@pytest.fixture(autouse=True)
def _english() -> Any:
    """Messages are matched in English (the site's source language)."""
    with translation.override("en"):
        yield


def seats(room: Any) -> list[Seat]:
    return list(Seat.objects.filter(room=room).order_by("index"))


def test_create_room_seats_owner_and_stores_full_rules(user: Any) -> None:
    rules = Rules.profile_named("jiuyao_fan").with_options(qiang_gang=False)
    room = services.create_room(user, "  Friday ", False, rules, None, 30)
    assert len(room.number) == 6 and room.number.isdigit()
    assert room.name == "Friday" and room.match_length is None and room.turn_seconds == 30
    assert room.rules == rules.to_json()
    assert room.status == Room.Status.WAITING
    s = seats(room)
    assert len(s) == 4 and s[0].user == user and all(x.is_empty for x in s[1:])


def test_room_numbers_are_unique(user: Any) -> None:
    numbers = {services.create_room(user, f"r{i}", True, Rules(), None).number for i in range(10)}
    assert len(numbers) == 10


@pytest.mark.parametrize(("length", "seconds"), [(0, 20), (None, 4), (None, 121)])
def test_create_room_refuses_bad_settings(user: Any, length: Any, seconds: int) -> None:
    with pytest.raises(RoomError):
        services.create_room(user, "x", True, Rules(), length, seconds)


def test_join_by_number(room: Any, make_user: Any) -> None:
    bob = make_user("bob")
    assert services.join_by_number(bob, f" {room.number} ") == room
    with pytest.raises(RoomError, match="no room"):
        services.join_by_number(bob, "000000" if room.number != "000000" else "999999")


def test_take_seat_and_one_seat_per_user(room: Any, make_user: Any) -> None:
    bob = make_user("bob")
    services.take_seat(room, bob, 1)
    with pytest.raises(RoomError, match="taken"):
        services.take_seat(room, make_user("carol"), 1)
    services.take_seat(room, bob, 2)  # moves
    s = seats(room)
    assert s[1].user is None and s[2].user == bob
    assert Seat.objects.filter(room=room, user=bob).count() == 1
    with pytest.raises(RoomError):
        services.take_seat(room, bob, 4)


def test_full_seats(room: Any, user: Any, make_user: Any) -> None:
    for i in (1, 2, 3):
        services.take_seat(room, make_user(f"p{i}"), i)
    with pytest.raises(RoomError, match="taken"):
        services.take_seat(room, make_user("late"), 2)


def test_leave_seat_and_ready(room: Any, make_user: Any) -> None:
    bob = make_user("bob")
    with pytest.raises(RoomError):
        services.set_ready(room, bob, True)
    services.take_seat(room, bob, 3)
    assert services.set_ready(room, bob, True).ready
    services.leave_seat(room, bob)
    assert seats(room)[3].is_empty
    with pytest.raises(RoomError):
        services.leave_seat(room, bob)


def test_only_owner_adds_bots_and_removes(room: Any, user: Any, make_user: Any) -> None:
    bob = make_user("bob")
    services.take_seat(room, bob, 1)
    with pytest.raises(RoomError, match="owner"):
        services.add_bot(room, bob, 2)
    services.add_bot(room, user, 2)
    assert seats(room)[2].bot == "basic"
    with pytest.raises(RoomError, match="taken"):
        services.add_bot(room, user, 1)
    with pytest.raises(RoomError, match="owner"):
        services.remove_player(room, bob, 2)
    services.remove_player(room, user, 1)
    services.remove_player(room, user, 2)
    assert all(s.is_empty for s in seats(room)[1:])
    with pytest.raises(RoomError):
        services.remove_player(room, user, 0)


def test_start_needs_four_and_ready(room: Any, user: Any, make_user: Any) -> None:
    bob = make_user("bob")
    services.take_seat(room, bob, 1)
    services.add_bot(room, user, 2)
    with pytest.raises(RoomError, match="four"):
        services.start_match(room, user)
    services.add_bot(room, user, 3)
    with pytest.raises(RoomError, match="ready"):
        services.start_match(room, user)
    services.set_ready(room, user, True)
    services.set_ready(room, bob, True)
    with pytest.raises(RoomError, match="owner"):
        services.start_match(room, bob)
    services.start_match(room, user)
    room.refresh_from_db()
    assert room.status == Room.Status.PLAYING


def test_rules_and_seats_lock_after_start(room: Any, user: Any) -> None:
    for i in (1, 2, 3):
        services.add_bot(room, user, i)
    services.set_ready(room, user, True)
    services.start_match(room, user)
    with pytest.raises(RoomError, match="locked"):
        services.update_rules(room, user, Rules.profile_named("jiuyao_fan"))
    with pytest.raises(RoomError):
        services.remove_player(room, user, 1)


def test_leaving_a_started_match_keeps_the_seat_on_tuoguan(room: Any, user: Any) -> None:
    for i in (1, 2, 3):
        services.add_bot(room, user, i)
    services.set_ready(room, user, True)
    services.start_match(room, user)
    room.refresh_from_db()
    services.leave_seat(room, user)
    seat = Seat.objects.get(room=room, index=0)
    assert seat.user == user and seat.tuoguan


def test_update_rules_while_waiting_unreadies(room: Any, user: Any, make_user: Any) -> None:
    bob = make_user("bob")
    services.take_seat(room, bob, 1)
    services.set_ready(room, bob, True)
    with pytest.raises(RoomError, match="owner"):
        services.update_rules(room, bob, Rules())
    rules = Rules.profile_named("jiuyao_fan")
    services.update_rules(room, user, rules)
    room.refresh_from_db()
    assert Rules.from_json(room.rules) == rules
    assert not seats(room)[1].ready


def test_close_room_stops_a_match(room: Any, user: Any) -> None:
    for i in (1, 2, 3):
        services.add_bot(room, user, i)
    services.set_ready(room, user, True)
    services.start_match(room, user)
    services.close_room(room)
    room.refresh_from_db()
    assert room.status == Room.Status.FINISHED and room.deadline is None


def test_admin_closes_rooms_and_never_shows_the_state(
    client: Any, room: Any, make_user: Any
) -> None:
    from django.urls import reverse

    from accounts.models import User

    admin_user = User.objects.create_superuser("root", password="x-long-password-1")
    client.force_login(admin_user)
    page = client.get(reverse("admin:tables_room_change", args=[room.pk])).content.decode()
    assert 'name="state"' not in page
    response = client.post(
        reverse("admin:tables_room_changelist"),
        {"action": "close_rooms", "_selected_action": [room.pk]},
    )
    assert response.status_code == 302
    room.refresh_from_db()
    assert room.status == Room.Status.FINISHED


def test_guessing_room_numbers_is_bounded(user: Any, make_user: Any, settings: Any) -> None:
    from django.core.cache import cache

    cache.clear()
    settings.ROOM_LOOKUP_MISSES_ALLOWED = 3
    room = services.create_room(user, "Private", False, Rules(), None)
    guesser = make_user("guesser")
    assert services.find_room(guesser, room.number) == room  # hits are not counted
    free = next(n for n in (f"{k:06d}" for k in range(100000, 100100)) if n != room.number)
    for _ in range(3):
        with pytest.raises(RoomError, match="no room"):
            services.find_room(guesser, free)
    with pytest.raises(services.RoomLookupLimited):
        services.find_room(guesser, room.number)
    with pytest.raises(services.RoomLookupLimited):
        services.join_by_number(guesser, room.number)
    assert services.find_room(user, room.number) == room  # counted per user
    cache.clear()


def test_the_owner_keeps_a_seat_while_waiting(user: Any) -> None:
    room = services.create_room(user, "Friday", True, Rules(), None)
    with pytest.raises(RoomError, match="owner keeps a seat"):
        services.leave_seat(room, user)
    assert seats(room)[0].user == user


def test_closing_a_room_mid_hand_ends_the_hand_unpaid(user: Any) -> None:
    from ledger.models import Entry
    from tables.models import Hand
    from tests.tables.factories import start_with_bots

    room = start_with_bots(user, hands=None)
    services.close_room(room)
    room.refresh_from_db()
    hand = Hand.objects.get(room=room)
    assert room.status == Room.Status.FINISHED and room.deadline is None
    assert hand.ended_at is not None and hand.result is None
    assert not Entry.objects.filter(hand=hand).exists()
