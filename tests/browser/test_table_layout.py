"""Issue #11: the square table, tapping, the settlement panel, 托管, phrases and invites, in
real Chromium against a real daphne, at 390×844, 844×390 and 1280×800.

Every test saves screenshots of what it checked to ``artifacts/screenshots/layout-*.png``.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from engine.rules import Rules
from tables.models import Room, Seat
from tables.play import clock, inputs
from tables.play.protocol import parse_message
from tables.rooms import services
from tests.browser import states
from tests.browser.driver import LAPTOP, PHONE, PHONE_LANDSCAPE, goto_table
from tests.tables.factories import (
    move_json,
    run_bots_until_human,
    run_clock_until_hand_ends,
    run_until_my_turn,
    send,
    start_with_bots,
    step_shown,
)

pytestmark = pytest.mark.browser

SIZES = {"phone": PHONE, "landscape": PHONE_LANDSCAPE, "laptop": LAPTOP}
MIN_TILE_PX = 40
"""My own tiles on an 844×390 landscape phone are at least this wide."""

LIFTED = re.compile("tile--selected")

# Seat 0 (alice) sees 下家 (seat 1) on the right, 对家 (2) across, 上家 (3) on the left.
BOX_JS = """(sel) => { const r = document.querySelector(sel).getBoundingClientRect();
  return {left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: r.width}; }"""


def shoot(page: Any, folder: Path, name: str) -> None:
    page.screenshot(path=str(folder / f"layout-{name}.png"))


def settled(user: Any, seed: str = "layout-settled") -> Room:
    """A room whose first hand has just ended, with ``user`` (seat 0) not yet ready."""
    room = start_with_bots(user, tuoguan=True, seed=seed)
    run_clock_until_hand_ends(room)
    inputs.table_act(
        number=room.number, user=user, message=parse_message({"action": "tuoguan", "on": "0"})
    )
    assert not Seat.objects.get(room=room, index=0).ready
    return room


def mid_hand(user: Any, turns: int = 7) -> Room:
    """A hand some turns in (rivers filling up), on ``user``'s turn (seat 0)."""
    room = start_with_bots(user, seed="layout-square")
    for _turn in range(turns):
        state = run_until_my_turn(room, user)
        send(room, user, move_json(room, state, 0))
    run_until_my_turn(room, user)
    return room


# ---------------------------------------------------------------- the square


@pytest.mark.parametrize("size", ["landscape", "laptop"])
def test_opponents_sit_where_the_square_table_puts_them(
    new_context: Any, user: Any, screenshots: Path, size: str
) -> None:
    room = mid_hand(user)
    page = new_context(user, viewport=SIZES[size]).new_page()
    goto_table(page, room.number)
    expect(page.locator("#my-hand.can-discard")).to_be_visible()
    assert page.locator("section.table").get_attribute("data-me") == "0"
    # My turn: my head's dot shows, the others' are there but hidden (the panel's class)
    expect(page.locator(".seat-panel[data-seat='0'] .acting-dot")).to_be_visible()
    for other in "123":
        expect(page.locator(f".seat-panel[data-seat='{other}'] .acting-dot")).to_be_hidden()
    mine = page.evaluate(BOX_JS, ".seat-panel[data-seat='0']")
    hand = page.evaluate(BOX_JS, "#my-hand")
    left = page.evaluate(BOX_JS, ".seat-panel[data-seat='3']")
    top = page.evaluate(BOX_JS, ".seat-panel[data-seat='2']")
    right = page.evaluate(BOX_JS, ".seat-panel[data-seat='1']")
    assert left["right"] <= mine["left"], (left, mine)
    assert top["bottom"] <= mine["top"], (top, mine)
    assert right["left"] >= mine["right"], (right, mine)
    assert mine["bottom"] <= hand["top"] + 12, (mine, hand)  # my river lies in front of my hand
    viewport = SIZES[size]
    assert hand["bottom"] <= viewport["height"], "my hand is below the fold"
    if size == "landscape":
        widths = page.eval_on_selector_all(
            "#my-hand .tile", "(ts) => ts.map((t) => t.getBoundingClientRect().width)"
        )
        assert min(widths) >= MIN_TILE_PX, widths
    shoot(page, screenshots, f"turn-{size}")


