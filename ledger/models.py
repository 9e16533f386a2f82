"""The 算子 book: one append-only table of entries, and the settle-up claims that feed it.

HackSoft style: no logic here beyond field definitions; writes live in ``ledger.services``.
Entries are never changed or removed: the database's own triggers refuse UPDATE and DELETE on
``ledger_entry`` (``ledger.triggers``), and every user and hand an entry names is PROTECTed.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tables.models import Hand, Match, Room


class Entry(models.Model):
    """One move of points in the book: ``payer`` owes ``payee`` ``points`` more than before
    (``payee``'s balance against ``payer`` rises by ``points``, ``payer``'s falls by as much).

    Every kind means exactly that, so every reader sums entries the same way. For a hand or a
    correction the payer is who lost the points. A settlement is money paid in real life to
    clear a debt: when A pays B n, B's claim on A shrinks by n, so the entry runs from B (its
    ``payer``) to A (its ``payee``); the claim it came from keeps the real-life direction.
    A user of None is a bot seat of ``room`` (only in a hand), shown as that room's bot and
    never merged with a person."""

    class Kind(models.TextChoices):
        HAND = "hand", _("hand")
        CORRECTION = "correction", _("correction")
        SETTLEMENT = "settlement", _("settlement")
        OFFLINE_HAND = "offline_hand", _("physical hand")

    kind = models.CharField(_("kind"), max_length=12, choices=Kind.choices)
    payer = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="entries_paid",
        verbose_name=_("payer"),
    )
    payee = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="entries_received",
        verbose_name=_("payee"),
    )
    payer_seat = models.PositiveSmallIntegerField(_("payer's seat"), null=True, blank=True)
    payee_seat = models.PositiveSmallIntegerField(_("payee's seat"), null=True, blank=True)
    points = models.PositiveIntegerField(_("points"))
    hand = models.ForeignKey(
        Hand,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="entries",
        verbose_name=_("hand"),
    )
    # Denormalised from the hand so score sheets aggregate in SQL without joining hands.
    match = models.ForeignKey(
        Match,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="entries",
        verbose_name=_("match"),
    )
    room = models.ForeignKey(
        Room,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="entries",
        verbose_name=_("room"),
    )
    reason = models.CharField(_("reason"), max_length=100, blank=True)
    """In the game's terms: the engine's transfer reason (self_draw, qiang_gang, angang, sibao…)."""
    note = models.TextField(_("note"), blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="entries_recorded",
        verbose_name=_("recorded by"),
    )
    created_at = models.DateTimeField(_("recorded at"), default=timezone.now, db_index=True)

    class Meta:
        db_table = "ledger_entry"
        ordering = ("-created_at", "-id")
        verbose_name = _("book entry")
        verbose_name_plural = _("book entries")
        indexes = (
            models.Index(fields=["payer", "created_at"], name="entry_payer_created"),
            models.Index(fields=["payee", "created_at"], name="entry_payee_created"),
            models.Index(fields=["match"], name="entry_match"),
            models.Index(fields=["hand"], name="entry_hand"),
            # A pair's history, newest first, without reading either person's other entries.
            models.Index(fields=["payer", "payee", "created_at"], name="entry_pair_created"),
        )
        constraints = (
            models.CheckConstraint(condition=models.Q(points__gt=0), name="entry_points_positive"),
            models.CheckConstraint(
                condition=~models.Q(kind="hand") | models.Q(hand__isnull=False),
                name="entry_hand_has_hand",
            ),
            # Only a hand has bot seats; a correction or a settlement is between two people.
            models.CheckConstraint(
                condition=models.Q(kind="hand")
                | models.Q(payer__isnull=False, payee__isnull=False),
                name="entry_people_outside_hands",
            ),
        )

    def __str__(self) -> str:
        return f"{self.kind} {self.payer_id}->{self.payee_id} {self.points}"


CLAIM_EXPIRES_AFTER = timedelta(days=14)
"""An unanswered claim lapses after two weeks: two weekly games to answer it."""


class SettlementClaim(models.Model):
    """结账: ``payer`` paid ``payee`` ``points`` in real life, as one of them recorded it.

    Only once the other confirms does it become a ``settlement`` :class:`Entry`.
    """

    class Status(models.TextChoices):
        PROPOSED = "proposed", _("awaiting an answer")
        CONFIRMED = "confirmed", _("confirmed")
        DISPUTED = "disputed", _("disputed")
        EXPIRED = "expired", _("expired")

    payer = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="claims_paid",
        verbose_name=_("payer"),
    )
    payee = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="claims_received",
        verbose_name=_("payee"),
    )
    points = models.PositiveIntegerField(_("points"))
    note = models.CharField(_("note"), max_length=200, blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="claims_recorded",
        verbose_name=_("recorded by"),
    )
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.PROPOSED
    )
    created_at = models.DateTimeField(_("recorded at"), default=timezone.now)
    answered_at = models.DateTimeField(_("answered at"), null=True, blank=True)
    answered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="claims_answered",
        verbose_name=_("answered by"),
    )
    entry = models.OneToOneField(
        Entry,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="claim",
        verbose_name=_("book entry"),
    )
    room = models.ForeignKey(
        Room,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("room"),
    )
    """The room whose points it pays, when recorded from that room's who-pays-whom."""

    class Meta:
        ordering = ("-created_at", "-id")
        verbose_name = _("settle-up claim")
        verbose_name_plural = _("settle-up claims")
        constraints = (
            models.CheckConstraint(condition=models.Q(points__gt=0), name="claim_points_positive"),
            models.CheckConstraint(
                condition=~models.Q(payer=models.F("payee")), name="claim_two_people"
            ),
            # A confirmed claim has its one entry; no other status has one.
            models.CheckConstraint(
                condition=models.Q(status="confirmed", entry__isnull=False)
                | (~models.Q(status="confirmed") & models.Q(entry__isnull=True)),
                name="claim_entry_iff_confirmed",
            ),
        )
        indexes = (
            models.Index(fields=["payee", "status"], name="claim_payee_status"),
            models.Index(fields=["payer", "status"], name="claim_payer_status"),
        )

    def __str__(self) -> str:
        return f"{self.payer_id}->{self.payee_id} {self.points} ({self.status})"


