"""tables.rooms.table_page: the ``#live`` region, the same for a page load and a push."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from tables.models import Room
from tables.rooms import services
from tables.rooms.table_page import live_context, render_live
from tables.screen import rule_labels
from tests.tables.factories import start_with_bots

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]

INVITE = "http://testserver/r/000000/"


def test_a_waiting_room_shows_seats_and_no_board(room: Room, user: Any) -> None:
    context = live_context(room, user, invite_url=INVITE)
    assert context["table"] is None and context["waiting"] is True
    assert context["room"] == room and context["invite_url"] == INVITE
    assert [s.index for s in context["seats"]] == [0, 1, 2, 3]
    assert context["my_seat"] is not None and context["my_seat"].index == 0
    assert context["is_owner"] is True
    assert context["summary"] == rule_labels.rules_summary(room.rules)  # the rules in words
    assert context["all_filled"] is False
    assert context["all_ready"] is False  # the owner has not pressed 准备


def test_filled_and_ready_count_only_the_seats_taken(room: Room, user: Any) -> None:
    services.seat_ready(room=room, user=user, ready=True)
    context = live_context(room, user, invite_url=INVITE)
    assert context["all_ready"] is True  # empty seats are not waited for
    assert context["all_filled"] is False
    for i in (1, 2, 3):
        services.bot_add(room=room, by_user=user, index=i)
    context = live_context(room, user, invite_url=INVITE)
    assert context["all_filled"] is True
    assert context["all_ready"] is True  # bots are ready when they sit down


def test_a_visitor_or_a_stranger_has_no_seat_and_owns_nothing(room: Room, make_user: Any) -> None:
    for viewer in (make_user("bob"), None):
        context = live_context(room, viewer, invite_url=INVITE)
        assert context["my_seat"] is None and context["is_owner"] is False
        assert context["table"] is None


def test_a_playing_room_shows_the_same_public_part_to_all_and_each_their_own(
    user: Any, make_user: Any
) -> None:
    room = start_with_bots(user, seed="live-playing")
    mine = live_context(room, user, invite_url=INVITE)["table"]
    assert mine.startswith('<section class="table" data-me="0"')
    theirs = live_context(room, make_user("watcher"), invite_url=INVITE)["table"]
    assert theirs.startswith('<section class="table" data-me=""')

    def part(html: str, start: str, end: str) -> str:
        return html[html.index(start) : html.index(end)]

    public = part(mine, 'id="table-public"', 'id="table-private"')
    assert public == part(theirs, 'id="table-public"', 'id="table-private"')  # the same bytes
    private = part(mine, 'id="table-private"', 'id="table-clock"')
    assert 'id="my-hand"' in private and private.count('data-tile="') >= 13
    assert 'id="my-hand"' not in theirs


def test_render_live_for_a_missing_room_renders_nothing(user: Any) -> None:
    assert render_live("999999", user, invite_url=INVITE, csrf_token="t") == ("", None)


def test_render_live_is_an_out_of_band_swap_of_the_live_region(room: Room, user: Any) -> None:
    html, found = render_live(f" {room.number} ", user, invite_url=INVITE, csrf_token="tok" * 11)
    assert found == room
    assert html.startswith('<div id="live" hx-swap-oob="morph">')
    assert room.number in html and INVITE in html
    assert 'value="' + "tok" * 11 + '"' in html  # the page's CSRF token in its forms
    assert 'data-action="add-bot"' in html  # the owner's buttons while waiting


def test_the_page_itself_swaps_nothing_out_of_band(client: Client, room: Room, user: Any) -> None:
    client.force_login(user)
    page = client.get(f"/r/{room.number}/").content.decode()
    assert '<div id="live">' in page and 'id="live" hx-swap-oob' not in page


def test_render_live_pushes_the_table_to_a_seated_player_only(user: Any, make_user: Any) -> None:
    room = start_with_bots(user, seed="live-render")
    mine, _ = render_live(room.number, user, invite_url=INVITE, csrf_token="t")
    assert 'id="my-hand"' in mine and 'data-step="' in mine
    theirs, _ = render_live(room.number, make_user("watcher"), invite_url=INVITE, csrf_token="t")
    assert 'data-step="' in theirs and 'id="my-hand"' not in theirs
