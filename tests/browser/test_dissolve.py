"""Issue #12: the 解散 vote in four browsers, and the staff desk and the room's record.

1. One proposes, three agree: every page shows the match summary, the hand is unpaid and the
   room's record says so.
2. One refuses: the vote closes on every page and play goes on.

Screenshots (390x844 and 1280x800) of the vote, the staff desk and the record go to
``artifacts/screenshots/``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from engine.rules import Rules
from ledger.models import Entry
from tables.models import DissolveVote, Hand, Room
from tables.rooms import services
from tests.browser.driver import PHONE, click_move, goto_table
from tests.browser.policy import Move

pytestmark = pytest.mark.browser

WIDE = {"width": 1280, "height": 800}


def four_at_a_table(make_user: Any, new_context: Any) -> tuple[Room, list[Any], list[Any]]:
    """Four people seated and ready, the match started (no bots, nobody on 托管, long turns),
    each with the table open: two on phones, two on wide screens."""
    names = ["东家", "南家", "西家", "北家"]
    users = [make_user(f"p{i}", display_name=n) for i, n in enumerate(names)]
    room = services.room_create(
        owner=users[0],
        name="解散局",
        is_public=False,
        rules=Rules(),
        match_length=4,
        turn_seconds=services.TURN_SECONDS_MAX,
    )
    for i, u in enumerate(users[1:], start=1):
        services.seat_take(room=room, user=u, index=i)
    for u in users:
        services.seat_ready(room=room, user=u, ready=True)
    services.match_start(room=room, by_user=users[0])
    pages = []
    for i, u in enumerate(users):
        page = new_context(u, viewport=PHONE if i % 2 == 0 else WIDE).new_page()
        goto_table(page, room.number)
        pages.append(page)
    return room, users, pages


def shoot(page: Any, folder: Path, name: str) -> None:
    page.screenshot(path=str(folder / f"{name}.png"), full_page=True)


def test_all_agree_and_the_match_ends_unpaid(
    new_context: Any, make_user: Any, screenshots: Path
) -> None:
    room, users, pages = four_at_a_table(make_user, new_context)
    staff = make_user("referee", display_name="裁判")
    staff.is_staff = True
    staff.save()
    for viewport, size in ((PHONE, "phone"), (WIDE, "wide")):
        desk = new_context(staff, viewport=viewport).new_page()
        desk.goto("/staff/tables/")
        expect(desk.locator(f"[data-room='{room.number}']")).to_be_visible()
        desk.locator(f"[data-room='{room.number}'] summary").click()
        shoot(desk, screenshots, f"staff-desk-{size}")

    pages[0].locator("[data-action=dissolve-propose]").click()
    for page in pages[1:]:
        expect(page.locator("#dissolve [data-action=dissolve-agree]")).to_be_visible()
    expect(pages[0].locator("#dissolve")).to_contain_text("东家")
    expect(pages[0].locator("#dissolve [data-action=dissolve-agree]")).to_have_count(0)
    pages[1].locator("[data-action=dissolve-agree]").click()
    expect(pages[2].locator("#dissolve [data-answer=agreed]")).to_have_count(1)
    shoot(pages[2], screenshots, "dissolve-vote-phone")
    shoot(pages[3], screenshots, "dissolve-vote-wide")
    for page in pages[2:]:
        page.locator("[data-action=dissolve-agree]").click()
    for page in pages:
        expect(page.locator("#match-summary")).to_be_visible()
        expect(page.locator("#dissolve")).to_have_count(0)

    vote = DissolveVote.objects.get(room=room)
    hand = Hand.objects.get(room=room)
    assert vote.outcome == DissolveVote.Outcome.PASSED and vote.proposer == users[0]
    assert sorted(vote.answers.values_list("seat", "agree", "how")) == [
        (1, True, "answered"),
        (2, True, "answered"),
        (3, True, "answered"),
    ]
    assert hand.ended_at is not None and hand.result is None
    assert not Entry.objects.filter(hand=hand).exists()
    assert Room.objects.get(pk=room.pk).status == Room.Status.FINISHED

    pages[1].locator("[data-link=room-record]").click()
    expect(pages[1].locator("[data-result=dissolved]")).to_be_visible()
    expect(pages[1].locator("[data-vote=passed] [data-answer-seat]")).to_have_count(3)
    shoot(pages[1], screenshots, "room-record-wide")
    pages[0].goto(f"/r/{room.number}/record/")
    shoot(pages[0], screenshots, "room-record-phone")


def test_one_refusal_and_play_goes_on(new_context: Any, make_user: Any, screenshots: Path) -> None:
    room, _users, pages = four_at_a_table(make_user, new_context)
    pages[2].locator("[data-action=dissolve-propose]").click()
    for page in (pages[0], pages[1], pages[3]):
        expect(page.locator("#dissolve [data-action=dissolve-refuse]")).to_be_visible()
    pages[3].locator("[data-action=dissolve-refuse]").click()
    for page in pages:
        expect(page.locator("#dissolve")).to_have_count(0)
        # #36, nothing silent: every seat is told who refused.
        expect(page.locator("[data-dissolve=refused]")).to_contain_text("北家 拒绝")
    assert DissolveVote.objects.get(room=room).outcome == DissolveVote.Outcome.FAILED
    # Whoever's turn it is discards, and every page sees the table move on.
    acting = next(p for p in pages if p.locator("#my-hand.can-discard").count())
    step = int(acting.locator("#table-public").get_attribute("data-step") or "0")
    tile = acting.locator("#my-hand button[data-tile]").first.get_attribute("data-tile")
    click_move(acting, Move("discard", tile=tile))  # on a phone: a tap to lift, one to discard
    for page in pages:
        expect(page.locator("#table-public")).to_have_attribute("data-step", str(step + 1))
    assert Room.objects.get(pk=room.pk).status == Room.Status.PLAYING
    # The proposer cannot propose again during this hand; the others still may.
    expect(pages[2].locator("[data-action=dissolve-propose]")).to_have_count(0)
    expect(pages[0].locator("[data-action=dissolve-propose]")).to_have_count(1)
    shoot(pages[0], screenshots, "dissolve-button-phone")
    shoot(pages[1], screenshots, "dissolve-button-wide")
