from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.core.cache import cache


@pytest.fixture(autouse=True)
def _clear_cache() -> Iterator[None]:
    """Login rate-limit counters live in the cache; start and end every test clean."""
    cache.clear()
    yield
    cache.clear()
