"""Per-loop objects and the per-room locks and values of :mod:`tables.socket.loop_local`."""

from __future__ import annotations

import asyncio

import pytest

from tables.socket.loop_local import PerLoop, Rooms


def test_per_loop_makes_one_object_per_event_loop() -> None:
    made: PerLoop[list[int]] = PerLoop(list)

    async def get() -> list[int]:
        return made.get()

    async def twice() -> bool:
        return made.get() is made.get()

    assert asyncio.run(twice())
    assert asyncio.run(get()) is not asyncio.run(get())


def test_the_least_recently_used_room_goes_first() -> None:
    rooms: Rooms[int] = Rooms(max_rooms=2)
    rooms.put("1", 1)
    rooms.put("2", 2)
    rooms.used("1")
    rooms.put("3", 3)
    assert set(rooms.values) == {"1", "3"}


def test_a_failed_user_leaves_no_lock_behind() -> None:
    rooms: Rooms[int] = Rooms(max_rooms=2)

    async def fail() -> None:
        async with rooms.locked("1"):
            raise RuntimeError("the read failed")

    with pytest.raises(RuntimeError):
        asyncio.run(fail())
    assert rooms.locks == {}


def test_a_room_evicted_while_locked_leaves_no_lock_behind() -> None:
    rooms: Rooms[int] = Rooms(max_rooms=1)

    async def evict_meanwhile() -> None:
        async with rooms.locked("1"):
            rooms.put("1", 1)
            rooms.put("2", 2)
            assert "1" in rooms.locks

    asyncio.run(evict_meanwhile())
    assert rooms.locks == {} and list(rooms.values) == ["2"]


def test_a_cancelled_waiter_leaves_no_lock_behind() -> None:
    rooms: Rooms[int] = Rooms(max_rooms=2)

    async def cancel_a_waiter() -> None:
        async with rooms.locked("1"):
            waiter = asyncio.ensure_future(_enter(rooms, "1"))
            await asyncio.sleep(0)
            waiter.cancel()
            with pytest.raises(asyncio.CancelledError):
                await waiter
        assert rooms.locks == {}

    asyncio.run(cancel_a_waiter())


async def _enter(rooms: Rooms[int], number: str) -> None:
    async with rooms.locked(number):
        pass


def test_a_newcomer_queues_behind_a_waiter_being_woken() -> None:
    """The moment the holder lets go, its waiter is woken but not yet running: the lock looks
    free. A newcomer must still get the same lock, never a second one beside it."""
    rooms: Rooms[int] = Rooms(max_rooms=2)
    inside: list[str] = []
    order: list[str] = []

    async def use(name: str, hold: asyncio.Event | None = None) -> None:
        async with rooms.locked("1"):
            assert not inside, f"{name} entered while {inside} held the room"
            inside.append(name)
            order.append(name)
            if hold is not None:
                await hold.wait()
            await asyncio.sleep(0)
            inside.remove(name)

    async def race() -> None:
        release = asyncio.Event()
        first = asyncio.ensure_future(use("first", release))
        await asyncio.sleep(0)
        waiter = asyncio.ensure_future(use("waiter"))
        await asyncio.sleep(0)
        release.set()
        while "first" in inside or not first.done():
            await asyncio.sleep(0)
        # first has left; waiter is woken but may not have run yet
        await asyncio.gather(use("newcomer"), waiter)

    asyncio.run(race())
    assert order == ["first", "waiter", "newcomer"]
    assert rooms.locks == {}
