"""Writes to the 算子 book: a hand's payments, staff corrections, and settling up (结账).

Every write appends :class:`~ledger.models.Entry` rows; nothing here (or anywhere) changes one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from django.db import models, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from ledger.models import Entry, SettlementClaim
from tables.models import Hand

__all__ = [
    "LedgerError",
    "correction_create",
    "hand_entries_create",
    "settlement_claim_confirm",
    "settlement_claim_create",
    "settlement_claim_dispute",
]

NOTE_MAX_LENGTH = SettlementClaim._meta.get_field("note").max_length or 200


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


def _check_payment(payer: User, payee: User, points: int) -> None:
    if payer.pk == payee.pk:
        raise LedgerError(_("Points move between two different players."))
    if points <= 0:
        raise LedgerError(_("The points must be more than zero."))


def correction_create(
    *,
    staff: User,
    payer: User,
    payee: User,
    points: int,
    note: str,
    hand: Hand | None = None,
    now: datetime | None = None,
) -> Entry:
    """Staff correct the book: ``payer`` gives ``payee`` ``points``, for the reason in ``note``.

    The book is never edited; a mistake is set right by a new ``correction`` entry that both
    players see in their books, with who made it and why.
    """
    if not (staff.is_active and staff.is_staff):
        raise LedgerError(_("Only staff can correct the book."))
    _check_payment(payer, payee, points)
    note = note.strip()
    if not note:
        raise LedgerError(_("Say why the book needs this correction."))
    return Entry.objects.create(
        kind=Entry.Kind.CORRECTION,
        payer=payer,
        payee=payee,
        points=points,
        hand=hand,
        match_id=hand.match_id if hand else None,
        room_id=hand.room_id if hand else None,
        note=note,
        recorded_by=staff,
        created_at=now or timezone.now(),
    )


def settlement_claim_create(
    *,
    recorded_by: User,
    payer: User,
    payee: User,
    points: int,
    note: str = "",
    now: datetime | None = None,
) -> SettlementClaim:
    """结账: one of the two records that ``payer`` paid ``payee`` ``points`` in real life.

    It waits for the other's answer and counts in nobody's book until they confirm it.
    """
    if recorded_by.pk not in (payer.pk, payee.pk):
        raise LedgerError(_("You can record only a settlement you took part in."))
    _check_payment(payer, payee, points)
    note = note.strip()
    if len(note) > NOTE_MAX_LENGTH:
        raise LedgerError(
            _("The note can be at most %(n)d characters long.") % {"n": NOTE_MAX_LENGTH}
        )
    return SettlementClaim.objects.create(
        payer=payer,
        payee=payee,
        points=points,
        note=note,
        recorded_by=recorded_by,
        created_at=now or timezone.now(),
    )


def _claim_to_answer(claim_id: int, user: User) -> SettlementClaim:
    """The claim, locked, if ``user`` is the party who must answer it and it still waits."""
    claim = (
        SettlementClaim.objects.select_for_update()
        .filter(pk=claim_id, status=SettlementClaim.Status.PROPOSED)
        .filter(models.Q(payer=user) | models.Q(payee=user))
        .first()
    )
    if claim is None:
        raise LedgerError(_("There is no settlement waiting for your answer."))
    if claim.recorded_by_id == user.pk:
        raise LedgerError(_("The other player confirms a settlement, not the one who recorded it."))
    return claim


def _answer(claim: SettlementClaim, user: User, status: str, now: datetime | None) -> datetime:
    at = now or timezone.now()
    claim.status = status
    claim.answered_by = user
    claim.answered_at = at
    return at


def settlement_claim_confirm(*, claim_id: int, user: User, now: datetime | None = None) -> Entry:
    """The other player confirms: the claim becomes a ``settlement`` entry in both books."""
    with transaction.atomic():
        claim = _claim_to_answer(claim_id, user)
        at = _answer(claim, user, SettlementClaim.Status.CONFIRMED, now)
        claim.entry = Entry.objects.create(
            kind=Entry.Kind.SETTLEMENT,
            payer_id=claim.payer_id,
            payee_id=claim.payee_id,
            points=claim.points,
            note=claim.note,
            recorded_by_id=claim.recorded_by_id,
            created_at=at,
        )
        claim.save(update_fields=["status", "answered_by", "answered_at", "entry"])
        return claim.entry


def settlement_claim_dispute(
    *, claim_id: int, user: User, now: datetime | None = None
) -> SettlementClaim:
    """The other player says it did not happen so: the claim stays out of the book."""
    with transaction.atomic():
        claim = _claim_to_answer(claim_id, user)
        _answer(claim, user, SettlementClaim.Status.DISPUTED, now)
        claim.save(update_fields=["status", "answered_by", "answered_at"])
        return claim
