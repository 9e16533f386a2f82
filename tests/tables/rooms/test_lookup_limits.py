"""tables.rooms.lookup_limits: room-number misses."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.core.cache import cache

from tables.rooms import lookup_limits


@pytest.fixture(autouse=True)
def _clean_cache() -> Iterator[None]:
    cache.clear()
    yield
    cache.clear()


def test_misses_count_against_the_account_or_else_the_address(settings: Any) -> None:
    settings.ROOM_LOOKUP_MISSES_ALLOWED = 2
    settings.ROOM_LOOKUP_MISSES_PER_IP_ALLOWED = 3
    lookup_limits.lookup_miss_count(user_id=1, ip="a")
    lookup_limits.lookup_miss_count(user_id=1, ip="b")
    assert lookup_limits.lookup_misses_exhausted(user_id=1, ip="c")
    assert not lookup_limits.lookup_misses_exhausted(user_id=2, ip="a")
    assert not lookup_limits.lookup_misses_exhausted(
        user_id=None, ip="a"
    )  # 2 logged-in misses: 0 here
    for _ in range(3):
        lookup_limits.lookup_miss_count(user_id=None, ip="a")
    assert lookup_limits.lookup_misses_exhausted(user_id=None, ip="a")
    assert not lookup_limits.lookup_misses_exhausted(user_id=4, ip="a")


def test_window_count_add_counts_within_its_window() -> None:
    assert [lookup_limits.window_count_add(key="k", window_seconds=60) for _ in range(3)] == [
        1,
        2,
        3,
    ]
