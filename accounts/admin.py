from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.db.models import Q, QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from ledger.models import Entry


def _has_a_record(user: User) -> bool:
    """Named in the book, owner of a room (its hands would go with it), in a 解散 vote, or in
    the staff audit log: such a player is deactivated, never deleted."""
    from tables.models import AuditEntry, DissolveAnswer, DissolveVote, Room

    return (
        Entry.objects.filter(Q(payer=user) | Q(payee=user)).exists()
        or Room.objects.filter(owner=user).exists()
        or DissolveVote.objects.filter(proposer=user).exists()
        or DissolveAnswer.objects.filter(user=user).exists()
        or AuditEntry.objects.filter(staff=user).exists()
    )


@admin.register(User)
class UserAdmin(BaseUserAdmin):  # type: ignore[type-arg]
    """Players are deactivated, not deleted: the book names them on every entry for good."""

    fieldsets = (
        *(BaseUserAdmin.fieldsets or ()),
        (_("Player"), {"fields": ("display_name",)}),
    )
    list_display = ("username", "display_name", "is_staff", "is_active", "date_joined")
    search_fields = ("username", "display_name")
    actions = ("deactivate_users",)

    def get_actions(self, request: HttpRequest) -> dict[str, Any]:
        actions = super().get_actions(request)
        actions.pop("delete_selected", None)
        return actions

    def has_delete_permission(self, request: HttpRequest, obj: User | None = None) -> bool:
        if obj is not None and _has_a_record(obj):
            return False
        return super().has_delete_permission(request, obj)

    @admin.action(description=_("Deactivate the selected players (they keep their entries)"))
    def deactivate_users(self, request: HttpRequest, queryset: QuerySet[User]) -> None:
        n = queryset.update(is_active=False)
        self.message_user(request, _("Deactivated %(n)d players.") % {"n": n})
