"""Several server processes share tables: moves are serialised by the room's row lock, so
concurrent inputs on one table never both apply, and a timer fires once.

Threads with their own database connections stand in for processes; the suite runs these on
SQLite and again on PostgreSQL (``.ci/run``).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection, connections, transaction
from django.utils import timezone

from engine.hand import HandState, legal_actions, waiting_on
from tables.models import Room, Seat
from tables.play import clock, inputs, presence
from tables.play.protocol import PlayError, parse_message
from tables.play.rows import room_locked, room_locked_with_seats
from tables.play.windows import public_step
from tests.tables.factories import start_with_bots, start_with_four_people

pytestmark = pytest.mark.django_db(transaction=True)


def race(workers: list[Callable[[], Any]]) -> list[Any]:
    """Run each callable in its own thread, all released at once; results or exceptions."""
    barrier = threading.Barrier(len(workers))
    results: list[Any] = [None] * len(workers)

    def run(i: int) -> None:
        barrier.wait()
        try:
            results[i] = workers[i]()
        except Exception as exc:
            results[i] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(workers))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    return results


@pytest.fixture
def on_disk() -> None:
    in_memory = connection.vendor == "sqlite" and connection.is_in_memory_db()  # type: ignore[attr-defined]
    if in_memory:
        # Shared-cache memory databases lock whole tables and ignore the busy timeout.
        pytest.skip("needs an on-disk database (SQLite file or PostgreSQL)")


@pytest.fixture
def table(on_disk: None, user: Any) -> Room:
    return start_with_bots(user, hands=None, seed="concurrency")


def holding_seat_2(room: Room, connections: int, held: threading.Event) -> Callable[[], None]:
    """A change that locks the room, writes seat 2 and holds both for half a second."""

    def hold() -> None:
        with transaction.atomic():
            room_locked(room.number)
            Seat.objects.filter(room=room, index=2).update(connections=connections)
            held.set()
            time.sleep(0.5)

    return hold


def test_a_timer_fires_once_however_many_processes_tick(table: Room) -> None:
    assert table.deadline is not None
    due = table.deadline
    version = table.version
    results = race([lambda: clock.advance(table.number, now=due) for _ in range(4)])
    done = [r for r in results if isinstance(r, clock.Committed)]
    assert len(done) == 1 and results.count(None) == 3, results
    table.refresh_from_db()
    assert table.version == version + 1


def test_a_change_that_waited_for_the_lock_sees_the_seats_the_holder_committed(
    table: Room,
) -> None:
    """The seats are read after the room's lock is held (in one round trip with it on
    PostgreSQL), so a seat written under the lock by the change before is never stale."""
    holding = threading.Event()

    def waiter() -> tuple[float, int]:
        assert holding.wait(timeout=10)
        started = time.monotonic()
        with transaction.atomic():
            room, seats = room_locked_with_seats(table.number)
        assert room is not None
        return time.monotonic() - started, seats[2].connections

    held, (waited, connections) = race([holding_seat_2(table, 7, holding), waiter])
    assert held is None
    assert waited >= 0.3, "the read did not wait for the lock"
    assert connections == 7


def test_two_copies_of_one_move_apply_once(table: Room, user: Any) -> None:
    Seat.objects.filter(room=table, index__in=[1, 2, 3]).update(bot="basic")
    # Let the bots move until seat 0 is asked.
    for _ in range(200):
        table.refresh_from_db()
        assert table.state is not None
        state = HandState.from_json(table.state["hand"])
        if 0 in waiting_on(state) or state.phase == "ended":
            break
        assert table.deadline is not None
        clock.advance(table.number, now=table.deadline)
    assert state.phase != "ended", "the bots finished the hand before seat 0 was asked"
    action = legal_actions(state, 0)[0].to_json()
    payload = {"action": action.pop("type"), "step": public_step(table), **action}
    message = parse_message(payload)
    results = race(
        [
            lambda: inputs.table_act(number=table.number, user=user, message=message)
            for _ in range(3)
        ]
    )
    errors = [r for r in results if isinstance(r, PlayError)]
    done = [r for r in results if isinstance(r, clock.Committed)]
    assert len(errors) == 2 and len(done) == 1, results
    table.refresh_from_db()
    assert table.state is not None
    assert HandState.from_json(table.state["hand"]).log[: len(state.log) + 1][-1][0] == 0


def test_the_beat_passes_a_seat_a_move_holds_and_waits_for_none(
    on_disk: None, make_user: Any
) -> None:
    """The beat runs beside the moves (on its own thread on PostgreSQL): it must not wait on
    a move's locks, nor deadlock with one. A seat a move holds keeps its last beat for this
    interval; SQLite, one writer at a time, writes every seat after the move."""
    users = [make_user(f"p{i}") for i in range(4)]
    room = start_with_four_people(users)
    pages = {(room.number, u.pk) for u in users}
    now = timezone.now() + timedelta(hours=1)
    holding = threading.Event()

    def beat() -> float:
        assert holding.wait(timeout=10)
        started = time.monotonic()
        presence.heartbeats(pages, now=now)
        return time.monotonic() - started

    moved, took = race([holding_seat_2(room, 3, holding), beat])
    assert moved is None and isinstance(took, float), (moved, took)
    beaten = set(Seat.objects.filter(room=room, last_seen=now).values_list("index", flat=True))
    if connection.vendor == "postgresql":
        assert took < 0.3, "the beat waited for the move"
        assert beaten == {0, 1, 3}
    else:
        assert beaten == {0, 1, 2, 3}
