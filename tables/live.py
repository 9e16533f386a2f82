"""The live part of a room page (``#live``): the seats while waiting, then the table.

One function builds it for both paths, the page view and the WebSocket consumer, so a page
that reloads and a page that is pushed an update show exactly the same thing. A running
table is two fragments: the public one (``tables/_table_public.html``), the same bytes for
every viewer, and the viewer's own (``tables/_table_private.html``); the page's root
``<section class="table" data-me="…">`` says whose seat sits at the bottom. Their tiles refer
to the sprite the room page inlines (``tiles_local``), so pushes carry short references.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any

from django.template.loader import render_to_string
from django.utils.html import format_html, strip_spaces_between_tags
from django.utils.safestring import SafeString, mark_safe

from accounts.models import User
from tables import selectors
from tables.board import MeldView, PrivateBoard, SeatPanel, private_board, public_board, seat_of
from tables.dissolve import VoteState, VoteView, vote_state_load, vote_view
from tables.fragments import remembered
from tables.invites import first_empty_seat, invite_qr_svg
from tables.models import Room
from tables.table import Table, load_table

LIVE_TEMPLATE = "tables/_live.html"
PUBLIC_TEMPLATE = "tables/_table_public.html"
PRIVATE_TEMPLATE = "tables/_table_private.html"
PANEL_TEMPLATE = "tables/_seat_panel.html"
HEAD_TEMPLATE = "tables/_seat_head.html"
HAND_TEMPLATE = "tables/_seat_hand.html"
RIVER_TEMPLATE = "tables/_seat_river.html"
RULES_TEMPLATE = "tables/_room_rules.html"
BAR_TEMPLATE = "tables/_table_bar.html"
BAR_HAND_TEMPLATE = "tables/_table_bar_hand.html"
BAR_RULES_TEMPLATE = "tables/_table_bar_rules.html"
CLOCK_TEMPLATE = "tables/_table_clock.html"
CENTER_TILES_TEMPLATE = "tables/_table_center_tiles.html"
CONTROLS_TEMPLATE = "tables/_my_controls.html"
MATCH_ACTIONS_TEMPLATE = "tables/_my_match_actions.html"


def render_public(table: Table) -> SafeString:
    """The table as everyone sees it: no viewer, so the same bytes for every page.

    Its parts that most changes leave alone (the seats nobody moved at, the rules, which
    stay for the whole match) are rendered once and remembered by what they show
    (:mod:`tables.fragments`)."""
    pub = public_board(table)
    ended = pub.phase == "ended"
    bar = TableBar(
        hand_no=pub.hand_no,
        hands_total=pub.hands_total,
        seed_hash=pub.seed_hash,
        rules=room_rules(table.room),
    )
    context = {
        "pub": pub,
        "room": table.room,
        "bar": render_to_string(
            BAR_TEMPLATE,
            {
                "hand": _remembered_view(BAR_HAND_TEMPLATE, "b", bar),
                "clock": _remembered_view(CLOCK_TEMPLATE, "c", TableClock(pub.ends_at_ms)),
                "rules": _remembered_view(BAR_RULES_TEMPLATE, "b", bar),
            },
        ),
        "panels": [seat_panel(p, bao=pub.bao, ended=ended) for p in pub.panels],
        "center_tiles": _remembered_view(
            CENTER_TILES_TEMPLATE, "t", CenterTiles(pub.indicator, pub.bao, tuple(pub.burned))
        ),
        "tiles_local": True,
    }
    return mark_safe(strip_spaces_between_tags(render_to_string(PUBLIC_TEMPLATE, context)))


@dataclass(frozen=True)
class TableBar:
    """The bar atop the table, but for its countdown: the hand's number and the rules. It
    changes with a new hand, so its two parts are remembered by this."""

    hand_no: int
    hands_total: int | None
    seed_hash: str
    rules: str


@dataclass(frozen=True)
class TableClock:
    """The bar's countdown: a new one with every decision the table waits for."""

    ends_at_ms: int | None
    """None: nobody is being timed."""


@dataclass(frozen=True)
class CenterTiles:
    """The tiles in the table's centre: the indicator, the 宝 and the burned ones; the same
    for a whole hand but for gang replacement draws."""

    indicator: str
    bao: str
    burned: tuple[str, ...]


