"""Site-level views."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def home(request: HttpRequest) -> HttpResponse:
    """The welcome page; the lobby at "/" shows it to visitors who are not logged in."""
    return render(request, "home.html")
