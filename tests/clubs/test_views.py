"""The club's pages: members see them, anyone else gets the 404 a missing club gets."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from clubs.models import Club, Membership, Preset
from tables.models import Room

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


def _client(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_a_member_sees_the_home_book_settle_record_and_csv(
    club: Club, club_room: Room, four: list[Any]
) -> None:
    client = _client(four[2])
    home = client.get(f"/c/{club.number}/")
    assert home.status_code == 200
    assert club_room.number in home.content.decode()
    for path in ("book/", "settle/?period=all", "record/"):
        assert client.get(f"/c/{club.number}/{path}").status_code == 200
    csv = client.get(f"/c/{club.number}/book.csv")
    assert csv.status_code == 200 and csv["Content-Type"].startswith("text/csv")


def test_a_stranger_gets_the_same_404_for_a_club_and_for_no_club(
    club: Club, make_user: Callable[..., Any]
) -> None:
    client = _client(make_user("stranger"))
    real = client.get(f"/c/{club.number}/")
    none = client.get("/c/000000/")
    assert real.status_code == none.status_code == 404

    # the page names the address asked for, and each page has its own CSRF token
    def plain(body: bytes, number: str) -> str:
        text = body.decode().replace(number, "N")
        return re.sub(r"[A-Za-z0-9]{64}", "T", text)

    assert plain(real.content, club.number) == plain(none.content, "000000")


def test_joining_by_the_link_then_opening_a_room_from_a_preset(
    club: Club, four: list[Any], make_user: Callable[..., Any]
) -> None:
    e = make_user("e")
    page = _client(e).post(f"/clubs/join/{club.invite_token}/")
    assert page.status_code == 200
    assert Membership.objects.get(club=club, user=e).status == "pending"
    owner = _client(four[0])
    owner.post(f"/c/{club.number}/act/", {"action": "admit", "user": e.pk})
    assert Membership.objects.get(club=club, user=e).status == "active"
    preset = Preset.objects.create(club=club, name="快", rules="standard", turn_seconds=20)
    opened = _client(e).post(f"/c/{club.number}/act/", {"action": "open", "preset": preset.pk})
    room = Room.objects.get(club=club)
    assert opened["Location"] == f"/r/{room.number}/"
    assert room.owner == e and not room.is_public


def test_a_member_cannot_admit_by_posting_the_form(
    club: Club, four: list[Any], make_user: Callable[..., Any]
) -> None:
    e = make_user("e")
    _client(e).post(f"/clubs/join/{club.invite_token}/")
    _client(four[3]).post(f"/c/{club.number}/act/", {"action": "admit", "user": e.pk})
    assert Membership.objects.get(club=club, user=e).status == "pending"


def test_the_calculator_offers_recording_only_to_members(
    club: Club, four: list[Any], make_user: Callable[..., Any]
) -> None:
    query = f"hand=123m456m789p234s55z&indicator=1z&club={club.number}"
    assert 'id="offline-record"' in _client(four[1]).get(f"/calc/?{query}").content.decode()
    stranger = _client(make_user("x")).get(f"/calc/?{query}").content.decode()
    assert 'id="offline-record"' not in stranger


def test_the_club_csv_never_hands_a_spreadsheet_a_formula(
    club: Club, four: list[Any], booked: Callable[..., Any], club_room: Room
) -> None:
    four[1].display_name = "=HYPERLINK(1)"
    four[1].save()
    booked(club_room, four, [(1, 0, 4)])  # 乙 (the formula) pays 甲 4
    response: Any = _client(four[0]).get(f"/c/{club.number}/book.csv")
    body = b"".join(response.streaming_content)
    rows = body.decode("utf-8-sig").splitlines()
    assert len(rows) == 2
    assert ",'=HYPERLINK(1),甲,4," in rows[1]