def test_portrait_fills_the_screen_with_the_same_positions(
    new_context: Any, user: Any, screenshots: Path
) -> None:
    room = mid_hand(user)
    page = new_context(user, viewport=PHONE, scale=2).new_page()
    goto_table(page, room.number)
    expect(page.locator("#my-hand.can-discard")).to_be_visible()
    table = page.evaluate(BOX_JS, "section.table")
    hand = page.evaluate(BOX_JS, "#my-hand")
    left = page.evaluate(BOX_JS, ".seat-panel[data-seat='3']")
    right = page.evaluate(BOX_JS, ".seat-panel[data-seat='1']")
    top = page.evaluate(BOX_JS, ".seat-panel[data-seat='2']")
    assert table["top"] <= 1 and table["bottom"] >= PHONE["height"] - 4, "the screen is not filled"
    assert hand["bottom"] <= PHONE["height"]
    assert left["right"] <= right["left"] and top["bottom"] <= left["top"]
    shoot(page, screenshots, "turn-phone")


# ---------------------------------------------------------------- tapping


def test_a_lifted_tile_is_discarded_by_the_second_tap(
    new_context: Any, user: Any, screenshots: Path
) -> None:
    room = start_with_bots(user, seed="layout-tap")
    run_until_my_turn(room, user)
    page = new_context(user, viewport=PHONE_LANDSCAPE).new_page()
    goto_table(page, room.number)
    tile = page.locator("#my-hand button.tile--drawn")
    tile.tap()
    expect(tile).to_have_class(LIFTED)
    expect(page.locator("#discard-preview")).to_be_visible()
    step = step_shown(room)
    assert page.locator("#table-public").get_attribute("data-step") == str(step)
    shoot(page, screenshots, "lifted-landscape")
    tile.tap()
    page.wait_for_function(
        "(s) => Number(document.getElementById('table-public').dataset.step) > s", arg=step
    )


def test_a_click_discards_at_once_and_keys_play_too(new_context: Any, user: Any) -> None:
    room = start_with_bots(user, seed="layout-tap")
    run_until_my_turn(room, user)
    step = step_shown(room)
    page = new_context(user, viewport=LAPTOP).new_page()
    goto_table(page, room.number)
    page.keyboard.press("ArrowLeft")  # the drawn tile, last in the row
    expect(page.locator("#my-hand button.tile--drawn")).to_have_class(LIFTED)
    page.locator("body").focus()
    page.keyboard.press("Enter")
    page.wait_for_function(
        "(s) => Number(document.getElementById('table-public').dataset.step) > s", arg=step
    )


# A move the server refuses, sent the way the page sends its own (htmx's ws-send).
STALE_MOVE_JS = """(step) => {
  const button = document.createElement("button");
  button.setAttribute("ws-send", "");
  button.name = "action";
  button.value = "discard";
  button.setAttribute("hx-vals", JSON.stringify({tile: "1m", step: String(step)}));
  button.id = "stale-move";
  document.querySelector(".live-root").appendChild(button);
  htmx.process(button);
  button.click();
}"""


def test_a_refused_move_shows_an_error_that_blocks_nothing_and_goes_away(
    new_context: Any, user: Any
) -> None:
    room = start_with_bots(user, seed="layout-tap")
    run_until_my_turn(room, user)
    step = step_shown(room)
    page = new_context(user, viewport=PHONE).new_page()
    goto_table(page, room.number)
    page.evaluate(STALE_MOVE_JS, step - 1)
    error = page.locator("#table-error")
    expect(error).to_be_visible()
    expect(error).not_to_be_empty()
    # The line lies over the top of the table; a tap there still reaches what is beneath.
    page.locator(".room-rules summary").click(timeout=2_000)
    expect(error).to_be_hidden(timeout=10_000)
    assert page.locator("#table-public").get_attribute("data-step") == str(step)


# ---------------------------------------------------------------- settlement


@pytest.mark.parametrize("size", ["phone", "landscape", "laptop"])
def test_the_settlement_buttons_are_in_view_without_scrolling(
    new_context: Any, user: Any, screenshots: Path, size: str
) -> None:
    room = settled(user)
    viewport = SIZES[size]
    page = new_context(user, viewport=viewport).new_page()
    goto_table(page, room.number)
    expect(page.locator("#settlement")).to_be_visible()
    expect(page.locator(".acting-dot:visible")).to_have_count(0)  # nobody's turn any more
    for action in ("ready", "end-match"):
        box = page.evaluate(BOX_JS, f".settlement-actions [data-action={action}]")
        assert box["top"] >= 0 and box["bottom"] <= viewport["height"], (action, box)
        assert box["left"] >= 0 and box["right"] <= viewport["width"], (action, box)
    assert page.evaluate("() => window.scrollY") == 0
    expect(page.locator("#settlement .ready-countdown")).to_be_visible()
    expect(page.locator("#settlement [data-action=hand-record]")).to_have_count(1)
    shoot(page, screenshots, f"settlement-{size}")
    page.once("dialog", lambda dialog: dialog.accept())  # 结束比赛 asks first
    page.locator("[data-action=end-match]").click()
    expect(page.locator("#match-summary .final-totals li")).to_have_count(4)
    shoot(page, screenshots, f"match-over-{size}")


