from __future__ import annotations

import pytest

from engine.melds import Meld, MeldError, parse_meld
from engine.tiles import parse_tiles


@pytest.mark.parametrize(
    ("text", "kind", "tiles"),
    [
        ("chi:123m", "chi", "123m"),
        ("chi:978s", "chi", "789s"),
        ("peng:555z", "peng", "555z"),
        ("minggang:7777p", "minggang", "7777p"),
        ("bugang:7777p", "bugang", "7777p"),
        ("angang:1111s", "angang", "1111s"),
        ("liangbao:222m", "liangbao", "222m"),
    ],
)
def test_every_meld_kind_parses(text: str, kind: str, tiles: str) -> None:
    meld = parse_meld(text)
    assert meld.kind == kind and list(meld.tiles) == parse_tiles(tiles)
    assert meld.is_gang == (kind in ("minggang", "bugang", "angang"))


@pytest.mark.parametrize(
    "text",
    [
        "chi:124m",
        "chi:123z",
        "chi:891m",
        "peng:556z",
        "angang:111s",
        "pong:111m",
        "123m",
        "peng:5x",
    ],
)
def test_bad_melds_are_refused(text: str) -> None:
    with pytest.raises(MeldError, match="bad meld"):
        parse_meld(text)


def test_json_round_trip_keeps_the_claimed_from_seat() -> None:
    meld = Meld("peng", tuple(parse_tiles("555z")), claimed_from=2)
    assert Meld.from_json(meld.to_json()) == meld
