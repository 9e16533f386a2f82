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
from ledger import tallies
from ledger.models import CLAIM_EXPIRES_AFTER, Entry, PairBalance, SettlementClaim, Sitting
from ledger.selectors import live_claims
from tables.models import Hand, Room

__all__ = [
    "LedgerError",
    "correction_create",
    "hand_entries_create",
    "offline_entries_create",
    "settlement_claim_confirm",
    "settlement_claim_create",
    "settlement_claim_dispute",
    "settlement_claims_expire",
]

CLAIM_OPEN_PER_PAIR = 3
"""Claims waiting between two people at once: enough for a mistake and its fix."""
CLAIM_POINTS_CAP = 1000
"""A claim may clear the whole balance between the two, or up to this many points beyond it."""

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
    entries = Entry.objects.bulk_create(
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
    players = {seat: u.pk for seat, u in enumerate(users) if u is not None}
    Sitting.objects.bulk_create(
        Sitting(hand=hand, seat=seat, user_id=uid) for seat, uid in players.items()
    )
    fold = _fold(entries)
    fold.hand(
        hand=hand.pk,
        match=hand.match_id,
        players=players,
        result=hand.result or {},
        nets=tallies.hand_nets((e.payer_id, e.payee_id, e.points) for e in entries),
        at=at,
    )
    tallies.write(fold)
    return entries


def offline_entries_create(
    *,
    payments: Sequence[tuple[User, User, int, str]],
    recorded_by: User,
    note: str,
    now: datetime | None = None,
) -> list[Entry]:
    """Book a hand played on a physical table, once all its players confirmed it: one
    ``offline_hand`` entry per ``(payer, payee, points, reason)`` the engine proposed."""
    at = now or timezone.now()
    with transaction.atomic():
        entries = Entry.objects.bulk_create(
            Entry(
                kind=Entry.Kind.OFFLINE_HAND,
                payer=payer,
                payee=payee,
                points=points,
                reason=reason,
                note=note,
                recorded_by=recorded_by,
                created_at=at,
            )
            for payer, payee, points, reason in payments
            if points > 0 and payer.pk != payee.pk
        )
        tallies.write(_fold(entries))
    return entries


def _fold(entries: Sequence[Entry]) -> tallies.Fold:
    fold = tallies.Fold()
    for e in entries:
        fold.entry(
            kind=e.kind,
            payer=e.payer_id,
            payee=e.payee_id,
            payer_seat=e.payer_seat,
            payee_seat=e.payee_seat,
            room=e.room_id,
            match=e.match_id,
            points=e.points,
            reason=e.reason,
            at=e.created_at,
        )
    return fold


def _entry_book(**fields: Any) -> Entry:
    """One entry and its running totals, in the caller's transaction."""
    with transaction.atomic():
        entry = Entry.objects.create(**fields)
        tallies.write(_fold([entry]))
    return entry


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
    if payer.is_guest or payee.is_guest:
        # A guest has no password yet: nobody could come back to read the correction or
        # answer it. It waits until the guest saves the account (accounts.views.claim).
        raise LedgerError(_("A guest's book is corrected once they save their account."))
    note = note.strip()
    if not note:
        raise LedgerError(_("Say why the book needs this correction."))
    return _entry_book(
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
    room: Room | None = None,
    suggested: int | None = None,
    now: datetime | None = None,
) -> SettlementClaim:
    """结账: one of the two records that ``payer`` paid ``payee`` ``points`` in real life;
    ``room`` if it pays that room's points (then the room's who-pays-whom counts it).

    It waits for the other's answer and counts in nobody's book until they confirm it. Only
    two people with entries together may settle; a pair has at most
    :data:`CLAIM_OPEN_PER_PAIR` claims waiting, and a claim is at most the balance between
    them or :data:`CLAIM_POINTS_CAP`, whichever is larger. ``suggested``: a payment a
    group's who-pays-whom proposed (a club's evening), which may run between two who never
    played each other: its points bound the claim instead of the pair's balance.
    """
    at = now or timezone.now()
    if recorded_by.pk not in (payer.pk, payee.pk):
        raise LedgerError(_("You can record only a settlement you took part in."))
    _check_payment(payer, payee, points)
    note = note.strip()
    if len(note) > NOTE_MAX_LENGTH:
        raise LedgerError(
            _("The note can be at most %(n)d characters long.") % {"n": NOTE_MAX_LENGTH}
        )
    with transaction.atomic():
        # One of the pair's two balance rows, the same whichever of them records, locked:
        # two claims recorded at once count each other.
        first, second = sorted((payer, payee), key=lambda u: u.pk)
        balance = PairBalance.objects.select_for_update().filter(user=first, other=second)
        row = balance.values_list("points", flat=True).first()
        if row is None and suggested is None:
            raise LedgerError(_("You can settle only with someone you have points with."))
        bound = max(abs(row or 0), suggested or 0, CLAIM_POINTS_CAP)
        if points > bound:
            raise LedgerError(
                _("A settlement can be at most %(n)d points between you two.") % {"n": bound}
            )
        pair = models.Q(payer=payer, payee=payee) | models.Q(payer=payee, payee=payer)
        if SettlementClaim.objects.filter(pair, live_claims(at)).count() >= CLAIM_OPEN_PER_PAIR:
            raise LedgerError(
                _("%(n)d settlements between you two already wait for an answer.")
                % {"n": CLAIM_OPEN_PER_PAIR}
            )
        return SettlementClaim.objects.create(
            payer=payer,
            payee=payee,
            points=points,
            note=note,
            recorded_by=recorded_by,
            room=room,
            created_at=at,
        )


def settlement_claims_expire(*, now: datetime | None = None) -> int:
    """Mark every claim left unanswered for :data:`CLAIM_EXPIRES_AFTER` as expired."""
    at = now or timezone.now()
    return SettlementClaim.objects.filter(
        status=SettlementClaim.Status.PROPOSED, created_at__lte=at - CLAIM_EXPIRES_AFTER
    ).update(status=SettlementClaim.Status.EXPIRED, answered_at=at)


def _claim_to_answer(claim_id: int, user: User, now: datetime) -> SettlementClaim:
    """The claim, locked, if ``user`` is the party who must answer it and it still waits."""
    claim = (
        SettlementClaim.objects.select_for_update()
        .filter(live_claims(now), pk=claim_id)
        .filter(models.Q(payer=user) | models.Q(payee=user))
        .first()
    )
    if claim is None:
        raise LedgerError(_("There is no settlement waiting for your answer."))
    if claim.recorded_by_id == user.pk:
        raise LedgerError(_("The other player confirms a settlement, not the one who recorded it."))
    return claim


def _answer(claim: SettlementClaim, user: User, status: str, at: datetime) -> None:
    claim.status = status
    claim.answered_by = user
    claim.answered_at = at


def settlement_claim_confirm(*, claim_id: int, user: User, now: datetime | None = None) -> Entry:
    """The other player confirms: the claim becomes a ``settlement`` entry in both books.

    The money went payer -> payee, so the book moves the other way: the payee's claim on
    the payer shrinks (see :class:`~ledger.models.Entry`).
    """
    at = now or timezone.now()
    with transaction.atomic():
        claim = _claim_to_answer(claim_id, user, at)
        _answer(claim, user, SettlementClaim.Status.CONFIRMED, at)
        claim.entry = _entry_book(
            kind=Entry.Kind.SETTLEMENT,
            payer_id=claim.payee_id,
            payee_id=claim.payer_id,
            points=claim.points,
            note=claim.note,
            recorded_by_id=claim.recorded_by_id,
            room_id=claim.room_id,
            created_at=at,
        )
        claim.save(update_fields=["status", "answered_by", "answered_at", "entry"])
        return claim.entry


def settlement_claim_dispute(
    *, claim_id: int, user: User, now: datetime | None = None
) -> SettlementClaim:
    """The other player says it did not happen so: the claim stays out of the book."""
    at = now or timezone.now()
    with transaction.atomic():
        claim = _claim_to_answer(claim_id, user, at)
        _answer(claim, user, SettlementClaim.Status.DISPUTED, at)
        claim.save(update_fields=["status", "answered_by", "answered_at"])
        return claim
