"""``flush`` empties the book too (the one deliberate exception), and leaves its triggers on."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.management import call_command
from django.db import DatabaseError, connection, transaction

from ledger.models import Entry

pytestmark = pytest.mark.django_db(transaction=True)


def a_correction(make_user: Any, suffix: str) -> Entry:
    a, b = make_user(f"a{suffix}"), make_user(f"b{suffix}")
    staff = make_user(f"s{suffix}")
    return Entry.objects.create(
        kind=Entry.Kind.CORRECTION, payer=a, payee=b, points=1, note="n", recorded_by=staff
    )


def test_flush_empties_the_book_and_keeps_it_append_only(make_user: Any) -> None:
    a_correction(make_user, "1")
    call_command("flush", interactive=False, verbosity=0)
    assert not Entry.objects.exists()
    entry = a_correction(make_user, "2")
    with pytest.raises(DatabaseError), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("DELETE FROM ledger_entry WHERE id = %s", [entry.pk])
    assert Entry.objects.filter(pk=entry.pk).exists()
