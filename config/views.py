"""Site-level views."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def home(request: HttpRequest) -> HttpResponse:
    """Placeholder home page until the lobby takes over "/"."""
    return render(request, "home.html")
