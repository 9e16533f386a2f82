"""The live table's one view model (over 400 lines as one idea: every dataclass the table's
templates and ``format_html`` read, and the two functions that fill them): the public part,
the same for everyone, and each seat's private part, built only from the engine's views.

Each board is made of frozen pieces, one per fragment of the page (:class:`TableBar`,
:class:`SeatPanel` with its :class:`SeatHead` and :class:`SeatHand`, :class:`MyHand`,
:class:`SeatControls`, …): :mod:`tables.screen.public` and :mod:`tables.screen.private` render
each piece and remember the render by it (:mod:`tables.screen.memo`), so a piece holds all that
its template reads and nothing else.

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
from engine.hand import HandState
from engine.play.hints import Hints, hints
from engine.play.preview import hu_preview
from engine.tiles import format_tile
from engine.views import SeatInfo, seat_info, view_json
from tables.models import Room, Seat
from tables.play.dissolve import VoteState, vote_state_load
from tables.play.presence import present
from tables.play.staff_notice import notice_of
from tables.play.table import Table, must_act
from tables.play.windows import WINDOW_PHASES, public_step, public_version
from tables.screen.discard_hints import discard_waits
from tables.screen.melds import MeldView, meld_label, melds_view, tile_codes
from tables.screen.rule_labels import rules_popup
from tables.screen.settlement import Settlement, settlement_of
from tables.screen.staff_notice import notice_text
from tables.screen.vote_panel import VoteView, vote_view

__all__ = [
    "PrivateBoard",
    "PublicBoard",
    "private_board",
    "private_unmoved",
    "public_board",
    "seat_name",
]


@dataclass(frozen=True)
class SeatHead:
    """A panel's head: the name, its badges and the points. Not whether the seat is to act:
    its dot is shown by the panel's ``is-acting`` (CSS), so the turn going round finds each
    head already rendered (with the flag in it, two heads in three were rendered again)."""

    name: str
    dealer: bool
    tuoguan: bool
    is_bot: bool
    connected: bool
    flown: int
    points: int


@dataclass(frozen=True)
class SeatHand:
    """A panel's hand: the concealed tiles' backs (None once the hand has ended: its tiles
    are shown face up in the settlement) and the melds."""

    hand_size: int | None
    melds: tuple[MeldView, ...]
    bao: str


@dataclass(frozen=True)
class SeatPanel:
    """One seat as everyone sees it: the panel's own flags around its head, hand and river,
    each rendered and remembered apart (:mod:`tables.screen.public`)."""

    index: int
    acting: bool
    tuoguan: bool
    connected: bool
    ready: bool
    """Shown only in the settlement's list of who is ready for the next hand."""
    head: SeatHead
    hand: SeatHand
    river: tuple[str, ...]
    last_discard: bool = False
    """The newest tile of this seat's river is the table's last discard (marked)."""


@dataclass(frozen=True)
class TableBar:
    """The bar atop the table, but for its countdown: the hand's number and the rules. It
    changes with a new hand, so its two parts are remembered by this."""

    hand_no: int
    hands_total: int | None
    seed_hash: str
    rules: str
    """The room's rules as the bar's pop-up lists them (:func:`rule_labels.rules_popup`)."""


@dataclass(frozen=True)
class TableClock:
    """The bar's countdown: whether someone is being timed. Its end, new with every
    decision, is a hole filled in per render (:func:`tables.screen.memo.remembered_render`),
    so the piece itself is rendered twice a process."""

    counting: bool


@dataclass(frozen=True)
class CenterTiles:
    """The tiles in the table's centre: the indicator, the 宝 and the burned ones; the same
    for a whole hand but for gang replacement draws."""

    indicator: str
    bao: str
    burned: tuple[str, ...]


