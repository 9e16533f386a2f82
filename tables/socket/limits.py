"""How much one client may do: sockets open at once, inputs per second, room numbers guessed.

Counts that several server processes must agree on live in the shared cache (Redis in
production): sockets hold numbered slots there, and numbers that lead nowhere are counted per
account and per IP address. The input rate is per socket, so it lives in the consumer's memory.

Socket slots are leases: a socket takes a free slot with ``cache.add`` (atomic across processes),
renews it with every heartbeat and gives it back when it closes. A process that dies without
closing its sockets leaves leases that run out by themselves after :func:`slot_lease`.

>>> bucket = TokenBucket(rate=10, burst=2, now=0.0)
>>> [bucket.take(0.0), bucket.take(0.0), bucket.take(0.0), bucket.take(0.1)]
[True, True, False, True]
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import timedelta

from django.conf import settings
from django.core.cache import cache

__all__ = [
    "TokenBucket",
    "lookup_miss_count",
    "lookup_misses_exhausted",
    "slot_lease",
    "socket_slots_release",
    "socket_slots_renew",
    "socket_slots_take",
    "window_count_add",
]


@dataclass
class TokenBucket:
    """``rate`` inputs a second on average, ``burst`` at once; :meth:`take` says if one may pass."""

    rate: float
    burst: float
    now: float
    tokens: float = field(init=False)

    def __post_init__(self) -> None:
        self.tokens = self.burst

    def take(self, now: float) -> bool:
        self.tokens = min(self.burst, self.tokens + (now - self.now) * self.rate)
        self.now = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


# ---------------------------------------------------------------- sockets


def slot_lease() -> timedelta:
    """How long a socket's slot lasts unless its heartbeat renews it: two and a half beats,
    so a killed process's sockets (and the pages they count, :func:`account_sockets_at`)
    are gone within ``2.5 * TABLE_HEARTBEAT_SECONDS``."""
    return timedelta(seconds=2.5 * float(getattr(settings, "TABLE_HEARTBEAT_SECONDS", 4)))


def _account_room(user_id: int, number: str) -> tuple[str, int]:
    return f"user-room:{user_id}:{number}", settings.TABLE_SOCKETS_PER_ACCOUNT_ROOM


def _scopes(user_id: int, number: str, seated: bool) -> list[tuple[str, int]]:
    """A seated player's sockets count only against their own account: spectators, however
    many, can never keep a player from their own table (N1). Spectators have caps of their
    own, per account and per room."""
    scopes = [
        _account_room(user_id, number),
        (f"user:{user_id}", settings.TABLE_SOCKETS_PER_ACCOUNT),
    ]
    if not seated:
        scopes += [
            (f"spectating:{user_id}", settings.TABLE_SPECTATOR_SOCKETS_PER_ACCOUNT),
            (f"spectators:{number}", settings.TABLE_SPECTATORS_PER_ROOM),
        ]
    return scopes


def _slot_keys(scope: str, limit: int) -> list[str]:
    return [f"tables:sockets:{scope}:{i}" for i in range(limit)]


def _slot_take(scope: str, limit: int, channel: str) -> str | None:
    keys = _slot_keys(scope, limit)
    held = cache.get_many(keys)
    timeout = slot_lease().total_seconds()
    for key in keys:
        if key not in held and cache.add(key, channel, timeout=timeout):
            return key
    return None


def socket_slots_take(
    *, user_id: int, number: str, channel: str, seated: bool = False
) -> list[str] | None:
    """A slot for a new socket of ``user_id`` at room ``number`` in each of its limits
    (per account and room, per account; for a spectator also per spectating account and per
    room); None, holding nothing, if one is full."""
    taken: list[str] = []
    for scope, limit in _scopes(user_id, number, seated):
        key = _slot_take(scope, limit, channel)
        if key is None:
            socket_slots_release(keys=taken, channel=channel)
            return None
        taken.append(key)
    return taken


def account_sockets_at(*, user_id: int, number: str) -> int:
    """How many sockets ``user_id`` holds open at room ``number``, counted by their leases:
    across processes on Redis, and a killed process's run out with their lease."""
    return len(cache.get_many(_slot_keys(*_account_room(user_id, number))))


def connect_allowed(*, user_id: int, number: str) -> bool:
    """One more socket opening by ``user_id`` at room ``number`` is within the rate: opening
    and closing pages is an input like any other (each may change the seat's presence)."""
    count = window_count_add(key=f"tables:connects:{user_id}:{number}", window_seconds=60)
    return count <= settings.TABLE_CONNECTS_PER_MINUTE


def socket_slots_renew(leases: Mapping[str, str]) -> None:
    """The sockets holding ``leases`` (slot key: its socket's channel) are still open: their
    leases start again. One round trip to Redis (two to another cache) however many there
    are, since one beat renews every page of a process (a round trip per slot made 1,200
    round trips a beat at 400 pages on Redis, on the database thread, with the moves queued
    behind them). A lease that ran out is taken back, unless another socket took the slot
    meanwhile: then the slot is that socket's."""
    if not leases:
        return
    timeout = slot_lease().total_seconds()
    renew = getattr(cache, "leases_renew", None)
    if renew is not None:  # Redis (config.cache): all of it in one round trip
        renew(leases, timeout)
        return
    held = cache.get_many(list(leases))
    cache.set_many({k: c for k, c in leases.items() if held.get(k) == c}, timeout=timeout)
    for key, channel in leases.items():
        if key not in held:
            cache.add(key, channel, timeout=timeout)


def socket_slots_release(*, keys: list[str], channel: str) -> None:
    """The socket closed: free the slots that are still its own."""
    for key in keys:
        if cache.get(key) == channel:
            cache.delete(key)


# ---------------------------------------------------------------- guessing room numbers


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
