"""Room numbers guessed: numbers that lead nowhere are counted per account (or, logged out, per
address) in the shared cache, so the limit holds across server processes."""

from __future__ import annotations

from django.conf import settings
from django.core.cache import cache

__all__ = [
    "lookup_miss_count",
    "lookup_misses_exhausted",
    "window_count_add",
]


def window_count_add(*, key: str, window_seconds: int) -> int:
    """Add one to the counter ``key`` in the cache; returns the count in its window.

    The window starts at the first count and lasts ``window_seconds``; the cache is shared by
    every server process (Redis in production), so the limit holds across them.
    """
    cache.add(key, 0, timeout=window_seconds)
    try:
        return cache.incr(key)
    except ValueError:  # expired between add() and incr()
        cache.set(key, 1, timeout=window_seconds)
        return 1


def _miss_keys(user_id: int | None, ip: str) -> list[tuple[str, int]]:
    """A logged-in person's misses count against their account only; ``user_id`` None:
    someone not logged in, counted by address."""
    if user_id is not None:
        return [(f"tables:room-misses:user:{user_id}", settings.ROOM_LOOKUP_MISSES_ALLOWED)]
    return [(f"tables:room-misses:ip:{ip}", settings.ROOM_LOOKUP_MISSES_PER_IP_ALLOWED)]


def lookup_misses_exhausted(*, user_id: int | None, ip: str) -> bool:
    """Has this account (or, logged out, this address) used up the numbers that may miss?"""
    return any(int(cache.get(key) or 0) >= limit for key, limit in _miss_keys(user_id, ip))


def lookup_miss_count(*, user_id: int | None, ip: str) -> None:
    """A room number asked for by this account (or, logged out, this address) led nowhere."""
    for key, _limit in _miss_keys(user_id, ip):
        window_count_add(key=key, window_seconds=settings.ROOM_LOOKUP_WINDOW_SECONDS)
