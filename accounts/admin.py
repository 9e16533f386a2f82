from __future__ import annotations

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.utils.translation import gettext_lazy as _

from accounts.models import User


@admin.register(User)
class UserAdmin(BaseUserAdmin):  # type: ignore[type-arg]
    fieldsets = (
        *(BaseUserAdmin.fieldsets or ()),
        (_("Player"), {"fields": ("display_name",)}),
    )
    list_display = ("username", "display_name", "is_staff", "is_active", "date_joined")
    search_fields = ("username", "display_name")
