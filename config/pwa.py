"""The installable app: the service worker (at the site's root, so its scope is every page)
and the offline page it shows when the network is gone."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET

# What the worker keeps from its install on: the offline page and what it needs to draw.
PRECACHE = ("css/site.css", "icons/icon.svg", "icons/icon-192.png")


@require_GET
@cache_control(no_cache=True)  # a new deploy's worker (new hashed names) is picked up at once
def service_worker(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "pwa/sw.js",
        {"precache": PRECACHE},
        content_type="application/javascript; charset=utf-8",
    )


@require_GET
def offline(request: HttpRequest) -> HttpResponse:
    return render(request, "pwa/offline.html")
