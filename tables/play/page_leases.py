"""The pages each account holds open at a table, as leases in the shared cache.

Every socket takes a numbered slot per limit with ``cache.add`` (atomic across processes, Redis
in production), renews it with every heartbeat and gives it back when it closes. A process that
dies without closing its sockets leaves leases that run out by themselves after
:func:`slot_lease`. Presence counts a seat's pages by these leases (:func:`account_sockets_at`).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import timedelta

from django.conf import settings
from django.core.cache import cache

__all__ = [
    "slot_lease",
    "socket_slots_release",
    "socket_slots_renew",
    "socket_slots_take",
]


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


def socket_slots_renew(leases: Mapping[str, str]) -> None:
    """The sockets holding ``leases`` (slot key: its socket's channel) are still open: their
    leases start again. One round trip to Redis (two to another cache) however many there
    are, since one beat renews every page of a process: a round trip per slot would be three
    a page every beat, on the database thread, with the moves queued behind them. A lease
    that ran out is taken back, unless another socket took the slot meanwhile: then the slot
    is that socket's."""
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
