"""A pair's history a page at a time: every row once, newest first, the running balance
right across pages, a hand's several payments one row."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.utils import timezone

from ledger import services
from ledger.pairs import pair_between
from ledger.selectors import Counterparty, period_start


def test_pages_carry_the_running_balance(user: Any, bob: Any, staff: Any) -> None:
    # Oldest first: alice owes bob 5, bob owes alice 2, 3, 4 and 1 more: alice is owed 5.
    t0 = timezone.now() - timedelta(hours=1)
    steps = [(user, bob, 5), (bob, user, 2), (bob, user, 3), (bob, user, 4), (bob, user, 1)]
    for k, (payer, payee, n) in enumerate(steps):
        services.correction_create(
            staff=staff,
            payer=payer,
            payee=payee,
            points=n,
            note=f"c{k}",
            now=t0 + timedelta(minutes=k),
        )
    party = Counterparty(user=bob)
    first = pair_between(user, party, per_page=2)
    assert first.total == 5
    assert [(r.points, r.balance) for r in first.rows] == [(1, 5), (4, 4)]
    second = pair_between(user, party, before=first.older, per_page=2)
    assert [(r.points, r.balance) for r in second.rows] == [(3, 0), (2, -3)]
    third = pair_between(user, party, before=second.older, per_page=2)
    assert [(r.points, r.balance) for r in third.rows] == [(-5, -5)] and third.older == ""
    # bob's side is the mirror image.
    assert [(r.points, r.balance) for r in pair_between(bob, Counterparty(user=user)).rows] == [
        (-1, -5),
        (-4, -4),
        (-3, 0),
        (-2, 3),
        (5, 5),
    ]


def test_a_bad_cursor_is_the_first_page(user: Any, bob: Any, staff: Any) -> None:
    services.correction_create(staff=staff, payer=bob, payee=user, points=3, note="x")
    for cursor in ("nonsense", "2026-01-01~x", "2026-01-01T00:00:00~5"):
        page = pair_between(user, Counterparty(user=bob), before=cursor)
        assert [(r.points, r.balance) for r in page.rows] == [(3, 3)]


def test_since_the_last_settle_up(user: Any, bob: Any, staff: Any) -> None:
    # bob owed alice 10 and paid it; then he lost 4 more to her.
    t0 = timezone.now() - timedelta(hours=1)
    services.correction_create(staff=staff, payer=bob, payee=user, points=10, note="a", now=t0)
    claim = services.settlement_claim_create(
        recorded_by=bob, payer=bob, payee=user, points=10, now=t0 + timedelta(minutes=1)
    )
    services.settlement_claim_confirm(claim_id=claim.pk, user=user, now=t0 + timedelta(minutes=2))
    services.correction_create(
        staff=staff, payer=bob, payee=user, points=4, note="b", now=t0 + timedelta(minutes=3)
    )
    since = period_start("settled", user=user, other=bob)
    assert since is not None
    page = pair_between(user, Counterparty(user=bob), since=since)
    assert page.total == 4 and [(r.points, r.balance) for r in page.rows] == [(4, 4)]
    whole = pair_between(user, Counterparty(user=bob))
    assert whole.total == 4
    assert [(r.kind, r.points, r.balance) for r in whole.rows] == [
        ("correction", 4, 4),
        ("settlement", -10, 0),
        ("correction", 10, 10),
    ]
