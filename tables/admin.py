from __future__ import annotations

from django.contrib import admin

from tables.models import Hand, Room, Seat, Transfer


class SeatInline(admin.TabularInline):  # type: ignore[type-arg]
    model = Seat
    extra = 0
    max_num = 4


@admin.register(Room)
class RoomAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("number", "name", "owner", "status", "is_public", "created_at")
    list_filter = ("status", "is_public")
    search_fields = ("number", "name")
    inlines = (SeatInline,)


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
