"""Rooms, their seats, their matches and the hands played in them (points live in ``ledger``).

HackSoft style: no logic here beyond field definitions; writes live in ``tables.rooms.services``.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tables.fields import OrjsonField

SEATS = 4
BOT_BASIC = "basic"


TUOGUAN_AFTER_DEFAULT = 2
"""A room's default: the second timeout in a hand turns 托管 on (the first is forgiven)."""


class Room(models.Model):
    class Status(models.TextChoices):
        WAITING = "waiting", _("Waiting")
        PLAYING = "playing", _("Playing")
        FINISHED = "finished", _("Finished")

    number = models.CharField(_("room number"), max_length=6, unique=True)
    name = models.CharField(_("name"), max_length=40)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="owned_rooms",
        verbose_name=_("owner"),
    )
    is_public = models.BooleanField(_("public"), default=True)
    rules = models.JSONField(_("rules"))
    match_length = models.PositiveSmallIntegerField(_("number of hands"), null=True, blank=True)
    turn_seconds = models.PositiveSmallIntegerField(_("seconds per turn"), default=20)
    tuoguan_after = models.PositiveSmallIntegerField(
        _("timeouts before auto-play"),
        default=TUOGUAN_AFTER_DEFAULT,
        help_text=_(
            "Which timeout in a hand turns 托管 on; before it, one safe tile is played and the "
            "player warned. After 托管 is cancelled, the next timeout turns it on again."
        ),
    )
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.WAITING
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    # The live game, written only by ``tables.play.table``: the match and the current hand as the
    # engine's JSON (secret: holds every hand and the wall), bumped ``version`` on every commit.
    state = OrjsonField(null=True, blank=True)
    version = models.PositiveIntegerField(_("version"), default=0)
    deadline = models.DateTimeField(_("next due"), null=True, blank=True)
    """When something is next due at the table (a bot's move, a timer running out)."""
    turn_deadline = models.DateTimeField(_("turn ends"), null=True, blank=True)
    """When the people asked to act now run out of time (shown as the countdown)."""
    moved_at = models.DateTimeField(_("last move"), null=True, blank=True)
    """When the table last moved on (a move, a deal): the staff desk shows how long ago."""
    club = models.ForeignKey(
        "clubs.Club",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="rooms",
        verbose_name=_("club"),
    )
    """A 亲友圈's room: only its members (and those seated) see it (``clubs.selectors``)."""

    class Meta:
        ordering = ("-created_at",)
        verbose_name = _("room")
        verbose_name_plural = _("rooms")

    def __str__(self) -> str:
        return f"{self.number} {self.name}"


SEAT_WINDS = (_("East"), _("South"), _("West"), _("North"))
"""Seats by their place at the table, 0 to 3: the names bots go by."""


def bot_name(index: int) -> str:
    """A bot is named by its seat (机器人·东 …), so four bots read apart."""
    return str(_("Bot·%(seat)s") % {"seat": SEAT_WINDS[index % 4]})


