"""Issue #36: installable. The service worker is registered from any page, keeps the static
files, and with the network gone a page opens as the Chinese offline page.
"""

from __future__ import annotations

import urllib.request
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import daphne_stop
from tests.browser.driver import PHONE

pytestmark = pytest.mark.browser


def worker_controls(page: Any, path: str) -> None:
    """Open ``path`` and wait until the service worker is active and controls the page."""
    page.goto(path)
    page.wait_for_function(
        "() => navigator.serviceWorker.ready.then((r) => !!r.active)", timeout=10_000
    )
    page.reload()  # a page opened before the worker was active is not controlled by it
    page.wait_for_function("() => !!navigator.serviceWorker.controller")


def test_offline_a_page_opens_as_the_chinese_offline_page(
    new_context: Any, user: Any, screenshots: Path
) -> None:
    context = new_context(user, viewport=PHONE)
    page = context.new_page()
    worker_controls(page, "/")
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


def test_the_app_installs_and_with_its_server_stopped_shows_the_offline_page(
    chromium: Any, own_server: Any, screenshots: Path
) -> None:
    """Issue #38: the manifest parses and nothing but the private window stands in the way of
    an install, service worker included; then the server itself stops (not just the
    browser's network) and a page still opens, as the Chinese offline page."""
    context = chromium.new_context(base_url=own_server.url, viewport=PHONE, locale="zh-CN")
    try:
        page = context.new_page()
        worker_controls(page, "/calc/")
        cdp = context.new_cdp_session(page)
        manifest = cdp.send("Page.getAppManifest")
        assert manifest["errors"] == [] and '"start_url"' in manifest["data"]
        errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
        # A Playwright context is a private window, where nothing installs; nothing else.
        assert [e["errorId"] for e in errors if e["errorId"] != "in-incognito"] == [], errors

        daphne_stop(own_server)
        with pytest.raises(OSError):  # the server is gone, not just hidden from the browser
            urllib.request.urlopen(f"{own_server.url}/calc/", timeout=5)
        page.goto("/ledger/")
        expect(page.locator("h1")).to_have_text("没有网络")
        colour = page.evaluate(
            "() => getComputedStyle(document.querySelector('.site-header')).backgroundColor"
        )
        assert colour != "rgba(0, 0, 0, 0)", colour  # its stylesheet came from the cache
        page.screenshot(path=str(screenshots / "offline-server-stopped-phone.png"))
    finally:
        context.close()
