"""Rooms, their seats, their matches and the hands played in them (points live in ``ledger``).

HackSoft style: no logic here beyond field definitions; writes live in ``tables.services``.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

SEATS = 4
BOT_BASIC = "basic"


class Room(models.Model):
    class Status(models.TextChoices):
        WAITING = "waiting", _("Waiting")
        PLAYING = "playing", _("Playing")
        FINISHED = "finished", _("Finished")

    number = models.CharField(_("room number"), max_length=6, unique=True)
    name = models.CharField(_("name"), max_length=40)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="owned_rooms"
    )
    is_public = models.BooleanField(_("public"), default=True)
    rules = models.JSONField(_("rules"))
    match_length = models.PositiveSmallIntegerField(_("number of hands"), null=True, blank=True)
    turn_seconds = models.PositiveSmallIntegerField(_("seconds per turn"), default=20)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.WAITING
    )
    created_at = models.DateTimeField(auto_now_add=True)
    # The live game, written only by ``tables.table``: the match and the current hand as the
    # engine's JSON (secret: holds every hand and the wall), bumped ``version`` on every commit.
    state = models.JSONField(null=True, blank=True)
    version = models.PositiveIntegerField(default=0)
    deadline = models.DateTimeField(null=True, blank=True)
    """When something is next due at the table (a bot's move, a timer running out)."""
    turn_deadline = models.DateTimeField(null=True, blank=True)
    """When the people asked to act now run out of time (shown as the countdown)."""

    class Meta:
        ordering = ("-created_at",)

    def __str__(self) -> str:
        return f"{self.number} {self.name}"


class Seat(models.Model):
    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="seats",
    )
    bot = models.CharField(max_length=20, blank=True, default="")
    ready = models.BooleanField(default=False)

    class TuoguanReason(models.TextChoices):
        MANUAL = "manual", _("Turned on by the player")
        TIMEOUT = "timeout", _("Time ran out")
        DISCONNECTED = "disconnected", _("Disconnected")
        LEFT = "left", _("Left the table")

    tuoguan = models.BooleanField(default=False)
    """托管: the engine's bot plays this seat until the player takes control back."""
    tuoguan_reason = models.CharField(
        max_length=12, choices=TuoguanReason.choices, blank=True, default=""
    )
    """Why the seat is on 托管 (empty when it is not): the page names it in its banner."""
    connections = models.PositiveSmallIntegerField(default=0)
    """Open table pages of this seat's player (two tabs count twice)."""
    disconnected_at = models.DateTimeField(null=True, blank=True)
    """When the last open page of this seat closed; None while connected."""
    last_seen = models.DateTimeField(null=True, blank=True)
    """The latest heartbeat of any open page: a count left behind by a crashed server goes
    stale instead of showing the player connected for ever."""

    class Meta:
        ordering = ("room", "index")
        constraints = (
            models.UniqueConstraint(fields=["room", "index"], name="seat_room_index_unique"),
            models.CheckConstraint(condition=models.Q(index__lt=SEATS), name="seat_index_0_3"),
        )

    def __str__(self) -> str:
        return f"{self.room.number}#{self.index}"

    @property
    def is_empty(self) -> bool:
        return self.user_id is None and not self.bot


class Match(models.Model):
    """One match played in a room: a room can hold several in a row, each scored from zero."""

    room = models.ForeignKey(
        Room, on_delete=models.PROTECT, related_name="matches", verbose_name=_("room")
    )
    number = models.PositiveSmallIntegerField(_("match number"))
    rules = models.JSONField(_("rules"))
    match_length = models.PositiveSmallIntegerField(_("number of hands"), null=True, blank=True)
    started_at = models.DateTimeField(_("started"), default=timezone.now)
    ended_at = models.DateTimeField(_("ended"), null=True, blank=True)

    class Meta:
        ordering = ("room", "number")
        verbose_name = _("match")
        verbose_name_plural = _("matches")
        constraints = (
            models.UniqueConstraint(fields=["room", "number"], name="match_room_number_unique"),
        )

    def __str__(self) -> str:
        return f"{self.room.number} match {self.number}"


class Hand(models.Model):
    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="hands")
    match = models.ForeignKey(
        Match, on_delete=models.PROTECT, related_name="hands", null=True, blank=True
    )
    """Null only for hands booked before matches were recorded and not yet migrated."""
    number = models.PositiveSmallIntegerField()
    dealer = models.PositiveSmallIntegerField()
    seed = models.CharField(max_length=64)  # secret until the hand has ended
    seed_hash = models.CharField(max_length=64, blank=True, default="")
    """SHA-256 of ``seed`` (hex), shown from the deal on: the commitment to the wall."""
    rules = models.JSONField()
    actions = models.JSONField(default=list)
    result = models.JSONField(null=True, blank=True)
    started_at = models.DateTimeField(auto_now_add=True)
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("room", "number")
        constraints = (
            models.UniqueConstraint(fields=["room", "number"], name="hand_room_number_unique"),
        )

    def __str__(self) -> str:
        return f"{self.room.number} hand {self.number}"


class ReplayShare(models.Model):
    """A link to a finished hand's replay that anyone may open until the room's owner revokes it.

    A row of its own rather than a token on ``Hand``: a hand may be shared several times
    (one link per group chat), revoking one link leaves the others, and who shared what and
    when stays on record after a revocation.
    """

    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="shares")
    token = models.CharField(max_length=64, unique=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="replay_shares"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("hand", "created_at")

    def __str__(self) -> str:
        return f"{self.hand} share {self.pk}"
