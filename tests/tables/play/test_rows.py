"""tables.play.rows: the room lock and the seats, from SQL the ORM built once."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import DatabaseError, connection, transaction
from django.db.transaction import TransactionManagementError
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from tables.models import Room, Seat
from tables.play.rows import ROOM_SAVED, room_locked, room_locked_with_seats, room_save, room_seats

pytestmark = pytest.mark.usefixtures("english")


def _values(obj: Any) -> list[Any]:
    return [getattr(obj, f.attname) for f in type(obj)._meta.concrete_fields]


@pytest.mark.django_db(transaction=True)
def test_the_room_lock_reads_what_the_orm_reads_and_only_inside_a_transaction(
    started: Room,
) -> None:
    """The row is the ORM's own, the query still says FOR UPDATE where the database has it,
    and outside a transaction it is refused like ``select_for_update``."""
    with pytest.raises(TransactionManagementError):
        room_locked(started.number)
    for _ in range(2):  # built on the first call, reused on the second
        with transaction.atomic(), CaptureQueriesContext(connection) as queries:
            locked = room_locked(started.number)
            assert room_locked("999999") is None
        assert locked is not None
        assert _values(locked) == _values(Room.objects.get(pk=started.pk))
        sql = queries.captured_queries[0]["sql"]
        assert ("FOR UPDATE" in sql) == connection.features.has_select_for_update
        assert len(queries) == 2


def test_the_seats_are_the_orms_own_users_included(started: Room) -> None:
    """Every field of every seat and of its user comes out as the ORM's
    ``select_related("user")`` gives it, in one query; a bot's seat has no user."""
    orm = list(Seat.objects.filter(room=started).select_related("user").order_by("index"))
    for _ in range(2):
        with CaptureQueriesContext(connection) as queries:
            seats = room_seats(started)
            users = [s.user for s in seats]  # loaded with the seats: no query
        assert len(queries) == 1
        assert [_values(s) for s in seats] == [_values(s) for s in orm]
        assert [None if u is None else _values(u) for u in users] == [
            None if s.user is None else _values(s.user) for s in orm
        ]
        assert users[0] is not None and users[1:] == [None, None, None]  # alice, three bots
        assert all(not s._state.adding and s._state.db == "default" for s in seats)
    assert room_seats(Room(pk=-1)) == []


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("server_side_binding", [False, True])
def test_the_lock_with_the_seats_reads_what_the_two_reads_give(
    started: Room, server_side_binding: bool, monkeypatch: Any
) -> None:
    """The same room and seats as :func:`room_locked` then :func:`room_seats`; one query on
    PostgreSQL with client-side binding (Django's default), two elsewhere."""
    options = connection.settings_dict["OPTIONS"]
    monkeypatch.setitem(options, "server_side_binding", server_side_binding)
    with pytest.raises(TransactionManagementError):
        room_locked_with_seats(started.number)
    for _ in range(2):  # built on the first call, reused on the second
        with transaction.atomic():
            apart = room_locked(started.number)
            assert apart is not None
            apart_seats = room_seats(apart)
            with CaptureQueriesContext(connection) as queries:
                room, seats = room_locked_with_seats(started.number)
                assert room_locked_with_seats("999999") == (None, [])
        assert room is not None and _values(room) == _values(apart)
        assert [_values(s) for s in seats] == [_values(s) for s in apart_seats]
        assert [None if s.user is None else _values(s.user) for s in seats] == [
            None if s.user is None else _values(s.user) for s in apart_seats
        ]
        one_trip = connection.vendor == "postgresql" and not server_side_binding
        assert len(queries) == (2 if one_trip else 3)  # no seats are read for no room
        assert ("FOR UPDATE" in queries[0]["sql"]) == connection.features.has_select_for_update


@pytest.mark.parametrize("deadline", [True, False])
def test_the_room_save_writes_what_the_orm_writes(started: Room, deadline: bool) -> None:
    """Every saved field, JSON and times included, reads back as ``Model.save(update_fields=)``
    leaves it; a None (no deadline) is stored as NULL; other fields are left alone."""
    assert started.state is not None
    for room, write in ((started, room_save), (Room.objects.get(pk=started.pk), None)):
        room.state = {**started.state, "note": ["宝", 1, None, {"x": 2.5}]}
        room.version += 1
        room.deadline = timezone.now() if deadline else None
        room.turn_deadline = None if deadline else timezone.now()
        room.moved_at = timezone.now()
        room.name = "not saved"
        with CaptureQueriesContext(connection) as queries:
            if write is not None:
                write(room)
            else:
                room.save(update_fields=list(ROOM_SAVED))
        assert len(queries) == 1
        fresh = Room.objects.get(pk=started.pk)
        assert [getattr(fresh, f) for f in ROOM_SAVED] == [getattr(room, f) for f in ROOM_SAVED]
        assert fresh.name != "not saved"
    assert Room.objects.filter(pk=started.pk, deadline__isnull=not deadline).exists()


def test_saving_a_room_that_is_not_there_is_an_error(started: Room) -> None:
    ghost = Room.objects.get(pk=started.pk)
    ghost.pk = started.pk + 1000
    with pytest.raises(DatabaseError, match="not saved"):
        room_save(ghost)


@pytest.mark.django_db(transaction=True)
def test_a_state_orjson_refuses_is_saved_as_json_would_save_it(started: Room) -> None:
    """The state is encoded by orjson, which refuses what the standard library takes (an int
    past 64 bits, a key that is not a string): such a state is still saved, and reads back
    through the lock as through the ORM."""
    assert started.state is not None
    room = Room.objects.get(pk=started.pk)
    room.state = {**started.state, "big": 2**70 + 1, "keyed": {1: "one"}}
    room.version += 1
    room_save(room)
    with transaction.atomic():
        locked = room_locked(started.number)
    assert locked is not None and locked.state is not None
    assert locked.state == Room.objects.get(pk=started.pk).state
    assert locked.state["big"] == 2**70 + 1 and locked.state["keyed"] == {"1": "one"}
