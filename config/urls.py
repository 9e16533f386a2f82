"""Root URL configuration."""

from __future__ import annotations

import importlib.util

from django.contrib import admin
from django.urls import URLPattern, URLResolver, include, path

from config import views

urlpatterns: list[URLPattern | URLResolver] = [
    path("admin/", admin.site.urls),
    path("accounts/", include("accounts.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
]

# The tables app's routes come before the placeholder home page, so a lobby at ""
# in tables/urls.py takes over "/".
if importlib.util.find_spec("tables.urls") is not None:
    urlpatterns.append(path("", include("tables.urls")))

urlpatterns.append(path("", views.home, name="home"))
