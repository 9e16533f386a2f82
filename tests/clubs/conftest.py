"""Fixtures for the club tests: a club of four (圈主 甲, 管理员 乙, members 丙 and 丁) and
hands booked in its rooms with payments worked out by hand."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from datetime import datetime
from typing import Any

import pytest
from django.core.cache import cache
from django.http import QueryDict
from django.utils import timezone, translation

from clubs import offline, services
from clubs.models import Club, Membership
from engine.rules import Rules
from ledger.services import hand_entries_create
from tables.models import Hand, Match, Room
from tables.rooms import services as table_services


@pytest.fixture(autouse=True)
def _fresh_cache() -> Iterator[None]:
    """Guessing counters start at zero in each test."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def english() -> Iterator[None]:
    with translation.override("en"):
        yield


@pytest.fixture
def four(make_user: Callable[..., Any]) -> list[Any]:
    return [make_user(n, display_name=d) for n, d in zip("abcd", "甲乙丙丁", strict=True)]


@pytest.fixture
def club(four: list[Any]) -> Club:
    """甲's club; 乙 is an admin; 丙 and 丁 plain members (joined by the link, admitted)."""
    a, b, c, d = four
    club = services.club_create(owner=a, name="周五麻将")
    for u in (b, c, d):
        services.club_join(user=u, token=club.invite_token, ip="10.0.0.1")
        services.club_request_answer(club=club, by=a, user_id=u.pk, admit=True)
    services.member_discipline(club=club, by=a, user_id=b.pk, action="admin", reason="helps")
    return club


def book_hand(
    room: Room,
    users: Sequence[Any],
    transfers: Sequence[tuple[int, int, int]],
    at: datetime | None = None,
) -> Hand:
    """A finished hand of ``room`` booked with ``(payer seat, payee seat, points)`` (at
    ``at``, or now)."""
    match = Match.objects.filter(room=room).first() or Match.objects.create(
        room=room, number=1, rules=Rules().to_json()
    )
    winner = transfers[0][1]
    hand = Hand.objects.create(
        room=room,
        match=match,
        number=Hand.objects.filter(room=room).count() + 1,
        dealer=0,
        seed="s",
        rules=Rules().to_json(),
        result={"outcome": "self_draw", "winners": [winner], "judgements": {}},
        ended_at=at or timezone.now(),
    )
    hand_entries_create(
        now=at,
        hand=hand,
        users=list(users),
        transfers=[
            {"payer": p, "payee": q, "points": n, "reason": "self_draw"} for p, q, n in transfers
        ],
    )
    return hand


@pytest.fixture
def club_room(club: Club, four: list[Any]) -> Room:
    preset = services.preset_create(
        club=club, by=four[0], name="标准", rules=Rules(), match_length=8, turn_seconds=20
    )
    return services.room_open(club=club, by=four[0], preset_id=preset.pk)


@pytest.fixture
def booked() -> Callable[..., Hand]:
    """``booked(room, users, [(payer seat, payee seat, points), …])``: a booked hand."""
    return book_hand


@pytest.fixture
def role_of() -> Callable[[Club, Any], tuple[str, str]]:
    def role(club: Club, user: Any) -> tuple[str, str]:
        m = Membership.objects.get(club=club, user=user)
        return (m.role, m.status)

    return role


@pytest.fixture
def evening(club: Club, club_room: Room, four: list[Any]) -> Club:
    """Two hands at the club's table and one physical hand, seats 甲乙丙丁:
    - 甲 self-draws 4: 乙, 丙, 丁 pay 4 each (甲 +12, the others -4);
    - 丙 self-draws 8: 甲, 乙, 丁 pay 8 each (丙 +24, the others -8);
    - at 丁's flat, 丁 self-draws 平胡 (4): 甲, 乙, 丙 pay 4 each (丁 +12, the others -4).
    Nets: 甲 12-8-4 = 0, 乙 -4-8-4 = -16, 丙 -4+24-4 = +16, 丁 -4-8+12 = 0.
    And a hand outside the club (乙 pays 甲 100), which its book never counts."""
    a, b, c, d = four
    book_hand(club_room, four, [(1, 0, 4), (2, 0, 4), (3, 0, 4)])
    book_hand(club_room, four, [(0, 2, 8), (1, 2, 8), (3, 2, 8)])
    hand = offline.offline_hand_record(
        club=club, by=d, players=[d.pk, a.pk, b.pk, c.pk], winner=0, robbed=None,
        query=QueryDict("hand=123m456m789p234s55z&indicator=1z"),
    )  # fmt: skip
    for u in (a, b, c):
        offline.offline_hand_answer(hand_id=hand.pk, user=u, agrees=True)
    outside = table_services.room_create(
        owner=a, name="外", is_public=True, rules=Rules(), match_length=None
    )
    book_hand(outside, four, [(1, 0, 100)])
    return club
