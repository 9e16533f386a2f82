"""Root URL configuration."""

from __future__ import annotations

from django.contrib import admin
from django.urls import URLPattern, URLResolver, include, path

from config import views

urlpatterns: list[URLPattern | URLResolver] = [
    path("admin/", admin.site.urls),
    path("accounts/", include("accounts.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("ledger/", include("ledger.urls")),
    path("", include("tables.urls")),
    # "home" is the lobby at "/" (tables.urls matches it first); the name is what pages link to.
    path("", views.home, name="home"),
]