@dataclass(frozen=True)
class TableCenter:
    """The table's centre: the dice, whom the table waits for, whether they are timed, and
    the centre's tiles (remembered apart: they change far less often). The tiles left in
    the wall and the countdown's end are holes filled in per render, so a seat's turn
    coming round again finds its centre already rendered."""

    dice: tuple[int, ...]
    waiting_names: tuple[str, ...]
    """Nobody once the hand has ended."""
    counting: bool
    tiles: CenterTiles


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
    """The table as everyone sees it: the same for every seat and every spectator. Its
    pieces (:class:`TableBar`, :class:`TableClock`, :class:`TableCenter`, each
    :class:`SeatPanel`) are what the public part's templates read, and what their renders
    are remembered by."""

    room: Room
    step: int
    version: int
    phase: str
    bao: str
    bar: TableBar
    clock: TableClock
    center: TableCenter
    wall_left: int
    panels: list[SeatPanel]
    """In seat order; the page's CSS places them around the viewer."""
    deadline: datetime | None = None
    seconds_left: int | None = None
    settlement: Settlement | None = None
    finished: bool = False
    match_totals: list[tuple[str, int]] = field(default_factory=list)
    hand_id: int | None = None
    """The ``Hand`` row shown: the settlement links to its record."""
    staff_notice: str = ""
    """What staff last did to the table and why, in the page's language ("" for nothing):
    shown to everyone until the next hand starts (:mod:`tables.play.staff_notice`)."""

    @property
    def ended(self) -> bool:
        return self.phase == "ended"

    @property
    def ends_at_ms(self) -> int | None:
        """The countdown's end as a timestamp in ms (the page counts down to it)."""
        return _ms(self.deadline)


def _ms(deadline: datetime | None) -> int | None:
    return None if deadline is None else int(deadline.timestamp() * 1000)


@dataclass(frozen=True)
class MyChoices:
    """A seat's claim window (who offers which tile, its countdown) and its buttons."""

    window_tile: str | None
    window_from: str | None
    ends_at_ms: int | None
    """Asked in a window: the seat's own countdown (the public part shows none in a window)."""
    choices: tuple[Choice, ...]
    bao: str


@dataclass(frozen=True)
class MyHand:
    """A seat's own tiles: its face-down 暗杠 and its hand, as buttons on its turn."""

    hidden_melds: tuple[MeldView, ...]
    """The seat's own 暗杠 that everyone else sees face down (the public part shows backs)."""
    my_hand: tuple[str, ...]
    drawn: str | None
    can_discard: bool
    discard_waits_json: str
    """Per tile in the hand on the seat's turn: what discarding it leaves the hand waiting
    on, in words (:mod:`tables.screen.discard_hints`), as JSON for ``data-discard-waits``;
    "" when there is nothing to show."""
    bao: str


@dataclass(frozen=True)
class MyPrompt:
    """The line under a seat's hand on its turn: how to discard (unless on 托管), and the
    place for the discard's preview."""

    can_discard: bool
    tuoguan: bool
    timed_out: bool = False
    """The clock played a tile for this seat in this hand, without 托管: its page warns."""


@dataclass(frozen=True)
class TuoguanBanner:
    """The 托管 banner over a seat's hand: why it is on, and whether it asks "还在吗？"."""

    still_there_asked: bool
    """The seat went on 托管 because its time ran out and the table waits on it again: the
    page asks "还在吗？" rather than letting the bot play on unnoticed."""
    tuoguan_reason: str
    """Why the seat is on 托管 (``Seat.TuoguanReason``)."""


@dataclass(frozen=True)
class MyHints:
    """A seat's 听牌 hints. Many changes (another seat's discard of a tile it does not
    wait on, a turn passing) change the seat's part but not these."""

    hints: HintsView | None
    bao: str


@dataclass(frozen=True)
class SeatControls:
    """A seat's buttons around its hand: 托管, leaving, 准备, ending the match, the rematch, the
    解散 vote and the owner's tools. Most moves change none of them, so their two fragments
    are remembered by this (all that their templates read) and the page's token."""

    number: str
    tuoguan: bool
    ended: bool
    """The hand is over (its settlement is on the table)."""
    finished: bool
    ready: bool
    can_end_match: bool
    """The seat owns the room and a hand has just ended: they may call the match off."""
    is_owner: bool
    """The seat's player owns the room: the page shows the owner's tools."""
    transfer_to: tuple[tuple[int, str], ...]
    """The other seats with a person in them (index, name): whom the owner may hand over to."""
    vote: VoteView