class Seat(models.Model):
    room = models.ForeignKey(
        Room, on_delete=models.CASCADE, related_name="seats", verbose_name=_("room")
    )
    index = models.PositiveSmallIntegerField(_("seat"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="seats",
        verbose_name=_("player"),
    )
    bot = models.CharField(_("bot"), max_length=20, blank=True, default="")
    ready = models.BooleanField(_("ready"), default=False)

    class TuoguanReason(models.TextChoices):
        MANUAL = "manual", _("Turned on by the player")
        TIMEOUT = "timeout", _("Time ran out")
        DISCONNECTED = "disconnected", _("Disconnected")
        LEFT = "left", _("Left the table")

    tuoguan = models.BooleanField(_("auto-play"), default=False)
    """托管: the engine's bot plays this seat until the player takes control back."""
    tuoguan_reason = models.CharField(
        _("auto-play reason"),
        max_length=12,
        choices=TuoguanReason.choices,
        blank=True,
        default="",
    )
    """Why the seat is on 托管 (empty when it is not): the page names it in its banner."""
    timeouts = models.PositiveSmallIntegerField(_("timeouts this hand"), default=0)
    """Turns the clock played for this seat in the hand in play (``Room.tuoguan_after``)."""
    connections = models.PositiveSmallIntegerField(_("open pages"), default=0)
    """Open table pages of this seat's player (two tabs count twice)."""
    disconnected_at = models.DateTimeField(null=True, blank=True)
    """When the last open page of this seat closed; None while connected."""
    last_seen = models.DateTimeField(null=True, blank=True)
    """The latest heartbeat of any open page: a count left behind by a crashed server goes
    stale instead of showing the player connected for ever."""

    class Meta:
        ordering = ("room", "index")
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        constraints = (
            models.UniqueConstraint(fields=["room", "index"], name="seat_room_index_unique"),
            models.CheckConstraint(condition=models.Q(index__lt=SEATS), name="seat_index_0_3"),
        )

    def __str__(self) -> str:
        return f"{self.room.number}#{self.index}"

    @property
    def bot_name(self) -> str:
        return bot_name(self.index)

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
    room = models.ForeignKey(
        Room, on_delete=models.CASCADE, related_name="hands", verbose_name=_("room")
    )
    match = models.ForeignKey(
        Match,
        on_delete=models.PROTECT,
        related_name="hands",
        null=True,
        blank=True,
        verbose_name=_("match"),
    )
    """Null only for hands booked before matches were recorded and not yet migrated."""
    number = models.PositiveSmallIntegerField(_("hand number"))
    dealer = models.PositiveSmallIntegerField(_("dealer"))
    seed = models.CharField(max_length=64)  # secret until the hand has ended
    seed_hash = models.CharField(max_length=64, blank=True, default="")
    """SHA-256 of ``seed`` (hex), shown from the deal on: the commitment to the wall."""
    rules = models.JSONField(_("rules"))
    actions = models.JSONField(_("moves"), default=list)
    result = models.JSONField(_("result"), null=True, blank=True)
    started_at = models.DateTimeField(_("started"), auto_now_add=True)
    ended_at = models.DateTimeField(_("ended"), null=True, blank=True)

    class Meta:
        ordering = ("room", "number")
        verbose_name = _("hand")
        verbose_name_plural = _("hands")
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
        verbose_name = _("replay share link")
        verbose_name_plural = _("replay share links")

    def __str__(self) -> str:
        return f"{self.hand} share {self.pk}"


class DissolveVote(models.Model):
    """A 解散 vote: a seated player asked to end the match; every other person answers.

    Written once when proposed; only ``outcome`` and ``ended_at`` are filled in, once, when it
    closes. Its answers are rows of their own, never changed.
    """

    class Outcome(models.TextChoices):
        OPEN = "", _("Under way")
        PASSED = "passed", _("Passed")
        FAILED = "failed", _("Failed")

    room = models.ForeignKey(
        Room, on_delete=models.PROTECT, related_name="dissolve_votes", verbose_name=_("room")
    )
    match = models.ForeignKey(
        Match, on_delete=models.PROTECT, related_name="dissolve_votes", verbose_name=_("match")
    )
    hand = models.ForeignKey(
        Hand, on_delete=models.PROTECT, related_name="dissolve_votes", verbose_name=_("hand")
    )
    proposer = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("proposed by"),
    )
    proposer_seat = models.PositiveSmallIntegerField(_("seat"))
    started_at = models.DateTimeField(_("started"), default=timezone.now)
    deadline = models.DateTimeField(_("deadline"))
    outcome = models.CharField(
        _("outcome"), max_length=10, choices=Outcome.choices, default=Outcome.OPEN, blank=True
    )
    ended_at = models.DateTimeField(_("ended"), null=True, blank=True)

    class Meta:
        ordering = ("room", "started_at")
        verbose_name = _("dissolve vote")
        verbose_name_plural = _("dissolve votes")
        constraints = (
            models.UniqueConstraint(
                fields=["hand", "proposer_seat"], name="dissolve_once_per_hand_and_seat"
            ),
        )

    def __str__(self) -> str:
        return f"{self.room.number} vote {self.pk}"


class DissolveAnswer(models.Model):
    """One seat's answer to a 解散 vote: given, a bot's (agrees), or the clock's (agrees)."""

    class How(models.TextChoices):
        ANSWERED = "answered", _("Answered")
        BOT = "bot", _("Bot")
        TIMEOUT = "timeout", _("No answer in time")

    vote = models.ForeignKey(
        DissolveVote, on_delete=models.PROTECT, related_name="answers", verbose_name=_("vote")
    )
    seat = models.PositiveSmallIntegerField(_("seat"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("player"),
    )
    agree = models.BooleanField(_("agrees"))
    how = models.CharField(_("how"), max_length=10, choices=How.choices)
    created_at = models.DateTimeField(_("when"), default=timezone.now)

    class Meta:
        ordering = ("vote", "created_at", "seat")
        verbose_name = _("dissolve answer")
        verbose_name_plural = _("dissolve answers")
        constraints = (
            models.UniqueConstraint(fields=["vote", "seat"], name="dissolve_answer_once"),
        )

    def __str__(self) -> str:
        return f"{self.vote} seat {self.seat}"


class AuditEntry(models.Model):
    """What a staff member did to a running table, and why. Written once, never changed."""

    class Action(models.TextChoices):
        DISSOLVE = "dissolve", _("Dissolved the room")
        REPLACE = "replace", _("Replaced a player by a bot")
        CLOSE_HAND = "close_hand", _("Closed a stuck hand as a draw")
        REARM = "rearm", _("Re-armed the clock")

    room = models.ForeignKey(
        Room, on_delete=models.PROTECT, related_name="audit_entries", verbose_name=_("room")
    )
    staff = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("staff"),
    )
    action = models.CharField(_("action"), max_length=20, choices=Action.choices)
    reason = models.CharField(_("reason"), max_length=300)
    detail = models.CharField(_("detail"), max_length=200, blank=True)
    created_at = models.DateTimeField(_("when"), default=timezone.now, db_index=True)

    class Meta:
        ordering = ("-created_at",)
        verbose_name = _("audit entry")
        verbose_name_plural = _("audit log")

    def __str__(self) -> str:
        return f"{self.room.number} {self.action}"
