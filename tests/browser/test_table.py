"""Issue #3: whole hands played by clicking in real Chromium against a real daphne.

1. One person and three bots: sign up, create a room in the lobby, add bots, ready, start,
   then tap tiles until the settlement (on a phone-sized page, and on a desktop one).
2. Four people in four browser contexts on a chosen deal: a 碰 and a 吃 happen, then the
   hand plays out to the settlement.
3. A player reloads mid-hand: the same tiles come back and the next discard works.
4. A page sees another player's move over its WebSocket, without reloading.
5. An English browser gets the lobby and the table in English, pushes included.

Screenshots of the lobby, the waiting room, the table and the settlement go to
``artifacts/screenshots/``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from engine.hand import HandState
from engine.rules import Rules
from tables.models import Room, Seat
from tables.rooms import services
from tests.browser.driver import (
    ASKED_JS,
    DESKTOP,
    PHONE,
    goto_table,
    play,
    read,
    wait_ws_open,
)
from tests.browser.policy import seed_with_peng_and_chi, simulate
from tests.tables.factories import start_with_bots

pytestmark = pytest.mark.browser

HAND_SECONDS = 180
"""Longest a hand may take in these tests (bots move every 0.2 s; on a touch screen every
discard is two taps, lift and discard, and four pages share two CPU cores)."""
ASKED_TIMEOUT_MS = 30_000
PENG_CHI_SEED = "browser-peng-chi-49"
"""Found by ``seed_with_peng_and_chi``: both melds within the first moves. Checked again
on every run; if the engine changes so it no longer works, the search goes on from there."""


def shoot(page: Any, folder: Path, name: str) -> None:
    page.screenshot(path=str(folder / f"{name}.png"), full_page=True)


def play_until_settlement(page: Any, *, tap: bool, before_move: Any = None) -> int:
    """Make this page's player follow the policy until ``#settlement``; the moves made.

    ``before_move(state, moves)`` is called with what the page shows before each move."""
    moves = 0
    deadline = time.monotonic() + HAND_SECONDS
    while time.monotonic() < deadline:
        page.wait_for_function(ASKED_JS, timeout=ASKED_TIMEOUT_MS)
        state = read(page)
        if state.settlement:
            return moves
        move = state.move
        if move is None or state.step is None:
            continue  # the board was being swapped in; read it again
        if before_move is not None:
            before_move(state, moves)
        play(page, move, state.step, tap=tap)
        moves += 1
    raise AssertionError(f"no settlement after {HAND_SECONDS}s ({moves} moves made)")


def assert_settled(page: Any, timeout_ms: int = 5_000) -> None:
    settlement = page.locator("#settlement")
    expect(settlement).to_be_visible(timeout=timeout_ms)
    payments = settlement.locator(".transfers li").count()
    title = settlement.locator("#settlement-title").inner_text()
    assert payments > 0 or "流局" in title, f"settlement shows neither payments nor a draw: {title}"
    expect(settlement.locator(".hand-totals li")).to_have_count(4)


# ---------------------------------------------------------------- 1. one person, three bots


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_one_person_and_three_bots_play_a_whole_hand(
    new_context: Any, screenshots: Path, size: str, password: str
) -> None:
    phone = size == "phone"
    page = new_context(viewport=PHONE if phone else DESKTOP, scale=2 if phone else 1).new_page()

    page.goto("/accounts/signup/")
    page.fill("#id_username", f"tapper_{size}")
    page.fill("#id_display_name", "小明")
    page.fill("#id_password1", password)
    page.fill("#id_password2", password)
    page.locator("main form button[type=submit]").click()
    create = page.locator("[data-action=create]")
    expect(create).to_be_visible()
    expect(page.locator(".nav-user")).to_have_text("小明")
    shoot(page, screenshots, f"lobby-{size}")

    page.fill("#id_name", "周五牌局")
    create.click()
    page.wait_for_url("**/r/*/")
    number = page.url.rstrip("/").rsplit("/", 1)[-1]
    add_bot = page.locator("#live [data-action=add-bot]")
    for left in (2, 1, 0):

        def seated(left: int = left) -> None:
            expect(add_bot).to_have_count(left)

        press_until(page, add_bot.first, seated)
    page.locator("#live [data-action=ready]").click()
    expect(page.locator("#live [data-action=unready]")).to_be_visible()
    wait_ws_open(page)
    shoot(page, screenshots, f"waiting-room-{size}")

    page.locator("#live [data-action=start]").click()
    expect(page.locator("#my-hand [data-tile]").first).to_be_visible()
    assert page.url.endswith(f"/r/{number}/")
    wait_ws_open(page)

    shots: set[str] = set()

    def mid_hand(state: Any, moves: int) -> None:
        # The table on this player's turn, a drawn tile in hand: the widest the hand gets.
        if moves >= 3 and state.seen.drawn and "table" not in shots:
            shoot(page, screenshots, f"table-{size}")
            shots.add("table")
        # The 听牌 hints, the first time this player's hand is ready (if it gets there).
        if "hints" not in shots and page.locator("#hints .wait").count():
            shoot(page, screenshots, f"table-hints-{size}")
            shots.add("hints")

    moves = play_until_settlement(page, tap=phone, before_move=mid_hand)
    assert_settled(page)
    page.locator("#settlement").scroll_into_view_if_needed()
    shoot(page, screenshots, f"settlement-{size}")
    room = Room.objects.get(number=number)
    assert room.state is not None and room.state["hand"]["phase"] == "ended"
    hand = HandState.from_json(room.state["hand"])
    mine = sum(1 for seat, _a in hand.log if seat == 0)
    # A click can be refused as stale when bots answered first; the page then asks again.
    assert mine <= moves, f"the page made {moves} moves, the table logged {mine} for seat 0"
    # The deal is random (started from the lobby): only a bot's 天胡 ends it before a tap.
    assert mine > 0 or len(hand.log) == 1, "the hand ended without this player's move"

    # The rules stay one tap away during play.
    page.locator(".room-rules summary").click()
    expect(page.locator(".room-rules .facts")).to_be_visible()
    page.evaluate("() => window.scrollTo(0, 0)")
    shoot(page, screenshots, f"rules-{size}")

    # The match is open-ended: its owner ends it from the settlement.
    page.once("dialog", lambda dialog: dialog.accept())  # 结束比赛 asks first
    page.locator("[data-action=end-match]").click()
    expect(page.locator("#match-summary")).to_be_visible()
    expect(page.locator("[data-action=ready]")).to_have_count(0)
    page.locator("#match-summary").scroll_into_view_if_needed()
    shoot(page, screenshots, f"match-over-{size}")
    assert Room.objects.get(number=number).status == Room.Status.FINISHED


# ---------------------------------------------------------------- 2. four people


def press_until(page: Any, button: Any, done: Callable[[], None], attempts: int = 3) -> None:
    """Press ``button`` until ``done()`` stops raising, as a person does: a press that lands
    as a push replaces the seats (another page opened its socket, a bot sat down) is lost
    with the old button, and the person presses again."""
    for _ in range(attempts - 1):
        if button.count():
            button.click()
        try:
            done()
            return
        except AssertionError:
            continue
    if button.count():
        button.click()
    done()


def press_ready(page: Any) -> None:
    press_until(
        page,
        page.locator("#live [data-action=ready]"),
        lambda: expect(page.locator("#live [data-action=unready]")).to_be_visible(),
    )


def test_four_people_play_a_hand_with_a_peng_and_a_chi(
    new_context: Any, make_user: Any, screenshots: Path
) -> None:
    names = ["东家", "南家", "西家", "北家"]
    users = [make_user(f"p{i}", display_name=n) for i, n in enumerate(names)]
    owner = users[0]
    # One hand: the match summary then stays up.
    room = services.room_create(
        owner=owner,
        name="四人局",
        is_public=False,
        rules=Rules(),
        match_length=1,
        turn_seconds=services.TURN_SECONDS_MAX,
    )
    pages = [new_context(u).new_page() for u in users]

    # Seating and ready in the browsers; the owner's page follows over its WebSocket.
    goto_table(pages[0], room.number)
    for page, name in zip(pages[1:], names[1:], strict=True):
        goto_table(page, room.number)
        page.locator("#live [data-action=sit]").first.click()
        expect(page.locator("#live [data-action=ready]")).to_be_visible()
        expect(pages[0].locator("#live .seats")).to_contain_text(name)
    for page in pages:
        press_ready(page)
    expect(pages[0].locator("#live .seat.is-ready")).to_have_count(4)
    seat_of = {s.user_id: s.index for s in Seat.objects.filter(room=room)}
    assert [seat_of[u.pk] for u in users] == [0, 1, 2, 3]

    # A deal on which the policy makes a 碰 and a 吃, started through the services.
    seeds = [PENG_CHI_SEED, *(f"browser-peng-chi-{i}" for i in range(500))]
    seed, _run = seed_with_peng_and_chi(Rules.from_json(room.rules), seeds)
    services.match_start(room=room, by_user=owner, first_seed=seed)
    room.refresh_from_db()
    assert room.state is not None
    expected = simulate(HandState.from_json(room.state["hand"]))
    assert expected.pengs and expected.chis

    # The start was not pushed (the test process may not share the server's channel layer).
    for page in pages:
        page.reload()
        wait_ws_open(page)
        page.evaluate("() => { window.__sameDocument = true; }")

    # Each page's player follows the policy, by hand, to the end of the hand.
    made: list[tuple[int, str]] = []
    shot = False
    deadline = time.monotonic() + HAND_SECONDS
    while True:
        assert time.monotonic() < deadline, f"no settlement after {HAND_SECONDS}s: {made}"
        states = [read(page) for page in pages]
        if any(s.settlement for s in states):
            break
        if not shot and states[0].seen.pengs and states[0].seen.chis:
            for page in pages:
                for kind in ("peng", "chi"):
                    meld = page.locator(f".table-grid .meld.meld-{kind} [data-tile]")
                    expect(meld.first).to_be_visible()
            shoot(pages[0], screenshots, "table-melds-phone")
            shot = True
        actors = [i for i, s in enumerate(states) if s.move is not None]
        if not actors:  # a window waiting for its pause, or a push on its way
            time.sleep(0.05)
            continue
        i = actors[0]
        move, step = states[i].move, states[i].step
        assert move is not None and step is not None
        made.append((i, move.action))
        play(pages[i], move, step)
    assert shot, f"the hand ended before a 碰 and a 吃: {made}"
    assert made == expected.moves, "the browsers did not play the simulated hand"
    assert pages[0].evaluate("() => window.__sameDocument === true"), "the page was reloaded"
    for page in pages:
        assert_settled(page)
        expect(page.locator("#match-summary")).to_be_visible()
        expect(page.locator(".table-grid .meld.meld-peng").first).to_be_visible()
        expect(page.locator(".table-grid .meld.meld-chi").first).to_be_visible()
    room.refresh_from_db()
    assert room.state is not None
    assert not any(s.tuoguan for s in Seat.objects.filter(room=room)), "a bot played a seat"
    assert len(HandState.from_json(room.state["hand"]).log) == len(made)


# ---------------------------------------------------------------- 3. reload mid-hand


def test_reloading_mid_hand_keeps_the_hand_and_play_goes_on(new_context: Any, user: Any) -> None:
    room = start_with_bots(user, seed="browser-reload")
    page = new_context(user).new_page()
    goto_table(page, room.number)

    moves = 0
    while True:
        page.wait_for_function(ASKED_JS, timeout=ASKED_TIMEOUT_MS)
        state = read(page)
        assert not state.settlement, "the hand ended before the reload"
        assert state.move is not None and state.step is not None
        if moves >= 3 and state.seen.can_discard:
            break
        play(page, state.move, state.step)
        moves += 1

    # It is this player's turn, so the table waits for them across the reload.
    before = page.locator("#my-hand [data-tile]").evaluate_all(
        "els => els.map(e => e.dataset.tile)"
    )
    page.reload()
    wait_ws_open(page)
    page.wait_for_function(ASKED_JS)
    after = page.locator("#my-hand [data-tile]").evaluate_all("els => els.map(e => e.dataset.tile)")
    assert after == before
    again = read(page)
    assert again.step == state.step and again.seen.can_discard
    assert again.move is not None and again.move.action == "discard"

    # The page names the public step (tables.play.windows); the log is indexed by the engine's.
    room.refresh_from_db()
    assert room.state is not None
    logged = HandState.from_json(room.state["hand"]).step
    play(page, again.move, state.step)
    room.refresh_from_db()
    assert room.state is not None
    log = HandState.from_json(room.state["hand"]).log
    assert log[logged] == [0, {"type": "discard", "tile": again.move.tile}]


# ---------------------------------------------------------------- 4. pushed, not reloaded

HISTORY_JS = """() => {
  window.__history = [];
  document.addEventListener("htmx:oobAfterSwap", function () {
    const table = document.querySelector("#table-public");
    if (!table) return;
    const seat = document.querySelector('.seat-panel[data-seat="0"]');
    window.__history.push({
      step: Number(table.dataset.step),
      river: Array.from(seat.querySelectorAll(".river [data-tile]")).map((e) => e.dataset.tile),
      melds: Array.from(document.querySelectorAll(".table-grid .meld [data-tile]"))
        .map((e) => e.dataset.tile),
    });
  });
}"""


def test_a_move_reaches_another_page_without_a_reload(new_context: Any, make_user: Any) -> None:
    alice, bob = make_user("alice", display_name="阿丽"), make_user("bob", display_name="阿博")
    room = services.room_create(
        owner=alice,
        name="两人",
        is_public=False,
        rules=Rules(),
        match_length=4,
        turn_seconds=services.TURN_SECONDS_MAX,
    )
    services.seat_take(room=room, user=bob, index=1)
    for i in (2, 3):
        services.bot_add(room=room, by_user=alice, index=i)
    for u in (alice, bob):
        services.seat_ready(room=room, user=u, ready=True)
    # Bob only watches: his seat is on 托管, so the table never waits for his page.
    Seat.objects.filter(room=room, index=1).update(tuoguan=True)
    services.match_start(room=room, by_user=alice, first_seed="browser-push")
    page_a = new_context(alice).new_page()
    page_b = new_context(bob).new_page()
    goto_table(page_a, room.number)
    goto_table(page_b, room.number)
    page_b.evaluate(HISTORY_JS)

    # Alice plays until she has discarded once.
    while True:
        page_a.wait_for_function(ASKED_JS, timeout=ASKED_TIMEOUT_MS)
        state = read(page_a)
        assert not state.settlement, "the hand ended before alice discarded"
        move = state.move
        assert move is not None and state.step is not None
        play(page_a, move, state.step)
        if move.action == "discard":
            break

    page_b.wait_for_function("(s) => window.__history.some((h) => h.step > s)", arg=state.step)
    history = page_b.evaluate("() => window.__history")
    first = next(h for h in history if h["step"] > state.step)
    assert move.tile is not None
    assert (first["river"][-1:] == [move.tile]) or move.tile in first["melds"], first


# ---------------------------------------------------------------- 5. English


def test_an_english_browser_gets_english_pages_and_pushes(
    new_context: Any, user: Any, make_user: Any, screenshots: Path
) -> None:
    host = make_user("host", display_name="Host")
    services.room_create(
        owner=host,
        name="Saturday",
        is_public=True,
        rules=Rules.profile_named("jiuyao_fan"),
        match_length=8,
        turn_seconds=30,
    )
    room = start_with_bots(user, seed="browser-english", hands=None)
    page = new_context(user, scale=2, locale="en-US").new_page()

    page.goto("/")
    row = page.locator(".room-list li", has_text="Saturday")
    expect(row.locator(".room-rules-line")).to_contain_text("(§9)")
    expect(row.locator(".room-rules-line")).to_contain_text("8 hands")
    expect(page.locator("h1")).to_have_text("Join a room")
    shoot(page, screenshots, "lobby-english-phone")

    goto_table(page, room.number)
    expect(page.locator("[data-action=tuoguan-on]")).to_have_text("Auto-play")
    # A pushed fragment (the bots' moves arrive over the socket) stays in English.
    page.wait_for_function(ASKED_JS, timeout=ASKED_TIMEOUT_MS)
    state = read(page)
    assert state.move is not None and state.step is not None
    play(page, state.move, state.step)
    page.wait_for_function(
        "(s) => Number(document.querySelector('#table-public')?.dataset.step) > s", arg=state.step
    )
    expect(page.locator(".table-center")).to_contain_text("left")
    expect(page.locator("#table-public")).not_to_contain_text("剩")
    shoot(page, screenshots, "table-english-phone")
