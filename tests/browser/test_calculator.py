"""The 算分器 on a phone: a hand built by tapping tiles gets its score."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.driver import PHONE

pytestmark = pytest.mark.browser

HAND = ["1m", "2m", "3m", "4m", "5m", "6m", "7p", "8p", "9p", "2s", "3s", "4s", "5z", "5z"]


def test_tapping_tiles_builds_a_hand_and_shows_its_score(
    new_context: Any, screenshots: Path
) -> None:
    page = new_context(viewport=PHONE).new_page()
    page.goto("/calc/")
    picker = page.locator(".picker")
    for tile in HAND:
        picker.locator(f'button[data-tile="{tile}"]').tap()
    expect(page.locator("#id_hand")).to_have_value("".join(HAND))
    # #36: each tap draws its tile under the field, with the table's tile pictures.
    drawn = page.locator('[data-drawn-for="id_hand"] .tile')
    expect(drawn).to_have_count(len(HAND))
    assert [t.get_attribute("data-tile") for t in drawn.all()] == HAND
    assert drawn.first.locator("use").count() == 1
    page.locator('[data-target="id_indicator"]').tap()
    picker.locator('button[data-tile="1z"]').tap()
    expect(page.locator("#id_indicator")).to_have_value("1z")
    page.locator('button[data-action="pick-back"]').tap()  # ⌫ on the indicator: empty again
    expect(page.locator("#id_indicator")).to_have_value("")
    picker.locator('button[data-tile="1z"]').tap()
    expect(page.locator('[data-drawn-for="id_indicator"] .tile')).to_have_count(1)
    page.locator('button[data-action="calculate"]').tap()

    result = page.locator("#calc-result")
    expect(result).to_have_attribute("data-score", "4")
    expect(result).to_have_attribute("data-name", "平胡")
    expect(result.locator(".calc-verdict")).to_contain_text("4 分")
    # Self-drawn (the default): each of the other three pays the 4 points (engine.outcome).
    expect(result.locator("[data-payment]")).to_have_text("三家各付 4，共 12")
    assert "hand=1m2m3m4m5m6m7p8p9p2s3s4s5z5z" in page.url and "indicator=1z" in page.url
    # the whole hand fits one line of the phone's width
    box = result.locator(".calc-hand").bounding_box()
    tops = {round(t.bounding_box()["y"]) for t in result.locator(".calc-hand .tile").all()}
    assert box is not None and box["width"] <= PHONE["width"] and len(tops) == 1
    page.screenshot(path=str(screenshots / "calculator-phone.png"), full_page=True)
