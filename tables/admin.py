from __future__ import annotations

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from tables import notify, services
from tables.models import Hand, Room, Seat, Transfer


class SeatInline(admin.TabularInline):  # type: ignore[type-arg]
    model = Seat
    extra = 0
    max_num = 4


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
            services.close_room(room)
            notify.table_changed(room.number)
        self.message_user(request, _("Closed %(n)d rooms.") % {"n": len(queryset)})


class TransferInline(admin.TabularInline):  # type: ignore[type-arg]
    model = Transfer
    extra = 0


@admin.register(Hand)
class HandAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("room", "number", "dealer", "started_at", "ended_at")
    search_fields = ("room__number",)
    exclude = ("seed",)  # secret
    inlines = (TransferInline,)


@admin.register(Transfer)
class TransferAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("hand", "payer", "payee", "points", "reason")
    search_fields = ("hand__room__number",)