@dataclass(frozen=True)
class PrivateBoard:
    """What only one seat sees: its tiles, its choices, its hints and its buttons, as the
    pieces its part's templates read.

    Two boards are equal when they render the same part, so a seat whose board did not
    change is not rendered again: the pieces are compared, and what the part does not show
    as such is left out (the room, the step and the version: moves take the step from the
    public part; whether the table waits on the seat)."""

    room: Room = field(compare=False)
    seat: int
    step: int = field(compare=False)
    version: int = field(compare=False)
    banner: TuoguanBanner | None
    """Only while the seat is on 托管 and the hand runs."""
    choices: MyChoices
    hand: MyHand
    prompt: MyPrompt
    hints: MyHints
    controls: SeatControls
    asked: bool = field(default=False, compare=False)
    """The table waits on this seat now (its turn, or it may claim)."""


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
    ended = phase == "ended"
    if phase in WINDOW_PHASES:
        # A window looks like the discarder's (or the gang's) turn going on, from the moment
        # it opened: who is asked, who answered and even whether anyone may answer at all
        # would tell what they hold. The clock gives every window the same pause (D2).
        acting = {int(view["window"]["from"])}
        phase = "turn"
        waited_for: set[int] = set()
    else:
        acting = waited_for = set(must_act(table))
    bao = view["bao"]
    last = _last_discarder(table)
    panels = []
    for s in table.seats:
        connected = bool(s.bot) or present(s, now)
        river = tuple(view["rivers"][s.index])
        panels.append(
            SeatPanel(
                index=s.index,
                acting=s.index in acting,
                tuoguan=s.tuoguan,
                connected=connected,
                ready=s.ready,
                head=SeatHead(
                    name=seat_name(s),
                    dealer=s.index == view["dealer"],
                    tuoguan=s.tuoguan,
                    is_bot=bool(s.bot),
                    connected=connected,
                    flown=int(view["flown"][s.index]),
                    points=int(table.match.totals[s.index]),
                ),
                hand=SeatHand(
                    hand_size=None if ended else view["hand_sizes"][s.index],
                    melds=tuple(melds_view(view["melds"][s.index])),
                    bao=bao,
                ),
                river=river,
                last_discard=s.index == last and bool(river),
            )
        )
    deadline = seconds_left = None
    if room.turn_deadline is not None and waited_for:
        deadline = room.turn_deadline
        seconds_left = max(0, int((deadline - now).total_seconds() + 0.999))
    board = PublicBoard(
        room=room,
        step=step,
        version=version,
        phase=phase,
        bao=bao,
        bar=TableBar(
            hand_no=table.match.hand_no + (0 if ended else 1),
            hands_total=table.match.hands_total,
            seed_hash=table.seed_hash or "",
            rules=rules_popup(room),
        ),
        clock=TableClock(counting=deadline is not None),
        center=TableCenter(
            dice=tuple(view["dice"]),
            waiting_names=() if ended else tuple(seat_name(table.seats[i]) for i in sorted(acting)),
            counting=deadline is not None,
            tiles=CenterTiles(view["indicator"], bao, tuple(view["burned"])),
        ),
        wall_left=view["wall_left"],
        panels=panels,
        deadline=deadline,
        seconds_left=seconds_left,
        finished=table.finished,
        hand_id=table.hand_id,
        staff_notice=notice_text(notice_of(room.state)),
    )
    if view["result"] is not None:
        names = [seat_name(s) for s in table.seats]
        board.settlement = settlement_of(view["result"], names, view["melds"])
    if table.finished:
        board.match_totals = sorted(
            ((seat_name(s), int(table.match.totals[s.index])) for s in table.seats),
            key=lambda x: -x[1],
        )
    return board


