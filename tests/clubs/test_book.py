"""The club's book: the nets of its rooms and physical hands only, the fewest transfers that
clear them, the claims that settle the evening, and running totals that still match the raw
entries (``manage.py ledger_verify``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.core.management import call_command
from django.http import QueryDict

from clubs import offline, services
from clubs.book import club_book, club_chart
from clubs.models import Club, ClubSettleUp
from clubs.selectors import club_entries
from engine.rules import Rules
from ledger import services as ledger_services
from ledger.models import Entry
from tables import services as table_services
from tables.models import Room

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


@pytest.fixture
def evening(club: Club, club_room: Room, four: list[Any], booked: Callable[..., Any]) -> Club:
    """Two hands at the club's table and one physical hand, seats 甲乙丙丁:
    - 甲 self-draws 4: 乙, 丙, 丁 pay 4 each (甲 +12, the others -4);
    - 丙 self-draws 8: 甲, 乙, 丁 pay 8 each (丙 +24, the others -8);
    - at 丁's flat, 丁 self-draws 平胡 (4): 甲, 乙, 丙 pay 4 each (丁 +12, the others -4).
    Nets: 甲 12-8-4 = 0, 乙 -4-8-4 = -16, 丙 -4+24-4 = +16, 丁 -4-8+12 = 0.
    And a hand outside the club (乙 pays 甲 100), which its book never counts."""
    a, b, c, d = four
    booked(club_room, four, [(1, 0, 4), (2, 0, 4), (3, 0, 4)])
    booked(club_room, four, [(0, 2, 8), (1, 2, 8), (3, 2, 8)])
    hand = offline.offline_hand_record(
        club=club, by=d, players=[d.pk, a.pk, b.pk, c.pk], winner=0, robbed=None,
        query=QueryDict("hand=123m456m789p234s55z&indicator=1z"),
    )  # fmt: skip
    for u in (a, b, c):
        offline.offline_hand_answer(hand_id=hand.pk, user=u, agrees=True)
    outside = table_services.room_create(
        owner=a, name="外", is_public=True, rules=Rules(), match_length=None
    )
    booked(outside, four, [(1, 0, 100)])
    return club


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


def test_a_club_claim_confirmed_from_the_ledgers_own_page_settles_the_club_too(
    evening: Club, four: list[Any]
) -> None:
    _a, b, c, _d = four
    since = club_book(evening, "tonight").since
    claim = services.club_claim_create(
        club=evening, by=b, payer_id=b.pk, payee_id=c.pk, points=16, since=since
    )
    ledger_services.settlement_claim_confirm(claim_id=claim.pk, user=c)
    assert ClubSettleUp.objects.filter(club=evening).count() == 1
