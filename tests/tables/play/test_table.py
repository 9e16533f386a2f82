"""tables.play.table: a room's game loaded from its stored state, locked and written back."""

from __future__ import annotations

import random
from dataclasses import replace
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection, transaction
from django.utils import timezone

from engine.hand import apply, waiting_on
from engine.play.bots import choose_action
from engine.tiles import format_tile
from engine.views import seat_info
from tables.models import Room, Seat
from tables.play import clock, inputs
from tables.play.protocol import PlayError, parse_message
from tables.play.table import load_table, must_act, table_locked, table_save
from tables.play.windows import public_step
from tests.tables.factories import hand_of, start_with_bots, start_with_four_people

pytestmark = pytest.mark.usefixtures("english")


def test_state_survives_a_reload_from_the_database(started: Room) -> None:
    """A restart loses nothing: the stored JSON is the whole game."""
    first = hand_of(started)
    again = Room.objects.get(pk=started.pk)
    table = load_table(again)
    assert table is not None and table.hand is not None
    assert table.hand.to_json() == first.to_json()


def test_a_waiting_room_has_no_table_yet(room: Room) -> None:
    assert load_table(room) is None
    with transaction.atomic(), pytest.raises(PlayError, match="not started"):
        table_locked(room.number)


def test_locking_a_room_that_does_not_exist_is_refused(db: None) -> None:
    with transaction.atomic(), pytest.raises(PlayError, match="no room 999999"):
        table_locked("999999")


def test_saving_writes_the_state_and_a_new_version(started: Room) -> None:
    with transaction.atomic():
        table = table_locked(started.number)
        version = table.room.version
        table.match.totals[0] += 7  # any change to the game
        table_save(table)
    again = load_table(Room.objects.get(pk=started.pk))
    assert again is not None
    assert again.match.totals[0] == 7 and again.room.version == version + 1
    assert again.hand_row is not None and again.hand is not None
    # The log lives in room.state while the hand is played; its record gets it at the end.
    assert (
        again.hand_row.actions == [] and table.hand is not None and again.hand.log == table.hand.log
    )


def test_the_table_waits_for_the_engine_then_for_the_unready(started: Room) -> None:
    table = load_table(started)
    assert table is not None and table.hand is not None
    assert must_act(table) == waiting_on(table.hand)
    table.hand = replace(table.hand, phase="ended")
    table.seats[2].ready = False
    assert must_act(table) == [i for i in range(4) if not table.seats[i].ready]
    table.room.status = Room.Status.FINISHED
    assert must_act(table) == []


def test_moved_at_follows_moves_not_pages(user: Any) -> None:
    room = start_with_bots(user, seed="moved-at", tuoguan=True)
    long_ago = timezone.now() - timedelta(hours=1)
    Room.objects.filter(pk=room.pk).update(moved_at=long_ago)
    inputs.seat_connect(number=room.number, user=user)
    assert Room.objects.get(pk=room.pk).moved_at == long_ago
    room.refresh_from_db()
    assert room.deadline is not None
    assert clock.advance(room.number, now=room.deadline)
    moved = Room.objects.get(pk=room.pk).moved_at
    assert moved is not None and moved > long_ago


def test_a_move_reads_the_table_in_one_round_trip_and_writes_one_row(
    make_user: Any, django_assert_num_queries: Any
) -> None:
    """The room locked and its seats, in one query string on PostgreSQL (two queries on
    SQLite); the 解散 votes are not read while ``room.state`` says none runs (the move's
    check, the clock's and the pages' the move is pushed to all ask), nor is the hand's
    row; one UPDATE of the room."""
    started = start_with_four_people([make_user(f"p{i}") for i in range(4)])
    Seat.objects.filter(room=started).update(tuoguan=False)  # else the move takes it off
    table = load_table(started)
    assert table is not None and table.hand is not None
    hand = table.hand
    seat = table.seats[hand.turn]
    assert seat.user is not None
    tile = format_tile(hand.drawn if hand.drawn is not None else hand.hands[hand.turn][0])
    step = public_step(table.room)
    message = parse_message({"action": "discard", "tile": tile, "step": str(step)})
    reads = 1 if connection.vendor == "postgresql" else 2
    with django_assert_num_queries(reads + 3) as captured:  # the savepoint and its release
        inputs.table_act(number=started.number, user=seat.user, message=message)
    sql = [q["sql"] for q in captured.captured_queries]
    assert not any('FROM "tables_hand"' in q or "tables_dissolve" in q for q in sql)
    assert sum(q.startswith("UPDATE") for q in sql) == 1


def test_the_hand_row_is_read_when_asked_for_and_the_hash_comes_from_the_state(
    started: Room, django_assert_num_queries: Any
) -> None:
    room = Room.objects.get(pk=started.pk)
    with django_assert_num_queries(1):  # the seats
        table = load_table(room)
    assert table is not None and table.seed_hash is not None and table.hand_id is not None
    with django_assert_num_queries(1):
        row = table.hand_row
    assert row is not None and row.seed_hash == table.seed_hash and row.pk == table.hand_id
    with django_assert_num_queries(0):
        assert table.hand_row is row


def test_a_state_saved_without_the_hash_reads_it_from_the_hand_row(started: Room) -> None:
    state = dict(started.state or {})
    del state["seed_hash"]
    Room.objects.filter(pk=started.pk).update(state=state)
    table = load_table(Room.objects.get(pk=started.pk))
    assert table is not None and table.hand_row is not None
    assert table.seed_hash == table.hand_row.seed_hash


def test_the_spectators_view_is_built_once_per_hand_state(started: Room) -> None:
    """The public part and the four seats' own parts of a change share one spectators'
    view; a new hand state (the engine never changes one in place) gets its own."""
    t = load_table(started)
    assert t is not None and t.hand is not None
    first = t.public_info()
    assert t.public_info() is first
    assert first == seat_info(t.hand, None) and first.seat is None
    seat = waiting_on(t.hand)[0]
    action = choose_action("basic", seat_info(t.hand, seat), random.Random(1))
    t.hand, _events = apply(t.hand, seat, action)
    after = t.public_info()
    assert after is not first and after == seat_info(t.hand, None)
