"""Issue #38: a hand walked the way a screen reader meets it.

At each state of a hand (the viewer's turn, a discard, a claim window, the settlement) the
page's accessibility tree, as Chromium exposes it (Playwright's ARIA snapshot), is dumped to
``artifacts/screenshots/sr-*.txt`` and checked: the room's name as the ``h1``, the hand as one
labelled group whose drawn tile says so, the table's tools before the table in the Tab order,
the hand a single Tab stop with the arrows inside, and the polite live region saying the turn,
each discard, the claim window's choices and the settlement's headline.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser import states
from tests.browser.driver import DESKTOP, wait_ws_open

pytestmark = pytest.mark.browser

TABS = 40
"""Tab presses enough to pass every control of the table page once."""

FOCUSED_JS = """() => {
  const el = document.activeElement;
  if (!el || el === document.body) return "";
  const where = el.closest("#my-hand") ? "hand" : el.closest(".table-tools") ? "tools"
    : el.closest("section.table") ? "table" : "page";
  return where + ":" + (el.getAttribute("aria-label") || el.textContent.trim());
}"""


def dump(page: Any, folder: Path, name: str) -> str:
    tree = str(page.locator("body").aria_snapshot())
    (folder / f"sr-{name}.txt").write_text(tree, encoding="utf-8")
    return tree


def tab_walk(page: Any) -> list[str]:
    """Where each Tab press lands, from the top of the page, until it comes round again."""
    page.locator("body").focus()
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    seen: list[str] = []
    for _ in range(TABS):
        page.keyboard.press("Tab")
        here = str(page.evaluate(FOCUSED_JS))
        if here and here in seen:
            break
        seen.append(here)
    return seen


def open_table(new_context: Callable[..., Any], user: Any, number: str) -> Any:
    page = new_context(user, viewport=DESKTOP).new_page()
    page.goto(f"/r/{number}/")
    wait_ws_open(page)
    return page


def test_a_hand_walked_with_a_screen_reader(
    new_context: Callable[..., Any], make_user: Any, screenshots: Path
) -> None:
    alice = make_user("alice", display_name="小王")
    room = states.own_turn(alice)
    page = open_table(new_context, alice, room.number)
    announce = page.locator("#announce")

    # Her turn: the room is the page's heading; the hand a group whose drawn tile is named so.
    expect(announce).to_contain_text("轮到你出牌")
    tree = dump(page, screenshots, "own-turn")
    assert f'heading "{room.name}" [level=1]' in tree
    assert 'group "你的手牌"' in tree
    drawn = page.locator("#my-hand .tile--drawn")
    label = str(drawn.get_attribute("aria-label"))
    assert label.endswith("（刚摸）")
    assert f'button "{label}"' in tree
    expect(announce).to_contain_text(label)

    # The Tab order: after the site's menu, the sound, 提醒 (#36: my turn while the page is
    # hidden) and 快捷语 buttons, then the table, its hand one stop (the drawn tile).
    walk = tab_walk(page)
    tools = [i for i, w in enumerate(walk) if w.startswith("tools:")]
    table = [i for i, w in enumerate(walk) if w.startswith(("table:", "hand:"))]
    assert len(tools) == 3 and table and max(tools) < min(table), walk
    assert [w for w in walk if w.startswith("hand:")] == [f"hand:{label}"], walk

    # Arrows move within the hand; the stop moves with them.
    drawn.focus()
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    tiles = page.locator("#my-hand button.tile")
    count = tiles.count()
    focused = tiles.nth(count - 3)
    expect(focused).to_be_focused()
    assert page.locator('#my-hand button.tile[tabindex="0"]').count() == 1
    expect(focused).to_have_attribute("tabindex", "0")
    page.keyboard.press("Home")
    expect(tiles.first).to_be_focused()
    page.keyboard.press("End")
    expect(tiles.last).to_be_focused()

    # Enter discards the focused tile; the live region says so, then the others' discards.
    discarded = str(tiles.last.get_attribute("aria-label")).removesuffix("（刚摸）")
    page.keyboard.press("Enter")
    expect(announce).to_contain_text(f"你打出 {discarded}")
    expect(announce).to_contain_text("下家打出", timeout=10_000)
    dump(page, screenshots, "after-discard")


def test_a_claim_window_and_the_settlement_are_announced(
    new_context: Callable[..., Any], make_user: Any, screenshots: Path
) -> None:
    alice = make_user("alice", display_name="小王")
    page = open_table(new_context, alice, states.claim(alice).number)
    announce = page.locator("#announce")
    expect(announce).to_contain_text("过")  # every window offers 过 among its choices
    choices = page.locator("#actions [data-action]")
    tree = dump(page, screenshots, "claim")
    for i in range(choices.count()):
        label = choices.nth(i).locator(".action-label").inner_text()
        assert f'button "{label}' in tree
        expect(announce).to_contain_text(label)

    page = open_table(new_context, alice, states.settlement(alice).number)
    headline = page.locator("#settlement h2").inner_text()
    expect(page.locator("#announce")).to_contain_text(headline)
    tree = dump(page, screenshots, "settlement")
    assert f'dialog "{headline}"' in tree


def test_the_first_paint_does_not_call_the_viewer_offline(
    new_context: Callable[..., Any], make_user: Any
) -> None:
    alice = make_user("alice", display_name="小王")
    room = states.own_turn(alice)  # no page of hers open: the server counts her offline
    page = new_context(alice, viewport=DESKTOP).new_page()
    page.route_web_socket(re.compile("/ws/"), lambda ws: None)  # a socket that brings nothing
    page.goto(f"/r/{room.number}/")
    mine = page.locator('.seat-panel[data-seat="0"] [data-badge="offline"]')
    expect(mine).to_have_count(1)  # what the server rendered...
    expect(mine).to_be_hidden()  # ...is not shown, nor read, on her own page
    assert "离线" not in str(page.locator("body").aria_snapshot())
