"""Physical hands: scored by the engine from the 算分器's query, booked only when all four
players confirmed, never twice and never by anyone else."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.http import QueryDict

from clubs import offline
from clubs.models import Club, ClubEntry, OfflineHand
from clubs.services import ClubError
from ledger.models import Entry

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]

# 123m 456m 789p 234s 55z, indicator 1z: the 宝 is 2z and none is held, so 无宝平胡 (4, §7);
# self-drawn, each of the three others pays 4 (§8).
PINGHU = "hand=123m456m789p234s55z&indicator=1z"


def _record(club: Club, four: list[Any], query: str = PINGHU, **kw: Any) -> OfflineHand:
    a, b, c, d = four
    fields: dict[str, Any] = {"players": [d.pk, a.pk, b.pk, c.pk], "winner": 0, "robbed": None}
    fields.update(kw)
    return offline.offline_hand_record(club=club, by=a, query=QueryDict(query), **fields)


def test_the_engine_scores_it_and_proposes_the_payments(club: Club, four: list[Any]) -> None:
    hand = _record(club, four)
    assert (hand.name, hand.score) == ("平胡", 4)
    assert sorted((t["payer"], t["payee"], t["points"]) for t in hand.transfers) == [
        (1, 0, 4),
        (2, 0, 4),
        (3, 0, 4),
    ]
    assert not Entry.objects.filter(kind="offline_hand").exists()


def test_a_robbed_gang_is_paid_by_the_robbed_player_alone(club: Club, four: list[Any]) -> None:
    # The same tiles won by robbing seat 2's gang of 4s: 无宝平胡 4 × 6 (抢杠, §7) = 24.
    query = "hand=123m456m789p23s55z&win=4s&indicator=1z&by=rob_gang"
    hand = _record(club, four, query, robbed=2)
    assert hand.score == 24
    assert [(t["payer"], t["payee"], t["points"]) for t in hand.transfers] == [(2, 0, 24)]


def test_four_confirmations_book_it_once(
    club: Club, four: list[Any], make_user: Callable[..., Any]
) -> None:
    a, b, c, d = four
    hand = _record(club, four)
    with pytest.raises(ClubError, match="already answered"):
        offline.offline_hand_answer(hand_id=hand.pk, user=a, agrees=True)
    with pytest.raises(ClubError, match="Only the hand's players"):
        offline.offline_hand_answer(hand_id=hand.pk, user=make_user("x"), agrees=True)
    offline.offline_hand_answer(hand_id=hand.pk, user=b, agrees=True)
    offline.offline_hand_answer(hand_id=hand.pk, user=c, agrees=True)
    assert not Entry.objects.filter(kind="offline_hand").exists()  # three of four
    with pytest.raises(ClubError, match="already answered"):
        offline.offline_hand_answer(hand_id=hand.pk, user=c, agrees=True)
    offline.offline_hand_answer(hand_id=hand.pk, user=d, agrees=True)
    entries = Entry.objects.filter(kind="offline_hand")
    got = sorted((e.payer_id, e.payee_id, e.points) for e in entries)
    assert got == sorted([(a.pk, d.pk, 4), (b.pk, d.pk, 4), (c.pk, d.pk, 4)])
    assert ClubEntry.objects.filter(club=club, offline_hand=hand).count() == 3
    with pytest.raises(ClubError, match="already been settled"):
        offline.offline_hand_answer(hand_id=hand.pk, user=d, agrees=True)


def test_one_dispute_keeps_it_out_of_the_book(club: Club, four: list[Any]) -> None:
    hand = _record(club, four)
    offline.offline_hand_answer(hand_id=hand.pk, user=four[1], agrees=False)
    hand.refresh_from_db()
    assert hand.status == "disputed"
    with pytest.raises(ClubError, match="already been settled or disputed"):
        offline.offline_hand_answer(hand_id=hand.pk, user=four[2], agrees=True)
    assert not Entry.objects.filter(kind="offline_hand").exists()


@pytest.mark.parametrize(
    ("query", "fields", "message"),
    [
        ("hand=123m456m789p23s1z55z&indicator=4z", {}, "winning hand"),  # no win
        (PINGHU, {"robbed": 2}, "robbed"),  # a robbed gang on a self-drawn win
        (PINGHU, {"winner": 4}, "winner"),
    ],
)
def test_a_hand_the_engine_does_not_score_as_this_win_is_refused(
    club: Club, four: list[Any], query: str, fields: dict[str, Any], message: str
) -> None:
    with pytest.raises(ClubError, match=message):
        _record(club, four, query, **fields)
    assert not OfflineHand.objects.exists()


def test_only_a_player_who_is_a_member_records(
    club: Club, four: list[Any], make_user: Callable[..., Any]
) -> None:
    a, b, c, _d = four
    x = make_user("x")
    with pytest.raises(ClubError, match="members"):
        offline.offline_hand_record(
            club=club, by=a, players=[a.pk, b.pk, c.pk, x.pk], winner=0, robbed=None,
            query=QueryDict(PINGHU),
        )  # fmt: skip
    with pytest.raises(ClubError, match="four different"):
        offline.offline_hand_record(
            club=club, by=a, players=[a.pk, b.pk, c.pk, c.pk], winner=0, robbed=None,
            query=QueryDict(PINGHU),
        )  # fmt: skip
