"""Roles, joining, order and the oracle: every club action checks the role on the server."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.test import override_settings

from clubs import services
from clubs.models import AuditEntry, Club, Membership
from clubs.services import ClubError, ClubLookupLimited
from tables.play import events
from tables.rooms import services as table_services

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


def test_the_creator_is_the_owner_and_joining_waits_for_an_admin(
    make_user: Callable[..., Any], role_of: Callable[..., Any]
) -> None:
    a, e = make_user("a"), make_user("e")
    club = services.club_create(owner=a, name="周五")
    assert len(club.number) == 6 and club.number.isdigit()
    assert role_of(club, a) == ("owner", "active")
    mine = services.club_join(user=e, token=club.invite_token, ip="1.1.1.1")
    assert (mine.role, mine.status) == ("member", "pending")
    with pytest.raises(ClubError, match="No club of yours"):
        services.club_find(user=e, number=club.number, ip="1.1.1.1")
    services.club_request_answer(club=club, by=a, user_id=e.pk, admit=True)
    assert services.club_find(user=e, number=club.number, ip="1.1.1.1") == club


def test_an_auto_club_admits_by_the_link_and_a_revoked_link_leads_nowhere(
    make_user: Callable[..., Any], role_of: Callable[..., Any]
) -> None:
    a, e, f = make_user("a"), make_user("e"), make_user("f")
    club = services.club_create(owner=a, name="周五")
    old = club.invite_token
    services.club_settings_update(club=club, by=a, join_mode="auto")
    services.club_join(user=e, token=old, ip="1.1.1.1")
    assert role_of(club, e) == ("member", "active")
    services.club_settings_update(club=club, by=a, revoke_invite=True)
    with pytest.raises(ClubError, match="No club of yours"):
        services.club_join(user=f, token=old, ip="1.1.1.1")


def test_a_plain_member_can_do_no_admin_action(club: Club, four: list[Any]) -> None:
    _a, b, c, d = four
    for attempt in (
        lambda: services.club_request_answer(club=club, by=c, user_id=d.pk, admit=True),
        lambda: services.member_discipline(
            club=club, by=c, user_id=d.pk, action="mute", reason="x"
        ),
        lambda: services.forbidden_pair_set(
            club=club, by=c, first_id=b.pk, second_id=d.pk, forbid=True, reason="x"
        ),
        lambda: services.club_settings_update(club=club, by=c, announcement="hi"),
    ):
        with pytest.raises(ClubError, match="Only the club's admins"):
            attempt()
    assert Membership.objects.get(club=club, user=d).muted is False


def test_an_admin_acts_on_members_but_not_on_admins_nor_sets_the_point_value(
    club: Club, four: list[Any], role_of: Callable[..., Any]
) -> None:
    a, b, c, _d = four
    services.member_discipline(club=club, by=b, user_id=c.pk, action="suspend", reason="late")
    assert role_of(club, c) == ("member", "suspended")
    with pytest.raises(ClubError, match="Only the owner"):
        services.member_discipline(club=club, by=b, user_id=a.pk, action="mute", reason="x")
    with pytest.raises(ClubError, match="owner"):
        services.club_settings_update(club=club, by=b, point_value="1 元")
    services.club_settings_update(club=club, by=a, point_value="1 元")
    club.refresh_from_db()
    assert club.point_value == "1 元"


def test_each_order_needs_a_reason_and_is_recorded(club: Club, four: list[Any]) -> None:
    a, _b, c, _d = four
    with pytest.raises(ClubError, match="reason"):
        services.member_discipline(club=club, by=a, user_id=c.pk, action="remove", reason=" ")
    services.member_discipline(club=club, by=a, user_id=c.pk, action="remove", reason="cheated")
    last = AuditEntry.objects.filter(club=club).first()
    assert last is not None
    assert (last.action, last.target, last.reason) == ("remove", c, "cheated")
    # removed: out of the club, and the link does not bring them back
    with pytest.raises(ClubError, match="removed you"):
        services.club_join(user=c, token=club.invite_token, ip="1.1.1.1")


def test_leaving_keeps_the_owner(club: Club, four: list[Any], role_of: Callable[..., Any]) -> None:
    a, _b, c, _d = four
    with pytest.raises(ClubError, match="owner"):
        services.club_leave(club=club, user=a)
    services.club_leave(club=club, user=c)
    assert role_of(club, c) == ("member", "left")


def test_a_non_member_gets_the_same_answer_for_a_club_that_exists_and_one_that_does_not(
    club: Club, make_user: Callable[..., Any]
) -> None:
    stranger = make_user("stranger")
    missing = "000000" if club.number != "000000" else "000001"
    answers = []
    for number in (club.number, missing):
        with pytest.raises(ClubError) as exc:
            services.club_find(user=stranger, number=number, ip="2.2.2.2")
        answers.append((type(exc.value), str(exc.value)))
    assert answers[0] == answers[1]


@override_settings(ROOM_LOOKUP_MISSES_ALLOWED=3, ROOM_LOOKUP_MISSES_PER_IP_ALLOWED=100)
def test_club_numbers_and_links_share_the_room_numbers_guessing_limit(
    club: Club, make_user: Callable[..., Any]
) -> None:
    stranger = make_user("stranger")
    for token in ("x1", "x2"):
        with pytest.raises(ClubError):
            services.club_by_invite(user_id=stranger.pk, token=token, ip="3.3.3.3")
    with pytest.raises(ClubError):
        services.club_find(user=stranger, number=club.number, ip="3.3.3.3")
    # three misses used: even the real link is refused now, and so is any number
    with pytest.raises(ClubLookupLimited):
        services.club_by_invite(user_id=stranger.pk, token=club.invite_token, ip="3.3.3.3")


def test_removing_a_member_closes_their_pages_at_the_clubs_rooms(
    club: Club, club_room: Any, four: list[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Every room of the club is told, naming the removed member (the consumer closes the
    # pages of the user it names); the layer itself differs (in memory, Redis pub/sub).
    told: list[tuple[str, int]] = []
    monkeypatch.setattr(events, "member_evicted", lambda n, u: told.append((n, u)))
    services.member_discipline(
        club=club, by=four[0], user_id=four[2].pk, action="remove", reason="gone"
    )
    assert told == [(club_room.number, four[2].pk)]


def test_an_admin_closes_a_club_room_with_a_reason_a_member_cannot(
    club: Club, club_room: Any, four: list[Any]
) -> None:
    _a, b, c, _d = four
    with pytest.raises(ClubError, match="Only the club's admins"):
        services.club_room_close(club=club, by=c, number=club_room.number, reason="late")
    services.club_room_close(club=club, by=b, number=club_room.number, reason="too late")
    club_room.refresh_from_db()
    assert club_room.status == "finished"
    last = AuditEntry.objects.filter(club=club).first()
    assert last is not None
    assert (last.action, last.actor, last.reason, last.detail) == (
        "close_room",
        b,
        "too late",
        club_room.number,
    )


def test_a_guest_link_opens_one_room_to_a_friend_outside_the_club(
    club: Club, club_room: Any, four: list[Any], make_user: Callable[..., Any]
) -> None:
    friend = make_user("friend")
    with pytest.raises(table_services.RoomError):
        table_services.room_find(user=friend, number=club_room.number, ip="4.4.4.4")
    token = services.guest_token(club=club, by=four[3], room=club_room)
    assert services.room_guest_admit(user=friend, token=token, ip="4.4.4.4") == club_room
    assert table_services.room_find(user=friend, number=club_room.number, ip="4.4.4.4")
    table_services.seat_take(room=club_room, user=friend, index=1)
    # the room only: the club stays closed to them
    with pytest.raises(ClubError):
        services.club_find(user=friend, number=club.number, ip="4.4.4.4")
    with pytest.raises(ClubError):
        services.room_guest_admit(user=friend, token=token + "x", ip="4.4.4.4")
