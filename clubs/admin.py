from __future__ import annotations

from django.contrib import admin

from clubs.models import AuditEntry, Club, Membership, OfflineHand


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("number", "name", "owner", "join_mode", "created_at")
    search_fields = ("number", "name")


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("club", "user", "role", "status", "muted")
    list_filter = ("role", "status")


@admin.register(AuditEntry)
class AuditEntryAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    """Read-only: the audit is only ever added to."""

    list_display = ("created_at", "club", "actor", "action", "target", "reason")

    def has_change_permission(self, request: object, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: object, obj: object = None) -> bool:
        return False


@admin.register(OfflineHand)
class OfflineHandAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("created_at", "club", "name", "score", "status")
    list_filter = ("status",)
