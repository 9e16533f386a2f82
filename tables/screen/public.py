"""The public part of a running table (``#table-public``): what everyone sees,
the same bytes for every page, so one render per change serves them all.

A change alters little of it: one or two seats' panels, and with every decision the bar's
countdown. So the part is put together from smaller ones (each panel's head, hand and
river, the bar's hand number, clock and rules, the centre and its tiles), each remembered
by a frozen view of all its template reads (:func:`tables.screen.memo.remembered_render`),
and only those whose view changed are rendered. The numbers that change with nearly every
move (the countdown's end, the tiles left in the wall) are holes in their pieces, filled
in per render.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from django.template.loader import render_to_string
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from tables.models import Room
from tables.play.table import Table
from tables.screen import rule_labels
from tables.screen.board import PublicBoard, SeatPanel, public_board
from tables.screen.melds import MeldView
from tables.screen.memo import compact, remembered, remembered_render
from tables.screen.tiles import render_tiles

__all__ = ["render_public", "room_rules", "seat_panel"]

CENTER_TEMPLATE = "tables/_table_center.html"
OVERLAY_TEMPLATE = "tables/_table_overlay.html"
HEAD_TEMPLATE = "tables/_seat_head.html"
HAND_TEMPLATE = "tables/_seat_hand.html"
RULES_TEMPLATE = "tables/_room_rules.html"
BAR_HAND_TEMPLATE = "tables/_table_bar_hand.html"
BAR_RULES_TEMPLATE = "tables/_table_bar_rules.html"
CLOCK_TEMPLATE = "tables/_table_clock.html"
CENTER_TILES_TEMPLATE = "tables/_table_center_tiles.html"


def render_public(table: Table) -> SafeString:
    """The table as everyone sees it: no viewer, so the same bytes for every page.

    Its parts that most changes leave alone (the seats nobody moved at, the rules, which
    stay for the whole match) are rendered once and remembered by what they show
    (:mod:`tables.screen.memo`). What holds them together (this root, the bar, each panel)
    is a few tags around them, put together here: a template render costs more than the
    tags themselves, and this runs for every change."""
    pub = public_board(table)
    ended = pub.phase == "ended"
    bar = TableBar(
        hand_no=pub.hand_no,
        hands_total=pub.hands_total,
        seed_hash=pub.seed_hash,
        rules=room_rules(table.room),
    )
    ends_at_ms = pub.ends_at_ms
    counting = {} if ends_at_ms is None else {"ends_at_ms": ends_at_ms}
    center = TableCenter(
        dice=tuple(pub.dice),
        waiting_names=() if ended else tuple(pub.waiting_names),
        counting=ends_at_ms is not None,
        tiles=CenterTiles(pub.indicator, pub.bao, tuple(pub.burned)),
    )
    return format_html(
        '<div id="table-public" class="table-public phase-{}" data-hand="{}" data-step="{}" '
        'data-version="{}" data-phase="{}"><header class="table-bar">{}{}{}</header>'
        '<div class="table-grid">{}{}</div>{}</div>',
        pub.phase,
        pub.hand_no,
        pub.step,
        pub.version,
        pub.phase,
        remembered_render(BAR_HAND_TEMPLATE, "b", bar),
        remembered_render(CLOCK_TEMPLATE, "c", TableClock(ends_at_ms is not None), holes=counting),
        remembered_render(BAR_RULES_TEMPLATE, "b", bar),
        mark_safe("".join(seat_panel(p, bao=pub.bao, ended=ended) for p in pub.panels)),
        remembered_render(
            CENTER_TEMPLATE,
            "c",
            center,
            holes={"wall_left": pub.wall_left, **counting},
            tiles=remembered_render(CENTER_TILES_TEMPLATE, "t", center.tiles, tiles_local=True),
        ),
        _overlay(pub, table.room),
    )


def _overlay(pub: PublicBoard, room: Room) -> SafeString:
    """The settlement, or the match's summary, over the table; nothing while a hand runs."""
    if not (pub.settlement or pub.finished):
        return mark_safe("")
    return compact(
        render_to_string(OVERLAY_TEMPLATE, {"pub": pub, "room": room, "tiles_local": True})
    )


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


def seat_panel(panel: SeatPanel, *, bao: str, ended: bool) -> SafeString:
    """One seat's panel on the table (name, badges, hand, melds, discards).

    A change alters one or two parts of a panel (a discard: the hand and the river; a turn
    passing on: the heads), so each part is remembered by all that it shows, and a panel
    that changed is put together from the parts that did not."""
    return remembered(
        "seat_panel",
        (repr(panel), bao, ended),  # a dataclass of plain values: its repr is its content
        lambda: format_html(
            '<div class="seat-panel{}{}{}" data-seat="{}">{}{}'
            '<div class="river{}" role="group" aria-label="{}">{}</div></div>',
            " is-acting" if panel.acting else "",
            " is-tuoguan" if panel.tuoguan else "",
            "" if panel.connected else " is-offline",
            panel.index,
            remembered_render(HEAD_TEMPLATE, "h", seat_head(panel)),
            remembered_render(
                HAND_TEMPLATE, "h", seat_hand(panel, bao=bao, ended=ended), tiles_local=True
            ),
            " has-last" if panel.last_discard else "",
            _("Discards"),
            seat_river(tuple(panel.river), bao),
        ),
    )


@dataclass(frozen=True)
class SeatHead:
    """A panel's head: the name, its badges and the points. Not whether the seat is to act:
    its dot is shown by the panel's ``is-acting`` (CSS), so the turn going round finds each
    head already rendered. With the flag in it, 200 tables made 1,600 heads, more than a
    store keeps (:data:`tables.screen.memo.MAX_KEPT`), and two heads in three were rendered
    again."""

    name: str
    dealer: bool
    tuoguan: bool
    is_bot: bool
    connected: bool
    flown: int
    points: int


def seat_head(panel: SeatPanel) -> SeatHead:
    return SeatHead(
        name=panel.name,
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


def seat_river(tiles: tuple[str, ...], bao: str) -> SafeString:
    """A panel's discards, a row of tiles remembered by them and the 宝. The newest is
    marked by the river around them (``has-last``), not by its tile: when the mark moves to
    the next seat's discard, this seat's row stays the same and is not built again. A row
    needs no template: it is the tiles themselves (``{% tiles %}``'s own function)."""
    return remembered(
        "seat_river", (tiles, bao), lambda: render_tiles(tiles, bao=bao, small=True, local=True)
    )


def room_rules(room: Room) -> SafeString:
    """The room's rules as the table's pop-up lists them: the same for a whole match."""
    key = (json.dumps(room.rules, sort_keys=True), room.match_length, room.turn_seconds)
    return remembered(
        "room_rules",
        key,
        lambda: compact(
            render_to_string(
                RULES_TEMPLATE, {"room": room, "summary": rule_labels.rules_summary(room.rules)}
            )
        ),
    )
