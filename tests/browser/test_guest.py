"""Issue #36: play from an invite in ten seconds. A logged-out friend opens the invite, types a
nickname, taps once, sits down and plays, as a guest account (a real one, without a password).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.hashers import PBKDF2PasswordHasher
from playwright.sync_api import expect

from accounts.models import User
from tables.models import Seat
from tables.rooms import services
from tests.browser import states
from tests.browser.driver import PHONE, wait_ws_open

pytestmark = pytest.mark.browser

TEN_SECONDS = 10.0


def test_a_friend_plays_from_the_invite_as_a_guest_within_ten_seconds(
    new_context: Any, user: Any, screenshots: Path
) -> None:
    room = states.waiting_room(user)
    for index in (2, 3):
        services.bot_add(room=room, by_user=user, index=index)
    services.seat_ready(room=room, user=user, ready=True)
    page = new_context(viewport=PHONE, scale=2).new_page()
    started = time.monotonic()
    page.goto(f"/r/{room.number}/")
    page.screenshot(path=str(screenshots / "guest-invite-phone.png"))
    page.fill("#id_nickname", "小王")
    page.locator("[data-action=guest-join]").click()
    page.wait_for_url(f"**/r/{room.number}/")
    page.locator("[data-action=sit-first]").click()
    expect(page.locator("#live .seat.is-me")).to_be_visible()
    wait_ws_open(page)
    page.locator("[data-action=ready]").click()
    guest = User.objects.get(display_name="小王")
    assert guest.is_guest and not guest.has_usable_password()
    for _ in range(50):
        if Seat.objects.get(room=room, user=guest).ready:
            break
        page.wait_for_timeout(100)
    services.match_start(room=room, by_user=user, first_seed="guest-plays")
    expect(page.locator("#table-public")).to_be_visible()
    expect(page.locator("#my-hand [data-tile]").first).to_be_visible()
    elapsed = time.monotonic() - started
    page.screenshot(path=str(screenshots / "guest-table-phone.png"))
    assert elapsed < TEN_SECONDS, elapsed
    # The nav offers to save the account, from the table's own page too.
    expect(page.locator("[data-action=claim-account]")).to_have_count(1)


def test_a_guest_with_an_account_links_it_and_keeps_the_seat(
    new_context: Any, user: Any, make_user: Any, password: str, screenshots: Path
) -> None:
    # The server checks passwords with the default hasher (the tests' own is a fast one), and
    # signing up through the site would spend the address's sign-ups that other tests need.
    account = make_user("laoli", display_name="老李")
    account.password = PBKDF2PasswordHasher().encode(password, "browsertests")
    account.save(update_fields=["password"])
    room = states.waiting_room(user)
    page = new_context(viewport=PHONE).new_page()
    page.goto(f"/r/{room.number}/")
    page.fill("#id_nickname", "小李")
    page.locator("[data-action=guest-join]").click()
    page.wait_for_url(f"**/r/{room.number}/")
    page.locator("[data-action=sit-first]").click()
    expect(page.locator("#live .seat.is-me")).to_contain_text("小李")
    page.locator("[data-action=claim-account]").click()
    page.screenshot(path=str(screenshots / "guest-link-phone.png"), full_page=True)
    page.fill("#id_link-username", "laoli")
    page.fill("#id_link-password", password)
    page.locator("[data-action=link-account]").click()
    page.wait_for_url(f"**/r/{room.number}/")
    expect(page.locator("#live .seat.is-me")).to_contain_text("老李")
    expect(page.locator(".nav-user")).to_have_text("老李")
