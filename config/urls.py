"""Root URL configuration."""

from __future__ import annotations

from django.contrib import admin
from django.urls import URLPattern, URLResolver, include, path

from config import pwa

urlpatterns: list[URLPattern | URLResolver] = [
    path("admin/", admin.site.urls),
    path("sw.js", pwa.service_worker, name="service_worker"),
    path("offline/", pwa.offline, name="offline"),
    path("accounts/", include("accounts.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("ledger/", include("ledger.urls")),
    path("", include("tables.urls")),
]
