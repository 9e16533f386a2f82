"""The book's figures agree with a recomputation from the raw entries."""

from __future__ import annotations

from collections import defaultdict
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from ledger import selectors
from ledger.models import Entry
from ledger.pairs import pair_between
from ledger.stats import GANG_REASONS, WIN_REASONS
from tables.models import Hand
from tests.load.seeded_book import SeededBook, book_seed


def _raw_net(user_id: int) -> dict[object, int]:
    """Net per counterparty (a user id, or ("bot", room number, seat)), from every entry."""
    net: dict[object, int] = defaultdict(int)
    for e in Entry.objects.select_related("room"):
        if e.payee_id == user_id:
            other, seat, sign = e.payer_id, e.payer_seat, 1
        elif e.payer_id == user_id:
            other, seat, sign = e.payee_id, e.payee_seat, -1
        else:
            continue
        key = other if other is not None else ("bot", e.room.number if e.room else "", seat)
        net[key] += sign * e.points
    return dict(net)


def _keys(book: selectors.Book) -> dict[object, int]:
    out: dict[object, int] = {}
    for b in [*book.balances, *book.bots]:
        p = b.party
        key = p.user.pk if p.user is not None else ("bot", p.room_number, p.seat)
        out[key] = b.points
    return out


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_balances_and_total_match_the_raw_entries(db: None, seed: int) -> None:
    book = book_seed(hands=90, players=6, per_match=30, seed=seed)
    for player in book.players:
        mine = selectors.book_for(player)
        raw = _raw_net(player.pk)
        assert _keys(mine) == raw
        assert mine.total == sum(v for k, v in raw.items() if not isinstance(k, tuple))
        assert mine.bots_total == sum(v for k, v in raw.items() if isinstance(k, tuple))
        assert mine.total == sum(people for _day, people, _bots in mine.days)
        assert mine.bots_total == sum(bots for _day, _people, bots in mine.days)


def test_a_bot_is_its_own_counterparty_never_a_person(book: SeededBook) -> None:
    mine = selectors.book_for(book.players[0])
    bots = mine.bots
    assert not any(b.party.is_bot for b in mine.balances)
    assert [(b.party.room_number, b.party.seat) for b in bots] == [(book.bot_room.number, 3)]
    assert book.bot_room.number in bots[0].party.label


def test_balances_newest_activity_first(book: SeededBook) -> None:
    lasts = [b.last for b in selectors.book_for(book.players[0]).balances]
    assert lasts == sorted(lasts, reverse=True)


def test_period_and_room_filters(book: SeededBook) -> None:
    me = book.players[0]
    since = selectors.period_start("week")
    assert since is not None and since <= timezone.now() < since + timedelta(days=7)
    raw = sum(
        e.points if e.payee_id == me.pk else -e.points
        for e in Entry.objects.filter(created_at__gte=since)
        if me.pk in (e.payer_id, e.payee_id)
    )
    week = selectors.book_for(me, period="week")
    assert week.total + week.bots_total == raw
    room = book.matches[1].room
    in_room = sum(
        e.points if e.payee_id == me.pk else -e.points
        for e in Entry.objects.filter(room=room)
        if me.pk in (e.payer_id, e.payee_id)
    )
    in_room_book = selectors.book_for(me, room=room)
    assert in_room_book.total + in_room_book.bots_total == in_room


def test_stats_agree_with_the_hands_results(book: SeededBook) -> None:
    me = book.players[0]
    mine = selectors.book_for(me).stats
    entries = list(Entry.objects.filter(kind="hand"))
    results: dict[int | None, Any] = {h.pk: h.result for h in Hand.objects.all()}
    my_seat = {e.hand_id: e.payee_seat for e in entries if e.payee_id == me.pk}
    my_seat |= {e.hand_id: e.payer_seat for e in entries if e.payer_id == me.pk}
    won = {e.hand_id for e in entries if e.payee_id == me.pk and e.reason in WIN_REASONS}
    assert mine.wins == len(won)
    assert mine.self_draw_wins == len([h for h in won if results[h]["outcome"] == "self_draw"])
    assert mine.robbed == len([h for h in my_seat if results[h]["robbed"] == my_seat[h]])
    assert sum(mine.patterns.values()) == mine.wins
    assert mine.gang_points == sum(
        (e.points if e.payee_id == me.pk else -e.points)
        for e in entries
        if e.reason in GANG_REASONS and me.pk in (e.payer_id, e.payee_id)
    )
    # Player 0 sits in every match: every finished hand is one they played.
    assert mine.hands == 120
    assert mine.average == pytest.approx(mine.points / 120)
    per_hand: dict[int | None, int] = defaultdict(int)
    for e in entries:
        if me.pk in (e.payer_id, e.payee_id):
            per_hand[e.hand_id] += e.points if e.payee_id == me.pk else -e.points
    assert mine.biggest is not None and mine.biggest.points == max(per_hand.values())


def test_pair_lists_hands_and_settlements_with_a_running_balance(book: SeededBook) -> None:
    me, other = book.players[0], book.players[1]
    pair = pair_between(me, selectors.Counterparty(user=other))
    assert pair.total == _raw_net(me.pk).get(other.pk, 0)
    assert pair.rows[0].balance == pair.total  # newest first
    running = 0
    for row in reversed(pair.rows):
        running += row.points
        assert row.balance == running
    assert any(r.kind == "settlement" for r in pair.rows)
    hand_ids = [r.hand_id for r in pair.rows if r.hand_id is not None]
    assert len(hand_ids) == len(set(hand_ids))  # one row per hand


def test_pair_with_a_bot(book: SeededBook) -> None:
    me = book.players[0]
    party = selectors.Counterparty(room_number=book.bot_room.number, seat=3)
    pair = pair_between(me, party)
    assert pair.total == _raw_net(me.pk)[("bot", book.bot_room.number, 3)]


def test_matches_include_finished_rooms(book: SeededBook) -> None:
    rows = selectors.match_rows(book.players[0], selectors.matches_of(book.players[0]))
    assert {r.match.pk for r in rows} == {m.pk for m in book.matches}
    assert all(r.match.room.status == "finished" for r in rows)
    assert sum(r.hands for r in rows) == 120
    # The seeded settlement (10, outside any match) is in the book's totals, not a match's.
    mine = selectors.book_for(book.players[0])
    assert sum(r.points for r in rows) == mine.total + mine.bots_total - 10