def seat_panel(panel: SeatPanel, *, bao: str, ended: bool) -> SafeString:
    """One seat's panel on the table (name, badges, hand, melds, discards).

    A change alters one or two parts of a panel (a discard: the hand and the river; a turn
    passing on: the heads), so each part is remembered by all that it shows, and a panel
    that changed is put together from the parts that did not."""
    return remembered(
        "seat_panel",
        (repr(panel), bao, ended),  # a dataclass of plain values: its repr is its content
        lambda: render_to_string(
            PANEL_TEMPLATE,
            {
                "p": panel,
                "head": _remembered_view(HEAD_TEMPLATE, "h", seat_head(panel, ended=ended)),
                "hand": _remembered_view(
                    HAND_TEMPLATE, "h", seat_hand(panel, bao=bao, ended=ended)
                ),
                "river": _remembered_view(RIVER_TEMPLATE, "r", SeatRiver(tuple(panel.river), bao)),
            },
        ),
    )


@dataclass(frozen=True)
class SeatHead:
    """A panel's head: the name, its badges and the points."""

    name: str
    acting: bool
    """Shown as the seat to act: never once the hand has ended."""
    dealer: bool
    tuoguan: bool
    is_bot: bool
    connected: bool
    flown: int
    points: int


def seat_head(panel: SeatPanel, *, ended: bool) -> SeatHead:
    return SeatHead(
        name=panel.name,
        acting=panel.acting and not ended,
        dealer=panel.dealer,
        tuoguan=panel.tuoguan,
        is_bot=panel.is_bot,
        connected=panel.connected,
        flown=panel.flown,
        points=panel.points,
    )


@dataclass(frozen=True)
class SeatHand:
    """A panel's hand: the concealed tiles' backs (None once the hand has ended: its tiles
    are shown face up in the settlement) and the melds."""

    hand_size: int | None
    melds: tuple[MeldView, ...]
    bao: str


def seat_hand(panel: SeatPanel, *, bao: str, ended: bool) -> SeatHand:
    return SeatHand(None if ended else panel.hand_size, tuple(panel.melds), bao)


@dataclass(frozen=True)
class SeatRiver:
    """A panel's discards. The newest is marked by the river around them (``has-last``),
    not by its tile: when the mark moves to the next seat's discard, this seat's row of
    tiles stays the same and is not rendered again."""

    tiles: tuple[str, ...]
    bao: str


def _remembered_view(template: str, name: str, view: object) -> SafeString:
    """``template`` rendered with ``view`` as ``name``, remembered by ``view``: a frozen
    dataclass of plain values holding all that the template reads, so its repr is its
    content."""
    return remembered(
        template,
        repr(view),
        lambda: render_to_string(template, {name: view, "tiles_local": True}),
    )


def room_rules(room: Room) -> SafeString:
    """The room's rules as the table's pop-up lists them: the same for a whole match."""
    key = (json.dumps(room.rules, sort_keys=True), room.match_length, room.turn_seconds)
    return remembered(
        "room_rules",
        key,
        lambda: render_to_string(
            RULES_TEMPLATE, {"room": room, "summary": selectors.rules_summary(room.rules)}
        ),
    )


@dataclass(frozen=True)
class PrivateView:
    """Everything a seat's own part is rendered from: equal views render the same bytes."""

    mine: PrivateBoard
    vote: VoteView


def private_view(table: Table, seat: int, *, votes: VoteState | None = None) -> PrivateView:
    """What seat ``seat`` sees of its own part. ``votes``: the 解散 vote as read with the
    table (read here when not given: not on the event loop, which must not query)."""
    mine = private_board(table, seat)
    vote = vote_view(
        room=table.room,
        names=mine.names,
        my_index=seat,
        finished=mine.finished,
        votes=votes or vote_state_load(table.room),
    )
    return PrivateView(mine=mine, vote=vote)


@dataclass(frozen=True)
class SeatControls:
    """A seat's buttons around its hand: 托管, leaving, 准备, ending the match, the rematch, the
    解散 vote and the owner's tools. Most moves change none of them, so their two fragments
    are remembered by this (all that their templates read) and the page's token."""

    number: str
    tuoguan: bool
    ended: bool
    finished: bool
    ready: bool
    can_end_match: bool
    is_owner: bool
    transfer_to: tuple[tuple[int, str], ...]
    vote: VoteView


