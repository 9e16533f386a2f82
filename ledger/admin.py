"""The book in the admin: read, never written. Corrections go through the staff form
(``ledger.views``), settlements through the players' own settle-up page."""

from __future__ import annotations

from django.contrib import admin

from ledger.models import Entry, SettlementClaim
from tables.admin import ReadOnlyMixin


class ReadOnlyAdmin(ReadOnlyMixin, admin.ModelAdmin):  # type: ignore[type-arg]
    pass


@admin.register(Entry)
class EntryAdmin(ReadOnlyAdmin):
    list_display = ("created_at", "kind", "payer", "payee", "points", "reason", "room", "hand")
    list_filter = ("kind",)
    search_fields = ("payer__username", "payee__username", "room__number", "note")
    list_select_related = ("payer", "payee", "room", "hand", "hand__room")
    date_hierarchy = "created_at"


@admin.register(SettlementClaim)
class SettlementClaimAdmin(ReadOnlyAdmin):
    list_display = ("created_at", "payer", "payee", "points", "status", "recorded_by")
    list_filter = ("status",)
    search_fields = ("payer__username", "payee__username", "note")
    list_select_related = ("payer", "payee", "recorded_by")
