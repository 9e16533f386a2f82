"""CSV: a BOM for Excel, a header, one row per entry, absolute hand links."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest
from django.db.models import Q
from django.urls import reverse

from ledger import services
from ledger.models import Entry
from tests.load.seeded_book import SeededBook
from tests.tables.factories import start_with_bots


def _rows(response: Any) -> list[list[str]]:
    content = b"".join(response.streaming_content)
    assert content.startswith("\ufeff".encode())
    return list(csv.reader(io.StringIO(content.decode("utf-8-sig"))))


def test_my_book_has_one_row_per_entry(me_client: Any, book: SeededBook) -> None:
    me = book.players[0]
    response = me_client.get(reverse("ledger:export"))
    assert response["Content-Type"].startswith("text/csv")
    rows = _rows(response)
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
    rows = _rows(me_client.get(reverse("ledger:sheet_csv", args=[match.pk])))
    assert len(rows) == 1 + Entry.objects.filter(match=match).count()
    assert all(r[6].startswith("http://testserver/hands/") for r in rows[1:])


# Tab and CR starts are stripped from names and notes before they are stored; ``cell``'s
# doctest covers them.
PLANTED = ['=HYPERLINK("http://x","y")', "+cmd|' /C calc'!A0", "-2+3", "@SUM(A1)"]


@pytest.mark.parametrize("name", PLANTED)
def test_no_cell_is_a_formula_in_either_export(
    client: Any, user: Any, bob: Any, staff: Any, name: str
) -> None:
    # bob calls himself a formula; alice lost 9 to him in a hand; staff's note is one too.
    bob.display_name = name
    bob.save()
    room = start_with_bots(user, seed="csv-formula")
    services.hand_entries_create(
        hand=room.hands.get(),
        users=[user, bob, None, None],
        transfers=[{"payer": 0, "payee": 1, "points": 9, "reason": "self_draw"}],
    )
    services.correction_create(staff=staff, payer=bob, payee=user, points=2, note=name)
    client.force_login(user)
    book = _rows(client.get(reverse("ledger:export"), HTTP_ACCEPT_LANGUAGE="zh-hans"))
    match = Entry.objects.filter(kind="hand").get().match
    assert match is not None
    sheet = _rows(client.get(reverse("ledger:sheet_csv", args=[match.pk])))
    for row in [*book[1:], *sheet[1:]]:
        for text in row:
            assert (
                not text.startswith(("=", "+", "-", "@", "\t", "\r")) or text.lstrip("-").isdigit()
            )
    # The name reads as written after the quote; the points stay plain numbers.
    assert ["'" + name, "-9"] == [book[1][5], book[1][6]]
    assert book[2][5] == "'" + name and book[2][6] == "2" and book[2][8] == "'" + name
    assert book[1][7] == "自摸"  # the reason in the page's language, not self_draw
    assert sheet[1][3] == "'" + name and sheet[1][4] == "9"


def test_the_csv_follows_the_pages_room_filter(me_client: Any, book: SeededBook) -> None:
    me, room = book.players[0], book.matches[1].room
    rows = _rows(me_client.get(reverse("ledger:export"), {"room": room.number}))
    mine = Entry.objects.filter(Q(payer=me) | Q(payee=me), room=room)
    assert len(rows) == 1 + mine.count() and {r[2] for r in rows[1:]} == {room.number}
