"""Issue #36: at 844×390, 1366×900 and 1920×1080 the table's areas keep apart: the rivers, the
centre (wall count, dice, 宝, turn) and the action buttons; the settlement's buttons stay in view;
on a laptop the site's nav is not above the table. The replay is the same square table, its
areas apart at every size too, and the owner's "new match" sits inside the match's summary.

Screenshots go to ``artifacts/screenshots/overlap-*.png``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tables.history.replays import replay_steps
from tests.browser import states
from tests.browser.driver import PHONE, PHONE_LANDSCAPE, goto_table
from tests.tables.factories import played_hand

pytestmark = pytest.mark.browser

SIZES = {
    "landscape": PHONE_LANDSCAPE,
    "laptop": {"width": 1366, "height": 900},
    "wide": {"width": 1920, "height": 1080},
}

# Every visible area's box, by name: the four rivers, the centre, each action button, my hand
# and the 托管 banner.
AREAS_JS = """() => {
  const out = [];
  const add = (name, el) => {
    const r = el.getBoundingClientRect();
    if (r.width > 0 && r.height > 0)
      out.push({name, left: r.left, right: r.right, top: r.top, bottom: r.bottom});
  };
  document.querySelectorAll(".seat-panel").forEach((p) => {
    const river = p.querySelector(".river");
    if (river && river.children.length) add("river-" + p.dataset.seat, river);
  });
  const center = document.querySelector(".table-center");
  if (center) add("center", center);
  document.querySelectorAll("#actions button").forEach((b, i) => add("action-" + i, b));
  const hand = document.querySelector("#my-hand");
  if (hand) add("hand", hand);
  const banner = document.querySelector(".tuoguan-banner");
  if (banner) add("banner", banner);
  return out;
}"""


def overlaps(areas: list[dict[str, Any]]) -> list[tuple[str, str]]:
    found = []
    for i, a in enumerate(areas):
        for b in areas[i + 1 :]:
            if a["name"].startswith("action-") and b["name"].startswith("action-"):
                continue  # buttons sit side by side in one row; the row itself is the area
            apart = (
                a["right"] <= b["left"] + 0.5
                or b["right"] <= a["left"] + 0.5
                or a["bottom"] <= b["top"] + 0.5
                or b["bottom"] <= a["top"] + 0.5
            )
            if not apart:
                found.append((a["name"], b["name"]))
    return found


def inside(box: dict[str, Any], viewport: dict[str, int]) -> bool:
    return bool(
        box["left"] >= 0
        and box["top"] >= 0
        and box["right"] <= viewport["width"]
        and box["bottom"] <= viewport["height"]
    )


# What each state must show: my turn with every river filled, or a claim with its buttons.
STATES = {
    "turn": (states.mid_hand, "#my-hand.can-discard", {"center", "hand", "river-0"}),
    "claim": (states.claim, "#actions [data-action]", {"center", "hand", "action-0"}),
    "tuoguan": (states.timed_out, ".tuoguan-banner", {"center", "hand", "river-0", "banner"}),
}


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("state", list(STATES))
def test_nothing_overlaps_and_nothing_leaves_the_screen(
    new_context: Any, user: Any, screenshots: Path, size: str, state: str
) -> None:
    make, shown, expected = STATES[state]
    room = make(user)
    viewport = SIZES[size]
    page = new_context(user, viewport=viewport).new_page()
    goto_table(page, room.number)
    expect(page.locator(shown).first).to_be_visible()
    page.screenshot(path=str(screenshots / f"overlap-{state}-{size}.png"))
    areas = page.evaluate(AREAS_JS)
    assert {a["name"] for a in areas} >= expected, areas
    assert overlaps(areas) == [], areas
    for area in areas:
        assert inside(area, viewport), area
    # The table is the page: the site's nav makes way on every screen.
    expect(page.locator(".site-header")).to_be_hidden()


@pytest.mark.parametrize("size", list(SIZES))
def test_the_settlement_scrolls_inside_with_its_buttons_in_view(
    new_context: Any, user: Any, screenshots: Path, size: str
) -> None:
    room = states.settlement(user)
    viewport = SIZES[size]
    page = new_context(user, viewport=viewport).new_page()
    goto_table(page, room.number)
    expect(page.locator("#settlement")).to_be_visible()
    page.screenshot(path=str(screenshots / f"overlap-settlement-{size}.png"))
    for action in ("ready", "end-match"):
        box = page.locator(f".settlement-actions [data-action={action}]").bounding_box()
        assert box is not None
        edges = {
            "left": box["x"],
            "top": box["y"],
            "right": box["x"] + box["width"],
            "bottom": box["y"] + box["height"],
        }
        assert inside(edges, viewport), (action, edges)
    # What does not fit scrolls inside the panel, not the page.
    assert page.evaluate("() => window.scrollY") == 0
    clipped = page.evaluate(
        """() => { const p = document.querySelector('#settlement');
          const r = p.getBoundingClientRect();
          return r.bottom > innerHeight + 1 || r.top < -1; }"""
    )
    assert not clipped


REPLAY_SIZES = {"phone": PHONE, **SIZES}


@pytest.mark.parametrize("size", list(REPLAY_SIZES))
def test_the_replay_is_the_same_square_table_and_keeps_its_areas_apart(
    new_context: Any, user: Any, screenshots: Path, size: str
) -> None:
    hand = played_hand(user)
    viewport = REPLAY_SIZES[size]
    page = new_context(user, viewport=viewport).new_page()
    page.goto(f"/hands/{hand.pk}/replay/?step={replay_steps(hand) // 2}")
    expect(page.locator("#replay-frame .table-grid .table-center")).to_be_visible()
    page.screenshot(path=str(screenshots / f"overlap-replay-{size}.png"), full_page=True)
    areas = page.evaluate(AREAS_JS) + page.evaluate(
        """() => Array.from(document.querySelectorAll(".replay-hand")).map((h) => {
             const r = h.getBoundingClientRect();
             return {name: "hand-" + h.closest(".seat-panel").dataset.seat,
                     left: r.left, right: r.right, top: r.top, bottom: r.bottom}; })"""
    )
    names = {a["name"] for a in areas}
    assert names >= {"center", "hand-0", "hand-1", "hand-2", "hand-3", "river-0"}, areas
    assert overlaps(areas) == [], areas
    # The page may scroll down, never sideways; the step buttons are on the screen.
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    for a in areas:
        assert a["left"] >= 0 and a["right"] <= viewport["width"], a
    for action in ("replay-first", "replay-next", "replay-last"):
        box = page.locator(f'[data-action="{action}"]').bounding_box()
        assert box is not None and box["x"] + box["width"] <= viewport["width"], action


@pytest.mark.parametrize("size", list(REPLAY_SIZES))
def test_the_owner_s_new_match_sits_inside_the_summary(
    new_context: Any, user: Any, size: str
) -> None:
    room = played_hand(user).room
    viewport = REPLAY_SIZES[size]
    page = new_context(user, viewport=viewport).new_page()
    goto_table(page, room.number)
    rematch = page.locator("[data-action=rematch-summary]")
    expect(rematch).to_be_visible()
    button, panel = rematch.bounding_box(), page.locator("#match-summary").bounding_box()
    assert button is not None and panel is not None
    assert (
        panel["x"] <= button["x"] and button["x"] + button["width"] <= panel["x"] + panel["width"]
    ), (button, panel)
    assert (
        panel["y"] <= button["y"] and button["y"] + button["height"] <= panel["y"] + panel["height"]
    ), (button, panel)
    assert button["y"] + button["height"] <= viewport["height"]
    # Nothing of the panel's own lies under it: its action bar keeps the row free.
    for other in page.locator("#match-summary .panel-actions a").all():
        box = other.bounding_box()
        assert box is not None
        assert box["y"] + box["height"] <= button["y"] + 0.5, (box, button)
