from __future__ import annotations

from typing import Any

import pytest

from engine.rules import Rules
from tables import services
from tables.models import Room
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
