"""Issue #36: installable. The service worker is registered from any page, keeps the static
files, and with the network gone a page opens as the Chinese offline page.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.driver import PHONE

pytestmark = pytest.mark.browser


def test_offline_a_page_opens_as_the_chinese_offline_page(
    new_context: Any, user: Any, screenshots: Path
) -> None:
    context = new_context(user, viewport=PHONE)
    page = context.new_page()
    page.goto("/")
    page.wait_for_function(
        "() => navigator.serviceWorker.ready.then((r) => !!r.active)", timeout=10_000
    )
    page.reload()  # now the worker controls the page
    page.wait_for_function("() => !!navigator.serviceWorker.controller")
    context.set_offline(True)
    page.goto("/ledger/")
    expect(page.locator("h1")).to_have_text("没有网络")
    expect(page.locator("link[rel=stylesheet]")).to_have_count(1)
    # The stylesheet came from the worker's cache: the page is styled, not bare.
    colour = page.evaluate(
        "() => getComputedStyle(document.querySelector('.site-header')).backgroundColor"
    )
    assert colour != "rgba(0, 0, 0, 0)", colour
    page.screenshot(path=str(screenshots / "offline-phone.png"))
    context.set_offline(False)
