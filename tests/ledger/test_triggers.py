"""The database itself refuses to change or remove an entry, whatever the SQL comes from.

Runs on SQLite here and on PostgreSQL when DATABASE_URL points there (CI does both).
"""

from __future__ import annotations

from typing import Any

import pytest
from django.db import DatabaseError, connection, transaction

from ledger import services, triggers
from ledger.models import Entry, SettlementClaim


@pytest.fixture
def entry(user: Any, bob: Any, staff: Any) -> Entry:
    """alice owes bob 7."""
    return services.correction_create(staff=staff, payer=user, payee=bob, points=7, note="why")


@pytest.mark.parametrize(
    "sql",
    [
        "UPDATE ledger_entry SET points = 700 WHERE id = %s",
        "UPDATE ledger_entry SET note = 'edited' WHERE id = %s",
        "DELETE FROM ledger_entry WHERE id = %s",
        "DELETE FROM ledger_entry WHERE id >= %s",
    ],
)
def test_raw_update_and_delete_fail(entry: Entry, sql: str) -> None:
    with (
        pytest.raises(DatabaseError, match="append-only"),
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        cursor.execute(sql, [entry.pk])
    entry.refresh_from_db()
    assert (entry.points, entry.note) == (7, "why")


def test_the_orm_cannot_change_or_remove_one_either(entry: Entry) -> None:
    with pytest.raises(DatabaseError), transaction.atomic():
        Entry.objects.filter(pk=entry.pk).update(points=1)
    with pytest.raises(DatabaseError), transaction.atomic():
        entry.delete()
    assert Entry.objects.get().points == 7


def test_inserting_is_what_the_book_allows(entry: Entry) -> None:
    with connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO ledger_entry (kind, payer_id, payee_id, points, reason, note, "
            "recorded_by_id, created_at) SELECT kind, payee_id, payer_id, points, reason, note, "
            "recorded_by_id, created_at FROM ledger_entry WHERE id = %s",
            [entry.pk],
        )
    assert Entry.objects.count() == 2


def test_this_database_has_triggers() -> None:
    assert triggers.statements(triggers.CREATE, connection), connection.vendor


def replacing(table: str, columns: str, values: str, changes: str) -> str:
    """SQL that writes over an existing row: REPLACE on SQLite, an upsert on PostgreSQL."""
    if connection.vendor == "sqlite":
        return f"INSERT OR REPLACE INTO {table} {columns} {values}"
    return f"INSERT INTO {table} {columns} {values} ON CONFLICT (id) DO UPDATE SET {changes}"


def test_replacing_an_entry_is_refused(entry: Entry) -> None:
    # SQLite's INSERT OR REPLACE deletes the old row without its DELETE trigger; PostgreSQL's
    # way to the same end is an upsert, which is an UPDATE.
    columns = "(id, kind, payer_id, payee_id, points, reason, note, recorded_by_id, created_at)"
    values = (
        "SELECT id, kind, payer_id, payee_id, 1004, reason, note, recorded_by_id, created_at "
        "FROM ledger_entry WHERE id = %s"
    )
    sql = replacing("ledger_entry", columns, values, "points = 1004")
    with (
        pytest.raises(DatabaseError, match="append-only"),
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        cursor.execute(sql, [entry.pk])
    entry.refresh_from_db()
    assert entry.points == 7 and Entry.objects.count() == 1


def test_emptying_the_book_at_once_is_refused(entry: Entry) -> None:
    # PostgreSQL empties a table with TRUNCATE, which row triggers never see; SQLite has no
    # TRUNCATE and empties one with an unfiltered DELETE.
    postgresql = connection.vendor == "postgresql"
    with (
        pytest.raises(DatabaseError, match="append-only"),
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        if postgresql:
            # The test's own transaction holds the entry's deferred foreign-key checks, which
            # PostgreSQL would name instead; checked now, only the book's trigger can refuse.
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
            cursor.execute("TRUNCATE ledger_entry CASCADE")
        else:
            cursor.execute("DELETE FROM ledger_entry")
    assert Entry.objects.count() == 1


@pytest.fixture
def confirmed(entry: Entry, user: Any, bob: Any) -> SettlementClaim:
    """alice owes bob 7 (the entry); she pays him 7 and he confirms."""
    claim = services.settlement_claim_create(recorded_by=user, payer=user, payee=bob, points=7)
    services.settlement_claim_confirm(claim_id=claim.pk, user=bob)
    claim.refresh_from_db()
    return claim


def test_a_confirmed_claim_cannot_be_reopened(confirmed: SettlementClaim, bob: Any) -> None:
    for change in ({"status": "proposed", "entry": None}, {"status": "proposed"}):
        with pytest.raises(DatabaseError), transaction.atomic():
            SettlementClaim.objects.filter(pk=confirmed.pk).update(**change)
    with pytest.raises(services.LedgerError):
        services.settlement_claim_confirm(claim_id=confirmed.pk, user=bob)
    assert Entry.objects.filter(kind=Entry.Kind.SETTLEMENT).count() == 1


def test_a_claims_entry_is_set_once(confirmed: SettlementClaim, entry: Entry) -> None:
    # Pointing the confirmed claim at another entry, or a second claim at its entry, fails.
    with pytest.raises(DatabaseError), transaction.atomic():
        SettlementClaim.objects.filter(pk=confirmed.pk).update(entry=entry)
    with pytest.raises(DatabaseError), transaction.atomic():
        SettlementClaim.objects.create(
            payer=confirmed.payer,
            payee=confirmed.payee,
            points=7,
            recorded_by=confirmed.payer,
            status="confirmed",
            entry=confirmed.entry,
        )
    confirmed.refresh_from_db()
    assert confirmed.entry is not None and confirmed.entry.kind == "settlement"


def test_a_disputed_claim_stays_disputed(entry: Entry, user: Any, bob: Any) -> None:
    claim = services.settlement_claim_create(recorded_by=user, payer=user, payee=bob, points=3)
    services.settlement_claim_dispute(claim_id=claim.pk, user=bob)
    with pytest.raises(DatabaseError), transaction.atomic():
        SettlementClaim.objects.filter(pk=claim.pk).update(status="confirmed")
    with pytest.raises(DatabaseError), transaction.atomic():
        SettlementClaim.objects.filter(pk=claim.pk).delete()
    claim.refresh_from_db()
    assert claim.status == "disputed"


def test_a_confirmed_claim_cannot_be_replaced_by_a_waiting_one(confirmed: SettlementClaim) -> None:
    # REPLACE (SQLite) or an upsert (PostgreSQL) of the claim's row as "proposed", no entry.
    columns = "(id, payer_id, payee_id, points, note, recorded_by_id, status, created_at)"
    values = (
        "SELECT id, payer_id, payee_id, points, note, recorded_by_id, 'proposed', created_at "
        "FROM ledger_settlementclaim WHERE id = %s"
    )
    sql = replacing(
        "ledger_settlementclaim", columns, values, "status = 'proposed', entry_id = NULL"
    )
    with (
        pytest.raises(DatabaseError, match="answered once and for all"),
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        cursor.execute(sql, [confirmed.pk])
    confirmed.refresh_from_db()
    assert confirmed.status == "confirmed" and confirmed.entry is not None
