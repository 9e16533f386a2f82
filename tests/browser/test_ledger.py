"""Issue #9: the score sheet and its chart read on a 390×844 phone in real Chromium."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse

from tests.browser.driver import PHONE
from tests.load.seeded_book import book_seed

pytestmark = pytest.mark.browser


def test_score_sheet_and_chart_fit_a_phone(new_context: Any, screenshots: Path) -> None:
    book = book_seed(hands=40, players=5, per_match=40, seed=11)
    page = new_context(book.players[0], viewport=PHONE).new_page()
    page.goto(reverse("ledger:sheet", args=[book.matches[0].pk]))
    totals = page.locator("#score-sheet tr.totals td.points")
    assert totals.count() == 4
    for cell in totals.all():
        assert cell.is_visible()
        box = cell.bounding_box()
        assert box is not None and box["x"] + box["width"] <= PHONE["width"]
    assert page.locator("#score-sheet tbody tr").count() == 40
    chart = page.locator(".chart svg")
    chart.scroll_into_view_if_needed()
    box = chart.bounding_box()
    assert box is not None and 200 < box["width"] <= PHONE["width"] and box["x"] >= 0
    assert "累计积分" in chart.text_content()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.screenshot(path=screenshots / "ledger-sheet-phone.png", full_page=True)