def seat_controls(view: PrivateView) -> SeatControls:
    mine = view.mine
    return SeatControls(
        number=mine.room.number,
        tuoguan=mine.tuoguan,
        ended=mine.ended,
        finished=mine.finished,
        ready=mine.ready,
        can_end_match=mine.can_end_match,
        is_owner=mine.is_owner,
        transfer_to=tuple(mine.transfer_to),
        vote=view.vote,
    )


def render_private_view(view: PrivateView | None, *, csrf_token: str) -> SafeString:
    """A seat's own part from its view; ``None`` (a spectator): the empty box."""
    context: dict[str, Any] = {
        "mine": None if view is None else view.mine,
        "csrf_token": csrf_token,
        "tiles_local": True,
    }
    if view is not None:
        controls = seat_controls(view)
        key = (repr(controls), csrf_token)
        parts = {"c": controls, "csrf_token": csrf_token}
        context["controls"] = remembered(
            "my_controls", key, lambda: render_to_string(CONTROLS_TEMPLATE, parts)
        )
        context["match_actions"] = remembered(
            "my_match_actions", key, lambda: render_to_string(MATCH_ACTIONS_TEMPLATE, parts)
        )
    return mark_safe(strip_spaces_between_tags(render_to_string(PRIVATE_TEMPLATE, context)))


def render_private(
    table: Table, seat: int | None, *, csrf_token: str, votes: VoteState | None = None
) -> SafeString:
    """Seat ``seat``'s own part (an empty box for a spectator)."""
    view = None if seat is None else private_view(table, seat, votes=votes)
    return render_private_view(view, csrf_token=csrf_token)


def clock_tag() -> SafeString:
    """The server's time (ms), sent with the table: the page's countdown (``data-ends-at``,
    absolute) then needs no synchronised clock on the phone."""
    return mark_safe(f'<i id="table-clock" hidden data-now="{int(time.time() * 1000)}"></i>')


STEP_VALS = 'js:{step: Number(document.getElementById("table-public").dataset.step)}'
"""Every move a page sends carries the step of the public part it shows (htmx evaluates this
``hx-vals`` on the root at send time), so a seat's own part need not change with every step
and is pushed only when its contents change."""


def table_root(seat: int | None, public: str, private: str) -> SafeString:
    """The table's root: whose seat sits at the bottom, then both parts and the server's time."""
    return format_html(
        '<section class="table" data-me="{}" hx-vals=\'{}\'>{}{}{}</section>',
        "" if seat is None else seat,
        STEP_VALS,
        mark_safe(public),
        mark_safe(private),
        clock_tag(),
    )


def live_context(
    room: Room, user: User | None, *, invite_url: str, csrf_token: str = ""
) -> dict[str, Any]:
    """Everything ``tables/_live.html`` needs for ``user`` (None: not logged in)."""
    seats = selectors.room_with_seats(room)
    my_seat = next((s for s in seats if user is not None and s.user_id == user.pk), None)
    is_owner = user is not None and room.owner_id == user.pk
    context: dict[str, Any] = {
        "room": room,
        "seats": seats,
        "my_seat": my_seat,
        "is_owner": is_owner,
        "waiting": room.status == Room.Status.WAITING,
        "summary": selectors.rules_summary(room.rules),
        "invite_url": invite_url,
        "all_filled": all(not s.is_empty for s in seats),
        "all_ready": all(s.ready for s in seats if not s.is_empty),
        "table": None,
        "first_empty": first_empty_seat(seats),
    }
    if context["waiting"]:
        context["invite_qr"] = invite_qr_svg(invite_url)
    table = load_table(room)
    if table is not None and table.hand is not None:
        seat = seat_of(table, user)
        context["table"] = table_root(
            seat, render_public(table), render_private(table, seat, csrf_token=csrf_token)
        )
    return context


def render_live(
    number: str, user: User | None, *, invite_url: str, csrf_token: str
) -> tuple[str, Room | None]:
    """The ``#live`` fragment for a push (swapped out-of-band by htmx), and the room read."""
    room = selectors.room_by_number(number)
    if room is None:
        return "", None
    context = live_context(room, user, invite_url=invite_url, csrf_token=csrf_token)
    context.update({"csrf_token": csrf_token, "user": user, "oob": True})
    return render_to_string(LIVE_TEMPLATE, context), room