# ---------------------------------------------------------------- 托管


@pytest.mark.parametrize("size", ["phone", "landscape", "laptop"])
def test_a_timeout_shows_a_banner_and_no_tap_prompt(
    new_context: Any, user: Any, screenshots: Path, size: str
) -> None:
    room = start_with_bots(user, seed="layout-tuoguan")
    Room.objects.filter(pk=room.pk).update(tuoguan_after=1)  # 托管 at the first timeout
    state = run_bots_until_human(room, timezone.now())
    assert state.phase != "ended"
    room.refresh_from_db()
    assert room.turn_deadline is not None
    clock.advance(room.number, now=room.turn_deadline)
    page = new_context(user, viewport=SIZES[size]).new_page()
    goto_table(page, room.number)
    banner = page.locator(".tuoguan-banner")
    expect(banner).to_be_visible()
    expect(banner).to_have_attribute("data-tuoguan-reason", "timeout")
    expect(page.locator(".prompt")).to_have_count(0)
    expect(page.locator(".seat-panel[data-seat='0'] [data-badge=tuoguan]")).to_have_count(1)
    shoot(page, screenshots, f"tuoguan-{size}")
    banner.locator("[data-action=tuoguan-off]").click()
    expect(page.locator(".tuoguan-banner")).to_have_count(0)


# ---------------------------------------------------------------- phrases


def test_a_quick_phrase_arrives_on_the_other_screen(
    new_context: Any, make_user: Any, screenshots: Path
) -> None:
    alice, bob = make_user("alice"), make_user("bob", display_name="小明")
    room = services.room_create(
        owner=alice, name="聊天", is_public=True, rules=Rules(), match_length=None, turn_seconds=60
    )
    services.seat_take(room=room, user=bob, index=1)
    for i in (2, 3):
        services.bot_add(room=room, by_user=alice, index=i)
    for u in (alice, bob):
        services.seat_ready(room=room, user=u, ready=True)
    services.match_start(room=room, by_user=alice, first_seed="layout-phrase")
    pages = [new_context(u, viewport=PHONE_LANDSCAPE).new_page() for u in (alice, bob)]
    for page in pages:
        goto_table(page, room.number)
    pages[1].locator(".phrase-menu summary").click()
    pages[1].locator("[data-action=phrase][data-phrase='0']").click()
    bubble = pages[0].locator(".phrase-bubble")
    expect(bubble).to_contain_text("快点吧")
    expect(bubble).to_have_attribute("data-seat", "1")
    # Shown beside bob's panel: seat 1 is alice's 下家, on the right.
    panel = pages[0].evaluate(BOX_JS, ".seat-panel[data-seat='1']")
    box = bubble.bounding_box()
    assert box is not None and box["x"] >= panel["left"] - 1
    shoot(pages[0], screenshots, "phrase-landscape")


# ---------------------------------------------------------------- invites


def test_a_friend_signs_up_from_the_invite_link_and_sits_down(
    new_context: Any, user: Any, password: str, screenshots: Path
) -> None:
    room = states.waiting_room(user)
    page = new_context(viewport=PHONE, scale=2).new_page()
    page.goto(f"/r/{room.number}/")
    expect(page.locator("h1")).to_have_text("周五牌局")
    expect(page.locator("[data-invite-owner]")).to_have_text(user.name)
    shoot(page, screenshots, "invite-phone")
    page.locator("[data-action=invite-signup]").click()
    page.fill("#id_username", "friend")
    page.fill("#id_password1", password)
    page.fill("#id_password2", password)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(f"**/r/{room.number}/")
    page.locator("[data-action=sit-first]").click()
    expect(page.locator("#live .seat.is-me")).to_be_visible()
    seat = Seat.objects.get(room=room, user__username="friend")
    assert seat.index == 1
    expect(page.locator("[data-action=copy-invite]")).to_be_visible()
    expect(page.locator(".invite-qr svg")).to_have_count(1)
    shoot(page, screenshots, "waiting-phone")
