"""Writes to the 算子 book: a hand's payments, staff corrections, and settling up (结账).

Every write appends :class:`~ledger.models.Entry` rows; nothing here (or anywhere) changes one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from django.utils import timezone

from accounts.models import User
from ledger.models import Entry
from tables.models import Hand

__all__ = ["LedgerError", "hand_entries_create"]

NOTE_MAX_LENGTH = 200


class LedgerError(ValueError):
    """A refused write; the message is for the person who tried, and nothing was written."""


def hand_entries_create(
    *,
    hand: Hand,
    users: Sequence[User | None],
    transfers: Sequence[Mapping[str, Any]],
    now: datetime | None = None,
) -> list[Entry]:
    """Book a finished hand: one ``hand`` entry per engine transfer (``users[seat]`` is the
    seat's player, None for a bot). Called inside the transaction that ends the hand.

    A transfer of nothing, or from a seat to itself, moves no points and gets no entry; the
    rest are payer → payee, so a hand's entries always sum to zero.
    """
    at = now or timezone.now()
    return Entry.objects.bulk_create(
        Entry(
            kind=Entry.Kind.HAND,
            payer=users[t["payer"]],
            payee=users[t["payee"]],
            payer_seat=t["payer"],
            payee_seat=t["payee"],
            points=t["points"],
            hand=hand,
            match_id=hand.match_id,
            room_id=hand.room_id,
            reason=t["reason"],
            created_at=at,
        )
        for t in transfers
        if t["points"] > 0 and t["payer"] != t["payee"]
    )
