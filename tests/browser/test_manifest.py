"""Issue #38: the web app manifest and its icons, as Chromium reads them.

Chromium itself parses the manifest the page links (DevTools' ``Page.getAppManifest``) and
says why the site could not be installed (``Page.getInstallabilityErrors``); every icon the
manifest and the page's head name is fetched and must be a picture of its stated size. The
service worker and the offline page belong to the app-feel issue, which tests them.
"""

from __future__ import annotations

import json
import struct
from collections.abc import Callable
from typing import Any
from urllib.parse import urljoin

import pytest

pytestmark = pytest.mark.browser


def png_size(body: bytes) -> tuple[int, int]:
    assert body[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    width, height = struct.unpack(">II", body[16:24])
    return int(width), int(height)


def test_the_manifest_parses_and_its_icons_are_there(
    new_context: Callable[..., Any], server: Any
) -> None:
    page = new_context().new_page()
    page.goto("/accounts/signup/")
    cdp = page.context.new_cdp_session(page)
    got = cdp.send("Page.getAppManifest")
    assert got["errors"] == [], got["errors"]
    manifest = json.loads(got["data"])
    assert manifest["name"] == "上饶麻将" and manifest["start_url"] == "/"
    assert manifest["display"] == "standalone"
    assert manifest["theme_color"] == page.locator('meta[name="theme-color"]').get_attribute(
        "content"
    )
    sizes = set()
    for icon in manifest["icons"]:
        response = page.request.get(urljoin(got["url"], icon["src"]))
        assert response.status == 200, icon["src"]
        if icon["type"] == "image/png":
            w, h = png_size(response.body())
            assert f"{w}x{h}" == icon["sizes"], icon["src"]
            sizes.add(w)
    assert {192, 512} <= sizes  # what an install asks for
    assert any(icon.get("purpose") == "maskable" for icon in manifest["icons"])
    for link in page.locator('link[rel~="icon"], link[rel="apple-touch-icon"]').all():
        href = str(link.get_attribute("href"))
        assert page.request.get(href).status == 200, href
    # Nothing of the site's stands in the way of an install: not the manifest, its icons or
    # its start URL. (A Playwright context is a private window, where nothing installs, and
    # a service worker is the app-feel issue's.)
    errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    ours = [e["errorId"] for e in errors if e["errorId"] != "in-incognito"]
    assert [e for e in ours if "worker" not in e] == [], errors
