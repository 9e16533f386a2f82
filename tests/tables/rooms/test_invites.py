"""tables.rooms.invites: the invite link's QR code and the seat it offers."""

from __future__ import annotations

from typing import Any

from tables.models import Seat
from tables.rooms.invites import first_empty_seat, invite_qr_svg


def test_the_qr_code_is_inline_svg_of_the_link() -> None:
    svg = str(invite_qr_svg("http://testserver/r/123456/"))
    assert svg.startswith("<svg") and svg.endswith("</svg>")
    assert "http://" not in svg  # the link is in the modules, not as text
    # The picture is the link's code: the same link draws it again, another link differs.
    assert str(invite_qr_svg("http://testserver/r/123456/")) == svg
    assert str(invite_qr_svg("http://testserver/r/654321/")) != svg


def test_the_first_empty_seat_is_the_lowest_free_one(user: Any) -> None:
    seats = [Seat(index=0, user=user), Seat(index=1, bot="basic"), Seat(index=2), Seat(index=3)]
    assert first_empty_seat(seats) is seats[2]
    assert first_empty_seat(seats[:2]) is None
