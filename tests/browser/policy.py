"""The fixed way the browser tests play, and the same policy run in-process on the engine.

A browser test reads what a player's page shows (``Seen``: the hand, the drawn tile, the
action buttons, the melds on the table) and :func:`decide` picks the move. :func:`simulate`
plays a whole hand with that policy at every seat straight on the engine, reading each seat
through :func:`engine.views.seat_view` just as the page is built, so a seed can be chosen
in-process for a deal on which the browsers will certainly see a 碰 and a 吃.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from engine.actions import Action
from engine.hand import HandState, apply, new_hand, waiting_on
from engine.rules import Rules
from engine.tiles import format_tile, parse_tile, parse_tiles
from engine.views import seat_view


@dataclass(frozen=True)
class Seen:
    """What one page shows its player, as far as the policy cares."""

    hand: list[str]
    """``#my-hand`` in page order, without the drawn tile."""
    drawn: str | None
    can_discard: bool
    choices: list[str]
    """``data-action`` of the ``#actions`` buttons, in page order."""
    pengs: int
    """碰 melds on the table (every seat)."""
    chis: int


@dataclass(frozen=True)
class Move:
    action: str
    tile: str | None = None
    """For a discard."""
    index: int | None = None
    """For a button: its position among ``#actions`` buttons."""


def decide(seen: Seen) -> Move | None:
    """胡 when offered; else discard the drawn tile (or the first in hand); take the first 碰
    and the first 吃 of the hand when offered; pass otherwise. None: nothing to do."""
    if "hu" in seen.choices:
        return Move("hu", index=seen.choices.index("hu"))
    if seen.can_discard:
        return Move("discard", tile=seen.drawn or seen.hand[0])
    if "peng" in seen.choices and seen.pengs == 0:
        return Move("peng", index=seen.choices.index("peng"))
    if "chi" in seen.choices and seen.chis == 0:
        return Move("chi", index=seen.choices.index("chi"))
    if "pass" in seen.choices:
        return Move("pass", index=seen.choices.index("pass"))
    return None


def _codes(text: str) -> list[str]:
    return [format_tile(k) for k in parse_tiles(text)] if text else []


def seen_from_view(view: dict[str, Any]) -> tuple[Seen, list[dict[str, Any]]]:
    """What the page built from ``view`` (see ``tables.screen.board.private_board``) shows, and
    the buttons' engine actions in the same order."""
    hand = _codes(view["hand"])
    drawn = view.get("drawn")
    if drawn and drawn in hand:
        hand.remove(drawn)
    else:
        drawn = None
    buttons = [a for a in view["legal"] if a["type"] != "discard"]
    kinds = [m["kind"] for row in view["melds"] for m in row]
    seen = Seen(
        hand=hand,
        drawn=drawn,
        can_discard=any(a["type"] == "discard" for a in view["legal"]),
        choices=[a["type"] for a in buttons],
        pengs=kinds.count("peng"),
        chis=kinds.count("chi"),
    )
    return seen, buttons


@dataclass
class Playthrough:
    """How a hand went under the policy."""

    steps: int = 0
    pengs: int = 0
    chis: int = 0
    outcome: str = ""
    moves: list[tuple[int, str]] = field(default_factory=list)


def simulate(state: HandState, max_steps: int = 2000) -> Playthrough:
    """Play ``state`` to its end with :func:`decide` at every seat."""
    out = Playthrough()
    while state.phase != "ended":
        if out.steps >= max_steps:
            raise AssertionError(f"the hand did not end in {max_steps} steps")
        # In a claim window the answers may come in any order; the tests go by seat.
        seat = min(waiting_on(state))
        seen, buttons = seen_from_view(seat_view(state, seat))
        move = decide(seen)
        assert move is not None, f"seat {seat} is asked but the policy has no move: {seen}"
        if move.action == "discard":
            assert move.tile is not None
            action = Action("discard", tile=parse_tile(move.tile))
        else:
            assert move.index is not None
            action = Action.from_json(buttons[move.index])
        state, _events = apply(state, seat, action)
        out.steps += 1
        out.moves.append((seat, move.action))
    assert state.result is not None
    out.outcome = str(state.result["outcome"])
    kinds = [m.kind for row in state.melds for m in row]
    out.pengs, out.chis = kinds.count("peng"), kinds.count("chi")
    return out


def seed_with_peng_and_chi(rules: Rules, seeds: Iterable[str]) -> tuple[str, Playthrough]:
    """The first seed whose hand, played by the policy, has a 碰 and a 吃 whoever deals.

    The wall depends on the seed only and the policy treats every seat alike, so the dealer
    (drawn at random when a match starts) only turns the table; all four are checked anyway.
    """
    for seed in seeds:
        runs = [simulate(new_hand(rules, dealer, seed)) for dealer in range(4)]
        if all(r.pengs and r.chis for r in runs):
            return seed, runs[0]
    raise AssertionError("no seed gives a hand with both a 碰 and a 吃")
