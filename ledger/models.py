"""The 算子 book: one append-only table of entries, and the settle-up claims that feed it.

HackSoft style: no logic here beyond field definitions; writes live in ``ledger.services``.
Entries are never changed or removed: the database's own triggers refuse UPDATE and DELETE on
``ledger_entry`` (``ledger.triggers``), and every user and hand an entry names is PROTECTed.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tables.models import Hand, Match, Room


class Entry(models.Model):
    """One payment: ``payer`` gave ``payee`` ``points``. A user of None is a bot seat of
    ``room`` (only in a hand), shown as that room's bot and never merged with a person."""

    class Kind(models.TextChoices):
        HAND = "hand", _("hand")
        CORRECTION = "correction", _("correction")
        SETTLEMENT = "settlement", _("settlement")

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


class SettlementClaim(models.Model):
    """结账: ``payer`` paid ``payee`` ``points`` in real life, as one of them recorded it.

    Only once the other confirms does it become a ``settlement`` :class:`Entry`.
    """

    class Status(models.TextChoices):
        PROPOSED = "proposed", _("awaiting an answer")
        CONFIRMED = "confirmed", _("confirmed")
        DISPUTED = "disputed", _("disputed")

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

    class Meta:
        ordering = ("-created_at", "-id")
        verbose_name = _("settle-up claim")
        verbose_name_plural = _("settle-up claims")
        constraints = (
            models.CheckConstraint(condition=models.Q(points__gt=0), name="claim_points_positive"),
            models.CheckConstraint(
                condition=~models.Q(payer=models.F("payee")), name="claim_two_people"
            ),
        )

    def __str__(self) -> str:
        return f"{self.payer_id}->{self.payee_id} {self.points} ({self.status})"
