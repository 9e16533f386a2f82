"""The club's book: the nets of its rooms and physical hands only, the fewest transfers that
clear them, the claims that settle the evening, and running totals that still match the raw
entries (``manage.py ledger_verify``)."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.management import call_command

from clubs import services
from clubs.book import club_book, club_chart
from clubs.models import Club, ClubSettleUp
from clubs.selectors import club_entries
from ledger.models import Entry

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


def test_the_nets_count_the_clubs_rooms_and_physical_hands_only(
    evening: Club, four: list[Any]
) -> None:
    a, b, c, d = four
    book = club_book(evening, "all")
    assert {u.name: n for u, n in book.nets.items()} == {"甲": 0, "乙": -16, "丙": 16, "丁": 0}
    # and they are the raw entries' sums, entry by entry
    raw = dict.fromkeys((a.pk, b.pk, c.pk, d.pk), 0)
    for e in club_entries(evening):
        raw[e.payee_id] += e.points
        raw[e.payer_id] -= e.points
    assert raw == {u.pk: n for u, n in book.nets.items()}
    assert club_entries(evening).count() == 9  # 3 + 3 at the table, 3 at the flat


def test_the_leaderboard_counts_hands_wins_and_the_evenings_big_winner(
    evening: Club, four: list[Any]
) -> None:
    rows = {r.user.name: (r.hands, r.wins, r.big_winner) for r in club_book(evening, "all").leaders}
    # three hands each; 甲, 丙 and 丁 won one; 丙's +16 is the evening's best
    assert rows == {"甲": (3, 1, 0), "乙": (3, 0, 0), "丙": (3, 1, 1), "丁": (3, 1, 0)}
    assert club_chart(club_book(evening, "all"), "t", "x", "y").startswith("<svg")


def test_settling_the_evening_takes_one_transfer_and_clears_the_book(
    evening: Club, four: list[Any]
) -> None:
    _a, b, c, _d = four
    book = club_book(evening, "tonight")
    assert [(p.payer, p.payee, p.points) for p in book.transfers] == [(b, c, 16)]
    claim = services.club_claim_create(
        club=evening, by=b, payer_id=b.pk, payee_id=c.pk, points=16, since=book.since
    )
    assert club_book(evening, "tonight").nets[c] == 16  # waits for 丙's answer
    services.club_claim_answer(club=evening, by=c, claim_id=claim.pk, confirm=True)
    after = club_book(evening, "tonight")
    assert set(after.nets.values()) == {0} and after.transfers == []
    assert ClubSettleUp.objects.filter(club=evening).count() == 1
    assert club_book(evening, "settled").transfers == []


def test_a_claim_beyond_the_evenings_nets_or_by_a_bystander_is_refused(
    evening: Club, four: list[Any]
) -> None:
    a, b, c, _d = four
    since = club_book(evening, "all").since
    with pytest.raises(services.ClubError, match="more than"):
        services.club_claim_create(
            club=evening, by=b, payer_id=b.pk, payee_id=c.pk, points=17, since=since
        )
    with pytest.raises(services.ClubError, match="took part"):
        services.club_claim_create(
            club=evening, by=a, payer_id=b.pk, payee_id=c.pk, points=16, since=since
        )


def test_the_running_totals_still_match_every_raw_entry(
    evening: Club, capsys: pytest.CaptureFixture[str]
) -> None:
    assert Entry.objects.filter(kind="offline_hand").count() == 3
    call_command("ledger_verify")
    assert capsys.readouterr().out.startswith("ok:")