def private_board(table: Table, seat: int, *, votes: VoteState | None = None) -> PrivateBoard:
    """What seat ``seat`` alone sees, from its own view. ``votes``: the 解散 vote as read
    with the table (read here when not given: not on the event loop, which must not query).

    Built from the seat's :class:`~engine.views.SeatInfo` itself rather than its JSON view:
    every change builds four of these, and the JSON view would format every river and meld
    of the table again for each."""
    assert table.hand is not None
    room = table.room
    info = seat_info(table.hand, seat)  # built once: the board and the hints share it
    me = table.seats[seat]
    names = [seat_name(s) for s in table.seats]
    ended = info.phase == "ended"
    bao = format_tile(info.bao)
    window_tile = window_from = ends_at_ms = None
    window = info.window
    if window is not None and seat in info.waiting_on:
        window_tile = None if window["tile"] is None else format_tile(window["tile"])
        window_from = names[window["from"]]
        ends_at_ms = _ms(room.turn_deadline)
    hand = [format_tile(k) for k in info.hand]
    drawn = None if info.drawn is None else format_tile(info.drawn)
    if drawn and drawn in hand:
        hand.remove(drawn)
    else:
        drawn = None
    mine = [m.to_json() for m in info.melds[seat] if m is not None]
    public_melds = table.public_info().melds[seat]
    hidden_melds = tuple(
        m for m, seen in zip(melds_view(mine), public_melds, strict=True) if seen is None
    )
    can_discard, choices = _choices([a.to_json() for a in info.legal], info)
    waits = discard_waits(info) if can_discard else {}
    asked = seat in must_act(table)
    tuoguan_reason = me.tuoguan_reason if me.tuoguan else ""
    is_owner = me.user_id is not None and room.owner_id == me.user_id
    return PrivateBoard(
        room=room,
        seat=seat,
        step=info.step,
        version=room.version,
        banner=TuoguanBanner(
            still_there_asked=tuoguan_reason == "timeout" and asked and not ended,
            tuoguan_reason=tuoguan_reason,
        )
        if me.tuoguan and not ended
        else None,
        choices=MyChoices(
            window_tile=window_tile,
            window_from=window_from,
            ends_at_ms=ends_at_ms,
            choices=tuple(choices),
            bao=bao,
        ),
        hand=MyHand(
            hidden_melds=hidden_melds,
            my_hand=tuple(hand),
            drawn=drawn,
            can_discard=can_discard,
            discard_waits_json=json.dumps(waits, ensure_ascii=False) if waits else "",
            bao=bao,
        ),
        prompt=MyPrompt(
            can_discard=can_discard,
            tuoguan=me.tuoguan,
            timed_out=me.timeouts > 0 and not me.tuoguan and not ended,
        ),
        hints=MyHints(hints=_hints_view(hints(info)), bao=bao),
        controls=SeatControls(
            number=room.number,
            tuoguan=me.tuoguan,
            ended=ended,
            finished=table.finished,
            ready=me.ready,
            can_end_match=room.owner_id == me.user_id and ended and not table.finished,
            is_owner=is_owner,
            transfer_to=tuple(
                (s.index, names[s.index])
                for s in table.seats
                if s.user_id is not None and s.index != seat
            ),
            vote=vote_view(
                room=room,
                names=names,
                my_index=seat,
                finished=table.finished,
                votes=votes or vote_state_load(room),
            ),
        ),
        asked=asked,
    )


def private_unmoved(before: HandState, after: HandState, seat: int) -> bool:
    """Whether seat ``seat``'s :func:`private_board` is the same for ``after`` as for
    ``before``, a held window and its close, with the same seats, room and votes: the close
    was a draw by another seat, which moves no tile in sight. What the board reads of the hand
    is then unchanged: the seat's tiles, every meld and river, the burned tiles, the 宝 and
    the seat's 飞宝 (its hints count what it can't see), and the seat is asked nothing either
    way (nobody is, once a window may close).

    So at most windows' close (no claim) three seats' parts are served as they were, without
    building their boards: the draw goes to one seat, the others see a wall count and a turn
    marker, which are in the public part."""
    return (
        after.phase == "turn"
        and after.turn != seat
        and after.hands[seat] == before.hands[seat]
        and after.melds == before.melds
        and after.rivers == before.rivers
        and after.flown == before.flown
        and after.indicator == before.indicator
        and after.wall.burned_tiles() == before.wall.burned_tiles()
    )


def seat_index_of(table: Table, viewer: User | None) -> int | None:
    """The viewer's seat at the table, or None (a spectator)."""
    if viewer is None:
        return None
    return next((s.index for s in table.seats if s.user_id == viewer.pk), None)
