from __future__ import annotations

from typing import Any

from engine.rules import Rules
from ledger.models import Entry
from tables.models import Room
from tables.rooms import selectors, services


def hand_entry(**fields: Any) -> Entry:
    return Entry.objects.create(kind=Entry.Kind.HAND, **fields)


def test_public_rooms_counts_and_privacy(room: Any, user: Any, make_user: Any) -> None:
    services.bot_add(room=room, by_user=user, index=1)
    services.seat_take(room=room, user=make_user("bob"), index=2)
    private = services.room_create(
        owner=user, name="secret", is_public=False, rules=Rules(), match_length=None
    )
    rooms = list(selectors.public_rooms())
    assert rooms == [room]
    assert rooms[0].seated == 3  # type: ignore[attr-defined]
    assert private not in rooms


def test_my_rooms(room: Any, user: Any, make_user: Any) -> None:
    bob = make_user("bob")
    assert list(selectors.my_rooms(bob)) == []
    services.seat_take(room=room, user=bob, index=2)
    assert list(selectors.my_rooms(bob)) == [room]
    assert list(selectors.my_rooms(user)) == [room]


def test_room_by_number_and_seats(room: Any) -> None:
    assert selectors.room_by_number(room.number) == room
    assert selectors.room_by_number("nope") is None
    assert [s.index for s in selectors.room_with_seats(room)] == [0, 1, 2, 3]


def test_room_versions_are_read_for_the_rooms_that_exist(room: Any, user: Any) -> None:
    other = services.room_create(
        owner=user, name="other", is_public=True, rules=Rules(), match_length=None
    )
    Room.objects.filter(pk=room.pk).update(version=7)
    Room.objects.filter(pk=other.pk).update(version=3)
    numbers = [room.number, other.number, "999999"]  # a room gone: not there
    assert selectors.room_versions(numbers) == {room.number: 7, other.number: 3}
    assert selectors.room_versions([]) == {}
