from __future__ import annotations

from typing import Any

from ledger.models import Entry
from tables.history import selectors
from tests.tables.booked_hands import QIDUI_BAODIAO, STRICT_CHI_BAO, store_booked
from tests.tables.factories import played_hand


def hand_entry(**fields: Any) -> Entry:
    return Entry.objects.create(kind=Entry.Kind.HAND, **fields)


def test_a_hand_record_shows_the_booked_settlement_even_when_judged_otherwise_today(
    user: Any,
) -> None:
    # Booked 七对宝吊 12 from each of the three others; today's engine says 有宝七对 8.
    hand = store_booked(user, QIDUI_BAODIAO)
    record = selectors.hand_record(hand)
    assert record.earlier_ruling and record.settlement is not None and record.bao == "5m"
    assert [(w.pattern_name, w.score) for w in record.settlement.winners] == [("七对宝吊", 12)]
    assert [p for _, p in record.settlement.hand_totals] == [-12, 36, -12, -12]
    # Its book entries say the same: what the record shows is what was paid.
    assert sorted(e.points for e in Entry.objects.filter(hand=hand)) == [12, 12, 12]


def test_a_hand_record_of_a_win_today_refuses_keeps_its_melds_and_booked_points(
    user: Any,
) -> None:
    hand = store_booked(user, STRICT_CHI_BAO)
    record = selectors.hand_record(hand)
    assert record.earlier_ruling and record.settlement is not None and record.bao == "3s"
    (winner,) = record.settlement.winners
    assert (winner.pattern_name, winner.score) == ("平胡", 4)
    assert [m.tiles for m in winner.melds] == [["1s", "2s", "3s"]]
    assert [p for _, p in record.settlement.hand_totals] == [-4, -4, -4, 12]


def test_a_hand_record_judged_alike_today_has_no_note(user: Any) -> None:
    record = selectors.hand_record(played_hand(user))
    assert record.settlement is not None and not record.earlier_ruling
