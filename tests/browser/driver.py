"""Driving a table page: read what it shows, make the policy's move, wait for the table.

Only the test hooks are used: ``data-tile`` on face-up tiles, ``#my-hand``, ``data-action``
on buttons, ``#settlement``, and the table's ``data-step`` (one more per accepted move).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.browser.policy import Move, Seen, decide

PHONE = {"width": 390, "height": 844}
PHONE_LANDSCAPE = {"width": 844, "height": 390}
LAPTOP = {"width": 1280, "height": 800}
DESKTOP = {"width": 1366, "height": 800}

STEP_TIMEOUT_MS = 8_000
CLICK_TIMEOUT_MS = 5_000
ATTEMPTS = 3

READ_JS = """() => {
  const table = document.querySelector("#table-public");
  const hand = document.querySelector("#my-hand");
  const tiles = hand ? Array.from(hand.querySelectorAll("[data-tile]")) : [];
  const drawn = tiles.find((e) => e.classList.contains("tile--drawn"));
  const count = (sel) => document.querySelectorAll(sel).length;
  return {
    step: table ? Number(table.dataset.step) : null,
    phase: table ? table.dataset.phase : null,
    hand: tiles.filter((e) => !e.classList.contains("tile--drawn")).map((e) => e.dataset.tile),
    drawn: drawn ? drawn.dataset.tile : null,
    canDiscard: !!(hand && hand.classList.contains("can-discard")),
    choices: Array.from(document.querySelectorAll("#actions [data-action]"))
      .map((e) => e.dataset.action),
    pengs: count(".table-grid .meld.meld-peng"),
    chis: count(".table-grid .meld.meld-chi"),
    settlement: !!document.querySelector("#settlement"),
    error: (document.querySelector("#table-error") || {}).textContent || "",
    wsOpen: !!window.__wsOpen,
  };
}"""

COARSE_JS = "() => matchMedia('(pointer: coarse)').matches"
"""A touch screen: a discard takes two taps (lift, then discard)."""

# True once the page shows another step than ``step`` (or the settlement), or no longer asks
# this player anything: an answer in a claim window changes only the page's own part (the
# public part stays where the window opened, so the others can't count the answers).
MOVED_ON_JS = """(step) => {
  if (document.querySelector("#settlement")) return true;
  const table = document.querySelector("#table-public");
  if (!!table && Number(table.dataset.step) !== step) return true;
  return !document.querySelector("#actions [data-action]")
    && !document.querySelector("#my-hand.can-discard");
}"""

# Something for this player to do, or the hand is over.
ASKED_JS = """() => !!(document.querySelector("#settlement")
  || document.querySelector("#my-hand.can-discard")
  || document.querySelector("#actions [data-action]"))"""


@dataclass
class PageState:
    step: int | None
    phase: str | None
    seen: Seen
    settlement: bool
    error: str
    ws_open: bool

    @property
    def move(self) -> Move | None:
        return None if self.settlement else decide(self.seen)


def read(page: Any) -> PageState:
    raw = page.evaluate(READ_JS)
    return PageState(
        step=raw["step"],
        phase=raw["phase"],
        seen=Seen(
            hand=list(raw["hand"]),
            drawn=raw["drawn"],
            can_discard=bool(raw["canDiscard"]),
            choices=list(raw["choices"]),
            pengs=int(raw["pengs"]),
            chis=int(raw["chis"]),
        ),
        settlement=bool(raw["settlement"]),
        error=str(raw["error"]).strip(),
        ws_open=bool(raw["wsOpen"]),
    )


def goto_table(page: Any, number: str) -> None:
    """Open room ``number`` and wait until its WebSocket is open."""
    page.goto(f"/r/{number}/")
    wait_ws_open(page)


def wait_ws_open(page: Any) -> None:
    page.wait_for_function("() => window.__wsOpen === true")


def click_move(page: Any, move: Move, *, tap: bool = False) -> None:
    if move.action == "discard":
        seen = read(page).seen
        if move.tile is not None and move.tile == seen.drawn:
            target = page.locator("#my-hand button.tile--drawn")
        else:
            target = page.locator(f'#my-hand button[data-tile="{move.tile}"]').first
    else:
        assert move.index is not None
        target = page.locator("#actions [data-action]").nth(move.index)
    press = target.tap if tap else target.click
    lifted = "tile--selected" in (target.get_attribute("class") or "")
    if move.action == "discard" and not lifted and page.evaluate(COARSE_JS):
        press(timeout=CLICK_TIMEOUT_MS)  # on a touch screen the first tap only lifts the tile
        page.locator("#my-hand button.tile--selected").wait_for(timeout=CLICK_TIMEOUT_MS)
    press(timeout=CLICK_TIMEOUT_MS)


def play(page: Any, move: Move, step: int, *, tap: bool = False) -> None:
    """Make ``move`` (chosen at ``step``) and wait until the page shows another step.

    A click that lands while htmx swaps the board in can be lost; the move is then made again
    (a copy that did arrive carries the old step and is refused, so nothing applies twice).
    When the table moved on meanwhile (bots), the move is dropped: the caller reads again.
    """
    for _attempt in range(ATTEMPTS):
        if read(page).step != step:
            return
        try:
            click_move(page, move, tap=tap)
            page.wait_for_function(MOVED_ON_JS, arg=step, timeout=STEP_TIMEOUT_MS)
            return
        except PlaywrightTimeout:
            continue
    state = read(page)
    raise AssertionError(
        f"{move} at step {step} was not taken; the page is at step {state.step} "
        f"(error line: {state.error!r}, socket open: {state.ws_open})"
    )
