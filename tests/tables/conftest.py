from __future__ import annotations

from typing import Any

import pytest

from engine.rules import Rules
from tables.models import Room
from tables.rooms import services
from tests.tables.factories import start_with_bots


@pytest.fixture
def room(user: Any) -> Any:
    """alice's waiting room: standard rules, 8 hands, 20 s a turn."""
    return services.room_create(
        owner=user,
        name="Friday",
        is_public=True,
        rules=Rules.profile_named("standard"),
        match_length=8,
        turn_seconds=20,
    )


@pytest.fixture
def started(user: Any) -> Room:
    """alice in seat 0 (ready) and three bots; the match has started on a known deal."""
    return start_with_bots(user, seed="play-tests")


@pytest.fixture
def referee(make_user: Any) -> Any:
    """A staff member (not a superuser): what the staff desk and its actions need."""
    u = make_user("referee")
    u.is_staff = True
    u.save()
    return u


@pytest.fixture
def people(make_user: Any) -> tuple[Room, list[Any]]:
    """alice, bob, carol and dave at a table in play, all on 托管."""
    from tests.tables.factories import start_with_four_people

    users = [make_user(n) for n in ("alice", "bob", "carol", "dave")]
    return start_with_four_people(users), users
