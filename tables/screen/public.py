"""The public part of a running table (``#table-public``): what everyone sees,
the same bytes for every page, so one render per change serves them all.

A change alters little of it: one or two seats' panels, and with every decision the bar's
countdown. So the part is put together from the pieces of the
:class:`~tables.screen.board.PublicBoard` (each panel's head, hand and river, the bar's hand
number, clock and rules, the centre and its tiles), each remembered by all that it shows
(:func:`tables.screen.memo.remembered_render`), and only those that changed are rendered. The
numbers that change with nearly every move (the countdown's end, the tiles left in the wall)
are holes in their pieces, filled in per render.
"""

from __future__ import annotations

from django.template.loader import render_to_string
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from tables.models import Room
from tables.play.table import Table
from tables.screen.board import PublicBoard, SeatPanel, public_board
from tables.screen.memo import compact, remembered, remembered_render
from tables.screen.tiles import render_tiles

__all__ = ["render_public", "seat_panel"]

CENTER_TEMPLATE = "tables/_table_center.html"
OVERLAY_TEMPLATE = "tables/_table_overlay.html"
HEAD_TEMPLATE = "tables/_seat_head.html"
HAND_TEMPLATE = "tables/_seat_hand.html"
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
    ends_at_ms = pub.ends_at_ms
    counting = {} if ends_at_ms is None else {"ends_at_ms": ends_at_ms}
    return format_html(
        '<div id="table-public" class="table-public phase-{}" data-hand="{}" data-step="{}" '
        'data-version="{}" data-phase="{}"><header class="table-bar">{}{}{}</header>{}'
        '<div class="table-grid">{}{}</div>{}</div>',
        pub.phase,
        pub.bar.hand_no,
        pub.step,
        pub.version,
        pub.phase,
        remembered_render(BAR_HAND_TEMPLATE, "b", pub.bar),
        remembered_render(CLOCK_TEMPLATE, "c", pub.clock, holes=counting),
        remembered_render(BAR_RULES_TEMPLATE, "b", pub.bar),
        _staff_notice(pub),
        mark_safe("".join(seat_panel(p) for p in pub.panels)),
        remembered_render(
            CENTER_TEMPLATE,
            "c",
            pub.center,
            holes={"wall_left": pub.wall_left, **counting},
            tiles=remembered_render(CENTER_TILES_TEMPLATE, "t", pub.center.tiles, tiles_local=True),
        ),
        _overlay(pub, table.room),
    )


def _staff_notice(pub: PublicBoard) -> SafeString:
    """The line saying what staff did and why, under the bar; nothing when there is no
    notice (the part's bytes are then as before). Once the match is over its summary
    says it instead."""
    if not pub.staff_notice or pub.finished:
        return mark_safe("")
    return format_html(
        '<p class="staff-notice" role="status" data-staff-notice>{}</p>', pub.staff_notice
    )


def _overlay(pub: PublicBoard, room: Room) -> SafeString:
    """The settlement, or the match's summary, over the table; nothing while a hand runs."""
    if not (pub.settlement or pub.finished):
        return mark_safe("")
    return compact(
        render_to_string(OVERLAY_TEMPLATE, {"pub": pub, "room": room, "tiles_local": True})
    )


def seat_panel(panel: SeatPanel) -> SafeString:
    """One seat's panel on the table (name, badges, hand, melds, discards).

    A change alters one or two parts of a panel (a discard: the hand and the river; a turn
    passing on: the heads), so each part is remembered by all that it shows, and a panel
    that changed is put together from the parts that did not."""
    return remembered(
        "seat_panel",
        repr(panel),  # a frozen dataclass of plain values: its repr is its content
        lambda: format_html(
            '<div class="seat-panel{}{}{}" data-seat="{}">{}{}'
            '<div class="river{}" role="group" aria-label="{}">{}</div></div>',
            " is-acting" if panel.acting else "",
            " is-tuoguan" if panel.tuoguan else "",
            "" if panel.connected else " is-offline",
            panel.index,
            remembered_render(HEAD_TEMPLATE, "h", panel.head),
            remembered_render(HAND_TEMPLATE, "h", panel.hand, tiles_local=True),
            " has-last" if panel.last_discard else "",
            _("Discards"),
            seat_river(panel.river, panel.hand.bao),
        ),
    )


def seat_river(tiles: tuple[str, ...], bao: str) -> SafeString:
    """A panel's discards, a row of tiles remembered by them and the 宝. The newest is
    marked by the river around them (``has-last``), not by its tile: when the mark moves to
    the next seat's discard, this seat's row stays the same and is not built again. A row
    needs no template: it is the tiles themselves (``{% tiles %}``'s own function)."""
    return remembered(
        "seat_river", (tiles, bao), lambda: render_tiles(tiles, bao=bao, small=True, local=True)
    )
