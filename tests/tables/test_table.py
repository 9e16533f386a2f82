"""tables.table: a room's game loaded from its stored state, locked and written back."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta
from typing import Any

import pytest
from django.db import transaction
from django.utils import timezone

from engine.hand import waiting_on
from tables import clock, services
from tables.models import Room
from tables.protocol import PlayError
from tables.table import load_table, must_act, table_locked, table_save
from tests.tables.factories import hand_of, start_with_bots

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
    services.seat_connect(number=room.number, user=user)
    assert Room.objects.get(pk=room.pk).moved_at == long_ago
    room.refresh_from_db()
    assert room.deadline is not None
    assert clock.advance(room.number, now=room.deadline)
    moved = Room.objects.get(pk=room.pk).moved_at
    assert moved is not None and moved > long_ago
