"""What one seat may see of a hand: the JSON view for clients and a typed one for bots.

Both come from :func:`seat_info`, the single place that decides what is public: never
other seats' concealed tiles, the wall order or the seed; a face-down 暗杠 stays hidden
from the others until the hand ends, and the result (every hand shown) only once it has.

>>> from engine.hand import new_hand
>>> from engine.rules import Rules
>>> from engine.tiles import parse_tiles
>>> s = new_hand(Rules(), dealer=0, seed=1)
>>> v = seat_view(s, 1)
>>> len(parse_tiles(v["hand"])), v["hand_sizes"], v["legal"]
(13, [14, 13, 13, 13], [])
>>> info = seat_info(s, 0)
>>> len(info.hand), info.wall_left, len(info.legal) > 0
(14, 82, True)
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

from engine.actions import Action
from engine.hand import hu_check, legal_actions, view_step, waiting_on
from engine.judging.win_check import WinCheck
from engine.melds import Meld
from engine.rules import Rules
from engine.state import HandState, Phase
from engine.tiles import KIND_COUNT, format_tile, format_tiles

__all__ = ["SeatInfo", "seat_info", "seat_view", "unseen", "view_json"]


@dataclass(slots=True)
class SeatInfo:
    """One seat's view as Python values (``seat`` None: a spectator, no hand, no actions).

    A snapshot: changing it changes nothing in the hand. (Not frozen: a frozen dataclass
    is several times slower to build, and bots build one per decision.)"""

    seat: int | None
    rules: Rules
    dealer: int
    turn: int
    phase: Phase
    dice: tuple[int, int, int, int]
    indicator: int
    bao: int
    wall_left: int
    burned: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    melds: tuple[tuple[Meld | None, ...], ...]
    """Per seat; ``None`` is another seat's face-down 暗杠."""
    rivers: tuple[tuple[int, ...], ...]
    flown: tuple[int, ...]
    waiting_on: tuple[int, ...]
    step: int
    """The step a move made on this view names (:func:`engine.hand.view_step`): in a window,
    the step it opened at, whoever has answered since."""
    result: dict[str, Any] | None
    window: dict[str, Any] | None
    """The open claim or 抢杠 window: kind, from, tile (None if hidden), answered (this seat's
    own answer only)."""
    hand: tuple[int, ...]
    drawn: int | None
    legal: tuple[Action, ...]
    win: WinCheck | None = None
    """The judgement of the 胡 this seat may declare now (its own tiles only), else None."""


def seat_info(state: HandState, seat: int | None) -> SeatInfo:
    """What ``seat`` may see, as Python values: the same information as :func:`seat_view`."""
    if seat is not None and seat not in range(4):
        raise ValueError(f"no seat {seat!r}: seats are 0-3, or None for a spectator")
    if state.rules.angang_face_down and state.phase != "ended":
        melds = tuple(
            tuple(None if p != seat and m.kind == "angang" else m for m in state.melds[p])
            for p in range(4)
        )
    else:
        melds = tuple(map(tuple, state.melds))
    window: dict[str, Any] | None = None
    pending = state.pending
    if pending is not None:
        hidden = pending.gang == "angang" and state.rules.angang_face_down
        window = {
            "kind": pending.kind,
            "from": pending.frm,
            "tile": None if hidden else pending.tile,
            # Who may answer would tell what they hold: a seat learns only its own answer.
            "answered": [p == seat and a is not None for p, a in enumerate(pending.answers)],
        }
    mine = seat is not None
    legal = tuple(legal_actions(state, seat)) if seat is not None else ()
    asked = waiting_on(state)
    if state.phase in ("claim", "rob"):
        # The seats asked in a window are those that may 吃/碰/杠 the tile or win on it: each
        # seat learns only whether it is asked itself.
        asked = [s for s in asked if s == seat]
    return SeatInfo(
        seat=seat,
        rules=state.rules,
        dealer=state.dealer,
        turn=state.turn,
        phase=state.phase,
        dice=state.wall.dice,
        indicator=state.indicator,
        bao=state.bao,
        wall_left=state.wall.live_count(),
        burned=tuple(state.wall.burned_tiles()),
        hand_sizes=tuple(map(len, state.hands)),
        melds=melds,
        rivers=tuple(map(tuple, state.rivers)),
        flown=tuple(state.flown),
        waiting_on=tuple(asked),
        step=view_step(state),
        result=None if state.result is None else copy.deepcopy(state.result),
        window=window,
        hand=tuple(state.hands[seat]) if seat is not None else (),
        drawn=(
            state.drawn
            if mine and state.drawn is not None and state.turn == seat and state.phase == "turn"
            else None
        ),
        legal=legal,
        win=hu_check(state, seat) if seat is not None and _may_win(legal) else None,
    )


def unseen(info: SeatInfo) -> list[int]:
    """Copies of each kind this seat can't see (in other hands, the wall, face-down 暗杠): four
    less its own tiles, every face-up meld, river and burned tile, and the indicator.

    >>> from engine.hand import new_hand
    >>> from engine.rules import Rules
    >>> info = seat_info(new_hand(Rules(), dealer=0, seed=1), 1)
    >>> sum(unseen(info)) == 136 - 13 - 1  # all but its 13 tiles and the indicator
    True
    """
    seen = [0] * KIND_COUNT
    for kind in info.hand:
        seen[kind] += 1
    for river in info.rivers:
        for kind in river:
            seen[kind] += 1
    for row in info.melds:
        for m in row:
            if m is not None:
                for kind in m.tiles:
                    seen[kind] += 1
    for kind in info.burned:
        seen[kind] += 1
    seen[info.indicator] += 1
    return [4 - n if n < 4 else 0 for n in seen]


def seat_view(state: HandState, seat: int | None) -> dict[str, Any]:
    """What ``seat`` may see, JSON-able (``None``: a spectator). Never other hands, the wall
    order or the seed; the result, once the hand has ended, shows every hand."""
    return view_json(seat_info(state, seat))


def view_json(info: SeatInfo) -> dict[str, Any]:
    """:func:`seat_view` from a :class:`SeatInfo` already built (for callers that need both)."""
    seat = info.seat
    view: dict[str, Any] = {
        "seat": seat,
        "dealer": info.dealer,
        "turn": info.turn,
        "phase": info.phase,
        "dice": list(info.dice),
        "indicator": format_tile(info.indicator),
        "bao": format_tile(info.bao),
        "wall_left": info.wall_left,
        "burned": [format_tile(t) for t in info.burned],
        "hand_sizes": list(info.hand_sizes),
        "melds": [
            [
                {"kind": "angang", "tiles": None, "from": None} if m is None else m.to_json()
                for m in row
            ]
            for row in info.melds
        ],
        "rivers": [[format_tile(t) for t in r] for r in info.rivers],
        "flown": list(info.flown),
        "waiting_on": list(info.waiting_on),
        "step": info.step,
        "result": info.result,
    }
    if info.window is not None:
        tile = info.window["tile"]
        view["window"] = {**info.window, "tile": None if tile is None else format_tile(tile)}
    if seat is not None:
        view["hand"] = format_tiles(info.hand)
        view["drawn"] = None if info.drawn is None else format_tile(info.drawn)
        view["legal"] = [a.to_json() for a in info.legal]
    else:
        view["legal"] = []
    return view


def _may_win(legal: tuple[Action, ...]) -> bool:
    return any(a.type == "hu" for a in legal)
