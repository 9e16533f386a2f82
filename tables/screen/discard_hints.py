"""What each discard would leave me waiting on: the engine's 听牌 hints, asked once per tile.

On my turn I hold a tile more than a waiting hand; for every kind I might discard, the hand
without it (that tile now in my river, so it is no longer counted as unseen) goes through
:func:`engine.play.hints.hints_after_discard`, the same judgement the 听牌 line under my hand
uses. The page shows the answer when a tile is lifted; no rule is judged in JavaScript.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from engine.play.hints import Hints, hints_after_discard, turn_distance
from engine.tiles import format_tile
from engine.views import SeatInfo
from tables.screen.tiles import tile_label

__all__ = ["discard_waits", "waits_text"]


def waits_text(h: Hints) -> str:
    """The waits of a ready hand in words, e.g. "Waits on 三万 (2 left), 六万 (4 left)"."""
    if h.any_tile:
        return _("Waits on any tile (宝吊)")
    if h.too_small:
        return _("Ready, but below the minimum score")
    parts = [
        _("%(tile)s (%(n)d left)") % {"tile": tile_label(w.tile), "n": w.left} for w in h.waits
    ]
    return _("Waits on %(tiles)s") % {"tiles": ", ".join(parts)}


def discard_waits(info: SeatInfo) -> dict[str, str]:
    """Tile code → what discarding it leaves ``info``'s seat waiting on, for each discard
    after which the hand is ready (others are left out).

    >>> from engine.hand import new_hand
    >>> from engine.rules import Rules
    >>> from engine.views import seat_info
    >>> waits = discard_waits(seat_info(new_hand(Rules(), dealer=0, seed=1), 0))
    >>> all(text.startswith(("Waits", "Ready")) for text in waits.values())
    True
    """
    seat = info.seat
    if seat is None:
        return {}
    away = turn_distance(info)
    if away is not None and away > 0:
        return {}  # no discard leaves the hand ready: most turns, known in one count
    out: dict[str, str] = {}
    for kind in sorted(set(info.hand)):
        h = hints_after_discard(info, kind)
        if h is not None and h.distance == 0:
            out[format_tile(kind)] = waits_text(h)
    return out
