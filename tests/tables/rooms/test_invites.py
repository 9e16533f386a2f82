"""tables.rooms.invites: the invite link's QR code and the seat it offers."""

from __future__ import annotations

from typing import Any

import segno

from tables.models import Seat
from tables.rooms.invites import first_empty_seat, invite_qr_svg


def test_the_qr_code_is_inline_svg_of_the_link() -> None:
    svg = str(invite_qr_svg("http://testserver/r/123456/"))
    assert svg.startswith("<svg") and svg.endswith("</svg>")
    assert "http://" not in svg  # the link is in the modules, not as text
    # segno draws the same matrix for the same data: the picture is the link's code.
    expected = segno.make("http://testserver/r/123456/", error="m", micro=False)
    assert svg == expected.svg_inline(scale=4, border=2, dark="#1f2421")


def test_the_first_empty_seat_is_the_lowest_free_one(user: Any) -> None:
    seats = [Seat(index=0, user=user), Seat(index=1, bot="basic"), Seat(index=2), Seat(index=3)]
    assert first_empty_seat(seats) is seats[2]
    assert first_empty_seat(seats[:2]) is None
