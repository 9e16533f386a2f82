"""Issue #9: a finished hand's replay stepped through to the settlement in real Chromium.

A phone-sized page (390×844) taps ▶ and uses ← → Home End; the address bar follows each step.
Screenshots of the replay at 390×844 and 1280×800 go to ``artifacts/screenshots/``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tables.history.replays import replay_steps
from tests.browser.driver import PHONE
from tests.tables.factories import played_hand

pytestmark = pytest.mark.browser

LAPTOP = {"width": 1280, "height": 800}


def _at_step(page: Any, step: int) -> None:
    expect(page.locator("#replay-frame")).to_have_attribute("data-step", str(step))


def _key_to_step(page: Any, key: str, step: int, attempts: int = 3) -> None:
    """Press ``key`` until the frame shows ``step``: a key pressed while the last step's
    frame was still being swapped in can go to the button it replaced, and a person presses
    again."""
    for _ in range(attempts - 1):
        page.keyboard.press(key)
        try:
            expect(page.locator("#replay-frame")).to_have_attribute(
                "data-step", str(step), timeout=3_000
            )
            return
        except AssertionError:
            continue
    page.keyboard.press(key)
    _at_step(page, step)


def test_a_replay_is_stepped_to_the_settlement_by_tap_and_by_keys(
    new_context: Any, user: Any, screenshots: Path
) -> None:
    hand = played_hand(user)
    steps = replay_steps(hand)
    page = new_context(user, viewport=PHONE).new_page()
    page.goto(f"/hands/{hand.pk}/replay/")
    _at_step(page, 0)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    for step in (1, 2, 3):
        page.locator('[data-action="replay-next"]').tap()
        _at_step(page, step)
    assert page.url.endswith(f"?step={3}")
    page.screenshot(path=str(screenshots / "replay-phone.png"), full_page=True)
    _key_to_step(page, "ArrowLeft", 2)
    _key_to_step(page, "ArrowRight", 3)
    _key_to_step(page, "End", steps)
    expect(page.locator("#settlement")).to_be_visible()
    page.screenshot(path=str(screenshots / "replay-settlement-phone.png"), full_page=True)
    _key_to_step(page, "Home", 0)
    expect(page.locator("#settlement")).to_have_count(0)
    page.locator('[data-action="replay-last"]').tap()
    _at_step(page, steps)
    expect(page.locator("#settlement")).to_be_visible()
    # Tapping on, one step at a time, from one before the end reaches the same settlement.
    page.goto(f"/hands/{hand.pk}/replay/?step={steps - 1}")
    page.locator('[data-action="replay-next"]').tap()
    _at_step(page, steps)
    expect(page.locator("#settlement")).to_be_visible()

    # The table shows the deal's commitment in its rules panel; the settlement links the record.
    page.goto(f"/r/{hand.room.number}/")
    page.locator(".room-rules summary").tap()
    expect(page.locator(".table [data-seed-hash]")).to_have_text(hand.seed_hash)
    page.screenshot(path=str(screenshots / "table-commitment-phone.png"), full_page=True)
    page.locator('[data-action="hand-record"]').tap()
    expect(page.locator("[data-seed]")).to_have_text(hand.seed)

    laptop = new_context(user, viewport=LAPTOP).new_page()
    laptop.goto(f"/hands/{hand.pk}/replay/?step={steps // 2}")
    _at_step(laptop, steps // 2)
    laptop.screenshot(path=str(screenshots / "replay-laptop.png"), full_page=True)
    laptop.goto(f"/hands/{hand.pk}/")
    laptop.screenshot(path=str(screenshots / "hand-record-laptop.png"), full_page=True)
