"""tables.socket.limits: the token bucket."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.core.cache import cache

from tables.socket.limits import TokenBucket


@pytest.fixture(autouse=True)
def _clean_cache() -> Iterator[None]:
    cache.clear()
    yield
    cache.clear()


def test_the_bucket_refills_at_its_rate_up_to_its_burst() -> None:
    bucket = TokenBucket(rate=10, burst=20, now=0.0)
    assert sum(bucket.take(0.0) for _ in range(50)) == 20
    assert sum(bucket.take(1.0) for _ in range(50)) == 10  # one second: ten more
    assert sum(bucket.take(100.0) for _ in range(50)) == 20  # never more than the burst
