"""Issue #37: a club's evening in two browsers (the 圈主 on a laptop, a member on a phone)
and two more accounts.

The 圈主 creates the club and a preset; the member asks to join by the invite link and is
admitted; the member opens a room from the preset in one tap, four people sit (two by their
services) and the clock plays two hands on 托管; the 圈主 records a physical hand from the
算分器 and all four confirm it; on "settle the evening" each suggested transfer is recorded
and confirmed until everyone is square. Screenshots (390x844 and 1366x900) go to
``artifacts/screenshots/``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from clubs import offline, services
from clubs.book import club_book
from clubs.models import Club, Membership, OfflineHand
from ledger.models import Entry
from tables.models import Room, Seat
from tables.play import clock
from tables.rooms import services as table_services
from tests.browser.driver import PHONE, PHONE_LANDSCAPE

pytestmark = pytest.mark.browser

LAPTOP = {"width": 1366, "height": 900}
PINGHU = "hand=123m456m789p234s55z&indicator=1z"


def shoot(page: Any, folder: Path, name: str) -> None:
    page.screenshot(path=str(folder / f"{name}.png"), full_page=True)


def play_two_hands(room: Room) -> None:
    """Everyone is on 托管: the clock plays until the two-hand match ends."""
    Seat.objects.filter(room=room).update(tuoguan=True)
    for _ in range(20_000):
        room.refresh_from_db()
        if room.status == Room.Status.FINISHED:
            return
        assert room.deadline is not None
        clock.advance(room.number, now=room.deadline)
    raise AssertionError("the match never ended")


def test_a_clubs_evening_from_invite_to_square(
    new_context: Any, make_user: Any, screenshots: Path
) -> None:
    owner, member = (
        make_user("quanzhu", display_name="圈主老王"),
        make_user("xiaoli", display_name="小李"),
    )
    third, fourth = make_user("c3", display_name="阿三"), make_user("d4", display_name="阿四")
    boss = new_context(owner, viewport=LAPTOP).new_page()
    phone = new_context(member, viewport=PHONE).new_page()

    # the 圈主 creates the club and keeps a preset of two hands
    phone.goto("/clubs/")
    shoot(phone, screenshots, "club-list-phone")
    boss.goto("/clubs/")
    boss.fill("#club-name", "周五麻将")
    boss.fill("#club-description", "老同事，每周五")
    boss.click("[data-form=club-create] button[type=submit]")
    expect(boss.locator("h1")).to_contain_text("周五麻将")
    club = Club.objects.get(name="周五麻将")
    boss.locator("#admin details").nth(3).locator("summary").click()
    boss.fill("#id_preset-name", "两局标准")
    boss.fill("#id_preset-match_length", "2")
    boss.click("[data-action=save-preset]")
    boss.locator("#admin details").nth(0).locator("summary").click()
    invite = boss.locator("#invite-url").input_value()

    # the member asks by the link; the 圈主 admits; two more join by their services
    phone.goto(invite)
    phone.click("[data-action=join-club]")
    expect(phone.locator(".messages, .message").first).to_be_visible()
    boss.goto(f"/c/{club.number}/")
    boss.click("[data-action=admit]")
    assert Membership.objects.get(club=club, user=member).status == "active"
    for user in (third, fourth):
        services.club_join(user=user, token=club.invite_token, ip="127.0.0.2")
        services.club_request_answer(club=club, by=owner, user_id=user.pk, admit=True)
    services.club_settings_update(
        club=club, by=owner, announcement="今晚八点开打", point_value="1 元"
    )

    # the member opens a room from the preset in one tap; four sit and play two hands
    phone.goto(f"/c/{club.number}/")
    phone.click("[data-action=open-preset]")
    phone.wait_for_url("**/r/*/")
    room = Room.objects.get(club=club)
    for i, user in enumerate((owner, third, fourth), start=1):
        table_services.seat_take(room=room, user=user, index=i)
    for page, name in ((phone, "club-rooms-phone"), (boss, "club-rooms-laptop")):
        page.goto(f"/c/{club.number}/")
        expect(page.locator("#club-rooms")).to_contain_text(room.number)
        shoot(page, screenshots, name)
    for user in (member, owner, third, fourth):
        table_services.seat_ready(room=room, user=user, ready=True)
    table_services.match_start(room=room, by_user=member, first_seed="club-evening")
    play_two_hands(room)
    assert room.hands.filter(result__isnull=False).count() == 2

    # the 圈主 records a physical hand from the 算分器; all four confirm it
    boss.goto(f"/calc/?{PINGHU}&club={club.number}")
    shoot(boss, screenshots, "club-calculator-laptop")
    boss.click("[data-action=record-offline]")
    hand = OfflineHand.objects.get(club=club)
    assert hand.score == 4  # 无宝平胡 (§7): each of the three others pays 4
    phone.goto(f"/c/{club.number}/")
    phone.click("#offline-to-answer button[value=agree]")
    for user in (third, fourth):
        offline.offline_hand_answer(hand_id=hand.pk, user=user, agrees=True)
    assert Entry.objects.filter(kind="offline_hand").count() == 3
    phone.goto(f"/c/{club.number}/")
    expect(phone.locator("#announcement")).to_contain_text("今晚八点开打")
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shoot(phone, screenshots, "club-home-phone")
    boss.goto(f"/c/{club.number}/")
    shoot(boss, screenshots, "club-home-laptop")
    phone.goto(f"/c/{club.number}/book/?period=tonight")
    shoot(phone, screenshots, "club-book-phone")

    # settle the evening: every suggested transfer recorded and confirmed
    pages = {owner.pk: boss, member.pk: phone}
    settle = f"/c/{club.number}/settle/?period=tonight"
    transfers = club_book(club, "tonight").transfers
    assert transfers, "two hands and a physical one leave somebody owing"
    phone.goto(settle)
    shoot(phone, screenshots, "club-settle-phone")
    boss.goto(settle)
    shoot(boss, screenshots, "club-settle-laptop")
    for p in transfers:
        page = pages.get(p.payer.pk)
        if page is not None:
            page.goto(settle)
            page.locator(f"#transfers form:has(input[name=payee][value='{p.payee.pk}'])").locator(
                "[data-action=claim]"
            ).click()
        else:
            since = club_book(club, "tonight").since
            services.club_claim_create(
                club=club, by=p.payer, payer_id=p.payer.pk, payee_id=p.payee.pk,
                points=p.points, since=since,
            )  # fmt: skip
    for p in transfers:
        page = pages.get(p.payee.pk)
        claim = club_book(club, "tonight").claims
        mine = next(c for c in claim if c.payer_id == p.payer.pk and c.payee_id == p.payee.pk)
        if page is not None:
            page.goto(settle)
            page.locator(f"#transfers form:has(input[name=claim][value='{mine.pk}'])").locator(
                "[data-action=confirm-claim]"
            ).click()
        else:
            services.club_claim_answer(club=club, by=p.payee, claim_id=mine.pk, confirm=True)
    phone.goto(settle)
    expect(phone.locator("#square")).to_be_visible()
    assert set(club_book(club, "tonight").nets.values()) == {0}
    shoot(phone, screenshots, "club-settled-phone")
    boss.goto(f"/c/{club.number}/record/")
    expect(boss.locator("#club-hands [data-kind=physical]")).to_have_count(1)
    expect(boss.locator("#club-hands [data-kind=online]")).to_have_count(2)
    shoot(boss, screenshots, "club-record-laptop")
    side = new_context(member, viewport=PHONE_LANDSCAPE).new_page()
    side.goto(f"/c/{club.number}/")
    assert side.evaluate("document.documentElement.scrollWidth") <= PHONE_LANDSCAPE["width"]
    shoot(side, screenshots, "club-home-phone-landscape")
    phone.goto("/")
    expect(phone.locator(".lobby > section").first).to_have_id("my-clubs")
    shoot(phone, screenshots, "club-lobby-phone")
