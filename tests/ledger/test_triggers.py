"""The database itself refuses to change or remove an entry, whatever the SQL comes from.

Runs on SQLite here and on PostgreSQL when DATABASE_URL points there (CI does both).
"""

from __future__ import annotations

from typing import Any

import pytest
from django.db import DatabaseError, connection, transaction

from ledger import triggers
from ledger.models import Entry


@pytest.fixture
def entry(user: Any, bob: Any, staff: Any) -> Entry:
    return Entry.objects.create(
        kind=Entry.Kind.CORRECTION, payer=user, payee=bob, points=7, note="why", recorded_by=staff
    )


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
