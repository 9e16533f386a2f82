"""Melds and tile strings from the engine's views, as a page shows them.

The engine's views give a meld as ``{"kind": "peng", "tiles": "555m"}`` (``tiles`` None for
a 暗杠 others see face down) and a hand as text. A page wants tile codes it can draw and a
meld's name in its language: the boards, the settlement and the replay all read them here.

>>> rows = [{"kind": "angang", "tiles": None}, {"kind": "peng", "tiles": "555m"}]
>>> [m.tiles for m in melds_view(rows)]
[None, ['5m', '5m', '5m']]
>>> tile_codes("123m")
['1m', '2m', '3m']
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from engine.tiles import format_tile, parse_tiles

__all__ = ["MELD_LABELS", "MeldView", "meld_label", "melds_view", "tile_codes"]

MELD_LABELS = {
    "chi": gettext_noop("Chi"),
    "peng": gettext_noop("Pong"),
    "minggang": gettext_noop("Exposed kong"),
    "bugang": gettext_noop("Added kong"),
    "angang": gettext_noop("Concealed kong"),
    "liangbao": gettext_noop("Bao kong"),
}
"""Translated when shown, one at a time: every change labels every meld on the table."""


@dataclass
class MeldView:
    kind: str
    label: str
    tiles: list[str] | None
    """None for a face-down 暗杠: four backs."""


def meld_label(kind: str) -> str:
    """A meld's (or a kong's) name in the active language; an unknown kind as it is."""
    label = MELD_LABELS.get(kind)
    return kind if label is None else _(label)


def tile_codes(text: str) -> list[str]:
    """The tiles of ``text`` ("123m5z") as one code each; none for ""."""
    return [format_tile(k) for k in parse_tiles(text)] if text else []


def melds_view(rows: list[dict[str, Any]]) -> list[MeldView]:
    """A seat's melds as its engine view lists them."""
    return [
        MeldView(
            kind=m["kind"],
            label=meld_label(m["kind"]),
            tiles=None if m["tiles"] is None else tile_codes(m["tiles"]),
        )
        for m in rows
    ]
