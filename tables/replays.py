"""A finished hand's replay: one frame per action, rebuilt by the engine from the stored log.

Frame ``k`` is the hand after its first ``k`` actions: ``engine.hand.new_hand`` with the
stored rules, dealer and seed, then ``engine.hand.apply`` for each logged action, exactly as
``engine.hand_log.replay`` does. Nothing here judges a move. Every hand is shown face up, which
is allowed only because the hand has ended (:func:`tables.verify.hand_finished`): callers
must never build a frame of a hand still in play.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from engine.actions import Action
from engine.hand import HandState, apply, new_hand
from engine.rules import Rules
from engine.views import seat_info, view_json
from tables.melds import MeldView, meld_label, melds_view, tile_codes
from tables.models import Hand
from tables.settlement import Settlement, settlement_of
from tables.verify import hand_finished

__all__ = ["Frame", "ReplaySeat", "hand_states", "replay_frame", "replay_steps"]


@dataclass
class ReplaySeat:
    index: int
    name: str
    dealer: bool
    acting: bool
    """This seat made the action that led to this frame."""
    hand: list[str]
    drawn: str | None
    melds: list[MeldView]
    river: list[str]
    flown: int


@dataclass
class Frame:
    step: int
    steps: int
    """The number of actions: frames run from 0 (the deal) to ``steps`` (the end)."""
    phase: str
    action: str
    """What happened last, in words ("" for the deal)."""
    action_tile: str | None
    dice: list[int]
    indicator: str
    bao: str
    wall_left: int
    burned: list[str]
    seats: list[ReplaySeat] = field(default_factory=list)
    settlement: Settlement | None = None
    result: dict[str, Any] | None = None
    hands: list[str] = field(default_factory=list)
    """Each seat's concealed tiles as tile text (the engine's notation), for checks."""

    @property
    def first(self) -> bool:
        return self.step == 0

    @property
    def last(self) -> bool:
        return self.step == self.steps

    @property
    def previous(self) -> int:
        return max(0, self.step - 1)

    @property
    def next(self) -> int:
        return min(self.steps, self.step + 1)


def replay_steps(hand: Hand) -> int:
    """How many actions the hand's log holds (its last frame's number)."""
    return len(hand.actions)


def hand_states(hand: Hand, upto: int | None = None) -> Iterator[HandState]:
    """The hand after 0, 1, … ``upto`` actions (all of them by default), re-played by the engine."""
    if not hand_finished(hand):
        raise ValueError("a hand still in play is never replayed: its hands are secret")
    actions = hand.actions if upto is None else hand.actions[:upto]
    state = new_hand(Rules.from_json(hand.rules), hand.dealer, hand.seed)
    yield state
    for seat, act in actions:
        state, _events = apply(state, int(seat), Action.from_json(act))
        yield state


def _describe(name: str, action: dict[str, Any]) -> str:
    kind = action["type"]
    if kind == "discard":
        return _("%(name)s discards") % {"name": name}
    if kind == "chi":
        return _("%(name)s chows") % {"name": name}
    if kind == "peng":
        return _("%(name)s pongs") % {"name": name}
    if kind == "gang":
        return _("%(name)s: %(kong)s") % {"name": name, "kong": meld_label(action["gang"])}
    if kind == "hu":
        return _("%(name)s wins (胡)") % {"name": name}
    return _("%(name)s passes") % {"name": name}


def replay_frame(hand: Hand, step: int, names: list[str]) -> Frame:
    """Frame ``step`` (clamped to 0 … the last) of a finished hand, every hand face up."""
    steps = replay_steps(hand)
    step = min(max(step, 0), steps)
    state = deque(hand_states(hand, step), maxlen=1).pop()
    public = view_json(seat_info(state, None))
    last: list[Any] | None = hand.actions[step - 1] if step else None
    frame = Frame(
        step=step,
        steps=steps,
        phase=state.phase,
        action="" if last is None else _describe(names[int(last[0])], last[1]),
        action_tile=None if last is None else last[1].get("tile"),
        dice=public["dice"],
        indicator=public["indicator"],
        bao=public["bao"],
        wall_left=public["wall_left"],
        burned=list(public["burned"]),
        result=state.result,
    )
    for s in range(4):
        # Each seat's own view has its own tiles and melds: the four together are the table
        # face up, and still only what the engine's views give out.
        own = view_json(seat_info(state, s))
        hand_tiles = tile_codes(own["hand"])
        drawn = own["drawn"]
        if drawn and drawn in hand_tiles:
            hand_tiles.remove(drawn)
        frame.hands.append(own["hand"])
        frame.seats.append(
            ReplaySeat(
                index=s,
                name=names[s],
                dealer=s == state.dealer,
                acting=last is not None and int(last[0]) == s,
                hand=hand_tiles,
                drawn=drawn,
                melds=melds_view(own["melds"][s]),
                river=list(public["rivers"][s]),
                flown=int(public["flown"][s]),
            )
        )
    if state.result is not None:
        frame.settlement = settlement_of(state.result, names, public["melds"])
    return frame
