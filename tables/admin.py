from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.html import format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext_lazy as _

from ledger.models import Entry
from tables.models import AuditEntry, DissolveAnswer, DissolveVote, Hand, Match, Room, Seat
from tables.play import events
from tables.rooms import services
from tables.screen import rule_labels

LOCKED_ONCE_STARTED = ("number", "owner", "rules")
"""A room's identity and rules: what its hands were played under, fixed from the first deal."""


def room_started(room: Room | None) -> bool:
    return room is not None and room.pk is not None and Hand.objects.filter(room=room).exists()


def rules_in_words(rules: dict[str, Any]) -> SafeString:
    summary = rule_labels.rules_summary(rules)
    rows = [(_("Rule set"), summary.profile), *summary.changes]
    return format_html_join("", "<div>{}: {}</div>", rows)


class RoomAdminForm(forms.ModelForm):  # type: ignore[type-arg]
    """Refuses, on the server, any change to a started room's number, owner or rules (the
    page shows them read-only too, but a crafted post must not get through)."""

    class Meta:
        model = Room
        exclude = ("state",)

    def clean(self) -> dict[str, Any]:
        cleaned: dict[str, Any] = super().clean() or {}
        if room_started(self.instance):
            for name in LOCKED_ONCE_STARTED:
                if name in self.changed_data:
                    self.add_error(
                        name, _("This room has started a hand: its number, owner and rules stay.")
                    )
        return cleaned


class SeatInline(admin.TabularInline):  # type: ignore[type-arg]
    """Seats are shown, not edited: putting someone in a seat mid-hand would show them that
    seat's concealed tiles, and seating is the players' own business (tables.rooms.services)."""

    model = Seat
    extra = 0
    max_num = 4
    can_delete = False
    fields = ("index", "user", "bot", "ready", "tuoguan", "connections")
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


class ReadOnlyMixin:
    """The ledger is what the engine booked: admins read it, nobody edits it by hand."""

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


class ReadOnlyInline(ReadOnlyMixin, admin.TabularInline):  # type: ignore[type-arg]
    extra = 0


class AuditInline(ReadOnlyInline):
    model = AuditEntry
    fields = ("created_at", "staff", "action", "detail", "reason")


class DissolveAnswerInline(ReadOnlyInline):
    model = DissolveAnswer
    fields = ("seat", "user", "agree", "how", "created_at")


@admin.register(Room)
class RoomAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("number", "name", "owner", "status", "is_public", "created_at")
    list_filter = ("status", "is_public")
    search_fields = ("number", "name", "owner__username")
    inlines = (SeatInline, AuditInline)
    form = RoomAdminForm
    # The live state holds every concealed hand and the wall: not even admins see it here.
    exclude = ("state",)
    readonly_fields = (
        "rules_words",
        "status",
        "version",
        "deadline",
        "turn_deadline",
        "moved_at",
        "created_at",
    )
    actions = ("close_rooms",)

    @admin.display(description=_("rules"))
    def rules_words(self, obj: Room) -> SafeString:
        return rules_in_words(obj.rules) if obj.rules else SafeString("")

    def get_readonly_fields(self, request: HttpRequest, obj: Room | None = None) -> tuple[str, ...]:
        fields = tuple(super().get_readonly_fields(request, obj))
        return LOCKED_ONCE_STARTED + fields if room_started(obj) else fields

    def get_exclude(self, request: HttpRequest, obj: Room | None = None) -> tuple[str, ...]:
        # Started: the rules are shown in words only; before, the raw JSON may be edited too.
        return ("state", "rules") if room_started(obj) else ("state",)

    @admin.action(description=_("Close the selected rooms (stop their matches)"))
    def close_rooms(self, request: HttpRequest, queryset: QuerySet[Room]) -> None:
        for room in queryset:
            services.room_close(room=room)
            events.table_changed(room.number)
        self.message_user(request, _("Closed %(n)d rooms.") % {"n": len(queryset)})


class EntryInline(ReadOnlyMixin, admin.TabularInline):  # type: ignore[type-arg]
    model = Entry
    fk_name = "hand"
    extra = 0
    fields = ("payer_seat", "payer", "payee_seat", "payee", "points", "reason")


@admin.register(Hand)
class HandAdmin(ReadOnlyMixin, admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("room", "number", "dealer", "started_at", "ended_at")
    search_fields = ("room__number",)
    inlines = (EntryInline,)

    def get_fields(  # type: ignore[override]
        self, request: HttpRequest, obj: Hand | None = None
    ) -> list[str]:
        # The seed is secret for good; the action log of a hand still in play shows what
        # players drew (and a face-down 暗杠), so it appears only once the hand has ended.
        fields = ["room", "number", "dealer", "rules", "started_at", "ended_at"]
        if obj is not None and obj.ended_at is not None:
            fields += ["actions", "result"]
        return fields


@admin.register(Match)
class MatchAdmin(ReadOnlyMixin, admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("room", "number", "started_at", "ended_at")
    search_fields = ("room__number",)
    fields = ("room", "number", "rules_words", "match_length", "started_at", "ended_at")
    readonly_fields = fields

    @admin.display(description=_("rules"))
    def rules_words(self, obj: Match) -> SafeString:
        return rules_in_words(obj.rules)


@admin.register(DissolveVote)
class DissolveVoteAdmin(ReadOnlyMixin, admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("room", "hand", "proposer", "started_at", "outcome")
    list_filter = ("outcome",)
    search_fields = ("room__number", "proposer__username")
    inlines = (DissolveAnswerInline,)


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnlyMixin, admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("created_at", "room", "staff", "action", "detail", "reason")
    list_filter = ("action",)
    search_fields = ("room__number", "staff__username", "reason")
