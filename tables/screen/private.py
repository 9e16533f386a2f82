"""A seat's own part of a running table (``#table-private``): its hand, its
claim window and buttons, its 听牌 hints, its controls; an empty box for a spectator.

It is rendered per seat (and per page token, for its forms), and only when the seat's
:class:`PrivateView` changed (:mod:`tables.socket.pushes`). Within it, the parts a change often
leaves alone (the window and its buttons, the hand, the hints, the controls) are each
remembered by a frozen view of all that their templates read.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.template.loader import render_to_string
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from tables.play.dissolve import VoteState, vote_state_load
from tables.play.table import Table
from tables.screen.board import Choice, HintsView, PrivateBoard, private_board
from tables.screen.melds import MeldView
from tables.screen.memo import compact, remembered, remembered_render
from tables.screen.tiles import is_bao, render_tile, render_tiles
from tables.screen.vote_panel import VoteView, vote_view

__all__ = [
    "MyHand",
    "PrivateView",
    "SeatControls",
    "my_hand_html",
    "private_view",
    "render_private",
    "render_private_view",
    "seat_controls",
]

BANNER_TEMPLATE = "tables/_tuoguan_banner.html"
MY_PROMPT_TEMPLATE = "tables/_my_prompt.html"
CONTROLS_TEMPLATE = "tables/_my_controls.html"
MATCH_ACTIONS_TEMPLATE = "tables/_my_match_actions.html"
MY_CHOICES_TEMPLATE = "tables/_my_choices.html"
MY_HINTS_TEMPLATE = "tables/_my_hints.html"


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


@dataclass(frozen=True)
class MyChoices:
    """A seat's claim window (who offers which tile, its countdown) and its buttons."""

    window_tile: str | None
    window_from: str | None
    ends_at_ms: int | None
    choices: tuple[Choice, ...]
    bao: str


@dataclass(frozen=True)
class MyHand:
    """A seat's own tiles: its face-down 暗杠 and its hand, as buttons on its turn."""

    hidden_melds: tuple[MeldView, ...]
    my_hand: tuple[str, ...]
    drawn: str | None
    can_discard: bool
    discard_waits_json: str
    """What each discard would leave the hand waiting on ("" when nothing to show)."""
    bao: str


def my_hand_html(view: MyHand) -> SafeString:
    """A seat's own tiles: its 暗杠 and its hand, the drawn tile last, as ``ws-send`` buttons
    on its turn. Built in Python, not by a template, like a panel's river: the hand changes
    with nearly every move of its seat, and the template around its tiles cost more than the
    tiles themselves."""
    melds = format_html_join(
        "",
        '<span class="meld meld-{}" title="{}">{}</span>',
        (
            (m.kind, m.label, render_tiles(m.tiles, bao=view.bao, small=True, local=True))
            for m in view.hidden_melds
        ),
    )
    on_turn = view.can_discard
    return format_html(
        '<div class="my-row">{}<div id="my-hand" class="tile-row tile-hand{}" role="group" '
        'aria-label="{}" hx-vals=\'{{"action": "discard"}}\'{}>{}{}</div></div>',
        format_html('<div class="melds my-melds">{}</div>', melds) if melds else "",
        " can-discard" if on_turn else "",
        _("Your hand"),
        format_html(' data-discard-waits="{}"', view.discard_waits_json)
        if view.discard_waits_json
        else "",
        render_tiles(view.my_hand, bao=view.bao, button=on_turn, ws_send=on_turn, local=True),
        render_tile(
            view.drawn,
            bao=is_bao(view.drawn, view.bao),
            drawn=True,
            button=on_turn,
            ws_send=on_turn,
            local=True,
        )
        if view.drawn
        else "",
    )


@dataclass(frozen=True)
class MyPrompt:
    """The line under a seat's hand on its turn: how to discard (unless on 托管), and the
    place for the discard's preview."""

    can_discard: bool
    tuoguan: bool
    timed_out: bool = False


@dataclass(frozen=True)
class TuoguanBanner:
    """The 托管 banner over a seat's hand: why it is on, and whether it asks "还在吗？"."""

    still_there_asked: bool
    tuoguan_reason: str


@dataclass(frozen=True)
class MyHints:
    """A seat's 听牌 hints. Many changes (another seat's discard of a tile it does not
    wait on, a turn passing) change the seat's part but not these."""

    hints: HintsView | None
    bao: str


def render_private_view(view: PrivateView | None, *, csrf_token: str) -> SafeString:
    """A seat's own part from its view; ``None`` (a spectator): the empty box.

    Its pieces are remembered by what they show; the few tags that hold them together are
    joined here, as for the public part (:func:`tables.screen.public.render_public`)."""
    if view is None:
        return mark_safe('<div id="table-private" class="table-private"></div>')
    mine = view.mine
    controls = seat_controls(view)
    key = (repr(controls), csrf_token)
    parts = {"c": controls, "csrf_token": csrf_token}
    banner = ""
    if mine.tuoguan and not mine.ended:
        banner = remembered_render(
            BANNER_TEMPLATE,
            "mine",
            TuoguanBanner(mine.still_there_asked, mine.tuoguan_reason),
        )
    return format_html(
        '<div id="table-private" class="table-private"><div class="my-area">{}{}{}'
        '<div class="my-line">{}{}{}</div></div>{}</div>',
        banner,
        remembered_render(
            MY_CHOICES_TEMPLATE,
            "view",
            MyChoices(
                window_tile=mine.window_tile,
                window_from=mine.window_from,
                ends_at_ms=mine.ends_at_ms,
                choices=tuple(mine.choices),
                bao=mine.bao,
            ),
            tiles_local=True,
        ),
        _my_hand(mine),
        remembered_render(
            MY_PROMPT_TEMPLATE, "view", MyPrompt(mine.can_discard, mine.tuoguan, mine.timed_out)
        ),
        remembered_render(
            MY_HINTS_TEMPLATE, "view", MyHints(hints=mine.hints, bao=mine.bao), tiles_local=True
        ),
        remembered("my_controls", key, lambda: compact(render_to_string(CONTROLS_TEMPLATE, parts))),
        remembered(
            "my_match_actions",
            key,
            lambda: compact(render_to_string(MATCH_ACTIONS_TEMPLATE, parts)),
        ),
    )


def _my_hand(mine: PrivateBoard) -> SafeString:
    view = MyHand(
        hidden_melds=tuple(mine.hidden_melds),
        my_hand=tuple(mine.my_hand),
        drawn=mine.drawn,
        can_discard=mine.can_discard,
        discard_waits_json=mine.discard_waits_json if mine.discard_waits else "",
        bao=mine.bao,
    )
    return remembered("my_hand", repr(view), lambda: my_hand_html(view))


def render_private(
    table: Table, seat: int | None, *, csrf_token: str, votes: VoteState | None = None
) -> SafeString:
    """Seat ``seat``'s own part (an empty box for a spectator)."""
    view = None if seat is None else private_view(table, seat, votes=votes)
    return render_private_view(view, csrf_token=csrf_token)
