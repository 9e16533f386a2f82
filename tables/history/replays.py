"""A finished hand's replay: one frame per action, rebuilt by the engine from the stored log.

Frame ``k`` is the hand after its first ``k`` actions: ``engine.hand.new_hand`` with the
stored rules, dealer and seed, then ``engine.hand.apply`` for each logged action, exactly as
``engine.hand_log.replay`` does. Nothing here judges a move. Every hand is shown face up, which
is allowed only because the hand has ended (:func:`tables.play.proof.hand_finished`): callers
must never build a frame of a hand still in play.

The settlement shown is always the one booked (``Hand.result``, the same transaction as the
book's entries), never today's engine's. A hand judged under an earlier reading of the rules
may be one today's engine ends differently, or one whose logged action it refuses: its replay
runs up to the last action still accepted, then ends on the booked settlement with a note.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from engine.actions import Action, ActionError
from engine.hand import HandState, IllegalAction, abandon, apply, new_hand
from engine.rules import Rules
from engine.views import seat_info, view_json
from tables.models import Hand
from tables.play.proof import hand_finished
from tables.screen.melds import MeldView, meld_label, melds_view, tile_codes
from tables.screen.settlement import Settlement, settlement_of

__all__ = [
    "Frame",
    "HandReplay",
    "ReplaySeat",
    "hand_replayed",
    "hand_states",
    "replay_frame",
    "replay_steps",
]


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
    earlier_ruling: bool = False
    """The last frame of a hand today's engine would judge otherwise: the booked points stand."""

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


@dataclass
class HandReplay:
    """A finished hand re-played by today's engine, as far as it accepts the logged actions."""

    hand: Hand
    states: list[HandState]
    """The hand after 0, 1, … of its logged actions, up to the last one accepted."""
    earlier_ruling: bool
    """Today's engine refuses a logged action or ends the hand otherwise than it was booked."""

    @property
    def accepted(self) -> int:
        return len(self.states) - 1

    @property
    def steps(self) -> int:
        """The last frame's number: one per logged action, or, when today's engine refuses
        one, the accepted ones and then the refused one ending on the booked settlement."""
        return min(len(self.hand.actions), self.accepted + 1)


def _plain(value: Any) -> Any:
    # A result as stored (JSON), so a fresh one compares equal field by field.
    return json.loads(json.dumps(value))


def _judged_alike(end: HandState, booked: dict[str, Any]) -> bool:
    """Does today's engine end the re-played hand as it was booked?

    A hand a referee closed (``engine.hand.abandon``) logged no action for it: its log stops
    in play, and it was booked as that draw nobody pays.
    """
    result = end.result if end.phase == "ended" else abandon(end).result
    booked = {k: v for k, v in booked.items() if k != "staff_reason"}  # staff's words, not a rule
    alike: bool = _plain(result) == _plain(booked)
    return alike


def hand_states(hand: Hand) -> list[HandState]:
    """The hand after 0, 1, … of its logged actions, re-played by the engine; it stops before
    the first logged action today's engine refuses."""
    if not hand_finished(hand):
        raise ValueError("a hand still in play is never replayed: its hands are secret")
    state = new_hand(Rules.from_json(hand.rules), hand.dealer, hand.seed)
    states = [state]
    for seat, act in hand.actions:
        try:
            state, _events = apply(state, int(seat), Action.from_json(act))
        except (IllegalAction, ActionError):
            # Judged under an earlier reading of the rules (or logged in an earlier form):
            # the book, not today's engine, says how the hand ended.
            break
        states.append(state)
    return states


def hand_replayed(hand: Hand) -> HandReplay:
    """``hand`` re-played to its end by today's engine, and whether it was judged otherwise."""
    states = hand_states(hand)
    assert hand.result is not None  # hand_finished
    refused = len(states) <= len(hand.actions)
    return HandReplay(
        hand=hand,
        states=states,
        earlier_ruling=refused or not _judged_alike(states[-1], hand.result),
    )


def replay_steps(hand: Hand) -> int:
    """How many steps the replay has (its last frame's number)."""
    return hand_replayed(hand).steps


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
    """Frame ``step`` (clamped to 0 … the last) of a finished hand, every hand face up; the
    last one ends on the settlement as booked."""
    replayed = hand_replayed(hand)
    steps = replayed.steps
    step = min(max(step, 0), steps)
    ending = step == steps
    state = replayed.states[min(step, replayed.accepted)]
    public = view_json(seat_info(state, None))
    last: list[Any] | None = hand.actions[step - 1] if step else None
    frame = Frame(
        step=step,
        steps=steps,
        phase="ended" if ending else state.phase,
        action="" if last is None else _describe(names[int(last[0])], last[1]),
        action_tile=None if last is None else last[1].get("tile"),
        dice=public["dice"],
        indicator=public["indicator"],
        bao=public["bao"],
        wall_left=public["wall_left"],
        burned=list(public["burned"]),
        result=hand.result if ending else None,
        earlier_ruling=ending and replayed.earlier_ruling,
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
    if ending and hand.result is not None:
        frame.settlement = settlement_of(hand.result, names, public["melds"])
    return frame
