"""Issue #36: the room form in plain words (presets, 局数, a line per option, private by
default) and bots named by their seat in the waiting room, names never cut to one character.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tables.rooms import services
from tests.browser import states
from tests.browser.driver import PHONE, PHONE_LANDSCAPE, goto_table

pytestmark = pytest.mark.browser

SIZES = {
    "phone": PHONE,
    "landscape": PHONE_LANDSCAPE,
    "laptop": {"width": 1366, "height": 900},
    "wide": {"width": 1920, "height": 1080},
}


@pytest.mark.parametrize("size", list(SIZES))
def test_the_room_form_starts_private_from_a_preset(
    new_context: Any, user: Any, screenshots: Path, size: str
) -> None:
    page = new_context(user, viewport=SIZES[size]).new_page()
    page.goto("/rooms/new/")
    expect(page.locator("#id_is_public")).not_to_be_checked()
    expect(page.get_by_label("上饶标准")).to_be_checked()
    expect(page.get_by_label("九幺番")).not_to_be_checked()
    expect(page.locator("#id_match_length")).to_have_value("8")
    page.screenshot(path=str(screenshots / f"room-form-{size}.png"), full_page=True)
    # A preset resets the options: 九幺番 scores by 番.
    page.get_by_label("九幺番").check()
    page.locator(".rule-options summary").click()
    expect(page.locator("#id_scoring")).to_have_value("fan")
    expect(page.locator(".rule-options .help").first).to_be_visible()


def test_bots_are_named_by_seat_and_names_keep_four_characters(
    new_context: Any, make_user: Any, screenshots: Path
) -> None:
    owner = make_user("owner", display_name="周末打牌的老张")
    room = states.waiting_room(owner)
    for index in (1, 2, 3):
        services.bot_add(room=room, by_user=owner, index=index)
    page = new_context(owner, viewport=PHONE).new_page()
    goto_table(page, room.number)
    expect(page.locator(".seats")).to_contain_text("机器人·南")
    expect(page.locator(".seats")).to_contain_text("机器人·北")
    services.seat_ready(room=room, user=owner, ready=True)
    services.match_start(room=room, by_user=owner, first_seed="layout-square")
    page.reload()
    expect(page.locator(".seat-panel[data-seat='1'] .seat-name")).to_have_text("机器人·南")
    for seat in "0123":
        name = page.locator(f".seat-panel[data-seat='{seat}'] .seat-name")
        # The name box holds at least four characters of its own font before any ellipsis.
        wide_enough = name.evaluate(
            "(e) => e.scrollWidth <= e.clientWidth + 1 || "
            "e.clientWidth >= 4 * parseFloat(getComputedStyle(e).fontSize) - 1"
        )
        assert wide_enough, seat
    page.screenshot(path=str(screenshots / "names-phone.png"))
