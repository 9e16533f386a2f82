from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from tables.models import AuditEntry, Room, Seat

pytestmark = pytest.mark.usefixtures("english")

ACTIONS = ["dissolve", "replace", "close_hand", "rearm"]


def test_the_desk_is_a_404_for_everyone_but_staff(client: Client, people: Any) -> None:
    room, users = people
    assert client.get("/staff/tables/").status_code == 404
    client.force_login(users[0])  # the room's owner, not staff
    assert client.get("/staff/tables/").status_code == 404
    for action in ACTIONS:
        url = f"/staff/tables/{room.number}/{action}/"
        response = client.post(url, {"reason": "mine", "seat": "1"})
        assert response.status_code == 404
    assert not AuditEntry.objects.exists()
    room.refresh_from_db()
    assert room.status == Room.Status.PLAYING


def test_the_desk_lists_the_table(client: Client, people: Any, referee: Any) -> None:
    room, _users = people
    client.force_login(referee)
    page = client.get("/staff/tables/")
    assert page.status_code == 200
    text = page.content.decode()
    assert f'data-room="{room.number}"' in text and "bob" in text


@pytest.mark.parametrize("action", ACTIONS)
def test_each_action_writes_the_audit_log(
    client: Client, people: Any, referee: Any, action: str
) -> None:
    room, _users = people
    client.force_login(referee)
    response = client.post(
        f"/staff/tables/{room.number}/{action}/", {"reason": "a reason", "seat": "2"}
    )
    assert response.status_code == 302 and response["Location"] == "/staff/tables/"
    entry = AuditEntry.objects.get()
    assert (entry.room, entry.staff, entry.action, entry.reason) == (
        room,
        referee,
        action,
        "a reason",
    )
    record = client.get(f"/r/{room.number}/record/").content.decode()
    assert f'data-audit="{action}"' in record and "a reason" in record
    if action == "replace":
        assert Seat.objects.get(room=room, index=2).user is None


def test_an_action_without_a_reason_is_refused(client: Client, people: Any, referee: Any) -> None:
    room, _users = people
    client.force_login(referee)
    response = client.post(
        f"/staff/tables/{room.number}/dissolve/",
        {"reason": ""},
        follow=True,
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert "Give a reason" in response.content.decode()
    assert not AuditEntry.objects.exists()
    assert client.post(f"/staff/tables/{room.number}/explode/", {"reason": "x"}).status_code == 404


def test_the_record_is_for_the_rooms_players(
    client: Client, people: Any, make_user: Callable[..., Any]
) -> None:
    room, users = people
    client.force_login(make_user("stranger"))
    assert client.get(f"/r/{room.number}/record/").status_code == 404
    client.force_login(users[3])
    page = client.get(f"/r/{room.number}/record/")
    assert page.status_code == 200 and 'data-hand="1"' in page.content.decode()
