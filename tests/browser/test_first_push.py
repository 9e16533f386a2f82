"""Issue #38: a new socket's first push, the whole table, is not swapped in again when it is
what the page was served (``static/js/table.js``), and is when the table moved on meanwhile."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from engine.hand import legal_actions
from tests.browser import states
from tests.browser.driver import PHONE, wait_ws_open
from tests.tables.factories import hand_of, move_json, send

pytestmark = pytest.mark.browser

# Which parts each push swapped in, and how many pushes the page dropped.
WATCH_JS = """
window.__swapped = []; window.__dropped = 0;
document.addEventListener("htmx:oobAfterSwap", (e) => window.__swapped.push(e.detail.target.id));
document.addEventListener("htmx:wsBeforeMessage", (e) => {
  setTimeout(() => { if (e.defaultPrevented) window.__dropped += 1; });
}, true);
"""


def test_the_first_push_is_dropped_when_it_is_the_page_and_play_goes_on(
    new_context: Callable[..., Any], make_user: Any
) -> None:
    alice = make_user("alice", display_name="小王")
    room = states.own_turn(alice)
    step = hand_of(room).step
    context = new_context(alice, viewport=PHONE)
    context.add_init_script(WATCH_JS)
    page = context.new_page()
    page.goto(f"/r/{room.number}/")
    wait_ws_open(page)
    page.wait_for_function("() => window.__dropped === 1")
    assert "live" not in page.evaluate("window.__swapped")
    # The page it kept still plays: a tap lifts the drawn tile, a second discards it.
    drawn = page.locator("#my-hand button.tile--drawn")
    drawn.tap()
    drawn.tap()
    expect(page.locator("#table-public")).not_to_have_attribute("data-step", str(step))


def test_the_first_push_is_swapped_in_when_the_table_moved_on(
    new_context: Callable[..., Any], make_user: Any
) -> None:
    alice = make_user("alice", display_name="小王")
    room = states.own_turn(alice)
    state = hand_of(room)
    context = new_context(alice, viewport=PHONE)
    context.add_init_script(WATCH_JS)
    page = context.new_page()
    held: list[Any] = []
    page.route_web_socket(re.compile("/ws/"), lambda ws: held.append(ws))  # held back
    page.goto(f"/r/{room.number}/")
    page.wait_for_function("() => !!document.querySelector('#my-hand.can-discard')")
    expect(page.locator("#table-public")).to_have_attribute("data-step", str(state.step))
    discard = [a.type for a in legal_actions(state, 0)]
    send(room, alice, move_json(room, state, 0, discard.index("discard")))  # meanwhile, elsewhere
    held[0].connect_to_server()
    wait_ws_open(page)
    expect(page.locator("#table-public")).not_to_have_attribute("data-step", str(state.step))
    assert page.evaluate("window.__dropped") == 0
    assert "live" in page.evaluate("window.__swapped")
