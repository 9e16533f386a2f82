from __future__ import annotations

from typing import Any

import pytest

from engine.rules import Rules
from tables import services


@pytest.fixture
def room(user: Any) -> Any:
    return services.create_room(user, "Friday", True, Rules.profile_named("standard"), 8, 20)
