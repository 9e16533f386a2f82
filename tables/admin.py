from __future__ import annotations

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from ledger.models import Entry
from tables import notify, services
from tables.models import Hand, Room, Seat


class SeatInline(admin.TabularInline):  # type: ignore[type-arg]
    """Seats are shown, not edited: putting someone in a seat mid-hand would show them that
    seat's concealed tiles, and seating is the players' own business (tables.services)."""

    model = Seat
    extra = 0
    max_num = 4
    can_delete = False
    fields = ("index", "user", "bot", "ready", "tuoguan", "connections")
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(Room)
class RoomAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("number", "name", "owner", "status", "is_public", "created_at")
    list_filter = ("status", "is_public")
    search_fields = ("number", "name", "owner__username")
    inlines = (SeatInline,)
    # The live state holds every concealed hand and the wall: not even admins see it here.
    exclude = ("state",)
    readonly_fields = ("status", "version", "deadline", "turn_deadline", "created_at")
    actions = ("close_rooms",)

    @admin.action(description=_("Close the selected rooms (stop their matches)"))
    def close_rooms(self, request: HttpRequest, queryset: QuerySet[Room]) -> None:
        for room in queryset:
            services.room_close(room=room)
            notify.table_changed(room.number)
        self.message_user(request, _("Closed %(n)d rooms.") % {"n": len(queryset)})


class ReadOnlyMixin:
    """The ledger is what the engine booked: admins read it, nobody edits it by hand."""

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


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
