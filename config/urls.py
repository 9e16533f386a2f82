"""Root URL configuration."""

from __future__ import annotations

from django.contrib import admin
from django.urls import URLPattern, URLResolver, include, path

urlpatterns: list[URLPattern | URLResolver] = [
    path("admin/", admin.site.urls),
    path("accounts/", include("accounts.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("ledger/", include("ledger.urls")),
    path("", include("clubs.urls")),
    path("", include("tables.urls")),
]
