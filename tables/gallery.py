"""A demo page of every tile face and variant; wired to a URL in ``tables.urls``."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from engine.tiles import KIND_COUNT, TILE_NAMES_ZH, format_tile

SUITS = (("万", range(0, 9)), ("筒", range(9, 18)), ("条", range(18, 27)), ("字", range(27, 34)))


def gallery_context() -> dict[str, object]:
    """Everything the gallery template shows; also used to render it offline."""
    return {
        "suits": [
            (label, [(format_tile(k), TILE_NAMES_ZH[k]) for k in kinds]) for label, kinds in SUITS
        ],
        "all_codes": [format_tile(k) for k in range(KIND_COUNT)],
        "hand": "1239m456p567s99s2z",
        "drawn": "5z",
        "bao": "5z",
        "river": "1z9m4p7s2z3m6s8p5m",
    }


def tile_gallery(request: HttpRequest) -> HttpResponse:
    """Every face, a 14-tile hand at phone width, backs, 宝 highlight, river and melds."""
    return render(request, "tables/tile_gallery.html", gallery_context())
