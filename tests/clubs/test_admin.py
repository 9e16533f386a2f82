"""The club's audit in the admin site: read, never changed or removed."""

from __future__ import annotations

from django.contrib import admin
from django.test import RequestFactory

from clubs.models import AuditEntry


def test_the_audit_cannot_be_changed_or_deleted_in_the_admin() -> None:
    model_admin = admin.site._registry[AuditEntry]
    request = RequestFactory().get("/admin/")
    assert not model_admin.has_change_permission(request)
    assert not model_admin.has_delete_permission(request)
