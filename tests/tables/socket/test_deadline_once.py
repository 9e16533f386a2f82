"""tables.socket.deadline_once: a process's pages waiting for the same deadline tick it once."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from functools import partial

import pytest

from tables.socket.deadline_once import Ticks, ticks

DUE = datetime(2026, 12, 3, 20, 0, tzinfo=UTC)


async def test_four_pages_firing_at_once_tick_the_deadline_once() -> None:
    calls: list[str] = []

    async def advance() -> str:
        calls.append("advance")
        await asyncio.sleep(0.01)  # a transaction: the other pages fire meanwhile
        return "committed"

    t = Ticks()
    results = await asyncio.gather(*(t.once("1", DUE, advance) for _ in range(4)))
    assert calls == ["advance"]
    assert sorted(results, key=lambda r: not r[0]) == [(True, "committed")] + [(False, None)] * 3


async def test_a_later_deadline_or_another_room_ticks_again() -> None:
    calls: list[tuple[str, datetime]] = []
    t = Ticks()

    for number, due in [("1", DUE), ("1", DUE), ("2", DUE), ("1", DUE + timedelta(seconds=1))]:
        await t.once(number, due, partial(_record, calls, number, due))
    assert calls == [("1", DUE), ("2", DUE), ("1", DUE + timedelta(seconds=1))]
    # An earlier deadline than the one ticked is done too (the table has moved past it).
    assert await t.once("1", DUE, lambda: _record(calls, "1", DUE)) == (False, None)


async def test_a_tick_that_met_a_later_deadline_counts_for_it() -> None:
    """A process that fell behind: the pages' ticks for three successive deadlines queue up
    while the first one's run already does what the third one was waiting for."""
    calls: list[datetime] = []
    later = [DUE + timedelta(seconds=s) for s in (1, 2)]

    async def advance() -> datetime:
        calls.append(DUE)
        await asyncio.sleep(0.01)
        return later[-1]  # the table had moved on to the last deadline: that is what it met

    t = Ticks()
    queued = [t.once("1", due, advance, met=lambda reached: reached) for due in [DUE, *later]]
    results = await asyncio.gather(*queued)
    assert calls == [DUE]
    assert [ran for ran, _ in results] == [True, False, False]
    # A deadline after the one met still ticks.
    assert (await t.once("1", later[-1] + timedelta(seconds=1), advance))[0]


async def _record(calls: list[tuple[str, datetime]], number: str, due: datetime) -> None:
    calls.append((number, due))


async def test_a_tick_that_failed_is_not_counted() -> None:
    t = Ticks()

    async def failing() -> None:
        raise RuntimeError("database unreachable")

    with pytest.raises(RuntimeError):
        await t.once("1", DUE, failing)
    ran, result = await t.once("1", DUE, lambda: _value("committed"))
    assert (ran, result) == (True, "committed")


async def _value(value: str) -> str:
    return value


async def test_each_event_loop_has_its_own_ticks() -> None:
    assert ticks() is ticks()
    other = await asyncio.to_thread(lambda: asyncio.run(_ticks_of_new_loop()))
    assert other is not ticks()


async def _ticks_of_new_loop() -> Ticks:
    return ticks()
