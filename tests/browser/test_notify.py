"""Issue #36: my turn while the tab is hidden: the title flashes and, once the person turned
notifications on (the permission asked then, once), a notification shows.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser import states
from tests.browser.driver import LAPTOP, goto_table

pytestmark = pytest.mark.browser

# A hidden tab, and a Notification API that records what it is asked.
HIDDEN_JS = """
Object.defineProperty(document, "hidden", { get: () => !!window.__hidden });
window.__asked = 0; window.__shown = [];
window.Notification = function (title, options) { window.__shown.push(title); };
window.Notification.permission = "default";
window.Notification.requestPermission = () => {
  window.__asked += 1; window.Notification.permission = "granted";
  return Promise.resolve("granted");
};
"""


def test_a_hidden_tab_flashes_its_title_and_notifies_on_my_turn(
    new_context: Any, user: Any
) -> None:
    room = states.mid_hand(user, turns=2)
    context = new_context(user, viewport=LAPTOP)
    context.add_init_script(HIDDEN_JS)
    page = context.new_page()
    goto_table(page, room.number)
    toggle = page.locator("[data-action=notify-toggle]")
    toggle.click()
    expect(toggle).to_have_attribute("aria-pressed", "true")
    toggle.click()
    toggle.click()  # off and on again: the permission was asked only once
    assert page.evaluate("() => window.__asked") == 1
    title = page.title()
    page.evaluate("() => { window.__hidden = true; }")
    page.locator("#my-hand button.tile--drawn").click()  # my discard; the bots play on
    page.wait_for_function("() => document.title.startsWith('【轮到你了】')", timeout=20_000)
    assert page.evaluate("() => window.__shown") == ["轮到你了"]
    page.evaluate(
        "() => { window.__hidden = false; document.dispatchEvent(new Event('visibilitychange')); }"
    )
    assert page.title() == title
