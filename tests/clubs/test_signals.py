"""The club hears of its claims confirmed anywhere."""

from __future__ import annotations

from typing import Any

import pytest

from clubs import services
from clubs.book import club_book
from clubs.models import Club, ClubSettleUp
from ledger import services as ledger_services

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


def test_a_club_claim_confirmed_from_the_ledgers_own_page_settles_the_club_too(
    evening: Club, four: list[Any]
) -> None:
    _a, b, c, _d = four
    since = club_book(evening, "tonight").since
    claim = services.club_claim_create(
        club=evening, by=b, payer_id=b.pk, payee_id=c.pk, points=16, since=since
    )
    ledger_services.settlement_claim_confirm(claim_id=claim.pk, user=c)
    assert ClubSettleUp.objects.filter(club=evening).count() == 1
