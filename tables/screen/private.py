"""A seat's own part of a running table (``#table-private``): its hand, its
claim window and buttons, its 听牌 hints, its controls; an empty box for a spectator.

It is rendered per seat (and per page token, for its forms), and only when the seat's
:class:`~tables.screen.board.PrivateBoard` changed (:mod:`tables.socket.pushes`). Within it,
the board's pieces (the window and its buttons, the hand, the hints, the controls) are each
remembered by all that their templates read.
"""

from __future__ import annotations

from django.template.loader import render_to_string
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from tables.play.dissolve import VoteState
from tables.play.table import Table
from tables.screen.board import MyHand, PrivateBoard, private_board
from tables.screen.memo import compact, remembered, remembered_render
from tables.screen.tiles import is_bao, render_tile, render_tiles

__all__ = [
    "my_hand_html",
    "render_private",
    "render_private_board",
]

BANNER_TEMPLATE = "tables/_tuoguan_banner.html"
MY_PROMPT_TEMPLATE = "tables/_my_prompt.html"
CONTROLS_TEMPLATE = "tables/_my_controls.html"
MATCH_ACTIONS_TEMPLATE = "tables/_my_match_actions.html"
MY_CHOICES_TEMPLATE = "tables/_my_choices.html"
MY_HINTS_TEMPLATE = "tables/_my_hints.html"


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


def render_private_board(board: PrivateBoard | None, *, csrf_token: str) -> SafeString:
    """A seat's own part from its board; ``None`` (a spectator): the empty box.

    Its pieces are remembered by what they show; the few tags that hold them together are
    joined here, as for the public part (:func:`tables.screen.public.render_public`)."""
    if board is None:
        return mark_safe('<div id="table-private" class="table-private"></div>')
    controls = board.controls
    key = (repr(controls), csrf_token)
    parts = {"c": controls, "csrf_token": csrf_token}
    banner = ""
    if board.banner is not None:
        banner = remembered_render(BANNER_TEMPLATE, "mine", board.banner)
    return format_html(
        '<div id="table-private" class="table-private"><div class="my-area">{}{}{}'
        '<div class="my-line">{}{}{}</div></div>{}</div>',
        banner,
        remembered_render(MY_CHOICES_TEMPLATE, "view", board.choices, tiles_local=True),
        remembered("my_hand", repr(board.hand), lambda: my_hand_html(board.hand)),
        remembered_render(MY_PROMPT_TEMPLATE, "view", board.prompt),
        remembered_render(MY_HINTS_TEMPLATE, "view", board.hints, tiles_local=True),
        remembered("my_controls", key, lambda: compact(render_to_string(CONTROLS_TEMPLATE, parts))),
        remembered(
            "my_match_actions",
            key,
            lambda: compact(render_to_string(MATCH_ACTIONS_TEMPLATE, parts)),
        ),
    )


def render_private(
    table: Table, seat: int | None, *, csrf_token: str, votes: VoteState | None = None
) -> SafeString:
    """Seat ``seat``'s own part (an empty box for a spectator)."""
    board = None if seat is None else private_board(table, seat, votes=votes)
    return render_private_board(board, csrf_token=csrf_token)
