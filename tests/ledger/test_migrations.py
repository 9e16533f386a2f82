"""One source of truth: the migrations move every Transfer into the book, one Match per room."""

from __future__ import annotations

import io
from datetime import UTC, datetime

import pytest
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from ledger.models import Entry, PairBalance
from tables.models import Hand, Match

pytestmark = pytest.mark.django_db(transaction=True)

LAST_TABLES_ONLY = ("tables", "0003_seat_last_seen")
BEFORE: list[tuple[str, str | None]] = [LAST_TABLES_ONLY, ("ledger", None)]


def test_transfers_become_hand_entries_and_rooms_get_their_match() -> None:
    executor = MigrationExecutor(connection)
    after = executor.loader.graph.leaf_nodes()
    executor.migrate(BEFORE)
    old = executor.loader.project_state([LAST_TABLES_ONLY]).apps
    user_model, room_model = old.get_model("accounts", "User"), old.get_model("tables", "Room")
    hand_model, transfer_model = (
        old.get_model("tables", "Hand"),
        old.get_model("tables", "Transfer"),
    )
    alice = user_model.objects.create(username="alice")
    bob = user_model.objects.create(username="bob")
    room = room_model.objects.create(
        number="123456",
        name="Friday",
        owner=alice,
        rules={"profile": "standard"},
        status="finished",
        match_length=2,
    )
    ended = datetime(2026, 1, 2, 3, 4, tzinfo=UTC)
    h1 = hand_model.objects.create(
        room=room, number=1, dealer=0, seed="s", rules={}, ended_at=ended
    )
    h2 = hand_model.objects.create(
        room=room, number=2, dealer=1, seed="t", rules={}, ended_at=ended
    )
    room_model.objects.create(number="654321", name="empty", owner=bob, rules={})
    rows = [
        (h1, 1, 0, bob, alice, 8, "self_draw"),
        (h1, 2, 0, None, alice, 8, "self_draw"),  # a bot seat
        (h2, 0, 1, alice, bob, 2, "angang"),
    ]
    for hand, a, b, payer, payee, points, reason in rows:
        transfer_model.objects.create(
            hand=hand,
            payer_seat=a,
            payee_seat=b,
            payer=payer,
            payee=payee,
            points=points,
            reason=reason,
        )

    executor = MigrationExecutor(connection)
    executor.migrate(after)

    match = Match.objects.get()  # the room without hands has none
    assert (match.room_id, match.number, match.match_length) == (room.pk, 1, 2)
    assert match.ended_at == ended
    assert set(Hand.objects.values_list("match_id", flat=True)) == {match.pk}
    booked = sorted(
        (e.hand_id, e.payer_seat, e.payee_seat, e.payer_id, e.payee_id, e.points, e.reason)
        for e in Entry.objects.all()
    )
    assert booked == sorted(
        (h.pk, a, b, p and p.pk, q and q.pk, n, r) for h, a, b, p, q, n, r in rows
    )
    assert {(e.kind, e.match_id, e.room_id) for e in Entry.objects.all()} == {
        ("hand", match.pk, room.pk)
    }
    assert "tables_transfer" not in connection.introspection.table_names()


def test_old_settlements_are_put_right_by_new_entries_only() -> None:
    """Written before 0004: alice owed bob 8 (a correction), she paid him 8 and he confirmed,
    booked alice -> bob as if she had lost again, so her book read -16. After 0004 it reads 0,
    every old row is still there unchanged, and the running totals agree with the entries."""
    executor = MigrationExecutor(connection)
    after = executor.loader.graph.leaf_nodes()
    before = [("ledger", "0003_running_totals")]
    executor.migrate(before)
    old = executor.loader.project_state(before).apps
    user_model, entry_model = old.get_model("accounts", "User"), old.get_model("ledger", "Entry")
    alice = user_model.objects.create(username="alice")
    bob = user_model.objects.create(username="bob")
    at = datetime(2026, 11, 2, 3, 4, tzinfo=UTC)
    debt = entry_model.objects.create(
        kind="correction", payer=alice, payee=bob, points=8, note="d", created_at=at
    )
    paid = entry_model.objects.create(
        kind="settlement",
        payer=alice,
        payee=bob,
        points=8,
        note="微信",
        recorded_by=alice,
        created_at=at,
    )
    claim_model = old.get_model("ledger", "SettlementClaim")
    claim_model.objects.create(
        payer=alice,
        payee=bob,
        points=8,
        recorded_by=alice,
        status="confirmed",
        entry=paid,
        created_at=at,
    )

    executor = MigrationExecutor(connection)
    executor.migrate(after)

    a, b = alice.pk, bob.pk
    rows = list(
        Entry.objects.order_by("pk").values_list("pk", "kind", "payer_id", "payee_id", "points")
    )
    assert rows[:2] == [(debt.pk, "correction", a, b, 8), (paid.pk, "settlement", a, b, 8)]
    assert [r[1:] for r in rows[2:]] == [("correction", b, a, 8), ("settlement", b, a, 8)]
    assert str(paid.pk) in Entry.objects.get(pk=rows[2][0]).note
    assert {e.created_at for e in Entry.objects.all()} == {at}
    balances = dict(PairBalance.objects.values_list("user_id", "points"))
    assert balances == {a: 0, b: 0}
    call_command("ledger_verify", stdout=io.StringIO())
