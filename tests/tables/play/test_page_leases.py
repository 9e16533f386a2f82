"""tables.play.page_leases: socket slots in the shared cache."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any
from unittest import mock

import pytest
from django.core.cache import cache, caches

from tables.play import page_leases


@pytest.fixture(autouse=True)
def _clean_cache() -> Iterator[None]:
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def small(settings: Any) -> None:
    settings.TABLE_SOCKETS_PER_ACCOUNT_ROOM = 2
    settings.TABLE_SOCKETS_PER_ACCOUNT = 3
    settings.TABLE_SPECTATORS_PER_ROOM = 3
    settings.TABLE_SPECTATOR_SOCKETS_PER_ACCOUNT = 3


@pytest.mark.usefixtures("small")
def test_slots_are_counted_per_account_room_account_and_room() -> None:
    a = [
        page_leases.socket_slots_take(user_id=1, number="111111", channel=f"a{i}") for i in range(3)
    ]
    assert a[0] and a[1] and a[2] is None  # two per account at one room
    b = page_leases.socket_slots_take(user_id=1, number="222222", channel="b")
    assert b is not None
    assert (
        page_leases.socket_slots_take(user_id=1, number="333333", channel="c") is None
    )  # 3 per account
    others = [
        page_leases.socket_slots_take(user_id=u, number="111111", channel=f"o{u}") for u in (2, 3)
    ]
    assert others[0] and others[1] is None  # 3 per room: a0, a1 and o2
    assert a[0] is not None
    page_leases.socket_slots_release(keys=a[0], channel="a0")
    assert page_leases.socket_slots_take(user_id=3, number="111111", channel="o3") is not None


@pytest.mark.usefixtures("small")
def test_a_refused_socket_holds_nothing() -> None:
    for i in range(3):
        page_leases.socket_slots_take(user_id=1, number=f"10000{i}", channel=f"c{i}")
    assert page_leases.socket_slots_take(user_id=1, number="100009", channel="x") is None
    # The per-account-room and per-room slots it took on the way were given back.
    assert page_leases.socket_slots_take(user_id=2, number="100009", channel="y") is not None


@pytest.mark.usefixtures("small")
def test_a_slot_is_freed_only_by_its_own_socket() -> None:
    keys = page_leases.socket_slots_take(user_id=1, number="111111", channel="mine")
    assert keys is not None
    page_leases.socket_slots_release(keys=keys, channel="someone-else")
    assert all(cache.get(k) == "mine" for k in keys)


@pytest.mark.usefixtures("small")
def test_leases_run_out_unless_renewed(settings: Any) -> None:
    """A process that died leaves leases behind; they end by themselves."""
    settings.TABLE_HEARTBEAT_SECONDS = 0.4  # leases of 1 s
    keys = page_leases.socket_slots_take(user_id=1, number="111111", channel="gone")
    assert keys is not None
    cache.delete(keys[0])  # as if it ran out: renewing takes it back
    page_leases.socket_slots_renew(dict.fromkeys(keys, "gone"))
    assert cache.get(keys[0]) == "gone"
    assert page_leases.slot_lease().total_seconds() == pytest.approx(1.0)


@pytest.mark.usefixtures("small")
def test_one_beat_renews_every_lease_in_one_or_two_round_trips() -> None:
    """A process's beat renews all its pages' slots at once: a round trip per slot made 1,200
    round trips a beat at 400 pages on Redis, with the moves queued behind them. On Redis
    (``config.cache``) it is one script; another cache gets one read and one write."""
    leases: dict[str, str] = {}
    for u in (1, 2, 3):
        keys = page_leases.socket_slots_take(user_id=u, number=f"10000{u}", channel=f"c{u}")
        assert keys is not None
        leases.update(dict.fromkeys(keys, f"c{u}"))
    gone, stolen, *kept = leases
    cache.delete(gone)  # its lease ran out
    cache.delete(stolen)  # ran out, and another socket took the slot
    cache.add(stolen, "other")
    backend = caches["default"]
    scripted = hasattr(backend, "leases_renew")
    with (
        mock.patch.object(backend, "get_many", wraps=backend.get_many) as get_many,
        mock.patch.object(backend, "set_many", wraps=backend.set_many) as set_many,
        mock.patch.object(backend, "touch") as touch,
        mock.patch.object(backend, "add", wraps=backend.add) as add,
    ):
        page_leases.socket_slots_renew(leases)
    calls = (get_many.call_count, set_many.call_count, add.call_count, touch.call_count)
    if scripted:
        assert calls == (0, 0, 0, 0)
    else:  # one read, one write, and an add only for the lease that ran out
        assert calls == (1, 1, 1, 0)
        assert set(set_many.call_args.args[0]) == set(kept)
        assert set_many.call_args.kwargs["timeout"] == page_leases.slot_lease().total_seconds()
    assert cache.get(gone) == leases[gone]  # taken back
    assert cache.get(stolen) == "other"  # left to the socket that holds it now
    assert all(cache.get(k) == leases[k] for k in kept)


def test_a_seated_player_is_never_counted_against_the_spectators_caps(settings: Any) -> None:
    """N1: the room's cap holds spectators only."""
    settings.TABLE_SPECTATORS_PER_ROOM = 2
    settings.TABLE_SPECTATOR_SOCKETS_PER_ACCOUNT = 1
    assert page_leases.socket_slots_take(user_id=10, number="123456", channel="s1")
    assert page_leases.socket_slots_take(user_id=10, number="123456", channel="s2") is None
    assert page_leases.socket_slots_take(user_id=11, number="123456", channel="s3")
    assert page_leases.socket_slots_take(user_id=12, number="123456", channel="s4") is None
    player = page_leases.socket_slots_take(user_id=1, number="123456", channel="p1", seated=True)
    assert player is not None and not any("spectat" in k for k in player)


def test_a_killed_processs_sockets_stop_counting_within_ten_seconds(settings: Any) -> None:
    """N6: pages are counted by their slots' leases, which run out 2.5 heartbeats (10 s by
    default) after the last renewal of a process that died without closing them."""
    from django.conf import settings as defaults

    assert page_leases.slot_lease().total_seconds() == 2.5 * defaults.TABLE_HEARTBEAT_SECONDS <= 10
    settings.TABLE_HEARTBEAT_SECONDS = 0.8  # leases of 2 s (Redis keeps whole seconds)
    page_leases.socket_slots_take(user_id=7, number="654321", channel="dead", seated=True)
    page_leases.socket_slots_take(user_id=7, number="654321", channel="alive", seated=True)
    assert page_leases.account_sockets_at(user_id=7, number="654321") == 2
    time.sleep(1.2)
    page_leases.socket_slots_renew({k: "alive" for k in _held(7, "654321", "alive")})
    time.sleep(1.2)
    assert page_leases.account_sockets_at(user_id=7, number="654321") == 1


def _held(user_id: int, number: str, channel: str) -> list[str]:
    from django.core.cache import cache

    keys = [f"tables:sockets:user-room:{user_id}:{number}:{i}" for i in range(8)]
    return [k for k, v in cache.get_many(keys).items() if v == channel]
