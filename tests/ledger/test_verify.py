"""``manage.py ledger_verify``: the running totals recomputed from the raw entries agree after
real bot-played matches, corrections and settlements, and any drift makes it exit 1."""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from ledger import services
from ledger.models import DayTally, Entry, PairBalance


def verify() -> str:
    out = io.StringIO()
    call_command("ledger_verify", stdout=out, stderr=out)
    return out.getvalue()


@pytest.fixture
def busy_book(user: Any, bob: Any, staff: Any, play: Any) -> None:
    """Two bot-played matches with alice on 托管, a correction and a confirmed settlement."""
    play(user, hands=2, seed="verify-1")
    play(user, hands=1, seed="verify-2")
    services.correction_create(staff=staff, payer=user, payee=bob, points=5, note="mis-scored")
    claim = services.settlement_claim_create(recorded_by=bob, payer=user, payee=bob, points=5)
    services.settlement_claim_confirm(claim_id=claim.pk, user=user)


def test_the_totals_agree_after_matches_corrections_and_settlements(
    busy_book: None, user: Any, bob: Any
) -> None:
    assert verify().startswith("ok")
    # alice owed bob 5 and paid it: their pair reads 0 both ways.
    pair = dict(PairBalance.objects.filter(other__isnull=False).values_list("user_id", "points"))
    assert pair == {user.pk: 0, bob.pk: 0}
    # Against the bots alice's net is what the hands' entries say, and the day tallies agree.
    bots = sum(
        PairBalance.objects.filter(user=user, other__isnull=True).values_list("points", flat=True)
    )
    signed = sum(
        e.points if e.payee_id == user.pk else -e.points
        for e in Entry.objects.filter(kind="hand")
        if user.pk in (e.payer_id, e.payee_id)
    )
    assert bots == signed
    assert sum(DayTally.objects.filter(user=user).values_list("bots", flat=True)) == signed
    assert sum(DayTally.objects.filter(user=user).values_list("hands", flat=True)) == 3


def test_a_changed_total_is_found(busy_book: None) -> None:
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE ledger_pairbalance SET points = points + 1 WHERE other_id IS NOT NULL"
        )
    with pytest.raises(CommandError, match="differ"):
        verify()


def test_an_entry_written_around_the_services_is_found(
    busy_book: None, user: Any, bob: Any
) -> None:
    Entry.objects.create(kind="correction", payer=bob, payee=user, points=4, note="raw")
    with pytest.raises(CommandError):
        verify()
