"""The club's book: the nets of its rooms and physical hands only, the fewest transfers that
clear them, the claims that settle the evening, and running totals that still match the raw
entries (``manage.py ledger_verify``)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from django.core.management import call_command

from clubs import services
from clubs.book import club_book, club_chart
from clubs.models import Club, ClubSettleUp
from clubs.selectors import club_entries
from ledger.models import Entry
from tables.models import Room

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


def test_a_game_past_midnight_counts_for_the_evening_it_began(
    club: Club, club_room: Room, four: list[Any], booked: Callable[..., Any]
) -> None:
    # Friday 21:00 甲 wins 4 from each; Saturday 01:30 乙 wins 8 from each: one evening,
    # Friday's, where 乙 (+24 - 4 = +20) beats 甲 (+12 - 8 = +4). Saturday 14:00 丙 wins 2
    # from each: Saturday's evening, 丙's.
    tz = ZoneInfo("Asia/Shanghai")
    booked(club_room, four, [(1, 0, 4), (2, 0, 4), (3, 0, 4)], datetime(2026, 3, 6, 21, tzinfo=tz))
    booked(
        club_room, four, [(0, 1, 8), (2, 1, 8), (3, 1, 8)], datetime(2026, 3, 7, 1, 30, tzinfo=tz)
    )
    booked(club_room, four, [(0, 2, 2), (1, 2, 2), (3, 2, 2)], datetime(2026, 3, 7, 14, tzinfo=tz))
    book = club_book(club, "all")
    a, b, c, d = (u.pk for u in four)
    assert book.days == {
        "2026-03-06": {a: 4, b: 20, c: -12, d: -12},
        "2026-03-07": {a: -2, b: -2, c: 6, d: -2},
    }
    assert {r.user.name: r.big_winner for r in book.leaders} == {"甲": 0, "乙": 1, "丙": 1, "丁": 0}