# ---------------------------------------------------------------- running totals
# Derived from the entries (and the sittings) in the transaction that writes them, so a page
# reads a few rows however long the book is; ``manage.py ledger_verify`` recomputes them.


class Sitting(models.Model):
    """Who sat in each seat of a booked hand: the fact "hands played" is counted from."""

    hand = models.ForeignKey(Hand, on_delete=models.PROTECT, related_name="+")
    seat = models.PositiveSmallIntegerField()
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")

    class Meta:
        verbose_name = _("seat in a booked hand")
        verbose_name_plural = _("seats in booked hands")
        constraints = (models.UniqueConstraint(fields=["hand", "seat"], name="sitting_hand_seat"),)


class PairBalance(models.Model):
    """``user``'s net against one counterparty over all time: another person (``other``) or
    one room's bot seat (``room``, ``seat``)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    other = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, related_name="+"
    )
    room = models.ForeignKey(Room, on_delete=models.PROTECT, null=True, related_name="+")
    seat = models.PositiveSmallIntegerField(null=True)
    points = models.BigIntegerField(default=0)
    last_at = models.DateTimeField()

    class Meta:
        verbose_name = _("running balance")
        verbose_name_plural = _("running balances")
        constraints = (
            models.UniqueConstraint(
                fields=["user", "other"],
                condition=models.Q(other__isnull=False),
                name="pairbalance_person",
            ),
            models.UniqueConstraint(
                fields=["user", "room", "seat"],
                condition=models.Q(other__isnull=True),
                name="pairbalance_bot",
            ),
        )


class DayTally(models.Model):
    """One person's points and hand statistics on one local day in one match (``match`` None:
    the day's settlements and corrections outside any match)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    day = models.DateField()
    match = models.ForeignKey(Match, on_delete=models.PROTECT, null=True, related_name="+")
    people = models.BigIntegerField(default=0)
    """Net against people: hands, corrections and settlements."""
    bots = models.BigIntegerField(default=0)
    """Net against bot seats."""
    hand_points = models.BigIntegerField(default=0)
    gang_points = models.BigIntegerField(default=0)
    hands = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    self_draw_wins = models.PositiveIntegerField(default=0)
    robbed = models.PositiveIntegerField(default=0)
    best_points = models.BigIntegerField(default=0)
    best_hand = models.ForeignKey(Hand, on_delete=models.PROTECT, null=True, related_name="+")

    class Meta:
        verbose_name = _("day tally")
        verbose_name_plural = _("day tallies")
        constraints = (
            models.UniqueConstraint(
                fields=["user", "day", "match"],
                condition=models.Q(match__isnull=False),
                name="daytally_match",
            ),
            models.UniqueConstraint(
                fields=["user", "day"],
                condition=models.Q(match__isnull=True),
                name="daytally_outside",
            ),
        )
        indexes = (models.Index(fields=["user", "day"], name="daytally_user_day"),)


class PatternTally(models.Model):
    """How often ``user`` won a hand of this name on one day in one match."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    day = models.DateField()
    match = models.ForeignKey(Match, on_delete=models.PROTECT, null=True, related_name="+")
    name = models.CharField(max_length=100)
    count = models.PositiveIntegerField(default=0)

    class Meta:
        verbose_name = _("hand-name count")
        verbose_name_plural = _("hand-name counts")
        constraints = (
            models.UniqueConstraint(
                fields=["user", "day", "match", "name"],
                condition=models.Q(match__isnull=False),
                name="patterntally_match",
            ),
            models.UniqueConstraint(
                fields=["user", "day", "name"],
                condition=models.Q(match__isnull=True),
                name="patterntally_outside",
            ),
        )
