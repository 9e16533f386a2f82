"""Issue #36: at 844×390, 1366×900 and 1920×1080 the table's areas keep apart: the rivers, the
centre (wall count, dice, 宝, turn) and the action buttons; the settlement's buttons stay in view;
on a laptop the site's nav is not above the table.

Screenshots go to ``artifacts/screenshots/overlap-*.png``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser import states
from tests.browser.driver import PHONE_LANDSCAPE, goto_table

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
