"""Fixtures for the club tests: a club of four (圈主 甲, 管理员 乙, members 丙 and 丁) and
hands booked in its rooms with payments worked out by hand."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

import pytest
from django.core.cache import cache
from django.utils import timezone, translation

from clubs import services
from clubs.models import Club, Membership
from engine.rules import Rules
from ledger.services import hand_entries_create
from tables.models import Hand, Match, Room


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


def book_hand(room: Room, users: Sequence[Any], transfers: Sequence[tuple[int, int, int]]) -> Hand:
    """A finished hand of ``room`` booked with ``(payer seat, payee seat, points)``."""
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
        ended_at=timezone.now(),
    )
    hand_entries_create(
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
