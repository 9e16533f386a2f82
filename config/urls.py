"""Root URL configuration."""

from __future__ import annotations

from django.contrib import admin
from django.templatetags.static import static
from django.urls import URLPattern, URLResolver, include, path
from django.utils.functional import lazy
from django.views.generic import RedirectView

from config import pwa

# Browsers and crawlers ask for /favicon.ico whatever the page's <link> says; a 404 there
# shows as a console error. Resolved per request: the manifest's hashed name is known only
# after collectstatic.
favicon = RedirectView.as_view(url=lazy(static, str)("icons/favicon-32.png"))


urlpatterns: list[URLPattern | URLResolver] = [
    path("favicon.ico", favicon),
    path("admin/", admin.site.urls),
    path("sw.js", pwa.service_worker, name="service_worker"),
    path("offline/", pwa.offline, name="offline"),
    path("accounts/", include("accounts.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("ledger/", include("ledger.urls")),
    path("", include("clubs.urls")),
    path("", include("tables.urls")),
]
