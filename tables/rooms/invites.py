"""Invite links: the room's address as a QR code, and the first seat a friend can take.

The QR code is drawn on the server by segno as inline SVG (no script, no image request), so
a phone at the table can show it to the friend sitting next to it.
"""

from __future__ import annotations

import segno
from django.utils.safestring import SafeString, mark_safe

from tables.models import Seat

__all__ = ["first_empty_seat", "invite_qr_svg"]

QR_SCALE = 4
QR_BORDER = 2


def invite_qr_svg(url: str) -> SafeString:
    """The invite link as an inline SVG QR code (error correction M), safe to insert.

    >>> svg = invite_qr_svg("https://example.com/r/123456/")
    >>> svg.startswith("<svg") and "<script" not in svg
    True
    """
    qr = segno.make(url, error="m", micro=False)
    # segno writes the SVG itself from the matrix; the URL is never inserted as text.
    return mark_safe(qr.svg_inline(scale=QR_SCALE, border=QR_BORDER, dark="#1f2421"))


def first_empty_seat(seats: list[Seat]) -> Seat | None:
    """The lowest-numbered seat with nobody in it: the one the invite page offers."""
    return next((s for s in seats if s.is_empty), None)
