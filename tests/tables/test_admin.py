"""The admin: rooms can be closed; seats, hands and transfers are read, never edited."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from tables.models import Hand, Room
from tests.tables.factories import start_with_bots


@pytest.fixture
def staff(make_user: Any) -> Any:
    admin = make_user("boss")
    admin.is_staff = admin.is_superuser = True
    admin.save()
    return admin


def test_a_hand_in_play_shows_no_action_log(client: Client, staff: Any, user: Any) -> None:
    room = start_with_bots(user)
    hand = Hand.objects.get(room=room)
    client.force_login(staff)
    page = client.get(f"/admin/tables/hand/{hand.pk}/change/")
    assert page.status_code == 200
    html = page.content.decode()
    assert hand.seed not in html
    assert "field-actions" not in html and "field-result" not in html
    # Read-only: an edit is refused and the log stays as the engine wrote it.
    before = (hand.dealer, hand.actions)
    reply = client.post(f"/admin/tables/hand/{hand.pk}/change/", {"dealer": 3, "actions": "[]"})
    assert reply.status_code == 403
    hand.refresh_from_db()
    assert (hand.dealer, hand.actions) == before


def test_the_room_page_hides_the_live_state_and_keeps_seats(
    client: Client, staff: Any, user: Any
) -> None:
    room = start_with_bots(user)
    client.force_login(staff)
    html = client.get(f"/admin/tables/room/{room.pk}/change/").content.decode()
    assert room.state is not None
    assert '"wall"' not in html and Hand.objects.get(room=room).seed not in html
    assert 'name="seats-0-user"' not in html  # seats are not editable


def test_the_close_action_finishes_rooms(client: Client, staff: Any, user: Any) -> None:
    room = start_with_bots(user)
    client.force_login(staff)
    client.post(
        "/admin/tables/room/",
        {"action": "close_rooms", "_selected_action": [room.pk]},
    )
    room.refresh_from_db()
    assert room.status == Room.Status.FINISHED
    assert Hand.objects.get(room=room).ended_at is not None
