"""What people see at a live table: the public part, the same for everyone, and each seat's
private part, built only from the engine's views.

:class:`PublicBoard` comes from the spectators' view (:func:`engine.views.seat_info` with no
seat): every seat's panel, the table bar, the centre and, once the hand has ended, the
settlement. It holds nothing that depends on who looks, so one render serves every page of a
table (positions relative to the viewer are CSS, from the ``data-me`` of the page's root).
:class:`PrivateBoard` comes from one seat's own view: its hand, its choices, its 听牌 hints and
its buttons. Neither ever reads the state itself, so another seat's concealed tiles, the wall
order and the seed cannot reach a page even by a template mistake.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from engine.play.hints import Hints, hints
from engine.play.preview import hu_preview
from engine.tiles import format_tile
from engine.views import SeatInfo, seat_info, view_json
from tables.models import Room, Seat
from tables.play.presence import present
from tables.play.table import Table, must_act
from tables.play.windows import WINDOW_PHASES, public_step, public_version
from tables.screen.discard_hints import discard_waits
from tables.screen.melds import MeldView, meld_label, melds_view, tile_codes
from tables.screen.settlement import Settlement, settlement_of

__all__ = [
    "PrivateBoard",
    "PublicBoard",
    "private_board",
    "public_board",
    "seat_name",
]


@dataclass
class SeatPanel:
    """One seat as everyone sees it."""

    index: int
    name: str
    is_bot: bool
    tuoguan: bool
    connected: bool
    dealer: bool
    acting: bool
    ready: bool
    hand_size: int
    melds: list[MeldView]
    river: list[str]
    flown: int
    points: int
    last_discard: bool = False
    """The newest tile of this seat's river is the table's last discard (marked)."""

    @property
    def backs(self) -> range:
        """One face-down tile per concealed tile, for the template to loop over."""
        return range(self.hand_size)


@dataclass
class Choice:
    """One button in the action bar (discards are the hand's tiles themselves)."""

    action: str
    label: str
    values: dict[str, Any]
    tiles: list[str] = field(default_factory=list)
    score: int | None = None

    @property
    def hx_vals(self) -> str:
        """The engine action's fields for htmx ``hx-vals`` (the button itself names the type)."""
        return json.dumps({k: v for k, v in self.values.items() if k != "type"})


@dataclass
class HintsView:
    """听牌 hints for the viewer's own hand, from :func:`engine.play.hints.hints`."""

    distance: int
    waits: list[tuple[str, int, int]]
    """(tile, copies not in sight, points each other player would pay)."""
    any_tile: bool
    too_small: bool


def _hints_view(h: Hints | None) -> HintsView | None:
    if h is None:
        return None
    return HintsView(
        distance=h.distance,
        waits=[(format_tile(w.tile), w.left, w.score) for w in h.waits],
        any_tile=h.any_tile,
        too_small=h.too_small,
    )


@dataclass
class PublicBoard:
    """The table as everyone sees it: the same for every seat and every spectator."""

    room: Room
    step: int
    version: int
    phase: str
    hand_no: int
    hands_total: int | None
    dice: list[int]
    indicator: str
    bao: str
    wall_left: int
    burned: list[str]
    panels: list[SeatPanel]
    """In seat order; the page's CSS places them around the viewer."""
    deadline: datetime | None = None
    seconds_left: int | None = None
    settlement: Settlement | None = None
    finished: bool = False
    match_totals: list[tuple[str, int]] = field(default_factory=list)
    waiting_names: list[str] = field(default_factory=list)
    hand_id: int | None = None
    """The ``Hand`` row shown: the settlement links to its record."""
    seed_hash: str = ""
    """The deal's commitment, SHA-256 of the secret seed (``tables.play.proof``)."""

    @property
    def ends_at_ms(self) -> int | None:
        """The countdown's end as a timestamp in ms (the page counts down to it)."""
        return None if self.deadline is None else int(self.deadline.timestamp() * 1000)


@dataclass
class PrivateBoard:
    """What only one seat sees: its tiles, its choices, its hints and its buttons.

    Two boards are equal when they render the same part, so a seat whose board did not
    change is not rendered again. Left out of the comparison is what the part does not show
    as such: the room (only its number), the step and the version (moves take the step from
    the public part), the phase (the part shows only whether the hand has :attr:`ended`) and
    whether the table waits on the seat (shown only as :attr:`still_there_asked`).
    """

    room: Room = field(compare=False)
    seat: int
    step: int = field(compare=False)
    version: int = field(compare=False)
    phase: str = field(compare=False)
    bao: str
    tuoguan: bool
    ready: bool
    finished: bool
    my_hand: list[str] = field(default_factory=list)
    drawn: str | None = None
    can_discard: bool = False
    choices: list[Choice] = field(default_factory=list)
    window_tile: str | None = None
    window_from: str | None = None
    hints: HintsView | None = None
    deadline: datetime | None = None
    """Asked in a window: the seat's own countdown (the public part shows none in a window)."""
    hidden_melds: list[MeldView] = field(default_factory=list)
    """The seat's own 暗杠 that everyone else sees face down (the public part shows backs)."""
    can_end_match: bool = False
    """The seat owns the room and a hand has just ended: they may call the match off."""
    tuoguan_reason: str = ""
    """Why the seat is on 托管 (``Seat.TuoguanReason``), "" when it is not."""
    timed_out: bool = False
    """The clock played a tile for this seat in this hand, without 托管: its page warns."""
    asked: bool = field(default=False, compare=False)
    """The table waits on this seat now (its turn, or it may claim)."""
    ended: bool = False
    """The hand is over (its settlement is on the table)."""
    still_there_asked: bool = False
    """My seat went on 托管 because my time ran out and the table waits on me again: the
    page asks "还在吗？" rather than letting the bot play on unnoticed."""
    discard_waits: dict[str, str] = field(default_factory=dict)
    """Per tile in my hand on my turn: what discarding it leaves me waiting on, in words
    (``tables.screen.discard_hints``); absent for a discard that leaves the hand not ready."""
    names: list[str] = field(default_factory=list)
    """The four seats' names by index (the 解散 panel names who proposed and who answered)."""
    is_owner: bool = False
    """The seat's player owns the room: the page shows the owner's tools."""
    transfer_to: list[tuple[int, str]] = field(default_factory=list)
    """The other seats with a person in them (index, name): whom the owner may hand over to."""

    @property
    def discard_waits_json(self) -> str:
        """:attr:`discard_waits` for the page's ``data-discard-waits`` (escaped by the template)."""
        return json.dumps(self.discard_waits, ensure_ascii=False)

    @property
    def ends_at_ms(self) -> int | None:
        return None if self.deadline is None else int(self.deadline.timestamp() * 1000)


def seat_name(seat: Seat) -> str:
    """A seat's player's display name, or the bot's, by its seat (机器人·东)."""
    if seat.user is not None:
        return seat.user.name
    return seat.bot_name


def _choices(legal: list[dict[str, Any]], info: SeatInfo) -> tuple[bool, list[Choice]]:
    can_discard = False
    out: list[Choice] = []
    for a in legal:
        kind = a["type"]
        if kind == "discard":
            can_discard = True
        elif kind == "chi":
            tiles = sorted([*tile_codes(a["tiles"]), a["tile"]])
            out.append(Choice("chi", _("Chi"), a, tiles=tiles))
        elif kind == "peng":
            out.append(Choice("peng", _("Pong"), a, tiles=[a["tile"]] * 3))
        elif kind == "gang":
            count = 3 if a["gang"] == "liangbao" else 4
            out.append(Choice("gang", meld_label(a["gang"]), a, tiles=[a["tile"]] * count))
        elif kind == "hu":
            preview = hu_preview(info)
            choice = Choice("hu", _("Hu"), a)
            if preview is not None:
                choice.score = int(preview["score"])
                choice.label = f"{_('Hu')} {preview['judgement']['name']}"
            out.append(choice)
        elif kind == "pass":
            out.append(Choice("pass", _("Pass"), a))
    return can_discard, out


CLAIMS = ("chi", "peng", "gang")
"""Logged actions after which the last discard may have left its river."""


def _last_discarder(table: Table) -> int | None:
    """The seat whose newest river tile is the last discard, if it still lies there.

    Read from the hand's log of moves, of which only the public part is used: who discarded
    last, and whether a claim took that tile since (a claimed tile leaves the river). The
    answers given in a window still open are left out: they are logged as they come, but
    nothing has moved yet, and a claim answered while the window waits on another seat must
    not show (D2: nobody may tell a window, nor its answers, before it closes)."""
    hand = table.hand
    if hand is None:
        return None
    log = hand.log
    if hand.pending is not None:
        log = log[: len(log) - hand.pending.given]
    for who, action in reversed(log):
        kind = action.get("type")
        if kind == "discard":
            return int(who)
        if kind in CLAIMS and action.get("gang") not in ("angang", "bugang", "liangbao"):
            return None
    return None


def public_board(table: Table, now: datetime | None = None) -> PublicBoard:
    """The table as everyone sees it, from the spectators' view."""
    now = now or timezone.now()
    assert table.hand is not None
    room = table.room
    info = table.public_info()
    view = view_json(info)
    # Counted apart from the engine's step and the room's version, which answers in a window
    # move on (tables.play.windows).
    step, version, phase = public_step(room), public_version(room), view["phase"]
    if phase in WINDOW_PHASES:
        # A window looks like the discarder's (or the gang's) turn going on, from the moment
        # it opened: who is asked, who answered and even whether anyone may answer at all
        # would tell what they hold. The clock gives every window the same pause (D2).
        acting = {int(view["window"]["from"])}
        phase = "turn"
        waited_for: set[int] = set()
    else:
        acting = waited_for = set(must_act(table))
    panels = [
        SeatPanel(
            index=s.index,
            name=seat_name(s),
            is_bot=bool(s.bot),
            tuoguan=s.tuoguan,
            connected=bool(s.bot) or present(s, now),
            dealer=s.index == view["dealer"],
            acting=s.index in acting,
            ready=s.ready,
            hand_size=view["hand_sizes"][s.index],
            melds=melds_view(view["melds"][s.index]),
            river=list(view["rivers"][s.index]),
            flown=int(view["flown"][s.index]),
            points=int(table.match.totals[s.index]),
        )
        for s in table.seats
    ]
    last = _last_discarder(table)
    for p in panels:
        p.last_discard = p.index == last and bool(p.river)
    board = PublicBoard(
        room=room,
        step=step,
        version=version,
        phase=phase,
        hand_no=table.match.hand_no + (0 if view["phase"] == "ended" else 1),
        hands_total=table.match.hands_total,
        dice=view["dice"],
        indicator=view["indicator"],
        bao=view["bao"],
        wall_left=view["wall_left"],
        burned=list(view["burned"]),
        panels=panels,
        finished=table.finished,
        waiting_names=[seat_name(table.seats[i]) for i in sorted(acting)],
    )
    board.hand_id = table.hand_id
    if table.seed_hash is not None:
        board.seed_hash = table.seed_hash
    if room.turn_deadline is not None and waited_for:
        board.deadline = room.turn_deadline
        board.seconds_left = max(0, int((room.turn_deadline - now).total_seconds() + 0.999))
    if view["result"] is not None:
        names = [seat_name(s) for s in table.seats]
        board.settlement = settlement_of(view["result"], names, view["melds"])
    if table.finished:
        board.match_totals = sorted(
            ((seat_name(s), int(table.match.totals[s.index])) for s in table.seats),
            key=lambda x: -x[1],
        )
    return board


def private_board(table: Table, seat: int) -> PrivateBoard:
    """What seat ``seat`` alone sees, from its own view.

    Built from the seat's :class:`~engine.views.SeatInfo` itself rather than its JSON view:
    every change builds four of these, and the JSON view would format every river and meld
    of the table again for each."""
    assert table.hand is not None
    room = table.room
    info = seat_info(table.hand, seat)  # built once: the board and the hints share it
    me = table.seats[seat]
    names = [seat_name(s) for s in table.seats]
    ended = info.phase == "ended"
    board = PrivateBoard(
        room=room,
        seat=seat,
        step=info.step,
        version=room.version,
        phase=info.phase,
        bao=format_tile(info.bao),
        tuoguan=me.tuoguan,
        ready=me.ready,
        finished=table.finished,
        can_end_match=room.owner_id == me.user_id and ended and not table.finished,
    )
    window = info.window
    if window is not None and seat in info.waiting_on:
        board.window_tile = None if window["tile"] is None else format_tile(window["tile"])
        board.window_from = names[window["from"]]
        board.deadline = room.turn_deadline
    hand = [format_tile(k) for k in info.hand]
    drawn = None if info.drawn is None else format_tile(info.drawn)
    if drawn and drawn in hand:
        hand.remove(drawn)
        board.drawn = drawn
    board.my_hand = hand
    mine = [m.to_json() for m in info.melds[seat] if m is not None]
    public_melds = table.public_info().melds[seat]
    board.hidden_melds = [
        m for m, seen in zip(melds_view(mine), public_melds, strict=True) if seen is None
    ]
    board.can_discard, board.choices = _choices([a.to_json() for a in info.legal], info)
    board.hints = _hints_view(hints(info))
    board.tuoguan_reason = me.tuoguan_reason if me.tuoguan else ""
    board.timed_out = me.timeouts > 0 and not me.tuoguan and not ended
    board.asked = seat in must_act(table)
    board.ended = ended
    board.still_there_asked = (
        board.tuoguan and board.tuoguan_reason == "timeout" and board.asked and not board.ended
    )
    if board.can_discard:
        board.discard_waits = discard_waits(info)
    board.names = names
    board.is_owner = me.user_id is not None and room.owner_id == me.user_id
    board.transfer_to = [
        (s.index, names[s.index]) for s in table.seats if s.user_id is not None and s.index != seat
    ]
    return board


def seat_index_of(table: Table, viewer: User | None) -> int | None:
    """The viewer's seat at the table, or None (a spectator)."""
    if viewer is None:
        return None
    return next((s.index for s in table.seats if s.user_id == viewer.pk), None)
