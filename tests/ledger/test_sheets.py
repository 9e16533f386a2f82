"""A score sheet agrees with its match's raw entries; only the room's players see it."""

from __future__ import annotations

from collections import defaultdict

import pytest

from accounts.models import User
from ledger.models import Entry
from ledger.sheets import match_visible_to, sheet_for
from tests.load.seeded_book import SeededBook, book_seed


@pytest.mark.parametrize("seed", [4, 5])
def test_rows_and_totals_match_the_entries(db: None, seed: int) -> None:
    book = book_seed(hands=60, players=5, per_match=30, seed=seed)
    for match in book.matches:
        sheet = sheet_for(match)
        per_hand: dict[int, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
        for e in Entry.objects.filter(match=match):
            assert e.payer_seat is not None and e.payee_seat is not None
            per_hand[e.hand_id or 0][e.payer_seat] -= e.points
            per_hand[e.hand_id or 0][e.payee_seat] += e.points
        assert [r.number for r in sheet.rows] == list(range(1, 31))
        running = [0, 0, 0, 0]
        for row in sheet.rows:
            assert row.points == per_hand.get(row.hand_id, [0, 0, 0, 0])
            assert sum(row.points) == 0
            running = [a + b for a, b in zip(running, row.points, strict=True)]
            assert row.totals == running
        assert sheet.totals == running
        assert [s.points for s in sheet.stats] == sheet.totals
        assert sum(s.wins for s in sheet.stats) == sum(
            len(h.result["winners"]) for h in match.hands.all() if h.result
        )


def test_a_bot_seat_is_named_by_its_seat(book: SeededBook, english: None) -> None:
    sheet = sheet_for(book.matches[0])
    assert sheet.players[3] == "Bot·North"
    assert sheet.players[0] == book.players[0].name


def test_only_the_rooms_players_see_the_sheet(book: SeededBook) -> None:
    match = book.matches[0]
    stranger = User.objects.create(username="stranger")
    assert match_visible_to(match.pk, stranger) is None
    assert match_visible_to(match.pk, book.players[0]) == match
    assert match_visible_to(10**6, book.players[0]) is None
