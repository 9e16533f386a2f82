"""Issue #36's small things in a real browser: 分享 without the share API copies the link and
says so; a shared replay has the site's header and a way to sign up; 结束比赛 and leaving in
the middle of a hand ask first; a hand staff closed says why.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tables.history.shares import share_create
from tables.models import Room, Seat
from tables.play import clock
from tables.staff.desk import staff_hand_close, staff_room_dissolve, staff_seat_replace
from tests.browser import states
from tests.browser.driver import DESKTOP, PHONE, PHONE_LANDSCAPE, goto_table
from tests.tables.factories import played_hand, run_until_my_turn

pytestmark = pytest.mark.browser

NO_SHARE_API = "delete Navigator.prototype.share; delete Navigator.prototype.canShare;"


def test_share_without_the_share_api_copies_the_link_with_a_toast(
    new_context: Any, user: Any, screenshots: Path
) -> None:
    room = states.waiting_room(user)
    context = new_context(user, viewport=PHONE)
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    context.add_init_script(NO_SHARE_API)
    page = context.new_page()
    goto_table(page, room.number)
    page.locator("[data-action=share-invite]").click()
    toast = page.locator(".toast[role=status]")
    expect(toast).to_have_text("链接已复制")
    page.screenshot(path=str(screenshots / "share-toast-phone.png"))
    copied = page.evaluate("() => navigator.clipboard.readText()")
    assert copied.endswith(f"/r/{room.number}/")
    expect(toast).to_have_count(0, timeout=5_000)


def test_a_shared_replay_has_the_site_header_and_a_sign_up_link(
    new_context: Any, user: Any, screenshots: Path
) -> None:
    hand = played_hand(user)
    share = share_create(hand=hand, user=user)
    page = new_context(viewport=PHONE).new_page()  # a stranger, logged out
    page.goto(f"/replays/{share.token}/")
    expect(page.locator(".site-header")).to_be_visible()
    expect(page.locator("#replay-frame")).to_be_visible()
    page.screenshot(path=str(screenshots / "replay-shared-phone.png"), full_page=True)
    page.locator("[data-action=replay-signup]").click()
    page.wait_for_url("**/accounts/signup/**")


def test_end_match_asks_and_a_no_changes_nothing(
    new_context: Any, user: Any, screenshots: Path
) -> None:
    room = states.settlement(user)
    page = new_context(user, viewport=PHONE).new_page()
    goto_table(page, room.number)
    asked: list[str] = []

    def refuse(dialog: Any) -> None:
        asked.append(dialog.message)
        dialog.dismiss()

    page.once("dialog", refuse)
    page.locator("[data-action=end-match]").click()
    assert asked and "结束" in asked[0]
    page.wait_for_timeout(500)  # a message sent would have ended the match by now
    assert Room.objects.get(pk=room.pk).status == Room.Status.PLAYING
    expect(page.locator("#settlement")).to_be_visible()
    page.once("dialog", lambda dialog: dialog.accept())
    page.locator("[data-action=end-match]").click()
    expect(page.locator("#match-summary")).to_be_visible()


def test_leaving_mid_hand_asks_first(new_context: Any, user: Any) -> None:
    room = states.own_turn(user, seed="leave-asks")
    page = new_context(user, viewport=PHONE).new_page()
    goto_table(page, room.number)
    page.once("dialog", lambda dialog: dialog.dismiss())
    page.locator("[data-action=leave]").click()
    page.wait_for_timeout(500)
    assert not Seat.objects.get(room=room, index=0).tuoguan  # leaving would put the bot on it
    page.once("dialog", lambda dialog: dialog.accept())
    page.locator("[data-action=leave]").click()
    for _ in range(50):
        if Seat.objects.get(room=room, index=0).tuoguan:
            break
        page.wait_for_timeout(100)
    assert Seat.objects.get(room=room, index=0).tuoguan


def test_a_first_timeout_warns_without_tuoguan(
    new_context: Any, user: Any, screenshots: Path
) -> None:
    room = states.own_turn(user, seed="layout-square")
    room.refresh_from_db()
    assert room.turn_deadline is not None
    clock.advance(room.number, now=room.turn_deadline)  # the first timeout of the hand
    run_until_my_turn(room, user)
    page = new_context(user, viewport=PHONE_LANDSCAPE).new_page()
    goto_table(page, room.number)
    expect(page.locator("[data-warning=timeout]")).to_be_visible()
    expect(page.locator(".tuoguan-banner")).to_have_count(0)
    page.screenshot(path=str(screenshots / "timeout-warning-landscape.png"))


def test_a_hand_staff_closed_shows_their_reason_at_the_table(
    new_context: Any, user: Any, make_user: Any, screenshots: Path
) -> None:
    referee = make_user("referee")
    referee.is_staff = True
    referee.save(update_fields=["is_staff"])
    room = states.own_turn(user)
    staff_hand_close(staff=referee, number=room.number, reason="服务器故障，这局作废")
    page = new_context(user, viewport=PHONE).new_page()
    goto_table(page, room.number)
    expect(page.locator("#settlement [data-staff-reason]")).to_have_text(
        "管理员结束了这一局：服务器故障，这局作废"
    )
    page.screenshot(path=str(screenshots / "staff-closed-hand-phone.png"))


def test_a_seat_staff_replaced_and_a_dissolve_show_their_reason_to_the_others(
    new_context: Any, make_user: Any, screenshots: Path
) -> None:
    referee = make_user("referee")
    referee.is_staff = True
    referee.save(update_fields=["is_staff"])
    users = [make_user("alice"), make_user("bob"), make_user("lee", display_name="小李")]
    room = states.tuoguan([*users, make_user("dave")])
    staff_seat_replace(staff=referee, number=room.number, seat_index=2, reason="掉线半小时")
    line = "管理员让机器人接替了 西家 小李：掉线半小时"
    for name, size in (("phone", PHONE), ("landscape", PHONE_LANDSCAPE), ("laptop", DESKTOP)):
        page = new_context(users[1], viewport=size).new_page()
        goto_table(page, room.number)
        expect(page.locator("#table-public > [data-staff-notice][role=status]")).to_have_text(line)
        page.screenshot(path=str(screenshots / f"staff-replaced-seat-{name}.png"))
    staff_room_dissolve(staff=referee, number=room.number, reason="比赛作废")
    page.reload()
    expect(page.locator("#match-summary [data-staff-notice]")).to_have_text(
        "管理员解散了比赛：比赛作废"
    )
    expect(page.locator("[data-staff-notice]")).to_have_count(1)
    page.screenshot(path=str(screenshots / "staff-dissolved-laptop.png"))
