"""CSV: a BOM for Excel, a header, one row per entry, absolute hand links."""

from __future__ import annotations

import csv
import io
from typing import Any

from django.db.models import Q
from django.urls import reverse

from ledger.models import Entry
from ledger.seeding import SeededBook


def _rows(content: bytes) -> list[list[str]]:
    assert content.startswith("\ufeff".encode())
    return list(csv.reader(io.StringIO(content.decode("utf-8-sig"))))


def test_my_book_has_one_row_per_entry(me_client: Any, book: SeededBook) -> None:
    me = book.players[0]
    response = me_client.get(reverse("ledger:export"))
    assert response["Content-Type"].startswith("text/csv")
    rows = _rows(response.content)
    mine = Entry.objects.filter(Q(payer=me) | Q(payee=me))
    assert len(rows) == 1 + mine.count()
    assert sum(int(r[6]) for r in rows[1:]) == sum(
        e.points if e.payee_id == me.pk else -e.points for e in mine
    )
    hand_row = next(r for r in rows[1:] if r[9])
    assert hand_row[9].startswith("http://testserver/hands/")
    assert any(book.bot_room.number in r[5] for r in rows[1:])


def test_a_sheet_csv_has_every_entry_of_the_match(me_client: Any, book: SeededBook) -> None:
    match = book.matches[1]
    rows = _rows(me_client.get(reverse("ledger:sheet_csv", args=[match.pk])).content)
    assert len(rows) == 1 + Entry.objects.filter(match=match).count()
    assert all(r[6].startswith("http://testserver/hands/") for r in rows[1:])
