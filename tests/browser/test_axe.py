"""Issue #38: axe-core finds nothing (critical, serious or moderate) on any page.

The ten audited pages (``tests.audit.pages``) and the table in each state (waiting, the
viewer's own turn, a claim window, the settlement, the match's summary, 托管), at 390×844 and
1366×900, in Chinese (the default) and, for the table, in English too. axe-core is the npm
package pinned in ``tests/audit/package-lock.json`` (``scripts/setup`` installs it).
Screenshots of each state go to ``artifacts/screenshots/a11y-*.png``.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.audit.pages import pages_create
from tests.browser import axe, states
from tests.browser.driver import PHONE, wait_ws_open
from tests.tables.factories import played_hand

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not axe.installed(), reason=axe.NO_AXE),
]

DESKTOP = {"width": 1366, "height": 900}
SIZES = {"phone": PHONE, "desktop": DESKTOP}


def check(page: Any, what: str, folder: Path) -> None:
    page.screenshot(path=str(folder / f"a11y-{what}.png"), full_page=True)
    found = axe.violations(page)
    assert not found, f"axe on {what}:\n{axe.describe(found)}"


@pytest.mark.parametrize("size", SIZES)
def test_the_ten_pages_have_no_violations(
    new_context: Callable[..., Any], server: Any, screenshots: Path, size: str
) -> None:
    for p in pages_create():
        context = new_context(viewport=SIZES[size])
        if p.session is not None:
            context.add_cookies([{"name": "sessionid", "value": p.session, "url": server.url}])
        page = context.new_page()
        page.goto(p.path)
        if p.name in ("waiting", "table"):
            wait_ws_open(page)
        check(page, f"{p.name}-{size}", screenshots)
        context.close()


def _table(new_context: Callable[..., Any], user: Any, number: str, size: str, **kw: Any) -> Any:
    page = new_context(user, viewport=SIZES[size], **kw).new_page()
    page.goto(f"/r/{number}/")
    wait_ws_open(page)
    return page


@pytest.mark.parametrize("size", SIZES)
def test_the_table_in_every_state_has_no_violations(
    new_context: Callable[..., Any], make_user: Any, screenshots: Path, size: str
) -> None:
    alice = make_user("alice", display_name="小王")
    others = [make_user(name) for name in ("bob", "carol", "dave")]
    rooms = {
        "own-turn": states.own_turn(alice),
        "claim": states.claim(alice),
        "settlement": states.settlement(alice),
        "summary": played_hand(alice).room,
        "tuoguan": states.tuoguan([alice, *others]),
    }
    for state, room in rooms.items():
        page = _table(new_context, alice, room.number, size)
        marks = {
            "own-turn": "#my-hand.can-discard",
            "claim": "#actions [data-action]",
            "settlement": "#settlement",
            "summary": "#match-summary",
            "tuoguan": ".tuoguan-banner",
        }
        page.locator(marks[state]).first.wait_for()
        check(page, f"table-{state}-{size}", screenshots)
    english = _table(new_context, alice, rooms["claim"].number, size, locale="en-US")
    english.locator("#actions [data-action]").first.wait_for()
    check(english, f"table-claim-en-{size}", screenshots)
