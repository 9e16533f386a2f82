"""Issue #36: no lost presses. Pushes morph the page (idiomorph), so a button under the finger
is the same element before and after a push: a press made during a burst of pushes arrives,
and arrives once.

The burst goes through the page's own socket path: each push is a message event on the page's
WebSocket, handled by htmx's ws extension as a real one is.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tables.models import Seat
from tests.browser import states
from tests.browser.driver import goto_table

pytestmark = pytest.mark.browser

LAPTOP = {"width": 1366, "height": 900}

# Keep the page's sockets and count what they send.
SPY_JS = """
window.__sockets = []; window.__sent = [];
const Native = window.WebSocket;
window.WebSocket = function (url, protocols) {
  const ws = protocols === undefined ? new Native(url) : new Native(url, protocols);
  window.__sockets.push(ws);
  const send = ws.send.bind(ws);
  ws.send = (data) => { window.__sent.push(String(data)); send(data); };
  return ws;
};
Object.assign(window.WebSocket, Native);
window.WebSocket.prototype = Native.prototype;
"""

# Push the page's own part back to it every few milliseconds for ``ms``, each time with a new
# attribute on the part (as a push that changed something does), through the socket.
BURST_JS = """(ms) => new Promise((done) => {
  const ws = window.__sockets[window.__sockets.length - 1];
  let n = 0;
  const started = performance.now();
  const push = () => {
    const part = document.getElementById("table-private");
    const copy = part.cloneNode(true);
    copy.setAttribute("hx-swap-oob", "morph");
    copy.dataset.burst = String(++n);
    ws.dispatchEvent(new MessageEvent("message", {data: copy.outerHTML}));
    if (performance.now() - started < ms) setTimeout(push, 4);
    else done(n);
  };
  push();
})"""


def test_a_press_during_a_burst_of_pushes_counts_once(
    new_context: Any, user: Any, screenshots: Path
) -> None:
    room = states.mid_hand(user)
    context = new_context(user, viewport=LAPTOP)
    context.add_init_script(SPY_JS)
    page = context.new_page()
    goto_table(page, room.number)
    button = page.locator("[data-action=tuoguan-on]")
    expect(button).to_be_visible()
    box = button.bounding_box()
    assert box is not None
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    # The very element under the finger is marked: a morph keeps it, a replacement would not.
    page.evaluate("() => { document.querySelector('[data-action=tuoguan-on]').__held = true; }")
    burst = page.evaluate_handle(BURST_JS, 600)
    page.wait_for_timeout(40)
    assert page.evaluate(
        "([x, y]) => !!document.elementFromPoint(x, y).closest('button').__held", [x, y]
    ), "a push replaced the button under the finger"
    # A finger's press: down, a moment, up, at one place, while the pushes go on.
    page.mouse.move(x, y)
    page.mouse.down()
    page.wait_for_timeout(80)
    page.mouse.up()
    pushes = burst.json_value()
    assert pushes >= 20, pushes
    sent = page.evaluate("() => window.__sent.filter((m) => m.includes('\"tuoguan\"'))")
    assert len(sent) == 1, sent
    expect(page.locator(".tuoguan-banner")).to_be_visible()
    expect(page.locator("#table-error.is-shown")).to_have_count(0)
    assert Seat.objects.get(room=room, index=0).tuoguan
    page.screenshot(path=str(screenshots / "morph-burst-laptop.png"))
