"""Who sees a club's rooms, who may sit at them (禁止同桌, suspension), the club's periods."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from clubs import selectors, services
from clubs.models import Club
from tables.models import Room, Seat
from tables.play.phrases import phrase_send
from tables.play.protocol import PlayError
from tables.rooms import services as table_services
from tables.rooms.services import RoomError

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


def _forbid(club: Club, by: Any, x: Any, y: Any) -> None:
    services.forbidden_pair_set(
        club=club, by=by, first_id=x.pk, second_id=y.pk, forbid=True, reason="argue"
    )


def test_a_forbidden_pair_cannot_sit_at_one_table(
    club: Club, club_room: Room, four: list[Any]
) -> None:
    a, b, c, d = four  # 甲 opened the room and sits in seat 0
    _forbid(club, b, a, c)
    with pytest.raises(RoomError, match="same table as 甲"):
        table_services.seat_take(room=club_room, user=c, index=1)
    table_services.seat_take(room=club_room, user=d, index=1)
    assert Seat.objects.get(room=club_room, index=1).user == d


def test_the_pair_is_refused_whichever_of_the_two_sits_second(
    club: Club, club_room: Room, four: list[Any]
) -> None:
    a, b, c, d = four
    _forbid(club, a, c, d)
    table_services.seat_take(room=club_room, user=d, index=2)
    with pytest.raises(RoomError, match="same table as 丁"):
        table_services.seat_take(room=club_room, user=c, index=1)
    # others sit freely; once allowed again, the pair may share the table
    table_services.seat_take(room=club_room, user=b, index=1)
    services.forbidden_pair_set(
        club=club, by=a, first_id=c.pk, second_id=d.pk, forbid=False, reason="made up"
    )
    table_services.seat_take(room=club_room, user=c, index=3)


def test_a_suspended_member_cannot_sit(club: Club, club_room: Room, four: list[Any]) -> None:
    a, _b, c, _d = four
    services.member_discipline(club=club, by=a, user_id=c.pk, action="suspend", reason="late")
    with pytest.raises(RoomError, match="suspended"):
        table_services.seat_take(room=club_room, user=c, index=1)


def test_a_club_room_is_no_room_at_all_to_a_non_member(
    club: Club, club_room: Room, four: list[Any], make_user: Callable[..., Any]
) -> None:
    stranger = make_user("stranger")
    assert not club_room.is_public
    assert table_services.room_find(user=four[3], number=club_room.number, ip="1.1.1.1")
    answers = []
    for number in (club_room.number, "000000"):
        with pytest.raises(RoomError) as exc:
            table_services.room_find(user=stranger, number=number, ip="1.1.1.1")
        answers.append(str(exc.value).replace(number, "N"))
    assert answers[0] == answers[1]


def test_a_removed_member_no_longer_sees_the_club_or_its_rooms(
    club: Club, club_room: Room, four: list[Any]
) -> None:
    a, _b, c, _d = four
    services.member_discipline(club=club, by=a, user_id=c.pk, action="remove", reason="gone")
    assert selectors.club_of(c, club.number) is None
    assert not selectors.club_room_visible(club_room, c.pk)


@pytest.mark.parametrize(
    ("now", "start"),
    [
        (datetime(2026, 3, 6, 23, 0), datetime(2026, 3, 6, 12, 0)),  # Friday night
        (datetime(2026, 3, 7, 1, 30), datetime(2026, 3, 6, 12, 0)),  # past midnight: still it
        (datetime(2026, 3, 7, 13, 0), datetime(2026, 3, 7, 12, 0)),  # the next afternoon
    ],
)
def test_tonight_runs_from_noon_to_noon(club: Club, now: datetime, start: datetime) -> None:
    tz = ZoneInfo("Asia/Shanghai")
    got = selectors.club_period_start(club, "tonight", now.replace(tzinfo=tz))
    assert got == start.replace(tzinfo=tz)


def test_a_muted_member_sends_no_phrases_at_the_clubs_tables(
    club: Club, club_room: Room, four: list[Any]
) -> None:
    a, _b, c, _d = four
    table_services.seat_take(room=club_room, user=c, index=1)
    services.member_discipline(club=club, by=a, user_id=c.pk, action="mute", reason="rude")
    with pytest.raises(PlayError, match="muted"):
        phrase_send(number=club_room.number, user=c, phrase=0)
    assert phrase_send(number=club_room.number, user=a, phrase=0) == 0


def test_an_admin_seating_a_member_meets_the_same_forbidden_pair(
    club: Club, club_room: Room, four: list[Any]
) -> None:
    a, b, c, d = four  # 甲 sits in seat 0 of the room 甲 opened
    _forbid(club, b, a, c)
    with pytest.raises(services.ClubError, match="same table as 甲"):
        services.club_seat_move(club=club, by=b, number=club_room.number, user_id=c.pk, index=1)
    with pytest.raises(services.ClubError, match="Only the club's admins"):
        services.club_seat_move(club=club, by=d, number=club_room.number, user_id=d.pk, index=1)
    services.club_seat_move(club=club, by=b, number=club_room.number, user_id=d.pk, index=2)
    assert Seat.objects.get(room=club_room, index=2).user == d
