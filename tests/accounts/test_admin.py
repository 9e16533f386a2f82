"""Players who left a record anywhere (a room, the book, a vote, the audit log) are
deactivated in the admin, never deleted."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from engine.rules import Rules
from tables.models import Room
from tables.rooms import services
from tests.tables.factories import send, start_with_four_people


@pytest.fixture
def superuser(make_user: Any) -> Any:
    boss = make_user("boss")
    boss.is_staff = boss.is_superuser = True
    boss.save()
    return boss


def can_delete(client: Client, user: Any) -> bool:
    return client.get(f"/admin/accounts/user/{user.pk}/delete/").status_code == 200


def test_room_owners_and_voters_cannot_be_deleted(
    client: Client, superuser: Any, make_user: Any
) -> None:
    client.force_login(superuser)
    users = [make_user(n) for n in ("alice", "bob", "carol", "dave")]
    newcomer, owner = make_user("newcomer"), make_user("owner")
    assert can_delete(client, newcomer) and can_delete(client, owner)
    services.room_create(owner=owner, name="x", is_public=True, rules=Rules(), match_length=1)
    room = start_with_four_people(users)
    send(room, users[1], {"action": "dissolve_propose"})
    send(room, users[2], {"action": "dissolve_answer", "agree": "0"})
    assert not can_delete(client, owner)  # owns a room, though it never started
    assert not can_delete(client, users[1]) and not can_delete(client, users[2])
    assert can_delete(client, newcomer)
    assert Room.objects.count() == 2
