"""The book's rows: people are PROTECTed, points are positive, a hand entry names its hand."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import IntegrityError, transaction
from django.db.models import ProtectedError

from ledger.models import Entry, SettlementClaim
from tests.tables.factories import start_with_bots


def test_a_user_with_entries_cannot_be_deleted(user: Any, bob: Any, staff: Any) -> None:
    Entry.objects.create(
        kind=Entry.Kind.CORRECTION, payer=user, payee=bob, points=3, note="x", recorded_by=staff
    )
    for who in (user, bob, staff):
        with pytest.raises(ProtectedError), transaction.atomic():
            who.delete()
    # Deactivated instead: the name stays on the entry.
    user.is_active = False
    user.save()
    assert str(Entry.objects.get().payer) == "alice"


def test_a_hand_with_entries_cannot_be_deleted(user: Any) -> None:
    room = start_with_bots(user)
    hand = room.hands.get()
    Entry.objects.create(
        kind=Entry.Kind.HAND,
        hand=hand,
        payer=user,
        payer_seat=0,
        payee_seat=1,
        points=2,
        reason="self_draw",
    )
    with pytest.raises(ProtectedError), transaction.atomic():
        hand.delete()


@pytest.mark.parametrize(
    "fields",
    [
        {"kind": "hand", "points": 1},  # a hand entry without its hand
        {"kind": "correction", "points": 0},
        {"kind": "settlement", "points": 5, "payee": None},  # only hands have bot seats
    ],
)
def test_the_database_refuses_malformed_entries(
    user: Any, bob: Any, fields: dict[str, Any]
) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        Entry.objects.create(**{"payer": user, "payee": bob, **fields})


def test_a_claim_is_between_two_people(user: Any) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        SettlementClaim.objects.create(payer=user, payee=user, points=1, recorded_by=user)
