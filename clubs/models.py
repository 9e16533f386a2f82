"""亲友圈: a standing group of players with its members and roles, room presets, order (audit,
forbidden pairs), physical hands waiting for confirmation, and the links that put entries of
the one append-only book (``ledger.Entry``) into the club's book.

Field definitions only; writes live in ``clubs.services``, reads in ``clubs.selectors``.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledger.models import Entry, SettlementClaim


class Club(models.Model):
    class JoinMode(models.TextChoices):
        APPROVAL = "approval", _("an admin approves each request")
        AUTO = "auto", _("the invite link admits at once")

    number = models.CharField(_("club number"), max_length=6, unique=True)
    name = models.CharField(_("name"), max_length=30)
    description = models.CharField(_("description"), max_length=200, blank=True)
    colour = models.CharField(_("colour"), max_length=7, default="#1f7a4d")
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("圈主")
    )
    join_mode = models.CharField(
        _("joining"), max_length=10, choices=JoinMode.choices, default=JoinMode.APPROVAL
    )
    invite_token = models.CharField(_("invite token"), max_length=32, unique=True)
    announcement = models.CharField(_("announcement"), max_length=200, blank=True)
    point_value = models.CharField(_("value of a point"), max_length=20, blank=True)
    """Shown next to points (e.g. "1 元"); only a display, no money moves."""
    created_at = models.DateTimeField(_("created"), default=timezone.now)

    class Meta:
        verbose_name = _("club")
        verbose_name_plural = _("clubs")

    def __str__(self) -> str:
        return f"{self.number} {self.name}"


class Membership(models.Model):
    class Role(models.TextChoices):
        OWNER = "owner", _("圈主")
        ADMIN = "admin", _("管理员")
        MEMBER = "member", _("成员")

    class Status(models.TextChoices):
        PENDING = "pending", _("waiting for approval")
        ACTIVE = "active", _("member")
        SUSPENDED = "suspended", _("suspended")
        LEFT = "left", _("left")
        REMOVED = "removed", _("removed")
        REFUSED = "refused", _("refused")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="club_memberships"
    )
    role = models.CharField(_("role"), max_length=8, choices=Role.choices, default=Role.MEMBER)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.PENDING
    )
    muted = models.BooleanField(_("muted"), default=False)
    joined_at = models.DateTimeField(_("joined"), default=timezone.now)

    class Meta:
        verbose_name = _("club member")
        verbose_name_plural = _("club members")
        constraints = (models.UniqueConstraint(fields=["club", "user"], name="membership_once"),)

    def __str__(self) -> str:
        return f"{self.club_id}:{self.user_id} {self.role}/{self.status}"


class Preset(models.Model):
    """A named 玩法 admins keep: rules, 局数, turn timer; a room opens from it in one tap."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="presets")
    name = models.CharField(_("name"), max_length=40)
    rules = models.JSONField(_("rules"))
    match_length = models.PositiveSmallIntegerField(_("number of hands"), null=True, blank=True)
    turn_seconds = models.PositiveSmallIntegerField(_("seconds per turn"), default=20)

    class Meta:
        verbose_name = _("room preset")
        verbose_name_plural = _("room presets")

    def __str__(self) -> str:
        return self.name


class ForbiddenPair(models.Model):
    """禁止同桌: ``first`` and ``second`` (lower id first) never sit at one of the club's tables."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="forbidden_pairs")
    first = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    second = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")

    class Meta:
        verbose_name = _("forbidden pair")
        verbose_name_plural = _("forbidden pairs")
        constraints = (
            models.UniqueConstraint(fields=["club", "first", "second"], name="forbidden_once"),
            models.CheckConstraint(
                condition=models.Q(first__lt=models.F("second")), name="forbidden_ordered"
            ),
        )


class AuditEntry(models.Model):
    """What an admin did and why; only ever added to (``clubs.services`` never edits one)."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="audit")
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    action = models.CharField(_("action"), max_length=20)
    target = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
    )
    reason = models.CharField(_("reason"), max_length=200, blank=True)
    detail = models.CharField(_("detail"), max_length=100, blank=True)
    created_at = models.DateTimeField(_("recorded at"), default=timezone.now)

    class Meta:
        ordering = ("-created_at", "-id")
        verbose_name = _("club audit entry")
        verbose_name_plural = _("club audit entries")


class OfflineHand(models.Model):
    """A hand played on a physical table, scored by the engine from the 算分器's query; it
    reaches the book only once all four players confirmed it."""

    class Status(models.TextChoices):
        PROPOSED = "proposed", _("waiting for the players")
        CONFIRMED = "confirmed", _("confirmed")
        DISPUTED = "disputed", _("disputed")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="offline_hands")
    players = models.JSONField(_("players"))
    """The four players' user ids, seat by seat."""
    winner = models.PositiveSmallIntegerField(_("winner's seat"))
    robbed = models.PositiveSmallIntegerField(_("robbed seat"), null=True, blank=True)
    query = models.CharField(_("calculator query"), max_length=1000)
    name = models.CharField(_("hand"), max_length=100)
    score = models.PositiveIntegerField(_("score"))
    transfers = models.JSONField(_("payments"))
    """The engine's payments, ``[{payer, payee, points, reason}]`` by seat."""
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.PROPOSED
    )
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(_("recorded at"), default=timezone.now)

    class Meta:
        ordering = ("-created_at", "-id")
        verbose_name = _("physical hand")
        verbose_name_plural = _("physical hands")


class OfflineAnswer(models.Model):
    hand = models.ForeignKey(OfflineHand, on_delete=models.CASCADE, related_name="answers")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    agrees = models.BooleanField()
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = (
            models.UniqueConstraint(fields=["hand", "user"], name="offline_answer_once"),
        )


class ClubEntry(models.Model):
    """A book entry of the club outside its rooms (a physical hand's payment)."""

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="+")
    entry = models.OneToOneField(Entry, on_delete=models.PROTECT, related_name="club_link")
    offline_hand = models.ForeignKey(
        OfflineHand, on_delete=models.PROTECT, null=True, related_name="entries"
    )


class ClubClaim(models.Model):
    """A settle-up claim made from the club's 'settle the evening': its entry is the club's."""

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="+")
    claim = models.OneToOneField(
        SettlementClaim, on_delete=models.PROTECT, related_name="club_link"
    )
    since = models.DateTimeField(null=True, blank=True)
    """The start of the period it settles."""


class ClubSettleUp(models.Model):
    """The club's book was cleared: every net of the period stood at zero at ``at``."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="settle_ups")
    at = models.DateTimeField(default=timezone.now)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")


class RoomGuest(models.Model):
    """Someone a member invited to one of the club's rooms by its guest link: they see and
    may sit at that room only, not the club."""

    room = models.ForeignKey("tables.Room", on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name = _("guest of a club room")
        verbose_name_plural = _("guests of club rooms")
        constraints = (models.UniqueConstraint(fields=["room", "user"], name="room_guest_once"),)
