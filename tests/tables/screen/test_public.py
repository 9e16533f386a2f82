"""tables.screen.public: the table as everyone sees it, put together from remembered parts."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from tables.play.table import load_table
from tables.screen import memo
from tables.screen.public import render_public
from tests.tables.factories import start_with_bots, tables_until_hand_ends

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]

ACTING = re.compile(r'class="seat-panel is-acting[^"]*" data-seat="(\d)"')
HEAD = re.compile(r'<div class="seat-head">.*?</div>', re.S)


def test_remembered_parts_render_what_a_fresh_render_would_over_a_whole_hand(user: Any) -> None:
    """The public part's pieces are remembered by frozen views of what they show (the
    panels' heads, hands and rivers, the bar's parts, the centre's tiles): if a view left
    out something its template reads, a later change would be served a stale piece. At
    every change of a whole hand, the kept pieces make what a render from nothing makes."""
    memo.forget()
    changes = 0
    for table in tables_until_hand_ends(
        start_with_bots(user, tuoguan=True, hands=1, seed="public-remembered")
    ):
        kept = render_public(table)
        memo.forget()
        assert kept == render_public(table), f"change {changes}"
        changes += 1
    assert changes > 40


def test_the_table_bar_follows_the_countdown(user: Any) -> None:
    room = start_with_bots(user, seed="live-bar")
    table = load_table(room)
    assert table is not None and table.hand is not None
    table.room.turn_deadline = timezone.now() + timedelta(seconds=20)
    counting = render_public(table)
    table.room.turn_deadline = None
    idle = render_public(table)
    bar = 'class="bar-item clock-pill'
    assert bar + ' countdown"' in counting and "data-ends-at" in counting.split("</header>")[0]
    assert bar + ' is-idle"' in idle and "data-ends-at" not in idle.split("</header>")[0]


def test_a_seat_head_stays_the_same_bytes_as_the_turn_goes_round(user: Any) -> None:
    """Whose turn it is shows on the panel (``is-acting``, which shows the head's dot), not
    in its head, so a head is rendered again only when its points or badges change. Heads
    that held the turn came in two versions a seat, and at 200 tables a store kept too few
    of them: two heads in three were rendered again."""
    memo.forget()
    turns = heads_changed = 0
    acting_before: set[str] = set()
    heads_before: list[str] = []
    for table in tables_until_hand_ends(
        start_with_bots(user, tuoguan=True, hands=1, seed="public-heads")
    ):
        html = render_public(table)
        acting = set(ACTING.findall(html))
        heads = HEAD.findall(html)
        assert len(heads) == 4
        if table.hand is not None and table.hand.phase != "ended":
            assert all('class="acting-dot"' in head for head in heads)  # shown by CSS
        if heads_before:
            turns += acting != acting_before
            heads_changed += sum(a != b for a, b in zip(heads, heads_before, strict=True))
        acting_before, heads_before = acting, heads
    assert turns > 30
    assert heads_changed <= 8  # a badge (飞宝, 托管) or the points at the hand's end
