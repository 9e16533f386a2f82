"""tables.screen.private: a seat's own part, its buttons and its remembered pieces."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from tables.play.table import load_table
from tables.screen import memo
from tables.screen.board import MyHand, private_board
from tables.screen.melds import MeldView
from tables.screen.private import my_hand_html, render_private_board
from tables.screen.vote_panel import VoteView
from tests.tables.factories import start_with_bots, tables_until_hand_ends

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


def test_remembered_pieces_render_what_a_fresh_render_would_over_a_whole_hand(user: Any) -> None:
    """A seat's window and buttons, hand and hints are remembered by frozen views of what
    they show: at every change of a whole hand, for every seat, the kept pieces make what a
    render from nothing makes."""
    memo.forget()
    changes = 0
    for table in tables_until_hand_ends(
        start_with_bots(user, tuoguan=True, hands=1, seed="private-remembered")
    ):
        boards = [private_board(table, seat) for seat in range(4)]
        kept = [render_private_board(b, csrf_token="t") for b in boards]
        memo.forget()
        assert kept == [render_private_board(b, csrf_token="t") for b in boards], (
            f"change {changes}"
        )
        changes += 1
    assert changes > 40


def test_a_seats_controls_follow_its_vote_and_its_page_token(user: Any) -> None:
    """The buttons around a seat's hand are remembered by what they show: another 解散 vote
    or another page's CSRF token renders them anew."""
    room = start_with_bots(user, seed="live-controls")
    table = load_table(room)
    assert table is not None
    board = private_board(table, 0)
    assert board.controls.vote.can_propose and not board.controls.vote.running
    first = render_private_board(board, csrf_token="a" * 32)
    assert 'value="' + "a" * 32 + '"' in first and 'data-action="dissolve-propose"' in first
    other = render_private_board(board, csrf_token="b" * 32)
    assert 'value="' + "b" * 32 + '"' in other and "a" * 32 not in other
    running = VoteView(proposer="bob", seconds_left=42, running=True, can_answer=True)
    voting = render_private_board(
        replace(board, controls=replace(board.controls, vote=running)), csrf_token="a" * 32
    )
    assert 'data-dissolve="running"' in voting and "bob" in voting and 'data-ends-in="42"' in voting
    assert 'data-action="dissolve-propose"' not in voting


def _hand(**changes: Any) -> MyHand:
    view = MyHand(
        hidden_melds=(),
        my_hand=("1m", "2m", "5z"),
        drawn="9s",
        can_discard=True,
        discard_waits_json="",
        bao="5z",
    )
    return replace(view, **changes)


def test_a_hand_on_its_turn_is_buttons_the_drawn_tile_last_the_bao_glowing() -> None:
    html = my_hand_html(_hand())
    assert html.startswith('<div class="my-row"><div id="my-hand" class="tile-row tile-hand ')
    assert "can-discard" in html and """hx-vals='{"action": "discard"}'""" in html
    assert html.count("<button") == 4 and html.count(" ws-send ") == 4
    tiles = [t.split('"')[0] for t in html.split('data-tile="')[1:]]
    assert tiles == ["1m", "2m", "5z", "9s"]
    last = html[html.rindex("<button") :]
    assert "tile--drawn" in last and 'value="9s"' in last
    assert html.count("tile--bao") == 1 and "tile--bao" in html.split('data-tile="5z"')[0][-200:]
    assert ">\n" not in html and "> <" not in html  # compact, as the part it is put in


def test_a_hand_off_its_turn_shows_tiles_not_buttons() -> None:
    html = my_hand_html(_hand(can_discard=False, drawn=None))
    assert "can-discard" not in html and "<button" not in html and "ws-send" not in html
    assert html.count('data-tile="') == 3 and "tile--drawn" not in html


def test_a_hand_shows_its_angang_and_escapes_what_it_carries() -> None:
    kong = MeldView(kind="angang", label='暗杠 "<b>"', tiles=["3p"] * 4)
    html = my_hand_html(_hand(hidden_melds=(kong,), discard_waits_json='{"1m": ["<&>"]}'))
    assert '<div class="melds my-melds"><span class="meld meld-angang" title="暗杠 &quot;' in html
    assert html.count('data-tile="3p"') == 4 and "tile--small" in html
    assert 'data-discard-waits="{&quot;1m&quot;: [&quot;&lt;&amp;&gt;&quot;]}"' in html
    assert "<b>" not in html
    assert "my-melds" not in my_hand_html(_hand())
